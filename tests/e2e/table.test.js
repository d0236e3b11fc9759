// The table as a player of the best solitaire sites expects it: clicks taken
// in order, drop targets and slides from the server's answer, automatic moves
// home and their undo, Finish and the win screen, restart (asked first, one game
// in the statistics), the keyboard's
// next destination, a disabled Redeal that says why, the server's clock.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useSuite } from './lib/suite.js';
import { PHONE } from './lib/browser.js';
import { cardSelector, grabPoint, openDeal, playable, screenPiles, serverState, settle, statePiles, uidOf } from './lib/table.js';

const suite = useSuite();

const { withPage } = suite;

const top = (state, pile) => state.piles.find((p) => p.name === pile).cards.at(-1)?.card;

test('four clicks on four cards 150 ms apart make four moves', () => withPage(async (page) => {
  let chosen = null;
  for (let deal = 1; deal <= 40 && !chosen; deal++) {
    await openDeal(page, 'la-belle-lucie', deal);
    // Four cards of four piles whose first moves touch no pile another uses.
    const cards = (await playable(page)).filter((c) => c.moves[0].to.startsWith('t') || c.moves[0].to.startsWith('f'));
    const picked = [];
    const used = new Set();
    for (const c of cards) {
      const to = c.moves[0].to;
      if (used.has(c.pile) || used.has(to)) continue;
      picked.push(c);
      used.add(c.pile).add(to);
      if (picked.length === 4) break;
    }
    if (picked.length === 4) chosen = picked;
  }
  assert.ok(chosen, 'a deal with four independent moves');
  const points = [];
  for (const c of chosen) points.push(await grabPoint(page, cardSelector(c.pile, c.index)));
  for (const p of points) {
    await page.mouse.click(p.x, p.y);
    await page.waitForTimeout(150);
  }
  await settle(page, 4);
  const state = await serverState(page);
  assert.equal(state.moves, 4);
  for (const c of chosen) assert.equal(top(state, c.moves[0].to), c.moves[0].card, `${c.moves[0].move} was played`);
}));

test('a double click on the stock deals once, and an empty stock redeals', () => withPage(async (page) => {
  await openDeal(page, 'nivernaise', 1);
  const stock = await grabPoint(page, '.board .card.stock');
  await page.mouse.dblclick(stock.x, stock.y);
  await page.waitForTimeout(400);
  await settle(page, 1);
  assert.equal((await serverState(page)).moves, 1, 'one deal');
  // The Redeal button, disabled while the stock holds cards, says why.
  const why = await page.$eval('button.redeal', (b) => [b.disabled, b.title, b.getAttribute('aria-description')]);
  assert.deepEqual(why, [true, 'A redeal comes once the stock is empty.', 'A redeal comes once the stock is empty.']);
  // Deal the stock out by clicks (slowly: each its own click), then a click redeals.
  let state = await serverState(page);
  while (state.piles.find((p) => p.kind === 'stock').count > 0) {
    // The cards shrink as the line grows, so the stock is looked for anew each time.
    await page.waitForTimeout(350);
    const at = await grabPoint(page, '.board .card.stock');
    await page.mouse.click(at.x, at.y);
    await settle(page, state.moves + 1);
    state = await serverState(page);
  }
  assert.ok(state.legal.some((m) => m.kind === 'redeal'));
  await page.waitForTimeout(350);
  const empty = await grabPoint(page, '.board .card.stock');
  await page.mouse.click(empty.x, empty.y);
  await settle(page, state.moves + 1);
  assert.equal((await serverState(page)).redeals_left, state.redeals_left - 1, 'the click on the empty stock redealt');
}));

test('drop targets are exactly the server\'s destinations in Nivernaise and Fan', () => withPage(async (page) => {
  let compared = 0;
  for (const [game, deal] of [['nivernaise', 2], ['fan', 4], ['house-in-the-woods', 1]]) {
    await openDeal(page, game, deal);
    const state = await serverState(page);
    const lit = await page.evaluate(() => {
      const t = window.patienceTable;
      return [...t.byCard.keys()].map((key) => {
        const [pile, index] = key.split(':');
        const el = t.board.querySelector(`.card[data-pile="${pile}"][data-index="${index}"]`);
        const picked = el && t.pick(el);
        return { key, targets: picked ? [...picked.targets.keys()].sort() : null };
      });
    });
    for (const { key, targets } of lit) {
      const [pile, index] = key.split(':');
      const expected = new Set();
      for (const m of state.legal) {
        if (m.from !== pile || m.at !== Number(index)) continue;
        expected.add(m.to);
        for (const a of m.also || []) expected.add(a);
      }
      assert.deepEqual(targets, [...expected].sort(), `${game} ${key}`);
      compared += 1;
    }
  }
  assert.ok(compared > 5, `${compared}`);
}));

