// Where each pile sits on the table, per layout kind (`state.layout`), and
// where each card sits in its pile.
//
// Every arrangement is computed in units of one card width (a card is 1 × 1.4),
// so the page only has to pick the card width that fits the screen
// (`cardWidth`). A placement is `{name, x, y, w, h, mode, rot}`: `mode` is how
// the pile shows its cards — `fan-h` (spread to the right), `fan-v` (spread
// downwards) or `stack` (only the top shows) — `rot` an optional tilt in
// degrees for the decorative layouts, and `spread` how far a fan's cards may
// lie apart (in card widths) when room allows.
//
// Fans stay readable at any depth: a fan's cards close up as it grows, but
// never so far that a covered card hides its corner index (rank over suit,
// drawn in the card's top-left corner by cards.js). Past that a horizontal
// fan wraps onto a further line inside its pile, and a vertical fan grows
// downwards; the arrangement makes room for both from the state's card
// counts, so no card is ever drawn over another one's index.

export const CH = 1.4; // card height in card widths
const GAP = 0.16; // space between piles
const SLOT = 2.05; // width of a horizontal fan's slot
const NARROW_PX = 640;

const FAN_DX = 0.36; // horizontal fan spread when room allows
const FAN_DY = 0.36 * CH; // vertical fan spread when room allows
// The corner index is 0.28 card widths wide and reaches 0.55 card widths
// down (rank 0.10–0.30, suit 0.36–0.55): the least a covered card may show.
const STRIP_X = 0.3; // of a card in a horizontal fan
const STRIP_Y = 0.5; // of a card in a vertical fan (rank and most of the suit)
const WRAP_Y = 0.58; // a wrapped horizontal fan's next line, under the index

// Phones: fans of a table too tall for the screen in three columns (the 35
// fans of the two-deck House games, Novomanernaya's 18 under two rows of
// foundations) get a slot just wide enough for three cards at a tight
// spread, so that four or five stand in a row and the table fits one screen.
const MANY_FANS = 24;
const COMPACT_SLOT = 1 + 2 * 0.32;
const COMPACT_GAP = 0.1;

export function isNarrow(width) {
  return width < NARROW_PX;
}

function byKind(state, kind) {
  return state.piles.filter((p) => p.kind === kind).map((p) => p.name);
}

function count(state, name) {
  const pile = state.piles.find((p) => p.name === name);
  return pile?.cards?.length ?? 0;
}

function stack(name, x, y) {
  return { name, x, y, w: 1, h: CH, mode: 'stack' };
}

/** Lines a horizontal fan of `n` cards needs in a slot `w` wide. */
function fanLines(w, n) {
  const room = w - 1;
  if (n <= 1 || room / (n - 1) >= STRIP_X - 1e-9) return 1;
  const perLine = Math.floor(room / STRIP_X + 1e-9) + 1;
  return Math.ceil(n / perLine);
}

/** Height of a horizontal fan of `n` cards in a slot `w` wide. */
const fanHeight = (w, n) => CH + (fanLines(w, n) - 1) * WRAP_Y;

/** Height of a vertical fan of `n` cards, at least `min`. */
const columnHeight = (n, min) => Math.max(min, CH + Math.max(0, n - 1) * STRIP_Y);

/**
 * Where the `n` cards of a pile placed at `place` lie, as `[x, y]` offsets
 * from the pile's corner in card widths, bottom card first.
 */
export function fanOffsets(place, n) {
  const at = Array.from({ length: n }, () => [0, 0]);
  if (n < 2) return at;
  if (place.mode === 'fan-h') {
    // A wrapped fan fills each line before the next, like text, so the cards
    // already shown stay where they are when one more arrives.
    const lines = fanLines(place.w, n);
    const perLine = lines > 1 ? Math.floor((place.w - 1) / STRIP_X + 1e-9) + 1 : n;
    const step = perLine > 1 ? Math.min(place.spread || FAN_DX, (place.w - 1) / (perLine - 1)) : 0;
    return at.map((_, i) => [(i % perLine) * step, Math.floor(i / perLine) * WRAP_Y]);
  }
  if (place.mode === 'fan-v') {
    const step = Math.max(STRIP_Y, Math.min(place.spread || FAN_DY, (place.h - CH) / (n - 1)));
    return at.map((_, i) => [0, i * step]);
  }
  return at;
}

