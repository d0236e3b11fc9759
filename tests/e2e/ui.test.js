// The page's furniture and manners: home, rules, Continue, keyboard, accessible
// names, the Large switch, drag feedback, touch, the draw, a second tab that follows (a move, a restart), a stale one,
// share links, the phone layouts of La Nivernaise and Blondes and Brunettes,
// empty foundations' marks.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PHONE } from './lib/browser.js';
import { useSuite } from './lib/suite.js';
import {
  cardSelector, grabPoint, openDeal, playable, screenPiles, serverState, settle, statePiles, touchDrag, uidOf,
} from './lib/table.js';

const suite = useSuite();

const { withPage } = suite;

async function clickAt(page, pile, index) {
  const p = await grabPoint(page, cardSelector(pile, index));
  await page.mouse.click(p.x, p.y);
}

test('the home page lists every game with its names, about line, levels and rules', () => withPage(async (page) => {
  await page.goto('/');
  await page.waitForSelector('article.game');
  assert.equal(await page.locator('article.game').count(), suite.games.length);
  for (const g of suite.games) {
    const text = await page.textContent(`article.game[data-game="${g.id}"]`);
    assert.ok(text.includes(g.name_en) && text.includes(g.name_ru) && text.includes(g.about), g.id);
  }
  await page.click('article.game[data-game="la-belle-lucie"] a:has-text("Rules")');
  await page.waitForSelector('.rules .markdown');
  assert.match(await page.textContent('.rules h1'), /La Belle Lucie/);
  assert.ok(await page.locator('.rules .markdown li').count() > 0, 'lists are rendered');
  assert.ok(!(await page.textContent('.rules .markdown')).includes('**'), 'bold is rendered, not shown as stars');
}));

test('a game in progress appears under Continue and resumes', () => withPage(async (page) => {
  await openDeal(page, 'fan', 11);
  const [card] = await playable(page);
  await clickAt(page, card.pile, card.index);
  await settle(page, 1);
  const uid = uidOf(page);
  const piles = await screenPiles(page);
  await page.goto('/');
  const link = page.locator(`a.continue[href="/game/${uid}"]`);
  assert.match(await link.textContent(), /Fan.*deal 11, 1 move\b/);
  await link.click();
  await page.waitForSelector('.board .pile');
  await settle(page, 1);
  assert.deepEqual(await screenPiles(page), piles);
}));

test('cards have spoken names and every move works from the keyboard', () => withPage(async (page) => {
  await openDeal(page, 'la-belle-lucie', 21);
  const labels = await page.$$eval('.board .card:not(.stock)', (cs) => cs.map((c) => c.getAttribute('aria-label')));
  assert.equal(labels.length, 52);
  for (const l of labels) assert.match(l, /^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (spades|hearts|diamonds|clubs)$/);
  // The card the server says lies at the bottom of t1 is drawn there, and
  // its spoken name says that card.
  const state = await serverState(page);
  const bottom = state.piles.find((p) => p.name === 't1').cards[0].card;
  const shown = await page.$eval('.board .card[data-pile="t1"][data-index="0"]',
    (c) => ({ card: c.dataset.card, label: c.getAttribute('aria-label') }));
  assert.equal(shown.card, bottom);
  const rankWords = { A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven',
    8: 'eight', 9: 'nine', 10: 'ten', J: 'jack', Q: 'queen', K: 'king' };
  const suitWords = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
  assert.equal(shown.label, `${rankWords[bottom.slice(0, -1)]} of ${suitWords[bottom.slice(-1)]}`);

  // Tab reaches a playable card, with a visible focus ring; Enter plays it.
  await page.locator('button.rules-link').or(page.locator('a.rules-link')).focus();
  let focused = null;
  for (let i = 0; i < 10 && !focused; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.classList.contains('card') ? { pile: el.dataset.pile, index: el.dataset.index, outline: getComputedStyle(el).outlineStyle } : null;
    });
  }
  assert.ok(focused, 'Tab reaches a card');
  assert.notEqual(focused.outline, 'none', 'the focused card shows a focus ring');
  const moves = (await playable(page)).find((c) => c.pile === focused.pile && String(c.index) === focused.index).moves;
  await page.keyboard.press('Enter');
  await settle(page, 1);
  const after1 = await serverState(page);
  assert.ok(after1.piles.find((p) => p.name === moves[0].to).cards.some((c) => c.card === moves[0].card), 'Enter sent the card to its first destination');
  // Focus stays on the table, so play can go on from the keyboard.
  assert.ok(await page.evaluate(() => document.activeElement?.classList.contains('card')));
  await page.keyboard.press('Control+z');
  await settle(page, 0);
  await page.keyboard.press('Control+y');
  await settle(page, 1);
}));