/** Per pile: its cards and which of them the legal moves pick up. */
function drawnAs(state) {
  return new Map(state.piles.map((p) => [p.name, `${p.count}|${p.cards.map((c) => c.card)}|${
    state.legal.filter((m) => m.from === p.name).map((m) => m.at).sort()}|${p.kind === 'stock' && state.legal.some((m) => m.kind === 'deal')}`]));
}

test('in House in the Woods only the card that moved slides', () => withPage(async (page) => {
  await openDeal(page, 'house-in-the-woods', 1);
  const start = drawnAs(await serverState(page));
  const [card] = (await playable(page)).filter((c) => c.moves[0].to.startsWith('t'));
  assert.ok(card);
  await page.evaluate(() => {
    window.slid = [];
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) n.classList?.contains('pile') && window.slid.push(...[...n.querySelectorAll('.card.moving')].map((c) => c.dataset.key));
      }
    }).observe(document.querySelector('.board'), { childList: true });
    const t = window.patienceTable;
    const animate = t.animate.bind(t);
    t.animate = (before, piles) => {
      animate(before, piles);
      window.slid.push(...piles.flatMap((p) => [...p.querySelectorAll('.card.moving')].map((c) => c.dataset.key)));
    };
  });
  const p = await grabPoint(page, cardSelector(card.pile, card.index));
  await page.mouse.click(p.x, p.y);
  await settle(page, 1);
  const state = await serverState(page);
  const to = card.moves[0].to;
  const landed = `${to}:${state.piles.find((x) => x.name === to).cards.length - 1}`;
  const slid = [...new Set(await page.evaluate(() => window.slid))];
  assert.ok(slid.includes(landed), `the moved card slides (${slid})`);
  // Cards of its new fan may close up; no other pile's card moves (the
  // other copy of a two-deck card stays still).
  for (const key of slid) assert.equal(key.split(':')[0], to, `${key} slid`);
  // Only the piles whose cards or playable cards the move changed were drawn again.
  const now = drawnAs(state);
  const changed = [...now].filter(([name, v]) => start.get(name) !== v).length;
  assert.ok(changed >= 2 && changed < now.size / 3, `${changed} of ${now.size}`);
  // Piles whose cards changed are drawn anew; those where only which cards can move changed are marked in place.
  const cardsChanged = [...now].filter(([name, v]) => start.get(name).split('|').slice(0, 2).join('|') !== v.split('|').slice(0, 2).join('|')).length;
  const board = await page.$eval('.board', (b) => [b.dataset.drawn, b.dataset.touched]);
  assert.deepEqual(board.map(Number), [cardsChanged, changed - cardsChanged]);
}));

test('a fan that wraps shrinks the cards; unwrapped they grow back, wrapped again the table still fits; a resize fits afresh', () => withPage(async (page) => {
  await openDeal(page, 'la-belle-lucie', 3);
  const look = () => page.evaluate(() => ({
    cw: parseFloat(document.querySelector('.board').style.getPropertyValue('--cw')),
    tops: [...document.querySelectorAll('.board > .pile')].map((p) => `${p.dataset.pile}@${p.style.top}`).join(' '),
  }));
  const start = await look();
  // Click playable cards (never the one just moved) until a fan wraps onto a second line.
  let last = null, wrapped = null;
  for (let moves = 0; moves < 8 && !wrapped; moves++) {
    const cards = (await playable(page)).filter((c) => c.moves[0].card !== last);
    assert.ok(cards.length, 'a card to play');
    last = cards[0].moves[0].card;
    const p = await grabPoint(page, cardSelector(cards[0].pile, cards[0].index));
    await page.waitForTimeout(350); // past the double-click time of the click before
    await page.mouse.click(p.x, p.y);
    await settle(page, moves + 1);
    const now = await look();
    if (now.cw !== start.cw) wrapped = { ...now, moves: moves + 1 };
  }
  assert.ok(wrapped && wrapped.cw < start.cw, 'a fan wrapped and the cards shrank to keep the table on the screen');
  // Undone, the fan unwraps and the cards grow back, never past where they began.
  await page.keyboard.press('Control+z');
  await settle(page, wrapped.moves - 1);
  const unwrapped = await look();
  assert.ok(unwrapped.cw > wrapped.cw && unwrapped.cw <= start.cw, `${unwrapped.cw} after the undo, ${wrapped.cw} wrapped, ${start.cw} at the start`);
  // Redone, the fan wraps again and every card is still on the screen.
  await page.keyboard.press('Control+y');
  await settle(page, wrapped.moves);
  const below = await page.evaluate(() => Math.max(...[...document.querySelectorAll('.board .card')].map((c) => c.getBoundingClientRect().bottom)) - innerHeight);
  assert.ok(below <= 0.5, `the lowest card ends ${below} px below the screen`);
  // A new window size fits the table afresh: the room kept for a further line goes.
  await page.setViewportSize({ width: 1366, height: 801 });
  await page.waitForFunction((cw) => parseFloat(document.querySelector('.board').style.getPropertyValue('--cw')) > cw, wrapped.cw);
}, { width: 1366, height: 800 }));

