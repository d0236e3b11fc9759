// What the solver tells the player at the table: hints followed with
// Auto-move on win what they win without it; the live status line and the
// move where a win was lost, checked against the command line's solver;
// watching the solution wins the deal.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { useSuite } from './lib/suite.js';
import { BINARY } from './lib/server.js';
import { openDeal, serverState, settle, uidOf } from './lib/table.js';

const suite = useSuite();
const { withPage } = suite;

/** The verdict of `patience solve` on a Fan position drawn from a state (every card is face up). */
function solveFan(state) {
  const text = ['game: fan', ...state.piles.map((p) => `${p.name}: ${p.cards.map((c) => c.card).join(' ')}`)].join('\n');
  try {
    const out = execFileSync(BINARY, ['solve', 'fan', '--position', '-', '--json', '--nodes', '5000000'], { input: `${text}\n` });
    return JSON.parse(out).result;
  } catch (err) {
    // Exit 1 is "no win", 3 "unknown": the JSON is still on stdout.
    if (err.stdout?.length) return JSON.parse(err.stdout).result;
    throw err;
  }
}

const post = async (page, path, data) => {
  const res = await page.request.post(path, { data });
  assert.ok([200, 201].includes(res.status()), `${path}: ${res.status()} ${(await res.text()).slice(0, 200)}`);
  return res.json();
};

/**
 * Follows the hint through the API to the end; true when the game is won,
 * false at the first hint that is not a proven line's move.
 */
async function followByApi(page, game, deal, auto) {
  const s = await post(page, `/api/games/${game}/new`, { deal });
  let state = s;
  for (let i = 0; i < 600 && !state.won; i++) {
    const hint = await post(page, `/api/play/${s.uid}/hint`, { auto });
    if (hint.kind !== 'solution') return false;
    state = await post(page, `/api/play/${s.uid}/move`, { move: hint.move, expect: state.version, auto });
  }
  return state.won;
}

/** Follows the hint on the page (H, then Play it) to the end; true when won. */
async function followOnPage(page, game, deal) {
  await openDeal(page, game, deal);
  for (let i = 0; i < 600; i++) {
    if ((await page.getAttribute('#app', 'data-won')) === 'true') return true;
    await page.keyboard.press('h');
    await page.waitForFunction(() => document.getElementById('app').dataset.hint);
    const kind = await page.getAttribute('#app', 'data-hint');
    if (kind !== 'solution' && kind !== 'heuristic') return false;
    await page.click('.status .play-hint');
    await page.waitForFunction(() => !document.getElementById('app').dataset.hint && !document.body.dataset.busy);
    await settle(page);
  }
  return false;
}

/**
 * Fixed Easy deals of the graded library whose line the hint's search finds
 * at once, so the test takes the same time on every run and follows proven
 * lines only (a heuristic hint's game says nothing about Auto-move).
 */
const FOLLOWED = {
  'la-belle-lucie': [29, 41],
  krug: [9, 17],
  'house-in-the-woods': [5],
};

for (const [game, deals] of Object.entries(FOLLOWED)) {
  test(`${game}: following the hint with Auto-move on wins every Easy deal it wins with Auto-move off`, () => withPage(async (page) => {
    for (const deal of deals) {
      assert.equal(await followByApi(page, game, deal, false), true, `${game} deal ${deal}: the hint's line wins without Auto-move`);
      assert.equal(await followOnPage(page, game, deal), true, `${game} deal ${deal}: won without Auto-move, lost with it`);
    }
  }, undefined, { autoMove: true }));
}

