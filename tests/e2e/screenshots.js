// Screenshots of every game, to look at as a player would:
//
//   node tests/e2e/screenshots.js [--web] [game ...]
//
// saves under target/screenshots/ a desktop (1366×800) and a phone (390×844,
// touch) picture of each game's opening deal, both again in Russian, the
// phone with Large on, a mid-game position (fans grown by building, stock
// dealt) for a few, and the win screen with its celebration in flight
// (desktop and phone, English and Russian; `win` among the games asks for
// these alone), and what the solver tells the player: the status line, the
// move where the win was lost, and the solution being watched (`solver`
// asks for these alone).
// It starts its own `patience serve` (build it first: cargo build -p patience-cli).
// With --web the page's files come from web/ on disk rather than from the
// binary, so a change to the page shows without a rebuild.

import fs from 'node:fs';
import path from 'node:path';

import { launch, open, PHONE, serveWebFrom } from './lib/browser.js';
import { REPO, startServer } from './lib/server.js';
import { openDeal, serverState, settle, uidOf } from './lib/table.js';
import { playOn } from './playthrough.js';

const SHOTS = path.join(REPO, 'target/screenshots');
const DESKTOP = { width: 1366, height: 800 };
const TOUCH = { hasTouch: true, isMobile: true };
const DEAL = 1;
const LIVE = process.argv.includes('--web');
/** Games shown again after some play, and how: moves to play, stock deals first. */
const MIDGAME = {
  'la-belle-lucie': { moves: 30 },
  'house-in-the-woods': { moves: 30 },
  'blondes-and-brunettes': { moves: 40, deals: 2 },
  nivernaise: { moves: 6, deals: 5 },
  krakowski: { moves: 20, deals: 3 },
};

