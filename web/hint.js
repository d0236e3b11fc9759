// The hint arrow: an SVG overlay on the board, from the card to its destination.
// Before it is drawn the page scrolls so the card is on screen (with its
// destination too when both fit), so an arrow never starts off-screen.

const NS = 'http://www.w3.org/2000/svg';
const MARGIN_TOP = 40; // room for the status line, which stays at the top of a phone's screen
const MARGIN = 8;

/**
 * Scrolls the page so `from` is on screen, and `to` as well when both fit;
 * when they do not, `from` goes to the edge nearer `to`, so the arrow
 * points the way to scroll.
 */
function bringIntoView(from, to) {
  const h = window.innerHeight;
  const a = from.getBoundingClientRect();
  const b = to ? to.getBoundingClientRect() : a;
  const top = Math.min(a.top, b.top), bottom = Math.max(a.bottom, b.bottom);
  let dy = 0;
  if (bottom - top <= h - MARGIN_TOP - MARGIN) {
    if (top < MARGIN_TOP) dy = top - MARGIN_TOP;
    else if (bottom > h - MARGIN) dy = bottom - (h - MARGIN);
  } else if (b.top < a.top) {
    dy = a.bottom - (h - MARGIN);
  } else {
    dy = a.top - MARGIN_TOP;
  }
  if (Math.abs(dy) < 1) return;
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollBy({ top: dy, behavior: smooth ? 'smooth' : 'instant' });
}

function centre(el, origin) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2 - origin.left, r.top + r.height / 2 - origin.top];
}

/** Removes any arrow from `board`. */
export function clearArrow(board) {
  board.querySelector('.hint-overlay')?.remove();
  board.querySelectorAll('.hint-source, .hint-dest').forEach((el) => el.classList.remove('hint-source', 'hint-dest'));
}

/**
 * Draws an arrow from element `from` to element `to` (both inside `board`);
 * with `to` null, rings `from` instead (a hint to click the stock).
 */
export function drawArrow(board, from, to, heuristic) {
  clearArrow(board);
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('class', `hint-overlay${heuristic ? ' heuristic' : ''}`);
  svg.setAttribute('width', String(board.clientWidth));
  svg.setAttribute('height', String(board.clientHeight));
  svg.setAttribute('aria-hidden', 'true');
  const defs = document.createElementNS(NS, 'defs');
  const marker = document.createElementNS(NS, 'marker');
  Object.entries({ id: 'hint-head', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' })
    .forEach(([k, v]) => marker.setAttribute(k, String(v)));
  const head = document.createElementNS(NS, 'path');
  head.setAttribute('d', 'M0 0 10 5 0 10z');
  marker.appendChild(head);
  defs.appendChild(marker);
  svg.appendChild(defs);
  from.classList.add('hint-source');
  bringIntoView(from, to);
  const origin = board.getBoundingClientRect();
  const [x1, y1] = centre(from, origin);
  if (to) {
    to.classList.add('hint-dest');
    const [x2, y2] = centre(to, origin);
    // A gentle curve, so arrows between neighbours stay visible.
    const mx = (x1 + x2) / 2 - (y2 - y1) * 0.15, my = (y1 + y2) / 2 + (x2 - x1) * 0.15;
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', `M${x1} ${y1} Q${mx} ${my} ${x2} ${y2}`);
    path.setAttribute('class', 'arrow');
    path.setAttribute('marker-end', 'url(#hint-head)');
    svg.appendChild(path);
  } else {
    const r = from.getBoundingClientRect();
    const ring = document.createElementNS(NS, 'ellipse');
    Object.entries({ cx: x1, cy: y1, rx: r.width * 0.75, ry: r.height * 0.7, class: 'ring' }).forEach(([k, v]) => ring.setAttribute(k, String(v)));
    svg.appendChild(ring);
  }
  board.appendChild(svg);
}