test('the Large switch makes cards bigger and is remembered', () => withPage(async (page) => {
  await page.setViewportSize(PHONE);
  await openDeal(page, 'la-belle-lucie', 3);
  const width = () => page.$eval('.board .card:not(.stock)', (c) => c.getBoundingClientRect().width);
  const small = await width();
  await page.check('#large');
  await page.waitForFunction((w) => document.querySelector('.board .card').getBoundingClientRect().width > w * 1.2, small);
  await page.reload();
  await page.waitForSelector('.board .pile');
  assert.ok(await page.isChecked('#large'));
  assert.ok((await width()) > small * 1.2, 'still large after a reload');
  await page.uncheck('#large');
}));

test('while dragging, exactly the legal destinations light up; a drop elsewhere changes nothing', () => withPage(async (page) => {
  await openDeal(page, 'house-on-the-hill', 4);
  const card = (await playable(page)).find((c) => c.moves.length > 1) || (await playable(page))[0];
  const expected = await page.evaluate(async (key) => {
    const { dropTargets } = await import('/static/moves.js');
    const t = window.patienceTable;
    return [...dropTargets(t.state, t.byCard.get(key)).keys()].sort();
  }, `${card.pile}:${card.index}`);
  assert.ok(expected.length >= 1);
  const from = await grabPoint(page, cardSelector(card.pile, card.index));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + 30, { steps: 4 });
  const lit = await page.$$eval('.pile.drop-target', (ps) => ps.map((p) => p.dataset.pile).sort());
  assert.deepEqual(lit, expected);
  await page.mouse.move(5, 5, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.querySelector('.drag-layer'));
  assert.equal((await serverState(page)).moves, 0);
  assert.equal(await page.locator('.pile.drop-target').count(), 0);
}));

test('a finger drags a card on a touch screen', () => withPage(async (page) => {
  await openDeal(page, 'trefoil', 9);
  const card = (await playable(page))[0];
  await touchDrag(page, card.pile, card.index, card.moves[0].to);
  await settle(page, 1);
  const state = await serverState(page);
  assert.ok(state.piles.find((p) => p.name === card.moves[0].to).cards.some((c) => c.card === card.moves[0].card));
}, PHONE, { hasTouch: true, isMobile: true }));

test('the draw of the super-move plays a covered card once', () => withPage(async (page) => {
  await openDeal(page, 'la-belle-lucie-super-move', 2);
  const state = await serverState(page);
  assert.ok(state.legal.some((m) => m.kind === 'draw'), 'covered cards of this deal can be drawn');
  assert.match(await page.textContent('.status'), /draw/i);
  const covered = (await playable(page)).find((c) => c.moves.some((m) => m.move.includes('@')));
  await clickAt(page, covered.pile, covered.index);
  await settle(page, 1);
  const next = await serverState(page);
  assert.ok(!next.legal.some((m) => m.kind === 'draw'), 'the draw is used up');
}));

/** A second tab of `context` on `page`'s game, its errors collected. */
async function secondTab(context, page, { hearsOtherTabs = true } = {}) {
  const b = await context.newPage();
  // A tab that hears nothing from the others: as one on another device.
  if (!hearsOtherTabs) await b.addInitScript(() => { delete window.BroadcastChannel; });
  b.errors = [];
  b.on('pageerror', (e) => b.errors.push(e.message));
  await b.goto(page.url());
  await b.waitForSelector('.board .pile');
  await settle(b, 0);
  return b;
}