test('automatic moves send safe cards home, and one undo takes back the click with all it set off', () => withPage(async (page) => {
  let done = false;
  for (let deal = 1; deal <= 40 && !done; deal++) {
    await openDeal(page, 'fan', deal);
    const state = await serverState(page);
    const aceOnTop = state.piles.some((p) => p.kind === 'tableau' && p.cards.at(-1)?.card.startsWith('A'));
    const card = (await playable(page)).find((c) => c.moves[0].to.startsWith('t') && !c.moves[0].card.startsWith('A'));
    if (!aceOnTop || !card) continue;
    assert.equal(await page.isChecked('input.auto-move'), true, 'on by default');
    const before = await screenPiles(page);
    const p = await grabPoint(page, cardSelector(card.pile, card.index));
    await page.mouse.click(p.x, p.y);
    await settle(page, 1);
    const after = await serverState(page);
    assert.equal(after.moves, 1, 'the move counter counts the click once');
    assert.ok(after.plies > 1, 'automatic moves followed it');
    assert.ok(!after.piles.some((x) => x.kind === 'tableau' && x.cards.at(-1)?.card.startsWith('A')), 'no ace left on top');
    assert.match(await page.textContent('.announce'), /goes home to foundation/);
    assert.equal(await page.textContent('.move-count'), '1 move');
    await page.keyboard.press('Control+z');
    await settle(page, 0);
    const undone = await serverState(page);
    assert.equal(undone.plies, 0, 'one undo takes back the click and its automatic moves');
    assert.deepEqual(await screenPiles(page), before);
    assert.deepEqual(statePiles(undone), statePiles(state));
    await page.keyboard.press('Control+y');
    await settle(page, 1);
    assert.deepEqual(statePiles(await serverState(page)), statePiles(after), 'one redo brings them all back');
    done = true;
  }
  assert.ok(done, 'a deal with an ace on top');
}, undefined, { autoMove: true }));

/**
 * Brings the game on screen to the point where it can finish. With `hinted`
 * it asks the hint of this game; without, the hints are asked of a second
 * game of the same deal and their moves played here, so this game's record
 * holds no hint.
 */
async function playToFinish(page, hinted) {
  const uid = uidOf(page);
  const start = await serverState(page);
  let helper = uid;
  if (!hinted) {
    const res = await page.request.post(`/api/games/${start.game}/new`, { data: { deal: start.deal } });
    helper = (await res.json()).uid;
  }
  for (let i = 0; i < 200; i++) {
    const state = await serverState(page);
    if (state.finish) return state;
    const hint = await (await page.request.post(`/api/play/${helper}/hint`, { data: {} })).json();
    assert.ok(hint.move, JSON.stringify(hint));
    const res = await page.request.post(`/api/play/${uid}/move`, { data: { move: hint.move, expect: state.version } });
    assert.equal(res.status(), 200);
    if (helper !== uid) {
      const h = await (await page.request.get(`/api/play/${helper}`)).json();
      assert.equal((await page.request.post(`/api/play/${helper}/move`, { data: { move: hint.move, expect: h.version } })).status(), 200);
    }
  }
  throw new Error('no finish reached');
}

const confetti = (page) => page.evaluate(() => [document.querySelectorAll('.win .confetti').length, !!document.querySelector('.win[data-celebrating]')]);