/**
 * The card width in px for arrangement `arr` on a screen: `availW` and
 * `availH` are the room for the board. Narrow screens fill the width and
 * scroll down; a desktop fits the whole table on the screen unless Large is
 * on. A narrow board never gets wider than the screen.
 */
function cardWidth(arr, { availW, availH, narrow, large }) {
  // One px spare: the page rounds the board's size up to whole pixels.
  const byWidth = Math.max(1, availW - 1) / arr.width;
  if (narrow) return Math.min(byWidth, large ? 170 : 125);
  let cw = byWidth;
  if (!large) cw = Math.min(cw, Math.max(240, availH) / arr.height);
  return Math.max(40, Math.min(cw, large ? 170 : 125));
}

/**
 * The card width for arrangement `arr` while a game goes on, on a screen and
 * settings unchanged since the width `prev` was chosen (null: none yet).
 * A new card width resizes, re-lays and repaints every card on the table,
 * so the width holds while the table still fits, and when the table
 * outgrows the screen it shrinks to leave room for one more wrapped line,
 * so the next fan that wraps fits as well.
 */
export function keptCardWidth(prev, arr, room) {
  const fit = cardWidth(arr, room);
  if (prev === null || prev === undefined) return fit;
  if (fit >= prev - 1e-6) return prev;
  return cardWidth({ ...arr, height: arr.height + WRAP_Y }, room);
}

// The cards grow back once the table, laid out afresh, would take cards this
// much wider than the ones drawn: fans that unwrap and columns that shorten
// give the room back, while a card or two more or less changes nothing.
const GROW = 1.08;

/**
 * The arrangement and card width for `state` on a screen (`opts` as for
 * `arrange`, `room` as for `cardWidth`), given the card width `prevCw` and
 * the row heights `prevRows` drawn before (null: none yet). The width and
 * the rows hold while the table fits (see `keptCardWidth`); when the table
 * laid out afresh would take cards at least GROW times wider, it is laid
 * out afresh and the cards grow back.
 */
export function fitTable(state, opts, room, prevCw = null, prevRows = null) {
  const held = arrange(state, { ...opts, rows: prevRows });
  const cw = keptCardWidth(prevCw, held, room);
  if (prevCw === null || prevCw === undefined) return { arr: held, cw };
  // Grown back, the table keeps room for one more wrapped line, as after a shrink.
  const fresh = arrange(state, { ...opts, rows: null });
  const grown = cardWidth({ ...fresh, height: fresh.height + WRAP_Y }, room);
  if (grown >= cw * GROW) return { arr: fresh, cw: grown };
  return { arr: held, cw };
}

/** Foundations `names` in balanced rows within `width`, right-aligned at `right` (or centred). */
function foundationRows(names, width, y, right = null) {
  const fit = (gap) => Math.max(1, Math.floor((width + gap + 1e-9) / (1 + gap)));
  // The foundations close up when that saves a row.
  const tight = 0.05;
  const gap = Math.ceil(names.length / fit(tight)) < Math.ceil(names.length / fit(GAP)) ? tight : GAP;
  // Balanced rows: eight foundations that need two rows go four and four.
  const rows = Math.ceil(names.length / fit(gap)) || 0;
  const perRow = rows ? Math.ceil(names.length / rows) : 1;
  const end = right ?? (width + across(perRow, gap)) / 2;
  const out = names.map((n, i) => {
    const r = Math.floor(i / perRow), c = i % perRow;
    return stack(n, end - (perRow - c) * (1 + gap) + gap, y + r * (CH + GAP));
  });
  return [out, rows * (CH + GAP) - GAP];
}

/**
 * A header band: stock, waste (and anything in `left`) on the left, the
 * foundations on the right in as many rows as `width` needs. On a narrow
 * table the left piles may stand in a column, or over the foundations,
 * whichever keeps the band lowest. Returns [placements, height used].
 */