test('the status line proves a win, says «no longer» after a losing move, and goes back to where the win was lost', () => withPage(async (page) => {
  const deal = 3;
  await openDeal(page, 'fan', deal);
  await page.waitForSelector('.solver-status[data-status="win"]');
  assert.equal(await page.textContent('.solver-status'), 'This deal can still be won');
  assert.equal(solveFan(await serverState(page)), 'win');
  const uid = uidOf(page);
  // Three moves of the solver's line, then a move the command line's solver shows lost.
  for (let i = 0; i < 3; i++) {
    const s = await serverState(page);
    const hint = await post(page, `/api/play/${uid}/hint`, { auto: true });
    await post(page, `/api/play/${uid}/move`, { move: hint.move, expect: s.version, auto: true });
  }
  let losing = null;
  const here = await serverState(page);
  for (const m of here.legal) {
    const s = await serverState(page);
    const after = await post(page, `/api/play/${uid}/move`, { move: m.move, expect: s.version, auto: true });
    const verdict = solveFan(after);
    await post(page, `/api/play/${uid}/undo`, { expect: after.version });
    if (verdict === 'no-win') { losing = m.move; break; }
  }
  assert.ok(losing, 'a losing move from the position after three');
  await page.reload();
  await page.waitForSelector('.board .pile');
  await settle(page, 3);
  await page.waitForSelector('.solver-status[data-status="win"]');
  await page.evaluate((m) => window.patienceTable.play(m), losing);
  await settle(page, 4);
  await page.waitForSelector('.solver-status[data-status="no-win"] .go-back');
  assert.match(await page.textContent('.solver-status'), /^This deal can no longer be won The win was lost at move 4: go back there$/);
  await page.click('.solver-status .go-back');
  await settle(page, 3);
  const back = await serverState(page);
  assert.equal(solveFan(back), 'win', 'the position gone back to has a win');
  await page.waitForSelector('.solver-status[data-status="win"]');
  // Its next move in the history (the first to redo) is the one that lost it.
  const redone = await post(page, `/api/play/${uid}/redo`, { expect: back.version });
  assert.equal(solveFan(redone), 'no-win');
}, undefined, { autoMove: true }));

test('the status line can be switched off, and stays off', () => withPage(async (page) => {
  await openDeal(page, 'fan', 5);
  await page.waitForSelector('.solver-status[data-status]');
  await page.click('.status-switch');
  assert.equal(await page.isVisible('.solver-status'), false);
  await page.reload();
  await page.waitForSelector('.board .pile');
  assert.equal(await page.isChecked('.status-switch'), false);
  assert.equal(await page.isVisible('.solver-status'), false);
}));

/**
 * One game for each thing a watched line must get through: redeals that
 * shuffle (La Belle Lucie), a draw (Three Shuffles and a Draw), redeals that
 * gather without shuffling and a stock that refills fans in two decks
 * (Novomanernaya), a stock dealt three to each pile and houses up and down
 * (Nivernaise), a stock turned onto a waste (Blondes and Brunettes),
 * foundations that wrap (Krug). Every game's solutions are replayed through
 * the engine by the Rust tests; this checks that the page plays them.
 *
 * The deals are fixed, Easy ones whose line is short enough to watch (a
 * Blondes and Brunettes line may run past 500 moves), so the test takes the
 * same time on every run; the second of each is used only when the
 * background solve leaves the first undecided on a slow machine.
 */
const WATCHED = {
  'la-belle-lucie': [895, 18],
  'three-shuffles-and-a-draw': [727, 1195],
  novomanernaya: [6111, 8709],
  nivernaise: [466, 902],
  'blondes-and-brunettes': [224, 793],
  krug: [646, 175],
};

test('watching the solution to its end wins the deal, through redeals, draws, stocks and wrapping foundations', { timeout: 900_000 }, (t) => withPage(async (page) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addInitScript(() => localStorage.setItem('patience.watchSpeed', '5'));
  let watched = 0;
  for (const [game, deals] of Object.entries(WATCHED)) {
    // The background solve finds the line; the watch plays it.
    let deal = null;
    for (const d of deals) {
      await openDeal(page, game, d);
      await page.waitForSelector('.solver-status[data-status="win"], .solver-status[data-status="unknown"]', { timeout: 60_000 });
      if ((await page.getAttribute('.solver-status', 'data-status')) === 'win') { deal = d; break; }
    }
    assert.ok(deal, `${game}: one of deals ${deals} proven winnable by the background solve`);
    await page.click('button.watch', { force: true });
    await page.waitForSelector('.watch-bar:not([hidden])');
    await page.waitForFunction(() => document.getElementById('app').dataset.won === 'true' || !document.getElementById('app').dataset.watching,
      null, { timeout: 240_000 });
    const state = await serverState(page);
    assert.equal(state.won, true, `${game} deal ${deal}: the watched solution wins (${await page.textContent('.status')})`);
    assert.equal(state.hinted, true, 'a watched game counts as won with help');
    watched += 1;
    t.diagnostic(`${game} deal ${deal}: watched to the win in ${state.moves} moves`);
  }
  assert.equal(watched, Object.keys(WATCHED).length, `${watched} games watched`);
}, undefined, { autoMove: true }));
