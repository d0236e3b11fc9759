// Another site's page cannot act for a player: a cross-site form posted from
// `localhost:OTHER` to the site at `127.0.0.1:PORT` (two origins, two sites)
// leaves the player's cookie and games as they were.

import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';

import { useSuite } from './lib/suite.js';

const suite = useSuite();

/** A one-page site on localhost: a form that posts itself to `action` on load. */
async function attackerSite(action) {
  const page = `<!doctype html><html><body>
<form id="f" method="post" enctype="text/plain" action="${action}">
<input name='{"expect": 1, "x": "' value='"}'>
</form>
<script>document.getElementById('f').submit();</script>
</body></html>`;
  const server = http.createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

async function cookieOf(context) {
  return (await context.cookies()).find((c) => c.name === 'patience_player')?.value;
}

test('a cross-site form leaves the player cookie and the games in progress as they were', async () => {
  const { context, page } = await suite.open();
  try {
    await page.goto('/');
    const uid = await page.evaluate(async () => {
      const post = (path, body) => fetch(path, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      }).then((r) => r.json());
      const state = await post('/api/games/fan/new', { deal: 3 });
      await post(`/api/play/${state.uid}/move`, { move: state.legal[0].move, expect: state.version ?? 0 });
      return state.uid;
    });
    const before = await cookieOf(context);
    assert.ok(before, 'the created game named the player');
    const inProgress = () => page.evaluate(() => fetch('/api/continue').then((r) => r.json()));
    assert.equal((await inProgress()).length, 1);

    const site = suite.server.url;
    for (const action of [`${site}/api/play/${uid}/undo`, `${site}/api/play/00000000000000000000000000000000/hint`]) {
      const attacker = await attackerSite(action);
      try {
        const evil = await context.newPage();
        const answer = evil.waitForResponse((r) => r.url() === action);
        await evil.goto(attacker.url);
        const res = await answer;
        assert.ok([403, 415].includes(res.status()), `${action}: ${res.status()}`);
        assert.equal(res.headers()['set-cookie'], undefined);
        await evil.close();
      } finally {
        await attacker.close();
      }
    }
    assert.equal(await cookieOf(context), before, 'the cookie is the same');
    const games = await inProgress();
    assert.deepEqual(games.map((g) => [g.uid, g.moves]), [[uid, 1]]);
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});

test('the site refuses to be framed by another site', async () => {
  const { context, page } = await suite.open();
  try {
    const framing = http.createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><iframe id="f" src="${suite.server.url}/"></iframe>`);
    });
    await new Promise((resolve) => framing.listen(0, '127.0.0.1', resolve));
    try {
      const blocked = new Promise((resolve) => page.on('console', (m) => {
        if (/frame-ancestors|Refused to (display|frame)/.test(m.text())) resolve(true);
      }));
      await page.goto(`http://localhost:${framing.address().port}/`);
      assert.equal(await Promise.race([blocked, new Promise((r) => setTimeout(() => r(false), 10_000))]), true);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      const framed = frame ? await frame.evaluate(() => document.querySelector('#app') !== null).catch(() => false) : false;
      assert.equal(framed, false, 'the page did not load inside the frame');
    } finally {
      await new Promise((r) => framing.close(r));
    }
  } finally {
    await context.close();
  }
});