function band(left, foundations, width) {
  if (!left.length) return foundationRows(foundations, width, 0);
  let best = null;
  for (let k = 1; k <= left.length; k++) {
    // `left` in k rows beside the foundations.
    const cols = Math.ceil(left.length / k);
    const leftW = across(cols) + GAP * 2;
    const out = left.map((n, i) => stack(n, (i % cols) * (1 + GAP), Math.floor(i / cols) * (CH + GAP)));
    const [found, fh] = foundationRows(foundations, width - leftW, 0, width - leftW);
    const moved = found.map((f) => ({ ...f, x: f.x + leftW }));
    const h = Math.max(k * (CH + GAP) - GAP, fh);
    if (!best || h < best[1] - 1e-9) best = [[...out, ...moved], h];
  }
  // `left` in a row over the foundations, which then have the whole width.
  const top = left.map((n, i) => stack(n, i * (1 + GAP), 0));
  const [found, fh] = foundationRows(foundations, width, CH + GAP);
  if (CH + GAP + fh < best[1] - 1e-9) best = [[...top, ...found], CH + GAP + fh];
  return best;
}

function fanColumns(n, large) {
  if (large) return n > 18 ? 5 : 4;
  if (n <= 12) return Math.min(n, 6);
  return n <= 18 ? 6 : 7;
}

/**
 * How a phone lays out the fans: `[compact, columns]`. Large on keeps two
 * columns (three compact ones past MANY_FANS). Otherwise three columns of
 * full slots, unless the table, with every fan on one line as dealt, would
 * then stand taller than the screen (`opts.aspect`, the room's height over
 * its width): then compact slots, four a row or five. Counted at one line a
 * fan, the choice holds for the whole game.
 */
function phoneGrid(state, opts) {
  const n = byKind(state, 'tableau').length;
  if (opts.large) return n > MANY_FANS ? [true, 3] : [false, 2];
  const ways = [[false, 3], [true, 4], [true, 5]].filter(([compact]) => compact || n <= MANY_FANS);
  if (!opts.aspect) return ways[0];
  return ways.find(([compact, cols]) => {
    const g = grid(state, { ...opts, rows: null }, compact, cols, () => 1);
    return g.height / g.width <= opts.aspect;
  }) || ways[ways.length - 1];
}

/** Fans in a grid under a band of stock, waste and foundations. */
function rows(state, opts) {
  const fans = byKind(state, 'tableau').length;
  const [compact, cols] = opts.narrow ? phoneGrid(state, opts) : [false, fanColumns(fans, opts.large)];
  return grid(state, opts, compact, cols, (name) => count(state, name));
}

/**
 * The grid of `rows`, `cols` fans a row, in compact slots or not; `cards(name)`
 * is a fan's card count. A row is at least as tall as `opts.rows` says (the
 * heights drawn before), so that a fan that unwraps does not move every row
 * under it up, and back down when it wraps again; the heights are returned
 * as `rows`.
 */
function grid(state, opts, compact, cols, cards) {
  const fans = byKind(state, 'tableau');
  const slot = compact ? COMPACT_SLOT : SLOT;
  const gap = compact ? COMPACT_GAP : GAP;
  const width = cols * (slot + gap) - gap;
  const left = [...byKind(state, 'stock'), ...byKind(state, 'waste'), ...byKind(state, 'cell')];
  const [top, topH] = band(left, byKind(state, 'foundation'), width);
  const y0 = topH + GAP * (compact ? 2 : 3);
  const rowGap = opts.narrow ? GAP : GAP * 1.6;
  const items = [...top];
  // A row is as tall as its tallest (wrapped) fan.
  const nrows = Math.ceil(fans.length / cols);
  const rowY = [y0];
  const heights = [];
  for (let r = 0; r < nrows; r++) {
    const inRow = fans.slice(r * cols, (r + 1) * cols);
    const h = Math.max(opts.rows?.[r] ?? 0, ...inRow.map((name) => fanHeight(slot, cards(name))));
    heights.push(h);
    rowY.push(rowY[r] + h + rowGap);
  }
  fans.forEach((name, i) => {
    const r = Math.floor(i / cols), c = i % cols;
    const h = fanHeight(slot, cards(name));
    items.push({ name, x: c * (slot + gap), y: rowY[r], w: slot, h, mode: 'fan-h' });
  });
  return { items, width, height: rowY[nrows] - rowGap, rows: heights };
}

/** The room a `w` × `h` box takes tilted `rot` degrees about its centre: [width, height]. */
function tilted(w, h, rot) {
  const a = (Math.abs(rot || 0) * Math.PI) / 180;
  return [w * Math.cos(a) + h * Math.sin(a), w * Math.sin(a) + h * Math.cos(a)];
}

