// Where each pile sits on the table, per layout kind (`state.layout`).
//
// Every arrangement is computed in units of one card width (a card is 1 × 1.4),
// so the page only has to pick the card width that fits the screen. A placement
// is `{name, x, y, w, h, mode, rot}`: `mode` is how the pile shows its cards —
// `fan-h` (spread to the right), `fan-v` (spread downwards) or `stack` (only the
// top shows) — `rot` an optional tilt in degrees for the decorative layouts, and
// `spread` how far a fan's cards may lie apart (in card widths) when room allows.

export const CH = 1.4; // card height in card widths
const GAP = 0.16; // space between piles
const SLOT = 2.05; // width of a horizontal fan's slot
const NARROW_PX = 640;

export function isNarrow(width) {
  return width < NARROW_PX;
}

function byKind(state, kind) {
  return state.piles.filter((p) => p.kind === kind).map((p) => p.name);
}

function stack(name, x, y) {
  return { name, x, y, w: 1, h: CH, mode: 'stack' };
}

/**
 * A header band: stock, waste (and anything in `left`) on the left, the
 * foundations on the right, wrapping into as many rows as `width` needs.
 * Returns [placements, height used].
 */
function band(left, foundations, width) {
  const out = [];
  left.forEach((n, i) => out.push(stack(n, i * (1 + GAP), 0)));
  const leftW = left.length ? left.length * (1 + GAP) + GAP * 2 : 0;
  const room = Math.max(1, Math.floor((width - leftW + GAP) / (1 + GAP)));
  // Balanced rows: eight foundations that need two rows go four and four.
  const rows = Math.ceil(foundations.length / room) || 0;
  const perRow = rows ? Math.ceil(foundations.length / rows) : 1;
  // With nothing on the left the foundations sit centred over the table.
  const right = left.length ? width : (width + perRow * (1 + GAP) - GAP) / 2;
  foundations.forEach((n, i) => {
    const r = Math.floor(i / perRow), c = i % perRow;
    const x = right - (perRow - c) * (1 + GAP) + GAP;
    out.push(stack(n, x, r * (CH + GAP)));
  });
  const h = Math.max(left.length ? CH : 0, rows * (CH + GAP) - GAP);
  return [out, h];
}

function fanColumns(n, narrow, large) {
  if (narrow) return large ? 2 : 3;
  if (large) return n > 18 ? 5 : 4;
  if (n <= 12) return Math.min(n, 6);
  return n <= 18 ? 6 : 7;
}

/** Fans in a grid under a band of stock, waste and foundations. `shape` bends it. */
function rows(state, opts, shape = 'grid') {
  const fans = byKind(state, 'tableau');
  const cols = fanColumns(fans.length, opts.narrow, opts.large);
  const width = cols * (SLOT + GAP) - GAP;
  const left = [...byKind(state, 'stock'), ...byKind(state, 'waste'), ...byKind(state, 'cell')];
  const [top, topH] = band(left, byKind(state, 'foundation'), width);
  const y0 = topH + GAP * 3;
  const rowH = CH + GAP * 1.6;
  const bend = shape === 'grid' ? 0 : 0.9;
  const items = [...top];
  fans.forEach((name, i) => {
    const r = Math.floor(i / cols), c = i % cols;
    const u = cols > 1 ? (c - (cols - 1) / 2) / ((cols - 1) / 2) : 0; // -1..1 across a row
    let rot = 0, dy = 0;
    if (shape === 'big-fan') {
      // One large fan: each row bows upwards in the middle, fans tilt outwards.
      dy = bend * u * u;
      rot = u * 14;
    } else if (shape === 'birds') {
      // Flying birds: fans pair up into wings that rise towards their tips.
      const leftWing = c % 2 === 0;
      rot = leftWing ? -12 : 12;
      dy = 0.25 + (r % 2 ? 0.2 : 0);
    }
    items.push({ name, x: c * (SLOT + GAP), y: y0 + r * (rowH + bend * 0.3) + dy, w: SLOT, h: CH, mode: 'fan-h', rot });
  });
  const nrows = Math.ceil(fans.length / cols);
  return { items, width, height: y0 + nrows * (rowH + bend * 0.3) + bend };
}