for (const reduced of [false, true]) {
  test(`Finish plays out the game, the page shows the server's won position; the win screen has its facts${reduced ? ', a hint on record, and no celebration with reduced motion' : ', no hint, and a celebration that can be switched off'}`, () => withPage(async (page) => {
    await openDeal(page, 'la-belle-lucie', 2);
    const state = await playToFinish(page, reduced);
    await page.reload();
    await page.waitForSelector('.board .pile');
    await settle(page, state.moves);
    assert.equal(await page.isVisible('button.finish'), true);
    await page.click('button.finish');
    await page.waitForSelector('#app[data-won="true"]');
    await page.waitForSelector('.win');
    await settle(page);
    const won = await serverState(page);
    assert.ok(won.won && won.moves > state.moves);
    assert.equal(won.piles.filter((p) => p.kind === 'foundation').reduce((n, p) => n + p.cards.length, 0), 52, 'every card home');
    assert.deepEqual(await screenPiles(page), statePiles(won), 'the page shows the server\'s position');
    assert.match(await page.textContent('.win-moves'), new RegExp(`${won.moves}`));
    assert.equal(won.hinted, reduced, 'the server\'s record of hints');
    assert.equal(await page.textContent('.win-hints'), reduced ? 'Hints used' : 'No hints used');
    const home = (st) => st.piles.filter((p) => p.kind === 'foundation').reduce((n, p) => n + p.cards.length, 0);
    assert.equal(await page.textContent('.announce'), `${52 - home(state)} cards went home: won!`, 'the live region says the cascade in one sentence');
    await page.waitForFunction(() => /won/.test(document.querySelector('.win-stats')?.textContent || ''));
    const party = await confetti(page);
    if (reduced) {
      assert.deepEqual(party, [0, false]);
    } else {
      assert.ok(party[0] > 0 && party[1], 'a celebration runs');
      // The suits fly beneath the win box, so none is drawn over its words.
      assert.ok(await page.evaluate(() => {
        const box = document.querySelector('.win-box');
        const z = Number(getComputedStyle(box).zIndex);
        return [...document.querySelectorAll('.win .confetti')].every((c) => c.parentElement === box.parentElement && Number(getComputedStyle(c).zIndex) < z);
      }), 'the celebration flies beneath the win box');
      // Switched off, it stays off for the next win.
      await page.uncheck('.win input.win-celebrate');
      await page.click('.win button.win-undo');
      await settle(page, won.moves - 1);
      await page.waitForSelector('.win', { state: 'detached' });
      await page.click('button.redo');
      await settle(page, won.moves);
      await page.waitForSelector('.win');
      assert.deepEqual(await confetti(page), [0, false], 'no celebration once switched off');
      assert.equal(await page.evaluate(() => localStorage.getItem('patience.celebrate')), '0');
    }
    // New deal keeps the level: here `any`, so a plain new deal.
    assert.match(await page.getAttribute('.win a.primary', 'href'), /^\/play\/la-belle-lucie$/);
  }, undefined, reduced ? { reducedMotion: 'reduce' } : {}));
}

/** Clicks the first card the page offers to move. */
async function clickFirst(page) {
  const [c] = await playable(page);
  const p = await grabPoint(page, cardSelector(c.pile, c.index));
  await page.mouse.click(p.x, p.y);
}

/** The player's statistics of `game`, as the server counts them. */
async function statsOf(page, game) {
  const all = await (await page.request.get('/api/stats')).json();
  return all.find((s) => s.game === game);
}

