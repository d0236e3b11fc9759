// Card faces, the card back and empty-pile slots, drawn as SVG by our own code.
//
// A face or back is one <img> of a self-contained SVG (a data: address, made
// once per card and shared by both decks' copies): a card on the table is two
// elements, so a new card width or a redrawn pile costs the page little
// style and layout work, and a cached image shows at once. Empty-pile marks
// are small inline <svg>s that `<use>` the suit shapes of a hidden sprite
// (`installSprite`). Only the top-left corner index is guaranteed visible in
// a fan, so it is drawn large: rank and suit must stay readable at phone size.

const NS = 'http://www.w3.org/2000/svg';

/** Suit letter → [symbol, colour class]. Spoken names are in the message catalogue (i18n.js). */
export const SUITS = {
  S: ['♠', 'black'],
  H: ['♥', 'red'],
  D: ['♦', 'red'],
  C: ['♣', 'black'],
};

const SUIT_PATHS = {
  H: 'M50 92C22 68 2 50 2 28 2 12 14 2 28 2c10 0 18 6 22 15 4-9 12-15 22-15 14 0 26 10 26 26 0 22-20 40-48 64z',
  D: 'M50 2 88 50 50 98 12 50z',
  S: 'M50 2C78 30 98 44 98 63c0 15-11 25-24 25-9 0-16-4-20-10 1 10 5 16 13 20H33c8-4 12-10 13-20-4 6-11 10-20 10C13 88 2 78 2 63 2 44 22 30 50 2z',
  C: 'M50 4a21 21 0 0 1 17 33 21 21 0 1 1 1 39c-6 0-11-3-14-6 1 12 5 18 12 22H34c7-4 11-10 12-22-3 3-8 6-14 6a21 21 0 1 1 1-39A21 21 0 0 1 50 4z',
};

