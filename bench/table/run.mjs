// Browser benchmark of the table: the page's own work per move and the time
// from a click to the card landed, in La Belle Lucie and House in the Woods.
//
//   node bench/table/run.mjs [--moves N] [--url URL]
//
// Starts `target/debug/patience serve` on a free port over a fresh database
// (or drives --url), opens each game in Debian's Chromium at 1366×800, and
// plays up to N moves (default 40) by clicking the first playable card, as a
// player would. For each move it reads Chromium's own counters
// (Performance.getMetrics: script, style and layout time of the page's main
// thread) before the click and after the card has landed, and the wall time
// from the click to the moment the page shows the new move count with no
// card still sliding. Prints p50 and p95 of both per game. No assertion: the
// figures are for reading, and a machine under load shows higher ones.

import { launch, open } from '../../tests/e2e/lib/browser.js';
import { startServer } from '../../tests/e2e/lib/server.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const MOVES = Number(opt('--moves', 40));
const GAMES = [['la-belle-lucie', 3], ['house-in-the-woods', 1]];

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

async function work(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  return (m.ScriptDuration + m.RecalcStyleDuration + m.LayoutDuration) * 1000;
}

async function bench(browser, url, game, deal) {
  const { context, page } = await open(browser, url, { width: 1366, height: 800 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await page.goto(`/play/${game}/${deal}`);
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('.board .card');
  const idle = () => page.waitForFunction(() => !document.body.dataset.busy && !document.querySelector('.card.moving'));
  await idle();
  const works = [], landed = [];
  let last = null;
  for (let i = 0; i < MOVES; i++) {
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
    const w0 = await work(cdp);
    const t0 = Date.now();
    await page.mouse.click(box.x + box.width / 2, box.y + Math.min(10, box.height / 2));
    try {
      await page.waitForFunction((n) => Number(document.getElementById('app').dataset.moves) > n
        && !document.body.dataset.busy && !document.querySelector('.card.moving'), moves, { timeout: 5000 });
    } catch {
      break; // the click made no move (a card whose only move was refused): stop here
    }
    landed.push(Date.now() - t0);
    works.push((await work(cdp)) - w0);
  }
  await context.close();
  return { works, landed };
}

const server = opt('--url') ? { url: opt('--url'), stop: async () => {} } : await startServer();
const browser = await launch();
try {
  console.log(`moves per game: up to ${MOVES}; page work = script + style + layout time of the page per move`);
  for (const [game, deal] of GAMES) {
    const { works, landed } = await bench(browser, server.url, game, deal);
    const f = (x) => x.toFixed(1).padStart(6);
    console.log(`${game.padEnd(20)} deal ${deal}  moves ${String(works.length).padStart(3)}  page work p50 ${f(quantile(works, 0.5))} ms  p95 ${f(quantile(works, 0.95))} ms   click to landed p50 ${f(quantile(landed, 0.5))} ms  p95 ${f(quantile(landed, 0.95))} ms`);
  }
} finally {
  await browser.close();
  await server.stop();
}