/** Krug: the fans in a ring around the four bases (rows on narrow screens). */
function circle(state, opts) {
  if (opts.narrow || opts.large) return rows(state, opts);
  const fans = byKind(state, 'tableau');
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

/** The width of `n` cards side by side. */
const across = (n) => n * (1 + GAP) - GAP;

/** Blondes and Brunettes: stock, waste and foundations; the reserve; nine columns. */
function blondes(state, opts) {
  const cols = byKind(state, 'tableau');
  const found = byKind(state, 'foundation');
  const colsW = cols.length * (1 + GAP) - GAP;
  const items = [];
  let y = 0, width;
  const reserve = byKind(state, 'reserve');
  const resW = 1 + 9 * 0.37;
  if (opts.narrow) {
    // Phones: nine columns side by side would leave cards about 35 px wide,
    // too small to read or touch. The columns go in two rows (five over
    // four), which nearly doubles the card width; the page scrolls a little
    // instead. Stock over waste on the left, the foundations in two rows
    // beside them, the reserve spread across.
    const per = Math.ceil(cols.length / 2);
    const left = [...byKind(state, 'stock'), ...byKind(state, 'waste')];
    const fPer = Math.ceil(found.length / 2);
    const fw = fPer * (1 + GAP) - GAP;
    const leftW = left.length ? 1 + GAP * 2 : 0;
    width = Math.max(per * (1 + GAP) - GAP, leftW + fw);
    left.forEach((n, i) => items.push(stack(n, 0, i * (CH + GAP))));
    found.forEach((n, i) => items.push(stack(n, width - fw + (i % fPer) * (1 + GAP), Math.floor(i / fPer) * (CH + GAP))));
    y = Math.max(left.length, found.length ? 2 : 0) * (CH + GAP) + GAP;
    reserve.forEach((n) => items.push({ name: n, x: 0, y, w: width, h: CH, mode: 'fan-h', spread: 0.7 }));
    y += CH + GAP * 3;
    const colH = CH * 2.7;
    const colX = (width - across(per)) / 2;
    cols.forEach((n, i) => items.push({
      name: n, x: colX + (i % per) * (1 + GAP), y: y + Math.floor(i / per) * (colH + GAP * 2), w: 1, h: colH, mode: 'fan-v',
    }));
    const rowsN = Math.ceil(cols.length / per);
    return { items, width, height: y + rowsN * colH + (rowsN - 1) * GAP * 2 };
  } else {
    width = Math.max(colsW, (found.length + 2) * (1 + GAP) + GAP);
    const [top, topH] = band([...byKind(state, 'stock'), ...byKind(state, 'waste')], found, width);
    items.push(...top);
    y = topH + GAP * 2;
    reserve.forEach((n) => items.push({ name: n, x: 0, y, w: resW, h: CH, mode: 'fan-h' }));
    y += CH + GAP * 3;
  }
  const colH = CH * 3.4;
  cols.forEach((n, i) => items.push({ name: n, x: i * (1 + GAP), y, w: 1, h: colH, mode: 'fan-v' }));
  return { items, width, height: y + colH };
}

/** La Nivernaise: foundations; the flanks of four cells either side of the line of six. */
function nivernaise(state, opts) {
  const line = byKind(state, 'tableau');
  const cells = byKind(state, 'cell');
  const found = byKind(state, 'foundation');
  const stock = byKind(state, 'stock');
  const lineH = CH * 2.8;
  const items = [];
  if (opts.narrow) {
    // Phones: the flanks go into one row under the foundations.
    const width = Math.max(found.length, cells.length) * (1 + GAP) - GAP;
    found.forEach((n, i) => items.push(stack(n, i * (1 + GAP), 0)));
    let y = CH + GAP * 2;
    cells.forEach((n, i) => items.push(stack(n, i * (1 + GAP), y)));
    y += CH + GAP * 3;
    stock.forEach((n) => items.push(stack(n, 0, y)));
    const lx = stock.length ? 1 + GAP * 3 : 0;
    const step = (width - lx + GAP) / line.length;
    line.forEach((n, i) => items.push({ name: n, x: lx + i * step, y, w: 1, h: lineH, mode: 'fan-v' }));
    return { items, width, height: y + lineH };
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
  line.forEach((n, i) => items.push({ name: n, x: lx + i * (1 + GAP * 2), y, w: 1, h: lineH, mode: 'fan-v' }));
  return { items, width, height: y + Math.max(lineH, 2 * (CH + GAP)) };
}

/** The arrangement for `state` on a screen `opts = {narrow, large}`. */
export function arrange(state, opts) {
  switch (state.layout) {
    case 'big-fan':
      return rows(state, opts, opts.narrow ? 'grid' : 'big-fan');
    case 'birds':
      return rows(state, opts, opts.narrow ? 'grid' : 'birds');
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