test('Start over asks first, plays the same deal afresh, keeps the old game, and counts one game played', () => withPage(async (page) => {
  await page.goto('/play/la-belle-lucie?level=easy');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('.board .pile');
  await settle(page);
  assert.match(await page.textContent('.deal-info'), /Easy/);
  const old = uidOf(page);
  await clickFirst(page);
  await settle(page, 1);
  const before = await serverState(page);
  assert.equal((await statsOf(page, 'la-belle-lucie')).played, 1);
  // Asked, in a modal dialog with the focus on staying; Escape stays.
  await page.click('button.restart');
  await page.waitForSelector('dialog.confirm[open]');
  assert.equal(await page.textContent('dialog.confirm h2'), 'Start this deal over?');
  assert.match(await page.textContent('dialog.confirm p'), /You have made 1 move\./);
  assert.equal(await page.evaluate(() => document.activeElement.className), 'confirm-no');
  await page.keyboard.press('Escape');
  await page.waitForSelector('dialog.confirm', { state: 'detached' });
  assert.equal(uidOf(page), old);
  await page.click('button.restart');
  await page.click('dialog.confirm button.confirm-yes');
  await page.waitForURL((u) => !u.pathname.includes(old));
  await page.waitForSelector('.board .pile');
  await settle(page, 0);
  const fresh = await serverState(page);
  assert.equal(fresh.deal, before.deal);
  assert.equal(fresh.level, 'easy');
  const kept = await (await page.request.get(`/api/play/${old}`)).json();
  assert.equal(kept.moves, 1);
  // A move in the fresh game: still the one game played, not a second.
  await clickFirst(page);
  await settle(page, 1);
  const stats = await statsOf(page, 'la-belle-lucie');
  assert.deepEqual([stats.played, stats.won], [1, 0]);
  // The deal's link starts it over too, asked the same way.
  const second = uidOf(page);
  await page.click('.share');
  await page.click('dialog.confirm button.confirm-yes');
  await page.waitForURL((u) => !u.pathname.includes(second));
  await page.waitForSelector('.board .pile');
  await settle(page, 0);
  assert.equal((await serverState(page)).deal, before.deal);
  await clickFirst(page);
  await settle(page, 1);
  assert.equal((await statsOf(page, 'la-belle-lucie')).played, 1);
  // New deal asks too, and Keep playing stays on this game.
  const third = uidOf(page);
  await page.click('a.new-deal');
  assert.match(await page.textContent('dialog.confirm p'), /count it as lost/);
  await page.click('dialog.confirm button.confirm-no');
  await page.waitForSelector('dialog.confirm', { state: 'detached' });
  assert.equal(uidOf(page), third);
  assert.equal((await serverState(page)).moves, 1);
}));

test('Start over asks nothing before the first move', () => withPage(async (page) => {
  await openDeal(page, 'fan', 3);
  const old = uidOf(page);
  await page.click('button.restart');
  await page.waitForURL((u) => !u.pathname.includes(old));
  assert.equal(await page.locator('dialog.confirm').count(), 0);
}));

test('Enter plays the focused card and keeps focus on it, so Enter again sends it on', () => withPage(async (page) => {
  let card = null;
  for (let deal = 1; deal <= 12 && !card; deal++) {
    await openDeal(page, 'la-belle-lucie', deal);
    card = (await playable(page)).find((c) => c.moves.length > 1);
  }
  assert.ok(card, 'a card with two destinations');
  const [first, second] = card.moves;
  await page.focus(cardSelector(card.pile, card.index));
  await page.keyboard.press('Enter');
  await settle(page, 1);
  const focused = await page.evaluate(() => [document.activeElement.dataset.pile, document.activeElement.dataset.card]);
  assert.deepEqual(focused, [first.to, first.card]);
  assert.match(await page.textContent('.announce'), / to (fan|foundation) \d+/);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await settle(page, 1);
  assert.equal(top(await serverState(page), second.to), second.card, 'the second Enter took the next destination');
  // Arrow keys walk between piles.
  const from = await page.evaluate(() => document.activeElement.dataset.pile);
  await page.keyboard.press('ArrowRight');
  assert.notEqual(await page.evaluate(() => document.activeElement.dataset.pile), from);
}));

test('the clock shows the time the server counts', () => withPage(async (page) => {
  await openDeal(page, 'fan', 3);
  const [card] = await playable(page);
  const p = await grabPoint(page, cardSelector(card.pile, card.index));
  await page.mouse.click(p.x, p.y);
  await settle(page, 1);
  await page.waitForTimeout(2200);
  const shown = await page.textContent('.clock');
  const server = await serverState(page); // this request counts the gap too
  const secs = (t) => t.split(':').reduce((a, x) => a * 60 + Number(x), 0);
  assert.ok(Math.abs(secs(shown) - Math.floor(server.elapsed_ms / 1000)) <= 1, `${shown} vs ${server.elapsed_ms} ms`);
  assert.equal(server.idle_cap_ms, 120000);
}));

