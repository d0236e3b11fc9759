// The table as a player of the best solitaire sites expects it: clicks taken
// in order, drop targets and slides from the server's answer, automatic moves
// home and their undo, Finish and the win screen, restart, the keyboard's
// next destination, a disabled Redeal that says why, the server's clock.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useSuite } from './lib/suite.js';
import { cardSelector, grabPoint, openDeal, playable, serverState, settle, uidOf } from './lib/table.js';

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
  assert.equal(await page.$eval('.board', (b) => b.dataset.drawn), String(changed));
}));

test('automatic moves send safe cards home, and undo takes them back one by one', () => withPage(async (page) => {
  let done = false;
  for (let deal = 1; deal <= 40 && !done; deal++) {
    await openDeal(page, 'la-belle-lucie', deal);
    const state = await serverState(page);
    const aceOnTop = state.piles.some((p) => p.kind === 'tableau' && p.cards.at(-1)?.card.startsWith('A'));
    const card = (await playable(page)).find((c) => c.moves[0].to.startsWith('t') && !c.moves[0].card.startsWith('A'));
    if (!aceOnTop || !card) continue;
    assert.equal(await page.isChecked('input.auto-move'), true, 'on by default');
    const p = await grabPoint(page, cardSelector(card.pile, card.index));
    await page.mouse.click(p.x, p.y);
    await page.waitForFunction(() => Number(document.getElementById('app').dataset.moves) > 1);
    await settle(page);
    const after = await serverState(page);
    assert.ok(!after.piles.some((x) => x.kind === 'tableau' && x.cards.at(-1)?.card.startsWith('A')), 'no ace left on top');
    assert.match(await page.textContent('.announce'), /goes home to foundation/);
    await page.keyboard.press('Control+z');
    await settle(page, after.moves - 1);
    assert.equal((await serverState(page)).moves, after.moves - 1, 'one undo, one automatic move');
    done = true;
  }
  assert.ok(done, 'a deal with an ace on top');
}, undefined, { autoMove: true }));

/** Plays the solver's hints through the API until the game can finish. */
async function playToFinish(page) {
  const uid = uidOf(page);
  for (let i = 0; i < 200; i++) {
    const state = await serverState(page);
    if (state.finish) return state;
    const hint = await (await page.request.post(`/api/play/${uid}/hint`, { data: {} })).json();
    assert.ok(hint.move, JSON.stringify(hint));
    const res = await page.request.post(`/api/play/${uid}/move`, { data: { move: hint.move, expect: state.version } });
    assert.equal(res.status(), 200);
  }
  throw new Error('no finish reached');
}

for (const reduced of [false, true]) {
  test(`Finish plays out the game; the win screen has its facts${reduced ? ', and no celebration with reduced motion' : ' and a celebration'}`, () => withPage(async (page) => {
    await openDeal(page, 'la-belle-lucie', 2);
    const state = await playToFinish(page);
    await page.reload();
    await page.waitForSelector('.board .pile');
    await settle(page, state.moves);
    assert.equal(await page.isVisible('button.finish'), true);
    await page.click('button.finish');
    await page.waitForSelector('#app[data-won="true"]');
    await page.waitForSelector('.win');
    const won = await serverState(page);
    assert.ok(won.won && won.moves > state.moves);
    assert.match(await page.textContent('.win-moves'), new RegExp(`${won.moves}`));
    assert.match(await page.textContent('.win-hints'), /No hints used/);
    await page.waitForFunction(() => /won/.test(document.querySelector('.win-stats')?.textContent || ''));
    const party = await page.evaluate(() => [document.querySelectorAll('.win .confetti').length, !!document.querySelector('.win[data-celebrating]')]);
    if (reduced) assert.deepEqual(party, [0, false]);
    else assert.ok(party[0] > 0 && party[1], 'a celebration runs');
    // New deal keeps the level: here `any`, so a plain new deal.
    assert.match(await page.getAttribute('.win a.primary', 'href'), /^\/play\/la-belle-lucie$/);
  }, undefined, reduced ? { reducedMotion: 'reduce' } : {}));
}

test('Start over plays the same deal afresh; the old game stays', () => withPage(async (page) => {
  await page.goto('/play/la-belle-lucie?level=easy');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('.board .pile');
  await settle(page);
  assert.match(await page.textContent('.deal-info'), /Easy/);
  const old = uidOf(page);
  const [card] = await playable(page);
  const p = await grabPoint(page, cardSelector(card.pile, card.index));
  await page.mouse.click(p.x, p.y);
  await settle(page, 1);
  const before = await serverState(page);
  await page.click('button.restart');
  await page.waitForURL((u) => !u.pathname.includes(old));
  await page.waitForSelector('.board .pile');
  await settle(page, 0);
  const fresh = await serverState(page);
  assert.equal(fresh.deal, before.deal);
  assert.equal(fresh.level, 'easy');
  const kept = await (await page.request.get(`/api/play/${old}`)).json();
  assert.equal(kept.moves, 1);
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
