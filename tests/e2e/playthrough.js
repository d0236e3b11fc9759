// Playing on through the API to reach a mid-game position: the same moves
// every run (a fixed PRNG), preferring builds on the table so fans grow.

import { serverState, settle, uidOf } from './lib/table.js';

/** A small fixed PRNG (xorshift32). */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 2 ** 32;
  };
}

async function post(page, what, body) {
  const res = await page.request.post(`/api/play/${encodeURIComponent(uidOf(page))}/${what}`, { data: body });
  return res.ok() ? res.json() : null;
}

/**
 * Plays `deals` stock deals, then up to `moves` card moves (four in five a
 * build on the table when one is legal, never a move straight back), and
 * reloads the page on the new position. Returns the server's state.
 */
export async function playOn(page, { moves = 0, deals = 0, seed = 7 }) {
  let s = await serverState(page);
  const random = rng(seed);
  for (let d = 0; d < deals; d++) {
    const deal = s.legal.find((m) => m.kind === 'deal');
    if (!deal) break;
    s = (await post(page, 'move', { move: deal.move, expect: s.version })) || s;
  }
  let last = null;
  for (let i = 0; i < moves; i++) {
    const steps = s.legal.filter((m) => m.kind === 'step' && !(last && m.from === last.to && m.to === last.from));
    if (!steps.length) break;
    const build = steps.filter((m) => s.piles.find((p) => p.name === m.to)?.kind === 'tableau');
    const pool = build.length && random() < 0.8 ? build : steps;
    const m = pool[Math.floor(random() * pool.length)];
    const next = await post(page, 'move', { move: m.move, expect: s.version });
    if (!next) break;
    s = next;
    last = m;
  }
  await page.reload();
  await page.waitForSelector('.board .pile');
  await settle(page, s.moves);
  return s;
}
