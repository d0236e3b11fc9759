// Every game, through the page: open a deal, move by click and by drag, undo,
// redo, ask for a hint and follow it, reload and find the same position.
// Saves a desktop and a phone screenshot of each game under target/screenshots/.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';

import { DESKTOP, PHONE } from './lib/browser.js';
import { REPO } from './lib/server.js';
import { useSuite } from './lib/suite.js';
import {
  askHint, cardSelector, drag, grabPoint, openDeal, playable, screenPiles, serverState, settle, statePiles,
} from './lib/table.js';

const SHOTS = path.join(REPO, 'target/screenshots');
const DEAL = 5;

const suite = useSuite();
before(() => fs.mkdirSync(SHOTS, { recursive: true }));

/** The visible top-left corner of a card, where a player clicks it. */
async function clickCard(page, pile, index) {
  const p = await grabPoint(page, cardSelector(pile, index));
  await page.mouse.click(p.x, p.y);
}

async function pileCards(page, pile) {
  return page.$$eval(`.board .pile[data-pile="${pile}"] .card`, (cs) => cs.map((c) => c.dataset.card));
}

/** One card move by clicking, checked on screen. Returns false when the table offers none. */
async function clickMove(page) {
  const moves = (await serverState(page)).moves;
  const cards = await playable(page);
  if (!cards.length) return false;
  // Prefer a card with two destinations, to check that a second click moves it on.
  const pick = cards.find((c) => c.moves.length > 1) || cards[0];
  const first = pick.moves[0];
  await clickCard(page, pick.pile, pick.index);
  await settle(page, moves + 1);
  assert.ok((await pileCards(page, first.to)).includes(first.card), `${first.card} should be on ${first.to}`);
  if (pick.moves.length > 1) {
    const second = pick.moves[1];
    const at = await page.$$eval(`.board .pile[data-pile="${first.to}"] .card`,
      (cs, card) => cs.filter((c) => c.dataset.card === card).pop().dataset.index, first.card);
    await page.waitForTimeout(350); // slower than a double-click, which counts as one click
    await clickCard(page, first.to, at);
    // The first move is taken back and the second played: the count is unchanged.
    await settle(page, moves + 1);
    const diag = await page.evaluate(() => ({ moves: window.patienceTable.state.moves, status: document.querySelector('.status').textContent, cycle: window.patienceTable.cycle && window.patienceTable.cycle.at }));
    assert.ok((await pileCards(page, second.to)).includes(second.card), `a second click sends ${second.card} on to ${second.to} (${JSON.stringify(diag)}, first ${first.move}, at ${at})`);
  }
  return true;
}

async function dragMove(page) {
  const moves = (await serverState(page)).moves;
  const cards = await playable(page);
  if (!cards.length) return false;
  // Drag to the last listed destination (not the one a click would choose).
  const pick = cards[cards.length - 1];
  const mv = pick.moves[pick.moves.length - 1];
  await drag(page, pick.pile, pick.index, mv.to);
  await settle(page, moves + 1);
  assert.ok((await pileCards(page, mv.to)).includes(mv.card), `${mv.card} dragged onto ${mv.to}`);
  return true;
}

async function followHint(page, hint) {
  const moves = (await serverState(page)).moves;
  if (hint.move === 'deal') await page.click('.board .card.stock');
  else if (hint.move === 'redeal') await page.click('button.redeal');
  else {
    const cards = await playable(page);
    const src = cards.find((c) => c.moves.some((m) => m.move === hint.move));
    assert.ok(src, `the hinted move ${hint.move} is one the page offers`);
    await drag(page, src.pile, src.index, hint.to);
  }
  await settle(page, moves + 1);
}

test('every game plays in the page', async (t) => {
  assert.ok(suite.games.length >= 20, 'the catalogue lists every game');
  // PATIENCE_GAMES=id,id runs only those (while developing).
  const only = process.env.PATIENCE_GAMES?.split(',');
  for (const game of suite.games.filter((g) => !only || only.includes(g.id))) {
    await t.test(game.id, async () => {
      const { context, page } = await suite.open(DESKTOP);
      try {
        await openDeal(page, game.id, DEAL);
        let state = await serverState(page);
        assert.equal(state.game, game.id);
        assert.equal(state.deal, DEAL);
        assert.deepEqual(await screenPiles(page), statePiles(state), 'the table shows the server state');
        assert.match(await page.textContent('.deal-info'), new RegExp(`Deal ${DEAL}`));
        assert.equal(await page.getAttribute('.share', 'href'), `/play/${game.id}/${DEAL}`);

        let moved = await clickMove(page);
        if (!moved && state.legal.some((m) => m.kind === 'deal')) {
          await page.click('.board .card.stock');
          await settle(page, 1);
          moved = await clickMove(page);
        }
        assert.ok(moved, 'a card could be moved by clicking');

        const beforeDrag = await screenPiles(page);
        assert.ok(await dragMove(page), 'a card could be dragged');
        const afterDrag = await screenPiles(page);
        state = await serverState(page);

        await page.click('button.undo');
        await settle(page, state.moves - 1);
        assert.deepEqual(await screenPiles(page), beforeDrag, 'undo restores the table');
        await page.click('button.redo');
        await settle(page, state.moves);
        assert.deepEqual(await screenPiles(page), afterDrag, 'redo plays the move again');
        await page.keyboard.press('Control+z');
        await settle(page, state.moves - 1);
        await page.keyboard.press('Control+y');
        await settle(page, state.moves);

        const hint = await askHint(page);
        assert.ok(['solution', 'heuristic', 'no-win', 'none'].includes(hint.kind), `hint kind ${hint.kind}`);
        if (hint.kind === 'no-win') assert.match(hint.status, /No win is possible from here: undo a few moves/);
        if (hint.kind === 'heuristic') assert.match(hint.status, /[Hh]euristic/);
        if (hint.move) {
          if (hint.move !== 'deal' && hint.move !== 'redeal') {
            assert.equal(await page.locator('.hint-overlay .arrow').count(), 1, 'an arrow shows the hint');
          }
          await followHint(page, hint);
        }

        // Leave something to redo, then reload: the same position and history come back.
        const followed = (await serverState(page)).moves;
        await page.click('button.undo');
        await settle(page, followed - 1);
        state = await serverState(page);
        assert.equal(state.moves, followed - 1);
        const shown = await screenPiles(page);
        await page.reload();
        await page.waitForSelector('.board .pile');
        await settle(page, state.moves);
        assert.deepEqual(await screenPiles(page), shown, 'a reload shows the same position');
        assert.equal(await page.isEnabled('button.redo'), true, 'redo history survives a reload');

        await page.screenshot({ path: path.join(SHOTS, `${game.id}-desktop.png`) });
        await page.setViewportSize(PHONE);
        await page.waitForFunction((w) => document.querySelector('.board').offsetWidth <= w, PHONE.width);
        await settle(page);
        await page.screenshot({ path: path.join(SHOTS, `${game.id}-phone.png`), fullPage: true });
        assert.deepEqual(page.errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