/*
 * The two-deck House family's own tables (seed 002), on every screen:
 *
 * - `house` (House in the Woods, House on the Hill): the foundations in a
 *   block between two equal groups of fans, left and right;
 * - `big-fan` (Fan-shaped House): one large fan: every row bows upwards in
 *   the middle and its fans tilt outwards, the rows shorter towards the
 *   handle at the bottom;
 * - `birds` (Swallows): flying birds: the fans pair up into wings that rise
 *   towards their tips, the birds at staggered heights, with air between.
 *
 * A tilted fan is given the room its whole box takes on screen, tilted and
 * as tall as its row, so no two fans' boxes overlap however far they wrap.
 */
const SHAPES = {
  house: {
    // Fan columns on each side of the foundations.
    columns: ({ narrow, large }) => (narrow ? [large ? 1 : 2] : large ? [2] : [3, 4]),
  },
  'big-fan': {
    columns: ({ narrow, large }) => (narrow ? (large ? [3] : [4, 5]) : large ? [4, 5] : [7, 8, 9]),
    tilt: (narrow) => (narrow ? 8 : 13),
    bow: (narrow) => (narrow ? 0.4 : 0.8),
  },
  birds: {
    // Wings a row (a phone's row holds two birds and a glider).
    columns: ({ narrow, large }) => (narrow ? [large ? 2 : 4] : large ? [4, 6] : [6, 8, 10]),
    tilt: (narrow) => (narrow ? 8 : 12),
  },
};
// Swallows: the space between a bird's wings, between birds, and how high each bird of a row flies.
const BODY = 0.04;
const AIR = 0.35;
const FLOCK = [0.35, 0, 0.5, 0.15, 0.45];

/** How many fans stand in each row of a big fan of `n` fans at most `cols` a row: shorter towards the bottom. */
function fanRowLengths(n, cols, narrow) {
  const least = Math.max(2, Math.ceil(cols * (narrow ? 0.7 : 0.6)));
  for (let r = Math.ceil(n / cols); ; r++) {
    const lengths = Array.from({ length: r }, (_, i) => Math.round(cols - ((cols - least) * i) / Math.max(1, r - 1)));
    if (lengths.reduce((a, b) => a + b, 0) >= n) {
      let left = n;
      return lengths.map((l) => { const k = Math.min(l, left); left -= k; return k; }).filter((k) => k > 0);
    }
  }
}

/** The House family's table for `state` in `shape` (see SHAPES). */
function shaped(state, opts, shape) {
  const choices = SHAPES[shape].columns(opts);
  if (choices.length === 1 || !opts.aspect) return shapedWith(state, opts, shape, choices[0], (name) => count(state, name));
  // The column count that gives the widest cards on this screen, counted at
  // one line a fan (as dealt), so the choice holds for the whole game.
  const score = (g) => Math.min(1 / g.width, opts.aspect / g.height);
  let best = choices[0], bestScore = -1;
  for (const cols of choices) {
    const sc = score(shapedWith(state, { ...opts, rows: null }, shape, cols, () => 1));
    if (sc > bestScore + 1e-9) [best, bestScore] = [cols, sc];
  }
  return shapedWith(state, opts, shape, best, (name) => count(state, name));
}

/**
 * Swallows' rows: `birds` birds of two wings a row, or on a phone (Large
 * off) two birds and a bird gliding (one fan, level) a row, the glider at
 * the row's end and then at its start, so the table fits one screen; the
 * last row takes what is left. Returns, per row, the fans of each bird:
 * [[2, 2, 1], [1, 2, 2], ...].
 */
function flock(n, birds, glide) {
  const out = [];
  let left = n;
  for (let r = 0; left > 0; r++) {
    const row = glide ? (r % 2 ? [1, 2, 2] : [2, 2, 1]) : Array(birds).fill(2);
    const fit = [];
    for (const k of row) {
      if (left <= 0) break;
      fit.push(Math.min(k, left));
      left -= Math.min(k, left);
    }
    out.push(fit);
  }
  return out;
}