test('a second tab on the game follows the first without a click, to the server\'s state', () => withPage(async (a, context) => {
  await openDeal(a, 'la-belle-lucie', 8);
  const b = await secondTab(context, a);
  const [first] = await playable(a);
  await clickAt(a, first.pile, first.index);
  await settle(a, 1);
  await settle(b, 1);
  const state = await serverState(a);
  assert.deepEqual(await screenPiles(b), statePiles(state), 'tab b shows the move');
  await a.keyboard.press('Control+z');
  await settle(a, 0);
  await settle(b, 0);
  assert.equal(await b.textContent('.status'), '', 'following says nothing of a stale tab');
  // And the other way round: a move in b reaches a, and the server counts one.
  await clickAt(b, first.pile, first.index);
  await settle(b, 1);
  await settle(a, 1);
  assert.equal((await serverState(a)).moves, 1);
  assert.deepEqual(b.errors, []);
}));

test('a second tab on a game started over in the first moves to the new game', () => withPage(async (a, context) => {
  await openDeal(a, 'la-belle-lucie', 8);
  const old = uidOf(a);
  const b = await secondTab(context, a);
  const [first] = await playable(a);
  await clickAt(a, first.pile, first.index);
  await settle(a, 1);
  await settle(b, 1);
  await a.click('button.restart');
  await a.click('dialog.confirm button.confirm-yes');
  await a.waitForURL((u) => !u.pathname.includes(old));
  const fresh = uidOf(a);
  await b.waitForURL((u) => u.pathname.includes(fresh));
  await b.waitForSelector('.board .pile');
  await settle(b, 0);
  const state = await serverState(b);
  assert.equal(state.uid, fresh);
  assert.equal(state.deal, 8);
  assert.deepEqual(await screenPiles(b), statePiles(state), 'tab b shows the fresh deal');
  assert.deepEqual(b.errors, []);
}));

test('a move from a stale tab reloads that tab and says why, and nothing is applied twice', () => withPage(async (a, context) => {
  await openDeal(a, 'la-belle-lucie', 8);
  const b = await secondTab(context, a, { hearsOtherTabs: false });
  const [first] = await playable(a);
  await clickAt(a, first.pile, first.index);
  await settle(a, 1);
  // Tab b still shows the opening; its click carries expect 0 and gets 409.
  const stale = (await playable(b)).find((c) => !(c.pile === first.pile && c.index === first.index)) || first;
  await clickAt(b, stale.pile, stale.index);
  await settle(b, 1);
  const state = await serverState(a);
  assert.equal(state.moves, 1, 'the stale move was not applied');
  assert.deepEqual(await screenPiles(b), statePiles(state), 'tab b now shows the server state');
  assert.match(await b.textContent('.status'), /changed in another tab/, 'the tab says why its table changed');
  assert.deepEqual(b.errors, []);
}));

