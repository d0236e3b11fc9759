// Helpers that play through the page the way a player does (clicks, drags,
// keys), and read the server's view of the game through the same cookie.

import assert from 'node:assert/strict';

/** Waits until the page is idle (no request in flight) at `moves` moves. */
export async function settle(page, moves) {
  try {
    if (moves !== undefined) await page.waitForSelector(`#app[data-moves="${moves}"]`);
    await page.waitForFunction(() => !document.body.dataset.busy && !document.querySelector('.card.moving'));
  } catch (err) {
    const seen = await page.evaluate(() => ({
      url: location.pathname,
      moves: document.getElementById('app')?.dataset.moves,
      busy: document.body.dataset.busy,
      status: document.querySelector('.status')?.textContent,
      app: document.getElementById('app')?.textContent.slice(0, 200),
    })).catch(() => ({}));
    err.message += `\npage: ${JSON.stringify(seen)}`;
    throw err;
  }
}

export function uidOf(page) {
  const m = /\/game\/([^/?#]+)/.exec(new URL(page.url()).pathname);
  assert.ok(m, `not on a game page: ${page.url()}`);
  return decodeURIComponent(m[1]);
}

/** The server's state of the game on screen. */
export async function serverState(page) {
  const res = await page.request.get(`/api/play/${encodeURIComponent(uidOf(page))}`);
  assert.equal(res.status(), 200);
  return res.json();
}

export async function openDeal(page, game, deal) {
  await page.goto(deal === undefined ? `/play/${game}` : `/play/${game}/${deal}`);
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('.board .pile');
  await settle(page);
}

/** The cards on screen, pile by pile: {t1: ['9S', ...], s: '#50', ...}. */
export async function screenPiles(page) {
  return page.$$eval('.board .pile', (piles) => Object.fromEntries(piles.map((p) => [
    p.dataset.pile,
    p.dataset.kind === 'stock' ? `#${p.querySelector('.count')?.textContent ?? 0}` : [...p.querySelectorAll('.card')].map((c) => c.dataset.card).join(' '),
  ])));
}

/** The same from a state: stack piles show their top two cards. */
export function statePiles(state, stackKinds = ['foundation', 'cell', 'waste']) {
  return Object.fromEntries(state.piles.map((p) => [
    p.name,
    p.kind === 'stock' ? `#${p.count ?? 0}` : (stackKinds.includes(p.kind) ? p.cards.slice(-2) : p.cards).map((c) => c.card).join(' '),
  ]));
}

/** Every card the page offers to move, with its moves in the server's order. */
export async function playable(page) {
  return page.evaluate(() => {
    const t = window.patienceTable;
    return [...t.byCard.entries()].map(([key, moves]) => {
      const [pile, index] = key.split(':');
      return { pile, index: Number(index), moves: moves.map((m) => ({ move: m.move, to: m.to, card: m.card })) };
    });
  });
}

export function cardSelector(pile, index) {
  return `.board .card[data-pile="${pile}"][data-index="${index}"]`;
}

/**
 * A point where the element matching `selector` is what the pointer hits (a
 * covered card in a fan shows only a strip; tilted layouts rotate boxes).
 */
async function visiblePoint(page, selector, match) {
  const p = await page.evaluate(([sel, kind]) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    for (const fy of [0.12, 0.3, 0.5, 0.7, 0.05]) {
      for (const fx of [0.12, 0.3, 0.5, 0.7, 0.05]) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        const hit = document.elementFromPoint(x, y);
        if (hit && hit.closest(kind) === el) return { x, y };
      }
    }
    // Say what hides it, so a failure can be understood.
    const at = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2).slice(0, 4)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}[${e.dataset.pile || ''}:${e.dataset.index || ''}]`);
    return { hidden: `rect ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}; viewport ${innerWidth}x${innerHeight}; at centre: ${at.join(' > ')}` };
  }, [selector, match]);
  assert.ok(p && !p.hidden, `${selector} is visible somewhere (${p?.hidden})`);
  return p;
}

export const grabPoint = (page, selector) => visiblePoint(page, selector, '.card');
const pileCentre = (page, pile) => visiblePoint(page, `.board .pile[data-pile="${pile}"]`, '.pile');

/** Drags the card at (pile, index) onto pile `to` with the mouse, in small steps. */
export async function drag(page, pile, index, to) {
  const from = await grabPoint(page, cardSelector(pile, index));
  const dest = await pileCentre(page, to);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 8, { steps: 2 });
  await page.waitForSelector('.board.dragging');
  await page.mouse.move(dest.x, dest.y, { steps: 6 });
  await page.mouse.up();
}

/** The same drag with a finger (Chrome DevTools touch events → pointer events). */
export async function touchDrag(page, pile, index, to) {
  const from = await grabPoint(page, cardSelector(pile, index));
  const dest = await pileCentre(page, to);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
  await touch('touchStart', from);
  for (let i = 1; i <= 8; i++) {
    await touch('touchMove', { x: from.x + ((dest.x - from.x) * i) / 8, y: from.y + ((dest.y - from.y) * i) / 8 });
  }
  await touch('touchEnd');
  await cdp.detach();
}

/** Asks for a hint with the H key and returns what the page shows. */
export async function askHint(page) {
  await page.evaluate(() => { delete document.getElementById('app').dataset.hint; });
  await page.keyboard.press('h');
  await page.waitForSelector('#app[data-hint]', { timeout: 15_000 });
  await settle(page);
  return page.evaluate(() => ({ ...window.patienceTable.hint, status: document.querySelector('.status').textContent }));
}