function shapedWith(state, opts, shape, cols, cards) {
  const fans = byKind(state, 'tableau');
  const narrow = !!opts.narrow;
  const slot = narrow ? COMPACT_SLOT : SLOT;
  const gap = narrow ? COMPACT_GAP : GAP;
  const rowGap = narrow ? GAP : GAP * 1.6;
  const house = shape === 'house';
  const tilt = SHAPES[shape].tilt?.(narrow) ?? 0;
  const bow = SHAPES[shape].bow?.(narrow) ?? 0;
  // Each fan's row, tilt and drop, and its column's place across as a
  // function of the columns' width `cw` (known once the rows' heights are).
  const at = [];
  if (house) {
    const half = Math.ceil(fans.length / 2);
    fans.forEach((_, i) => {
      const right = i >= half, j = right ? i - half : i;
      at.push({ r: Math.floor(j / cols), col: (j % cols) + (right ? cols : 0), rot: 0, dy: 0 });
    });
  } else if (shape === 'big-fan') {
    // Shorter rows stand centred under the longer ones, between their columns.
    fanRowLengths(fans.length, cols, narrow).forEach((len, r) => {
      for (let c = 0; c < len; c++) {
        const col = (cols - 1) / 2 + c - (len - 1) / 2;
        const u = cols > 1 ? (col - (cols - 1) / 2) / ((cols - 1) / 2) : 0; // -1..1 across the widest row
        at.push({ r, col, rot: u * tilt, dy: bow * u * u });
      }
    });
  } else {
    flock(fans.length, cols / 2, narrow && !opts.large).forEach((row, r) => {
      row.forEach((k, b) => {
        const dy = FLOCK[(b + r) % FLOCK.length] * (narrow ? 0.5 : 1);
        if (k === 1) at.push({ r, bird: b, rot: 0, dy: dy + 0.15 });
        else at.push({ r, bird: b, rot: tilt, dy }, { r, bird: b, rot: -tilt, dy });
      });
    });
  }
  const nrows = Math.max(0, ...at.map((p) => p.r + 1));
  // A row is as tall as its tallest fan, and as tall as drawn before (`opts.rows`).
  const heights = Array.from({ length: nrows }, (_, r) => Math.max(opts.rows?.[r] ?? 0, CH,
    ...fans.filter((_, i) => at[i].r === r).map((name) => fanHeight(slot, cards(name)))));
  const tallest = Math.max(CH, ...heights);
  // Room across for a fan: its box tilted, as tall as the tallest row.
  const roomW = (rot) => tilted(slot, tallest, rot)[0];
  const found = byKind(state, 'foundation');
  const left = [...byKind(state, 'stock'), ...byKind(state, 'waste'), ...byKind(state, 'cell')];
  const fcols = narrow || found.length <= 4 ? 1 : 2;
  const blockW = across(fcols);
  let width;
  if (house) {
    // The foundations' block between the two halves.
    const mid = gap * 3 + blockW + gap * 3;
    at.forEach((p) => { p.w = slot; p.cx = p.col * (slot + gap) + (p.col >= cols ? mid - gap : 0) + slot / 2; });
    width = cols * 2 * (slot + gap) - 2 * gap + mid;
  } else if (shape === 'big-fan') {
    const colW = Math.max(slot, ...at.map((p) => roomW(p.rot)));
    at.forEach((p) => { p.w = roomW(p.rot); p.cx = p.col * (colW + gap) + colW / 2; });
    width = cols * (colW + gap) - gap;
  } else {
    // Wings side by side, BODY apart; birds AIR apart; every row centred.
    width = 0;
    const rowsAt = Array.from({ length: nrows }, (_, r) => at.filter((p) => p.r === r));
    const spans = rowsAt.map((row) => {
      let x = 0;
      row.forEach((p, k) => {
        if (k > 0) x += row[k - 1].bird === p.bird ? BODY : AIR;
        p.w = p.rot ? roomW(p.rot) : slot;
        p.cx = x + p.w / 2;
        x += p.w;
      });
      return x;
    });
    width = Math.max(0, ...spans);
    rowsAt.forEach((row, r) => row.forEach((p) => { p.cx += (width - spans[r]) / 2; }));
  }
  const items = [];
  let y0 = 0, blockH = 0;
  if (house) {
    // The block: anything beside the foundations over them, then the foundations.
    const bx = cols * (slot + gap) - gap + gap * 3;
    const block = [...left, ...found];
    block.forEach((name, i) => items.push(stack(name, bx + (i % fcols) * (1 + GAP), Math.floor(i / fcols) * (CH + GAP))));
    blockH = Math.ceil(block.length / fcols) * (CH + GAP) - GAP;
  } else {
    const [top, topH] = band(left, found, width);
    items.push(...top);
    y0 = topH + GAP * (narrow ? 2 : 3);
  }
  // Each row as high as it can stand: every fan under every fan of the row
  // above that it shares room across with, their tilted boxes `rowGap` apart.
  at.forEach((p) => { p.h = tilted(slot, heights[p.r], p.rot)[1]; });
  const rowY = [y0];
  for (let r = 1; r < nrows; r++) {
    const above = at.filter((p) => p.r === r - 1), here = at.filter((p) => p.r === r);
    let y = rowY[r - 1] + Math.max(...above.map((a) => a.h)) * 0.25;
    for (const a of above) {
      for (const b of here) {
        if (Math.abs(a.cx - b.cx) < (a.w + b.w) / 2 + gap - 1e-9) y = Math.max(y, rowY[r - 1] + a.dy + a.h + rowGap - b.dy);
      }
    }
    rowY.push(y);
  }
  let bottom = y0;
  fans.forEach((name, i) => {
    const p = at[i];
    const h = fanHeight(slot, cards(name));
    // Top-aligned in its row, centred on its place across: the pile turns about its centre.
    const bh = tilted(slot, h, p.rot)[1];
    bottom = Math.max(bottom, rowY[p.r] + p.dy + p.h);
    items.push({ name, x: p.cx - slot / 2, y: rowY[p.r] + p.dy + bh / 2 - h / 2, w: slot, h, mode: 'fan-h', rot: p.rot });
  });
  return { items, width, height: Math.max(bottom, blockH), rows: heights };
}