// The names a player hears, in English, written out here rather than taken from the page.
const RANK = { A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine', 10: 'ten', J: 'jack', Q: 'queen', K: 'king' };
const SUIT = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const spoken = (code) => `${RANK[code.slice(0, -1)]} of ${SUIT[code.slice(-1)]}`;
const pileWords = (name) => `${name.startsWith('f') ? 'foundation' : 'fan'} ${name.slice(1)}`;

test('the live region says each move as the server played it, in the catalogue\'s words', () => withPage(async (page) => {
  let done = 0;
  for (let deal = 1; deal <= 30 && done < 2; deal++) {
    await openDeal(page, 'la-belle-lucie', deal);
    // Once a card to a foundation, once a card to a fan.
    const want = done === 0 ? 'f' : 't';
    const card = (await playable(page)).find((c) => c.moves[0].to.startsWith(want));
    if (!card) continue;
    const p = await grabPoint(page, cardSelector(card.pile, card.index));
    await page.mouse.click(p.x, p.y);
    await settle(page, 1);
    const state = await serverState(page);
    const to = card.moves[0].to;
    const played = state.piles.find((x) => x.name === to).cards.at(-1).card;
    assert.equal(played, card.moves[0].card);
    assert.equal(await page.textContent('.announce'), `${spoken(played)} to ${pileWords(to)}`);
    done += 1;
  }
  assert.equal(done, 2, 'a deal with a card for a foundation and one with a card for a fan');
}));

test('arrow keys walk between piles and along a pile, over the cards the server dealt', () => withPage(async (page) => {
  await openDeal(page, 'la-belle-lucie', 5);
  const state = await serverState(page);
  const fans = state.piles.filter((p) => p.kind === 'tableau' && p.cards.length);
  await page.focus(cardSelector(fans[0].name, fans[0].cards.length - 1));
  const focused = () => page.evaluate(() => [document.activeElement.dataset.pile, Number(document.activeElement.dataset.index), document.activeElement.dataset.card]);
  const topOf = (pile) => [pile.name, pile.cards.length - 1, pile.cards.at(-1).card];
  assert.deepEqual(await focused(), topOf(fans[0]));
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focused(), topOf(fans[1]), 'right: the top card of the next fan');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focused(), topOf(fans[2]));
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await focused(), topOf(fans[1]), 'left: back');
  await page.keyboard.press('ArrowUp');
  const n = fans[1].cards.length;
  assert.deepEqual(await focused(), [fans[1].name, n - 2, fans[1].cards[n - 2].card], 'up: the card under it');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focused(), topOf(fans[1]), 'down: the top again');
}));

for (const phone of [false, true]) {
  test(`Copy link puts the deal's address on the clipboard${phone ? ', from the phone\'s ⋯ menu' : ''}`, () => withPage(async (page) => {
    await openDeal(page, 'fan', 11);
    const state = await serverState(page);
    if (phone) {
      assert.equal(await page.isVisible('button.copy-link'), false, 'behind the menu on a phone');
      await page.click('button.more-button');
      assert.equal(await page.getAttribute('button.more-button', 'aria-expanded'), 'true');
    }
    await page.click('button.copy-link');
    await page.waitForFunction(() => /copied/.test(document.querySelector('.status').textContent));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${new URL(page.url()).origin}/play/${state.game}/${state.deal}`);
    if (phone) assert.equal(await page.isVisible('button.copy-link'), false, 'the menu closes');
    // The address deals the same cards.
    await page.goto(copied);
    await page.waitForURL(/\/game\//);
    await settle(page, 0);
    const again = await serverState(page);
    assert.deepEqual([again.game, again.deal], [state.game, state.deal]);
    assert.deepEqual(statePiles(again), statePiles(state));
  }, phone ? PHONE : undefined, { permissions: ['clipboard-read', 'clipboard-write'], ...(phone ? { hasTouch: true, isMobile: true } : {}) }));
}

test('after a pause the clock counts it as the server does: at most its idle cap', () => withPage(async (page) => {
  await page.clock.install();
  await openDeal(page, 'fan', 3);
  const [card] = await playable(page);
  const p = await grabPoint(page, cardSelector(card.pile, card.index));
  await page.mouse.click(p.x, p.y);
  await settle(page, 1);
  const state = await serverState(page);
  // Ten minutes away from the table: the server would count two of them.
  await page.clock.fastForward('10:00');
  const secs = (t) => t.split(':').reduce((a, x) => a * 60 + Number(x), 0);
  const shown = secs(await page.textContent('.clock'));
  const counted = Math.floor((state.elapsed_ms + state.idle_cap_ms) / 1000);
  assert.ok(Math.abs(shown - counted) <= 1, `${shown} s shown, ${counted} s counted by the server's rule`);
  await page.clock.fastForward('05:00');
  assert.ok(Math.abs(secs(await page.textContent('.clock')) - counted) <= 1, 'and no more after a longer pause');
}));
