// The site outside the table: the deal of the day (the same for two players,
// changing with the server's date, which the test fixes with --today), a
// deal's records (a hint-free win sets one a second player sees, a hinted
// win none), the statistics charts drawn from the API's numbers, the home
// page's order, compressed answers and a repeat visit that downloads no
// static file again, and axe-core on every page outside the table in both
// languages. Screenshots of these pages go to target/screenshots/.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { DESKTOP, PHONE } from './lib/browser.js';
import { REPO, startServer } from './lib/server.js';
import { useSuite } from './lib/suite.js';

const SHOTS = path.join(REPO, 'target/screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const GAME = 'la-belle-lucie-36';

/** Moscow's date `offset` days from now, as the server's --today. */
function moscowDay(offset = 0) {
  return new Date(Date.now() + 3 * 3600_000 + offset * 86400_000).toISOString().slice(0, 10);
}
const TODAY = moscowDay();
const suite = useSuite(['--today', TODAY]);
let tomorrow = null;
before(async () => { tomorrow = await startServer(['--today', moscowDay(1)]); });
after(async () => { await tomorrow?.stop(); });

const json = async (res) => { assert.ok(res.ok(), `${res.url()}: ${res.status()}`); return res.json(); };

/** Plays `deal` of GAME through the API as the context's player, each move the hint's: the won state and its moves, or null. */
async function winByHints(request, deal) {
  let state = await json(await request.post(`/api/games/${GAME}/new`, { data: { deal } }));
  const words = [];
  for (let i = 0; i < 300 && !state.won; i++) {
    const hint = await json(await request.post(`/api/play/${state.uid}/hint`, { data: {} }));
    if (hint.kind !== 'solution') return null;
    state = await json(await request.post(`/api/play/${state.uid}/move`, { data: { move: hint.move, expect: state.version } }));
    words.push(hint.move);
  }
  return state.won ? { state, words } : null;
}

/** The moves of a stored game, replayed by another player with no hint: a hint-free win. */
async function replay(request, moves, deal) {
  let state = await json(await request.post(`/api/games/${GAME}/new`, { data: { deal } }));
  for (const move of moves) {
    state = await json(await request.post(`/api/play/${state.uid}/move`, { data: { move, expect: state.version } }));
  }
  return state;
}

test('the deal of the day is the same for two players, leads the home page, and changes with the date', async () => {
  const a = await suite.open();
  const b = await suite.open(PHONE);
  try {
    const [da, db] = [await json(await a.page.request.get('/api/daily')), await json(await b.page.request.get('/api/daily'))];
    assert.equal(da.today, TODAY);
    assert.deepEqual(da.games.map((g) => [g.game, g.deal]), db.games.map((g) => [g.game, g.deal]));
    assert.equal(da.games.length, suite.games.length, 'every game has a deal of the day');
    for (const g of da.games) assert.ok(['easy', 'medium', 'hard'].includes(g.level), `${g.game}: ${g.level}`);
    // The next day's server: another deal today, and today's deal kept as its yesterday.
    const next = await (await fetch(`${tomorrow.url}/api/daily`)).json();
    const lucie = (d) => d.games.find((g) => g.game === 'la-belle-lucie').deal;
    assert.notEqual(lucie(next), lucie(da), 'the deal changes with the date');
    const month = await (await fetch(`${tomorrow.url}/api/daily/la-belle-lucie?month=${TODAY.slice(0, 7)}`)).json();
    assert.equal(month.days.find((d) => d.day === TODAY).deal, lucie(da), 'a past day stays its deal');

    await a.page.goto('/');
    await a.page.waitForSelector('section.daily');
    const order = await a.page.$$eval('#app > *', (els) => els.map((e) => e.tagName.toLowerCase() + (e.className ? `.${e.className.split(' ')[0]}` : '')));
    assert.equal(await a.page.locator('h1').count(), 1);
    assert.deepEqual(order.slice(0, 3), ['div.home-head', 'p.intro', 'section.daily'], 'the heading, then the deal of the day');
    assert.equal(await a.page.getAttribute('.daily-play', 'href'), `/play/la-belle-lucie/${lucie(da)}`);
    assert.ok(await a.page.locator('article.game.first[data-game="la-belle-lucie"] .start-here').count(), 'La Belle Lucie marked for newcomers');
    assert.equal(await a.page.locator('section.family').count(), 5);
    fs.mkdirSync(SHOTS, { recursive: true });
    await a.page.screenshot({ path: path.join(SHOTS, 'home-desktop.png') });
    await b.page.goto('/');
    await b.page.waitForSelector('section.daily');
    const height = await b.page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 4 * 844 * 1.5, `the phone's home page is a few screens (${height} px)`);
    await b.page.screenshot({ path: path.join(SHOTS, 'home-phone.png'), fullPage: true });
    await b.page.click('a.daily-calendar');
    await b.page.waitForSelector('.calendar .day.today');
    assert.equal(await b.page.getAttribute('.calendar .day.today a', 'href'), `/play/la-belle-lucie/${lucie(da)}`);
    await b.page.screenshot({ path: path.join(SHOTS, 'daily-phone.png'), fullPage: true });
    await a.page.goto('/daily/la-belle-lucie');
    await a.page.waitForSelector('.calendar .day.today');
    await a.page.screenshot({ path: path.join(SHOTS, 'daily-desktop.png'), fullPage: true });
    assert.deepEqual(a.page.errors, []);
    assert.deepEqual(b.page.errors, []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test('a hint-free win sets a record a second player sees; a hinted win sets none; the statistics chart the API', async () => {
  const hinted = await suite.open();
  const clean = await suite.open();
  const other = await suite.open();
  try {
    let won = null, deal = 0;
    for (deal = 1; deal <= 5 && !won; deal++) won = await winByHints(hinted.page.request, deal);
    deal -= 1;
    assert.ok(won, 'one of five deals is won by following the hint');
    let records = await json(await other.page.request.get(`/api/records/${GAME}/${deal}`));
    assert.equal(won.state.hinted, true);
    assert.equal(records.winners, 0, 'a win with hints sets no record');

    // The same moves played by a second player, with no hint.
    const mine = await replay(clean.page.request, won.words, deal);
    assert.equal(mine.won, true);
    assert.equal(mine.hinted, false);
    await json(await clean.page.request.post('/api/me', { data: { name: '  Anna   & Co ' } }));
    const bad = await clean.page.request.post('/api/me', { data: { name: '<b>x</b>' } });
    assert.equal(bad.status(), 400);
    assert.equal((await bad.json()).code, 'bad_name');

    records = await json(await other.page.request.get(`/api/records/${GAME}/${deal}`));
    assert.equal(records.winners, 1);
    assert.equal(records.best_moves, mine.moves);
    assert.equal(records.top[0].name, 'Anna & Co');
    assert.equal(records.mine, null);
    await other.page.goto(`/deal/${GAME}/${deal}`);
    await other.page.waitForSelector('table.records');
    assert.equal((await other.page.textContent('table.records tbody th')).trim(), 'Anna & Co', 'the name shown as text');
    assert.match(await other.page.textContent('.records-summary'), new RegExp(`best: ${mine.moves} moves by 1 player of 1`));
    await other.page.screenshot({ path: path.join(SHOTS, 'deal-records-desktop.png'), fullPage: true });

    // The win screen of the clean winner shows the record line.
    await clean.page.goto(`/game/${mine.uid}`);
    await clean.page.waitForSelector('.win .win-record a');
    assert.match(await clean.page.textContent('.win-record'), new RegExp(`your result: ${mine.moves} moves.*best: ${mine.moves} moves by 1 player of 1; you are number 1 of 1`));
    await clean.page.screenshot({ path: path.join(SHOTS, 'win-record-desktop.png') });

    // The statistics page draws its charts from /api/stats/games.
    const rows = await json(await clean.page.request.get('/api/stats/games'));
    await clean.page.goto('/stats');
    await clean.page.waitForSelector('.chart-box[data-chart="levels"] svg');
    const levelBars = await clean.page.$$eval('.chart-box[data-chart="levels"] g.bar', (gs) => gs.map((g) => Number(g.dataset.value)));
    assert.equal(levelBars.reduce((a, b) => a + b, 0), rows.length, 'the levels chart counts every counted game');
    const todayBar = await clean.page.$$eval('.chart-box[data-chart="wins"] g.bar', (gs) => {
      const g = gs[gs.length - 1];
      return [Number(g.dataset.value), Number(g.querySelector('.bar-part').dataset.part)];
    });
    assert.deepEqual(todayBar, [rows.length, rows.filter((r) => r.won).length]);
    const times = await clean.page.$$eval('.chart-box[data-chart="times"] g.bar', (gs) => gs.map((g) => Number(g.dataset.value)));
    assert.deepEqual(times, rows.filter((r) => r.won).map((r) => Math.round(r.time_ms / 1000)));
    assert.match(await clean.page.textContent('table.stats tr[data-game="la-belle-lucie-36"] .rate'), /100%/);
    await clean.page.screenshot({ path: path.join(SHOTS, 'stats-desktop.png'), fullPage: true });
    // On a phone the charts are drawn at the screen's width: their labels
    // keep the page's size rather than shrink with the picture.
    await clean.page.setViewportSize(PHONE);
    await clean.page.reload();
    await clean.page.waitForSelector('.chart-box[data-chart="levels"] svg');
    const label = await clean.page.$eval('.chart-box[data-chart="wins"] text.axis', (t) => t.getBoundingClientRect().height);
    assert.ok(label >= 10, `a chart label on a phone is ${label} px high`);
    await clean.page.screenshot({ path: path.join(SHOTS, 'stats-phone.png'), fullPage: true });
    for (const p of [hinted, clean, other]) assert.deepEqual(p.page.errors, []);
  } finally {
    for (const p of [hinted, clean, other]) await p.context.close();
  }
});

test('answers are compressed, and a repeat visit to a table page downloads no static file again', async () => {
  for (const url of ['/', '/api/games']) {
    const res = await fetch(`${suite.server.url}${url}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.match(res.headers.get('content-encoding') || '', /^(br|gzip)$/, url);
  }
  const { context, page } = await suite.open();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const seen = [];
    const fromCache = new Set();
    cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      if (new URL(e.response.url).pathname.startsWith('/static/')) {
        seen.push({ url: e.response.url, cached: fromCache.has(e.requestId) || e.response.fromDiskCache || e.response.status === 304, encoding: e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] });
      }
    });
    await page.goto('/play/la-belle-lucie/3');
    await page.waitForSelector('.board .card');
    const first = seen.splice(0);
    assert.ok(first.length >= 5, 'the first visit loads the page files');
    for (const f of first) if (/\.(js|css|json)$/.test(f.url)) assert.match(f.encoding || '', /^(br|gzip)$/, f.url);
    await page.goto('/play/la-belle-lucie/4');
    await page.waitForSelector('.board .card');
    assert.ok(seen.length > 0);
    assert.deepEqual(seen.filter((f) => !f.cached).map((f) => f.url), [], 'every static file came from the cache');
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});

for (const lang of ['ru', 'en']) {
  test(`axe-core finds no violation on the pages outside the table (${lang})`, async () => {
    const { context, page } = await suite.open(DESKTOP, { bypassCSP: true, locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
    try {
      await page.addInitScript((l) => localStorage.setItem('patience.lang', l), lang);
      const pages = [['/', 'section.daily'], ['/rules/la-belle-lucie', '.rules .markdown'], ['/stats', '.stats-page'],
        ['/daily/fan', '.calendar'], [`/deal/${GAME}/1`, '.deal-page'], ['/winnability', '.odds-game svg']];
      for (const [url, ready] of pages) {
        await page.goto(url);
        await page.waitForSelector(ready);
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        assert.equal(await page.locator('h1').count(), 1, `${url}: one h1`);
        await page.addScriptTag({ path: AXE });
        const result = await page.evaluate(() => window.axe.run(document));
        const found = result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        assert.deepEqual(found, [], `${url} (${lang})`);
        if (url === '/winnability' || url === '/stats') await page.screenshot({ path: path.join(SHOTS, `${url.slice(1)}-${lang}-desktop.png`), fullPage: true });
      }
      const phone = await suite.open(PHONE, { locale: lang === 'ru' ? 'ru-RU' : 'en-US' });
      await phone.page.addInitScript((l) => localStorage.setItem('patience.lang', l), lang);
      for (const [url, ready, name] of [['/', 'section.daily', 'home'], ['/winnability', '.odds-game svg', 'winnability'], ['/daily/la-belle-lucie', '.calendar', 'daily']]) {
        await phone.page.goto(url);
        await phone.page.waitForSelector(ready);
        await phone.page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-phone.png`), fullPage: name !== 'winnability' });
      }
      await phone.context.close();
      assert.deepEqual(page.errors, []);
    } finally {
      await context.close();
    }
  });
}