test('a share link deals the same cards to another player', () => withPage(async (page) => {
  await openDeal(page, 'melnitsa', 77);
  const shown = await screenPiles(page);
  const href = await page.getAttribute('.share', 'href');
  assert.equal(href, '/play/melnitsa/77');
  const other = await suite.open();
  try {
    await other.page.goto(href);
    await other.page.waitForURL(/\/game\//);
    await other.page.waitForSelector('.board .pile');
    await settle(other.page, 0);
    assert.deepEqual(await screenPiles(other.page), shown);
    assert.notEqual(uidOf(other.page), uidOf(page));
  } finally {
    await other.context.close();
  }
}));

test('La Nivernaise: flanks beside the line on a desktop, in one row under the foundations on a phone', () => withPage(async (page) => {
  await openDeal(page, 'nivernaise', 12);
  const boxes = () => page.$$eval('.board .pile', (ps) => Object.fromEntries(ps.map((p) => {
    const r = p.getBoundingClientRect();
    return [p.dataset.pile, { x: r.left, y: r.top, r: r.right, b: r.bottom }];
  })));
  let b = await boxes();
  for (const c of ['c1', 'c2', 'c3', 'c4']) assert.ok(b[c].r <= b.t1.x, `${c} left of the line`);
  for (const c of ['c5', 'c6', 'c7', 'c8']) assert.ok(b[c].x >= b.t6.r, `${c} right of the line`);
  await page.setViewportSize(PHONE);
  await page.waitForFunction((w) => document.querySelector('.board').offsetWidth <= w, PHONE.width);
  b = await boxes();
  const cells = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'];
  const maxFoundation = Math.max(...['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8'].map((f) => b[f].b));
  for (const c of cells) {
    assert.equal(Math.round(b[c].y), Math.round(b.c1.y), `${c} in the flank row`);
    assert.ok(b[c].y >= maxFoundation, `${c} under the foundations`);
    assert.ok(b[c].r <= PHONE.width, `${c} on screen`);
  }
}));

test('Blondes and Brunettes on a phone: nine columns in two rows, cards wide enough to read and touch', () => withPage(async (page) => {
  await openDeal(page, 'blondes-and-brunettes', 12);
  const boxes = await page.$$eval('.board .pile', (ps) => Object.fromEntries(ps.map((p) => {
    const r = p.getBoundingClientRect();
    return [p.dataset.pile, { x: r.left, y: r.top, r: r.right, b: r.bottom, kind: p.dataset.kind }];
  })));
  const cw = await page.$eval('.board', (b) => parseFloat(b.style.getPropertyValue('--cw')));
  assert.ok(cw >= 55, `cards are ${cw} px wide`);
  const cols = Object.entries(boxes).filter(([, b]) => b.kind === 'tableau');
  assert.equal(cols.length, 9);
  const rows = [...new Set(cols.map(([, b]) => Math.round(b.y)))];
  assert.equal(rows.length, 2, 'the columns stand in two rows');
  for (const [name, b] of Object.entries(boxes)) {
    assert.ok(b.x >= 0 && b.r <= PHONE.width, `${name} is on screen across`);
  }
  const reserve = boxes.r;
  for (const [name, b] of Object.entries(boxes)) {
    if (b.kind === 'foundation' || b.kind === 'stock' || b.kind === 'waste') assert.ok(b.b <= reserve.y, `${name} above the reserve`);
  }
  for (const [name, b] of cols) assert.ok(b.y >= reserve.b, `${name} under the reserve`);
}, PHONE));

test('an empty foundation shows the rank (and suit) that opens it, as the server says', () => withPage(async (page) => {
  const marks = () => page.$$eval('.board .pile[data-kind="foundation"]', (ps) => ps.map((p) => ({
    pile: p.dataset.pile,
    cards: p.querySelectorAll('.card').length,
    rank: p.querySelector('.base-mark .base-rank')?.textContent ?? null,
    suit: p.querySelector('.base-mark use')?.getAttribute('href') ?? null,
    label: p.getAttribute('aria-label'),
  })));
  await openDeal(page, 'nivernaise', 12);
  const state = await serverState(page);
  const shown = await marks();
  assert.equal(shown.length, 8);
  for (const m of shown) {
    const base = state.piles.find((p) => p.name === m.pile).base;
    if (m.cards) {
      assert.equal(m.rank, null, `${m.pile} holds cards: no mark`);
      continue;
    }
    assert.equal(m.rank, base.rank, `${m.pile} shows its base rank`);
    assert.equal(m.suit, `#suit-${base.suit}`, `${m.pile} shows its base suit`);
  }
  // Ace-houses up from the ace, king-houses down from the king.
  const f5 = shown.find((m) => m.pile === 'f5');
  assert.equal(f5.rank, 'K');
  assert.match(f5.label, /king of spades goes here/);

  await openDeal(page, 'blondes-and-brunettes', 12);
  const bb = (await marks()).filter((m) => !m.cards);
  assert.ok(bb.length >= 7);
  for (const m of bb) assert.deepEqual([m.rank, m.suit], ['A', null], `${m.pile}: an ace of any suit`);

  await openDeal(page, 'krug', 12);
  assert.ok((await marks()).every((m) => m.cards > 0 && m.rank === null), 'Krug deals its bases: no marks');
}));

/** The first deal in `deals` whose opening hint is of `kind`, asked through the API. */
async function dealWithHint(page, game, deals, kind) {
  for (const deal of deals) {
    const res = await page.request.post(`/api/games/${game}/new`, { data: { deal } });
    const { uid } = await res.json();
    const hint = await (await page.request.post(`/api/play/${uid}/hint`, { data: {} })).json();
    if (hint.kind === kind) return deal;
  }
  return null;
}

test('the hint says when no win is possible, and marks a heuristic hint', () => withPage(async (page, context) => {
  await page.goto('/');
  const hopeless = await dealWithHint(page, 'fan', [9, 10, 11, 12, 15, 16, 18, 19, 21], 'no-win');
  assert.ok(hopeless, 'some Fan deal is proved lost by the solver');
  await openDeal(page, 'fan', hopeless);
  await page.click('button.hint');
  await page.waitForSelector('#app[data-hint="no-win"]');
  assert.match(await page.textContent('.status'), /No win is possible from here: undo a few moves/);
  assert.equal(await page.locator('.hint-overlay').count(), 0, 'no arrow for a lost position');

  const guess = await dealWithHint(page, 'krakowski', [1, 2, 3, 4, 5], 'heuristic');
  if (!guess) return; // the solver now wins these outright: nothing heuristic to show
  await openDeal(page, 'krakowski', guess);
  await page.keyboard.press('h');
  await page.waitForSelector('#app[data-hint="heuristic"]');
  assert.match(await page.textContent('.status'), /[Hh]euristic hint/);
  if (await page.locator('.hint-overlay .arrow').count()) {
    assert.equal(await page.$eval('.hint-overlay', (s) => s.classList.contains('heuristic')), true, 'a heuristic arrow is dashed');
  }
}));

test('a double-click sends a card once, to its first destination', () => withPage(async (page) => {
  let card = null;
  for (const d of [1, 2, 3, 4, 5, 6, 7, 8]) {
    await openDeal(page, 'la-belle-lucie', d);
    card = (await playable(page)).find((c) => c.moves.length > 1);
    if (card) break;
  }
  assert.ok(card, 'some deal has a card with two destinations');
  const [first, second] = card.moves;
  const onPile = async (pile, code) => (await serverState(page)).piles.find((x) => x.name === pile).cards.some((c) => c.card === code);
  // Stretch the double-click window so the test does not race the clock.
  await page.evaluate(() => { window.patienceTable.doubleClickMs = 60_000; });
  await clickAt(page, card.pile, card.index);
  await settle(page, 1);
  const at = await page.$$eval(`.board .pile[data-pile="${first.to}"] .card`, (cs, code) => cs.filter((c) => c.dataset.card === code).pop().dataset.index, first.card);
  await clickAt(page, first.to, at);
  await page.waitForTimeout(200);
  await settle(page, 1);
  assert.ok(await onPile(first.to, first.card), 'the second half of a double-click does not move the card on');
  // Past the window, the same click moves it on.
  await page.evaluate(() => { window.patienceTable.doubleClickMs = 0; });
  await clickAt(page, first.to, at);
  await page.waitForFunction(() => !document.body.dataset.busy);
  await settle(page, 1);
  assert.ok(await onPile(second.to, second.card), 'a later click moves it on');
}));

test('a move slides the card from its old place to its new one', () => withPage(async (page) => {
  await openDeal(page, 'trefoil', 3);
  const [card] = await playable(page);
  // Record the slides the page starts: by which card, from where.
  await page.evaluate(() => {
    window.slid = [];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (frames, opts) {
      if (this.classList.contains('card')) window.slid.push([this.dataset.key, frames[0].transform, this.getBoundingClientRect().toJSON()]);
      return animate.call(this, frames, opts);
    };
    window.startedAt = document.querySelector(`.card[data-key="${CSS.escape(window.patienceTable.byCard.keys().next().value)}"]`).getBoundingClientRect().toJSON();
  });
  await clickAt(page, card.pile, card.index);
  await settle(page, 1);
  const slid = await page.evaluate(() => window.slid);
  const state = await serverState(page);
  const to = card.moves[0].to;
  const landed = `${to}:${state.piles.find((x) => x.name === to).cards.length - 1}`;
  const mine = slid.find(([key]) => key === landed);
  assert.ok(mine, `the card that moved slides (${JSON.stringify(slid)})`);
  // It starts where it was drawn before the move: its new place plus the slide's offset.
  const [, from, now] = mine;
  const [dx, dy] = /translate\((-?[\d.e-]+)px, (-?[\d.e-]+)px\)/.exec(from).slice(1).map(Number);
  const was = await page.evaluate(() => window.startedAt);
  assert.ok(Math.abs(now.left + dx - was.left) < 2 && Math.abs(now.top + dy - was.top) < 2, `slides from ${was.left},${was.top} (${from})`);
}));
