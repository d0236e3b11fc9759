// Screenshots of every game, to look at as a player would:
//
//   node tests/e2e/screenshots.js [--web] [game ...]
//
// saves under target/screenshots/ a desktop (1366×800) and a phone (390×844,
// touch) picture of each game's opening deal, the phone again with Large on
// and in Russian, and a mid-game position (fans grown by building, stock
// dealt) for a few.
// It starts its own `patience serve` (build it first: cargo build -p patience-cli).
// With --web the page's files come from web/ on disk rather than from the
// binary, so a change to the page shows without a rebuild.

import fs from 'node:fs';
import path from 'node:path';

import { launch, open, PHONE, serveWebFrom } from './lib/browser.js';
import { REPO, startServer } from './lib/server.js';
import { openDeal } from './lib/table.js';
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

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await startServer();
  const browser = await launch();
  try {
    const all = (await (await fetch(`${server.url}/api/games`)).json()).map((g) => g.id);
    const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
    const games = wanted.length ? all.filter((g) => wanted.includes(g)) : all;
    for (const g of games) {
      await shoot(browser, server.url, g, `${g}-desktop`, DESKTOP, {}, false);
      await shoot(browser, server.url, g, `${g}-phone`, PHONE, TOUCH, false);
      await shoot(browser, server.url, g, `${g}-phone-large`, PHONE, TOUCH, true);
      await shoot(browser, server.url, g, `${g}-phone-ru`, PHONE, { ...TOUCH, locale: 'ru-RU' }, false);
      if (MIDGAME[g]) {
        await shoot(browser, server.url, g, `${g}-midgame-desktop`, DESKTOP, {}, false, MIDGAME[g]);
        await shoot(browser, server.url, g, `${g}-midgame-phone`, PHONE, TOUCH, false, MIDGAME[g]);
      }
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