/** Krug: the fans in a ring around the four bases (rows on narrow screens, or once a fan must wrap). */
function circle(state, opts) {
  const fans = byKind(state, 'tableau');
  const wraps = fans.some((name) => fanLines(SLOT, count(state, name)) > 1);
  if (opts.narrow || opts.large || wraps) return rows(state, opts);
  const found = byKind(state, 'foundation');
  const rx = 4.9, ry = 3.1;
  const width = rx * 2 + SLOT, height = ry * 2 + CH;
  const cx = width / 2, cy = height / 2;
  const items = fans.map((name, i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / fans.length;
    return { name, x: cx + rx * Math.cos(a) - SLOT / 2, y: cy + ry * Math.sin(a) - CH / 2, w: SLOT, h: CH, mode: 'fan-h' };
  });
  const fw = found.length * (1 + GAP) - GAP;
  found.forEach((name, i) => items.push(stack(name, cx - fw / 2 + i * (1 + GAP), cy - CH / 2)));
  const extra = [...byKind(state, 'stock'), ...byKind(state, 'waste')];
  extra.forEach((name, i) => items.push(stack(name, i * (1 + GAP), 0)));
  return { items, width, height };
}

/** The width of `n` cards side by side, `gap` apart. */
const across = (n, gap = GAP) => n * (1 + gap) - gap;

/** Vertical fans `names` side by side from `x`, `step` apart, at `y`; returns the tallest height. */
function columns(state, items, names, x, y, step, min) {
  let tallest = 0;
  names.forEach((name, i) => {
    const h = columnHeight(count(state, name), min);
    tallest = Math.max(tallest, h);
    items.push({ name, x: x + i * step, y, w: 1, h, mode: 'fan-v' });
  });
  return tallest;
}