async function shoot(browser, url, game, name, viewport, extra, large, midgame) {
  const { context, page } = await open(browser, url, viewport, extra);
  try {
    if (LIVE) await serveWebFrom(context, path.join(REPO, 'web'));
    await page.addInitScript((on) => localStorage.setItem('patience.large', on ? '1' : '0'), large);
    await openDeal(page, game, DEAL);
    if (midgame) await playOn(page, midgame);
    const file = path.join(SHOTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    const size = await page.evaluate(() => ({
      page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
      cw: parseFloat(document.querySelector('.board').style.getPropertyValue('--cw')),
    }));
    console.log(`${name}: page ${size.page.join('×')}, card ${size.cw.toFixed(1)} px${page.errors.length ? `, errors: ${page.errors.join('; ')}` : ''}`);
  } finally {
    await context.close();
  }
}

/** The win screen's game: La Belle Lucie deal 2, played by the hint to where Finish is offered. */
const WIN = { game: 'la-belle-lucie', deal: 2 };

/** The moves from WIN's opening deal to where it can finish, asked of the hint once. */
async function movesToFinish(browser, url) {
  const { context, page } = await open(browser, url, DESKTOP);
  try {
    await openDeal(page, WIN.game, WIN.deal);
    const uid = encodeURIComponent(uidOf(page));
    const moves = [];
    for (let i = 0; i < 200; i++) {
      const state = await serverState(page);
      if (state.finish) return moves;
      const hint = await (await page.request.post(`/api/play/${uid}/hint`, { data: {} })).json();
      if (!hint.move) throw new Error(`no hint: ${JSON.stringify(hint)}`);
      const res = await page.request.post(`/api/play/${uid}/move`, { data: { move: hint.move, expect: state.version } });
      if (res.status() !== 200) throw new Error(`move ${hint.move}: ${res.status()}`);
      moves.push(hint.move);
    }
    throw new Error('no finish reached');
  } finally {
    await context.close();
  }
}

/** The win screen, shot while the celebration flies. */
async function shootWin(browser, url, moves, name, viewport, extra) {
  const { context, page } = await open(browser, url, viewport, extra);
  try {
    if (LIVE) await serveWebFrom(context, path.join(REPO, 'web'));
    await openDeal(page, WIN.game, WIN.deal);
    const uid = encodeURIComponent(uidOf(page));
    for (const move of moves) {
      const state = await serverState(page);
      await page.request.post(`/api/play/${uid}/move`, { data: { move, expect: state.version } });
    }
    await page.reload();
    await page.waitForSelector('button.finish:not([hidden])');
    await page.click('button.finish');
    await page.waitForSelector('.win[data-celebrating]');
    await settle(page);
    await page.waitForTimeout(250);
    const file = path.join(SHOTS, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`${name}${page.errors.length ? `: errors: ${page.errors.join('; ')}` : ''}`);
  } finally {
    await context.close();
  }
}

/** Waits for the analysis of the game's current version to be final; its answer. */
async function analysed(page, uid) {
  let seen = '';
  for (;;) {
    const a = await (await page.request.get(`/api/play/${uid}/analysis?auto=true${seen}`)).json();
    if (a.done) return a;
    seen = `&seen=${a.seq}`;
  }
}

/** Fan deal 3: three moves of the solver's line, then a move that loses the win. */
async function losingLine(browser, url) {
  const { context, page } = await open(browser, url, DESKTOP);
  try {
    await openDeal(page, 'fan', 3);
    const uid = encodeURIComponent(uidOf(page));
    const moves = [];
    const play = async (move) => {
      const state = await serverState(page);
      return (await page.request.post(`/api/play/${uid}/move`, { data: { move, expect: state.version, auto: true } })).json();
    };
    for (let i = 0; i < 3; i++) {
      const hint = await (await page.request.post(`/api/play/${uid}/hint`, { data: { auto: true } })).json();
      await play(hint.move);
      moves.push(hint.move);
    }
    for (const m of (await serverState(page)).legal) {
      const after = await play(m.move);
      if ((await analysed(page, uid)).status === 'no-win') return [...moves, m.move];
      await page.request.post(`/api/play/${uid}/undo`, { data: { expect: after.version } });
    }
    throw new Error('no losing move found');
  } finally {
    await context.close();
  }
}

/** The status line (`win`), the lost-at message (`lost`) or a solution being watched (`watch`). */
async function shootSolver(browser, url, what, moves, name, viewport, extra) {
  const { context, page } = await open(browser, url, viewport, { ...extra, autoMove: true });
  try {
    if (LIVE) await serveWebFrom(context, path.join(REPO, 'web'));
    if (what === 'watch') await page.addInitScript(() => localStorage.setItem('patience.watchSpeed', '2'));
    await openDeal(page, what === 'watch' ? 'la-belle-lucie' : 'fan', what === 'watch' ? 2 : 3);
    const uid = encodeURIComponent(uidOf(page));
    if (what === 'lost') {
      for (const move of moves) {
        const state = await serverState(page);
        await page.request.post(`/api/play/${uid}/move`, { data: { move, expect: state.version, auto: true } });
      }
      await page.reload();
      await page.waitForSelector('.solver-status .go-back');
    } else {
      await page.waitForSelector('.solver-status[data-status="win"]', { timeout: 60_000 });
    }
    if (what === 'watch') {
      await page.evaluate(() => window.patienceTable.watch());
      await page.waitForFunction(() => Number(document.getElementById('app').dataset.moves) >= 6, null, { timeout: 60_000 });
      await page.click('.watch-pause');
      await settle(page);
    }
    const file = path.join(SHOTS, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`${name}${page.errors.length ? `: errors: ${page.errors.join('; ')}` : ''}`);
  } finally {
    await context.close();
  }
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await startServer();
  const browser = await launch();
  try {
    const all = (await (await fetch(`${server.url}/api/games`)).json()).map((g) => g.id);
    const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
    const games = wanted.length ? all.filter((g) => wanted.includes(g)) : all;
    if (!wanted.length || wanted.includes('solver')) {
      const losing = await losingLine(browser, server.url);
      for (const what of ['win', 'lost', 'watch']) {
        await shootSolver(browser, server.url, what, losing, `solver-${what}-desktop`, DESKTOP, {});
        await shootSolver(browser, server.url, what, losing, `solver-${what}-desktop-ru`, DESKTOP, { locale: 'ru-RU' });
        await shootSolver(browser, server.url, what, losing, `solver-${what}-phone`, PHONE, TOUCH);
        await shootSolver(browser, server.url, what, losing, `solver-${what}-phone-ru`, PHONE, { ...TOUCH, locale: 'ru-RU' });
      }
    }
    for (const g of games) {
      await shoot(browser, server.url, g, `${g}-desktop`, DESKTOP, {}, false);
      await shoot(browser, server.url, g, `${g}-desktop-ru`, DESKTOP, { locale: 'ru-RU' }, false);
      await shoot(browser, server.url, g, `${g}-phone`, PHONE, TOUCH, false);
      await shoot(browser, server.url, g, `${g}-phone-large`, PHONE, TOUCH, true);
      await shoot(browser, server.url, g, `${g}-phone-ru`, PHONE, { ...TOUCH, locale: 'ru-RU' }, false);
      if (MIDGAME[g]) {
        await shoot(browser, server.url, g, `${g}-midgame-desktop`, DESKTOP, {}, false, MIDGAME[g]);
        await shoot(browser, server.url, g, `${g}-midgame-phone`, PHONE, TOUCH, false, MIDGAME[g]);
      }
    }
    if (!wanted.length || wanted.includes('win')) {
      const moves = await movesToFinish(browser, server.url);
      await shootWin(browser, server.url, moves, 'win-celebrating-desktop', DESKTOP, {});
      await shootWin(browser, server.url, moves, 'win-celebrating-desktop-ru', DESKTOP, { locale: 'ru-RU' });
      await shootWin(browser, server.url, moves, 'win-celebrating-phone', PHONE, TOUCH);
      await shootWin(browser, server.url, moves, 'win-celebrating-phone-ru', PHONE, { ...TOUCH, locale: 'ru-RU' });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
