// Browser benchmark of the table: the page's own work per move and the time
// from a click to the card landed, in La Belle Lucie and House in the Woods.
//
//   node bench/table/run.mjs [--moves N] [--url URL] [--web DIR] [--write]
//
// Starts `target/debug/patience serve` on a free port over a fresh database
// (or drives --url; with --web DIR the page's files come from DIR, such as
// an older web/ taken out with `git archive`, to compare before and after),
// opens each game in Debian's Chromium at 1366×800, and plays N moves
// (default 40) by clicking the first playable card, as a player would; a
// deal with no card left to click (but the one just moved) hands on to the
// next deal, up to five. For each move it reads Chromium's own counters
// (Performance.getMetrics: script, style and layout time of the page's main
// thread) before the click and after the card has landed, and the time,
// by the page's own clock, from the button's release to the moment the page
// shows the new move count with every slide finished. Prints p50 and p95 of
// both per game. No assertion: the figures are for reading, and a machine
// under load shows higher ones. With --write the figures also replace the
// table between `<!-- figures -->` and `<!-- /figures -->` in
// bench/table/README.md, with the machine's cores and load.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { launch, open, serveWebFrom } from '../../tests/e2e/lib/browser.js';
import { REPO, startServer } from '../../tests/e2e/lib/server.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const MOVES = Number(opt('--moves', 40));
const GAMES = [['la-belle-lucie', 3], ['house-in-the-woods', 1]];
const MAX_DEALS = 5;

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

async function work(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  return (m.ScriptDuration + m.RecalcStyleDuration + m.LayoutDuration) * 1000;
}

async function bench(browser, url, game, first) {
  const { context, page } = await open(browser, url, { width: 1366, height: 800 });
  if (opt('--web')) await serveWebFrom(context, opt('--web'));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const works = [], landed = [], deals = [];
  // A deal whose clicks run out before N moves hands on to the next one.
  for (let deal = first; deal < first + MAX_DEALS && works.length < MOVES; deal++) {
    deals.push(deal);
    await playDeal(page, cdp, game, deal, works, landed);
  }
  await context.close();
  return { works, landed, deals };
}

/** Plays deal `deal` by clicks until MOVES moves are measured in all or no card is left to click. */
async function playDeal(page, cdp, game, deal, works, landed) {
  await page.goto(`/play/${game}/${deal}`);
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('.board .card');
  await page.waitForFunction(() => !document.body.dataset.busy && !document.getAnimations().length);
  let last = null;
  while (works.length < MOVES) {
    const moves = Number(await page.getAttribute('#app', 'data-moves'));
    // Not the card just moved: a second click on it would try its next destination.
    const cards = await page.$$('.board .card.playable:not(.stock)');
    let card = null;
    for (const c of cards) {
      const key = `${await c.getAttribute('data-card')}`;
      if (key !== last) { card = c; last = key; break; }
    }
    if (!card) break;
    const box = await card.boundingBox();
    if (!box) break;
    await page.waitForTimeout(350); // past the double-click window of the last click
    // The page's own clock: from the release of the button (the click's
    // moment for the table) to the move shown and every slide finished.
    // Waiting happens inside the page without polling, so the figures hold
    // the page's work alone.
    await page.evaluate((n) => {
      window.benchLanded = new Promise((resolve) => {
        let t0 = null;
        window.addEventListener('pointerup', (e) => { t0 = e.timeStamp; }, { capture: true, once: true });
        const app = document.getElementById('app');
        const check = async () => {
          if (!(Number(app.dataset.moves) > n) || document.body.dataset.busy) return;
          observer.disconnect();
          await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
          resolve(performance.now() - t0);
        };
        const observer = new MutationObserver(check);
        observer.observe(app, { attributes: true, attributeFilter: ['data-moves'] });
        observer.observe(document.body, { attributes: true, attributeFilter: ['data-busy'] });
        setTimeout(() => { observer.disconnect(); resolve(null); }, 5000);
      });
    }, moves);
    const w0 = await work(cdp);
    await page.mouse.click(box.x + box.width / 2, box.y + Math.min(10, box.height / 2));
    const took = await page.evaluate(() => window.benchLanded);
    if (took === null) break; // the click made no move (a card whose only move was refused): stop here
    works.push((await work(cdp)) - w0);
    landed.push(took);
  }
}

/** Replaces the figures block of bench/table/README.md with `rows`. */
function writeReadme(rows, load) {
  const file = path.join(REPO, 'bench/table/README.md');
  const ms = (x) => `${x.toFixed(1)} ms`;
  const table = [
    `${os.cpus().length} cores, load average ${load.toFixed(1)} at the start, ${MOVES} moves a game:`,
    '',
    '| game | deals | moves | work p50 | work p95 | landed p50 | landed p95 |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.game} | ${r.dealt} | ${r.works.length} | ${ms(quantile(r.works, 0.5))} | ${ms(quantile(r.works, 0.95))} | ${ms(quantile(r.landed, 0.5))} | ${ms(quantile(r.landed, 0.95))} |`),
  ].join('\n');
  const text = fs.readFileSync(file, 'utf8');
  const [head, rest] = text.split('<!-- figures -->');
  const [, tail] = rest.split('<!-- /figures -->');
  fs.writeFileSync(file, `${head}<!-- figures -->\n${table}\n<!-- /figures -->${tail}`);
}

const load = os.loadavg()[0];
const rows = [];
const server = opt('--url') ? { url: opt('--url'), stop: async () => {} } : await startServer();
const browser = await launch();
try {
  console.log(`moves per game: up to ${MOVES}; page work = script + style + layout time of the page per move`);
  for (const [game, deal] of GAMES) {
    const { works, landed, deals } = await bench(browser, server.url, game, deal);
    const f = (x) => x.toFixed(1).padStart(6);
    const dealt = deals.length > 1 ? `deals ${deals[0]}–${deals.at(-1)}` : `deal ${deals[0]}`;
    rows.push({ game, dealt, works, landed });
    console.log(`${game.padEnd(20)} ${dealt.padEnd(9)}  moves ${String(works.length).padStart(3)}  page work p50 ${f(quantile(works, 0.5))} ms  p95 ${f(quantile(works, 0.95))} ms   click to landed p50 ${f(quantile(landed, 0.5))} ms  p95 ${f(quantile(landed, 0.95))} ms`);
  }
  if (args.includes('--write')) writeReadme(rows, load);
} finally {
  await browser.close();
  await server.stop();
}
