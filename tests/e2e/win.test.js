// A whole game won in the page by following the hint, then the win screen,
// the statistics, and undo and redo after the win. La Belle Lucie on 36 cards is short; the solver wins it.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { REPO } from './lib/server.js';
import { useSuite } from './lib/suite.js';
import { askHint, openDeal, serverState, settle } from './lib/table.js';

const GAME = 'la-belle-lucie-36';
const MAX_MOVES = 200;
const SHOTS = path.join(REPO, 'target/screenshots');

const suite = useSuite();

/** Follows the hint ("Play it") until the game is won; false if the solver gives up. */
async function followHints(page) {
  for (let i = 0; i < MAX_MOVES; i++) {
    const state = await serverState(page);
    if (state.won) return true;
    const hint = await askHint(page);
    if (hint.kind !== 'solution') return false;
    await page.click('.status button.play-hint');
    await settle(page, state.moves + 1);
  }
  return false;
}

test('following the hint wins a short game, with a win screen and statistics; undo works after it', async () => {
  const { context, page } = await suite.open();
  try {
    let won = false;
    for (const deal of [1, 2, 3, 4, 5]) {
      await openDeal(page, GAME, deal);
      if (await followHints(page)) { won = true; break; }
    }
    assert.ok(won, 'one of five deals is won by following the hint');
    const state = await serverState(page);
    assert.equal(state.won, true);
    await page.waitForSelector('.win[role="dialog"]');
    const text = await page.textContent('.win');
    assert.match(text, /You won/);
    assert.match(text, new RegExp(`${state.moves} moves`));
    assert.match(text, /\d+:\d\d/, 'the win screen shows the time');
    assert.equal(state.hinted, true, 'the server records the hints');
    assert.equal(await page.textContent('.win-hints'), 'Hints used');
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'win-desktop.png') });

    const stats = await (await page.request.get('/api/stats')).json();
    const mine = stats.find((s) => s.game === GAME);
    assert.ok(mine && mine.won >= 1 && mine.played >= 1, 'the win is counted');

    // Undo works after a win: from the win screen, then the won screen goes away.
    await page.click('.win button.win-undo');
    await settle(page, state.moves - 1);
    assert.equal(await page.locator('.win').count(), 0, 'no win screen once the position is not won');
    assert.equal((await serverState(page)).won, false);
    assert.equal(await page.getAttribute('#app', 'data-won'), 'false');
    await page.keyboard.press('Control+z');
    await settle(page, state.moves - 2);
    // Redo wins again: the win screen comes back, and the game still counts once.
    await page.click('button.redo');
    await settle(page, state.moves - 1);
    await page.click('button.redo');
    await settle(page, state.moves);
    await page.waitForSelector('.win[role="dialog"]');
    assert.equal((await serverState(page)).won, true);
    const again = (await (await page.request.get('/api/stats')).json()).find((s) => s.game === GAME);
    assert.deepEqual([again.won, again.played, again.best_moves], [mine.won, mine.played, mine.best_moves],
      'winning the same game again counts nothing new');
    // Closed, the win screen stays closed until the position changes.
    await page.click('.win button.win-close');
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.win').count(), 0, 'a resize does not bring a closed win screen back');
    await page.goto('/');
    await page.click('a.stats-link'); // the statistics, one tap from home
    await page.waitForSelector('table.stats');
    assert.match(await page.textContent('table.stats'), /La Belle Lucie/);
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});