/** Splits "10H" / "TH" / "AS" into [rank text, suit letter]. */
export function parseCard(code) {
  const suit = code.slice(-1).toUpperCase();
  let rank = code.slice(0, -1).toUpperCase();
  if (rank === 'T') rank = '10';
  return [rank, suit];
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** Adds the suit symbols the empty-pile marks use to the document once. */
export function installSprite() {
  if (document.getElementById('card-sprite')) return;
  const svg = el('svg', { id: 'card-sprite', width: 0, height: 0, 'aria-hidden': 'true' });
  svg.style.position = 'absolute';
  const defs = el('defs', {}, svg);
  for (const [s, d] of Object.entries(SUIT_PATHS)) {
    const sym = el('symbol', { id: `suit-${s}`, viewBox: '0 0 100 100' }, defs);
    el('path', { d }, sym);
  }
  document.body.prepend(svg);
}

// Pip centres (x, y, upside-down) on a 100×140 card for ranks 2..10.
const PIPS = (() => {
  const L = 30, C = 50, R = 70, T = 38, B = 114, M = 76;
  const q1 = 63, q3 = 89;
  const row = (y, flip) => [[L, y, flip], [R, y, flip]];
  return {
    2: [[C, T, false], [C, B, true]],
    3: [[C, T, false], [C, M, false], [C, B, true]],
    4: [...row(T, false), ...row(B, true)],
    5: [...row(T, false), [C, M, false], ...row(B, true)],
    6: [...row(T, false), ...row(M, false), ...row(B, true)],
    7: [...row(T, false), [C, (T + M) / 2, false], ...row(M, false), ...row(B, true)],
    8: [...row(T, false), [C, (T + M) / 2, false], ...row(M, false), [C, (M + B) / 2, true], ...row(B, true)],
    9: [...row(T, false), ...row(q1, false), [C, M, false], ...row(q3, true), ...row(B, true)],
    10: [...row(T, false), [C, 50, false], ...row(q1, false), ...row(q3, true), [C, 102, true], ...row(B, true)],
  };
})();

function suitUse(parent, suit, x, y, size, flip = false) {
  const g = el('use', { href: `#suit-${suit}`, x: x - size / 2, y: y - size / 2, width: size, height: size }, parent);
  if (flip) g.setAttribute('transform', `rotate(180 ${x} ${y})`);
  return g;
}

// The faces' own style sheet: an image does not see the page's CSS. The
// suits' colours are the page's (`--red`, `--ink` in style.css).
const FACE_STYLE = `
.paper { fill: #fff; stroke: #8d8a80; stroke-width: 1; }
.court { fill: #f7f1de; stroke: currentColor; stroke-width: 1.5; opacity: 0.85; }
.rank { font: 700 27px "DejaVu Sans", Verdana, Arial, sans-serif; fill: currentColor; }
.court-letter { font: 700 40px Georgia, "DejaVu Serif", serif; fill: currentColor; }`;

/** A self-contained SVG `svg` as an <img> that screen readers skip (the card element carries the name). */
function image(svg, cls) {
  svg.setAttribute('xmlns', NS);
  const src = `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
  return () => {
    const img = document.createElement('img');
    img.className = cls;
    img.alt = '';
    img.draggable = false;
    img.src = src;
    return img;
  };
}

const faces = new Map(); // code → makes an <img> of its face

/** The face of `code` ("10H") as an <img> of a 100 × 140 SVG. */
export function cardFace(code) {
  if (!faces.has(code)) faces.set(code, image(drawFace(code), 'face'));
  return faces.get(code)();
}

/** The colour of the page's CSS variable `name` (set on the root by style.css). */
function pageColour(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function drawFace(code) {
  const [rank, suit] = parseCard(code);
  const colour = SUITS[suit]?.[1] === 'red' ? pageColour('--red') : pageColour('--ink');
  const svg = el('svg', { viewBox: '0 0 100 140', width: 100, height: 140, color: colour, fill: colour });
  el('style', {}, svg).textContent = FACE_STYLE;
  const sym = el('symbol', { id: `suit-${suit}`, viewBox: '0 0 100 100' }, el('defs', {}, svg));
  if (SUIT_PATHS[suit]) el('path', { d: SUIT_PATHS[suit] }, sym);
  el('rect', { x: 1, y: 1, width: 98, height: 138, rx: 8, class: 'paper' }, svg);
  const court = !PIPS[rank] && rank !== 'A';
  // Court card: a framed panel under the letter and the suit, no artwork.
  if (court) el('rect', { x: 30, y: 24, width: 52, height: 92, rx: 5, class: 'court' }, svg);
  const ink = el('g', { class: 'ink' }, svg);
  // Corner index: large, top-left (the part a fan leaves visible), and mirrored.
  const idx = (g) => {
    const t = el('text', { x: 15, y: 30, 'text-anchor': 'middle', class: 'rank' }, g);
    t.textContent = rank;
    if (rank === '10') {
      t.setAttribute('textLength', '25');
      t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
    }
    suitUse(g, suit, 15, 45, 19);
  };
  idx(ink);
  idx(el('g', { transform: 'rotate(180 50 70)' }, ink));
  if (PIPS[rank]) {
    for (const [x, y, flip] of PIPS[rank]) suitUse(ink, suit, x, y, rank === '10' || rank === '9' ? 17 : 19, flip);
  } else if (rank === 'A') {
    suitUse(ink, suit, 55, 76, 44);
  } else if (court) {
    const t = el('text', { x: 56, y: 76, 'text-anchor': 'middle', class: 'court-letter' }, ink);
    t.textContent = rank;
    suitUse(ink, suit, 56, 97, 22);
  }
  return svg;
}

let back = null; // makes an <img> of the back

/** The back of a card (the stock), as an <img>. */
export function cardBack() {
  if (!back) {
    const svg = el('svg', { viewBox: '0 0 100 140', width: 100, height: 140 });
    backPattern(el('defs', {}, svg));
    el('rect', { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: '#fff', stroke: '#0d2a4d', 'stroke-width': 1.5 }, svg);
    el('rect', { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: 'url(#back-pattern)' }, svg);
    el('rect', { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: 'none', stroke: '#e8d9a8', 'stroke-width': 2 }, svg);
    back = image(svg, 'back');
  }
  return back();
}

/** The back's diagonal stripes, as `#back-pattern` in `defs`. */
function backPattern(defs) {
  const pat = el('pattern', { id: 'back-pattern', width: 10, height: 10, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  el('rect', { width: 10, height: 10, fill: '#1f4e8c' }, pat);
  el('rect', { width: 5, height: 10, fill: '#2a62aa' }, pat);
}

/**
 * The faint mark on an empty foundation: the rank that opens it and, when the
 * foundation has a fixed suit, that suit. What opens it comes from the server.
 */
export function baseMark(rank, suit) {
  const colour = SUITS[suit]?.[1] ?? 'any';
  const svg = el('svg', { viewBox: '0 0 100 140', class: `base-mark ${colour}`, 'aria-hidden': 'true' });
  const t = el('text', { x: 50, y: suit ? 66 : 86, 'text-anchor': 'middle', class: 'base-rank' }, svg);
  t.textContent = rank;
  if (rank === '10') {
    t.setAttribute('textLength', '60');
    t.setAttribute('lengthAdjust', 'spacingAndGlyphs');
  }
  if (suit) suitUse(svg, suit, 50, 96, 34);
  return svg;
}