/** Blondes and Brunettes: stock, waste and foundations; the reserve; nine columns. */
function blondes(state, opts) {
  const cols = byKind(state, 'tableau');
  const found = byKind(state, 'foundation');
  const items = [];
  const reserve = byKind(state, 'reserve');
  if (opts.narrow) {
    // Phones: nine columns side by side would leave cards about 35 px wide,
    // too small to read or touch. The columns go in two rows (five over
    // four), which nearly doubles the card width; the page scrolls once
    // the columns grow long. Stock over waste on the left, the foundations in two rows
    // beside them, the reserve spread across.
    const per = Math.ceil(cols.length / 2);
    const left = [...byKind(state, 'stock'), ...byKind(state, 'waste')];
    const fPer = Math.ceil(found.length / 2);
    const fw = across(fPer);
    const leftW = left.length ? 1 + GAP * 2 : 0;
    const width = Math.max(across(per), leftW + fw);
    left.forEach((n, i) => items.push(stack(n, 0, i * (CH + GAP))));
    found.forEach((n, i) => items.push(stack(n, width - fw + (i % fPer) * (1 + GAP), Math.floor(i / fPer) * (CH + GAP))));
    let y = Math.max(left.length, found.length ? 2 : 0) * (CH + GAP) + GAP;
    reserve.forEach((n) => items.push({ name: n, x: 0, y, w: width, h: fanHeight(width, count(state, n)), mode: 'fan-h', spread: 0.7 }));
    y += Math.max(CH, ...reserve.map((n) => fanHeight(width, count(state, n)))) + GAP * 3;
    const colX = (width - across(per)) / 2;
    // The first row keeps room for a few cards more, so the second does not
    // move at every build; the second grows downwards from its cards, and
    // the opening deal fits one screen.
    const first = columns(state, items, cols.slice(0, per), colX, y, 1 + GAP, CH * 1.9);
    y += first + GAP * 2;
    const second = columns(state, items, cols.slice(per), colX, y, 1 + GAP, CH);
    return { items, width, height: y + second };
  }
  const width = Math.max(across(cols.length), (found.length + 2) * (1 + GAP) + GAP);
  const [top, topH] = band([...byKind(state, 'stock'), ...byKind(state, 'waste')], found, width);
  items.push(...top);
  let y = topH + GAP * 2;
  const resW = 1 + 9 * 0.37;
  reserve.forEach((n) => items.push({ name: n, x: 0, y, w: resW, h: fanHeight(resW, count(state, n)), mode: 'fan-h' }));
  y += Math.max(CH, ...reserve.map((n) => fanHeight(resW, count(state, n)))) + GAP * 3;
  const tallest = columns(state, items, cols, 0, y, 1 + GAP, CH * 3.4);
  return { items, width, height: y + tallest };
}

/**
 * La Nivernaise: the foundations over the line of six; the flanks of four
 * cells either side of it, the stock to its left. Every line card shows its
 * index, however deep the line grows.
 */
function nivernaise(state, opts) {
  const line = byKind(state, 'tableau');
  const cells = byKind(state, 'cell');
  const found = byKind(state, 'foundation');
  const stock = byKind(state, 'stock');
  const lineH = CH * 2.8;
  const items = [];
  if (opts.narrow) {
    // Phones: the flanks go into one row under the foundations, and the
    // stock beside the line. Eight cards a row set the card width, so the
    // piles stand close and the line spreads over the whole width.
    const gap = 0.08;
    const width = across(Math.max(found.length, cells.length), gap);
    found.forEach((n, i) => items.push(stack(n, i * (1 + gap), 0)));
    let y = CH + GAP * 2;
    cells.forEach((n, i) => items.push(stack(n, i * (1 + gap), y)));
    y += CH + GAP * 3;
    stock.forEach((n) => items.push(stack(n, 0, y)));
    const lx = stock.length ? 1 + GAP * 2 : 0;
    const step = (width - lx - 1) / Math.max(1, line.length - 1);
    const tallest = columns(state, items, line, lx, y, step, CH * 2);
    return { items, width, height: y + Math.max(CH, tallest) };
  }
  const flankW = 2 * (1 + GAP) - GAP;
  const lineW = line.length * (1 + GAP * 2) - GAP * 2;
  const width = flankW * 2 + lineW + GAP * 8;
  const [top, topH] = band(stock, found, width);
  items.push(...top);
  const y = topH + GAP * 3;
  const half = Math.ceil(cells.length / 2);
  cells.forEach((n, i) => {
    const right = i >= half, j = right ? i - half : i;
    const x = (right ? width - flankW : 0) + (j % 2) * (1 + GAP);
    items.push(stack(n, x, y + Math.floor(j / 2) * (CH + GAP)));
  });
  const lx = flankW + GAP * 4;
  const tallest = columns(state, items, line, lx, y, 1 + GAP * 2, lineH);
  return { items, width, height: y + Math.max(tallest, 2 * (CH + GAP)) };
}

/**
 * The arrangement for `state` on a screen `opts = {narrow, large, aspect, rows}`:
 * `aspect` is the room for the board, its height over its width; `rows` the
 * least height of each row of fans (the `rows` of the arrangement drawn
 * before, or null), for the layouts that put fans in rows.
 */
export function arrange(state, opts) {
  switch (state.layout) {
    case 'house':
    case 'big-fan':
    case 'birds':
      return shaped(state, opts, state.layout);
    case 'circle':
      return circle(state, opts);
    case 'blondes-and-brunettes':
      return blondes(state, opts);
    case 'nivernaise':
      return nivernaise(state, opts);
    default:
      return rows(state, opts);
  }
}
