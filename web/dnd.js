// Drag and drop with Pointer Events (mouse, pen and touch alike).
//
// A press that moves less than a few pixels is a click. Otherwise the picked
// cards are cloned into a floating layer that follows the pointer, the legal
// destinations light up (the caller supplies them from `legal`, no round trip),
// and the drop goes to the lit pile under the pointer, or failing that the lit
// pile the dragged card overlaps most. Anywhere else the cards fly back.
// Held near the screen's top or bottom edge, a drag scrolls the page (the
// faster the nearer the edge), so a tall table on a phone can be crossed in
// one drag: the floating cards stay under the finger while the table moves.

const THRESHOLD = 6;
const EDGE = 60; // px from the top or bottom edge where a drag scrolls the page
const SPEED = 22; // px per frame at the very edge

/** How fast (px per frame, up negative) a drag at `y` scrolls the page. */
function edgeSpeed(y) {
  const h = window.visualViewport?.height || window.innerHeight;
  const edge = Math.min(EDGE, h / 6);
  if (y < edge) return -Math.max(2, SPEED * (1 - Math.max(0, y) / edge));
  if (y > h - edge) return Math.max(2, SPEED * (1 - Math.max(0, h - y) / edge));
  return 0;
}

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Handlers:
 * - `pick(cardEl)` → `{cards: [elements], targets: Map(pileName → move)}` or null;
 * - `click(cardEl)` for a press without a drag;
 * - `drop(move, cards, rects)`: the dragged card elements and the screen rects
 *   they were dropped at;
 * - `blocked()` → true while a request is in flight.
 */
export function enableDrag(board, handlers) {
  let press = null;

  function pileEl(name) {
    return board.querySelector(`.pile[data-pile="${CSS.escape(name)}"]`);
  }

  function start(p, e) {
    const picked = handlers.pick(p.el);
    if (!picked) return false;
    p.picked = picked;
    p.layer = document.createElement('div');
    p.layer.className = 'drag-layer';
    p.layer.style.setProperty('--k', board.style.getPropertyValue('--k')); // the cards' scale, outside the board
    p.ghosts = picked.cards.map((c) => {
      const r = c.getBoundingClientRect();
      const g = c.cloneNode(true);
      g.removeAttribute('tabindex');
      g.removeAttribute('data-key');
      g.classList.add('ghost');
      Object.assign(g.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px`, transform: '' });
      p.layer.appendChild(g);
      c.classList.add('lifted');
      return { g, r };
    });
    document.body.appendChild(p.layer);
    p.targets = [...picked.targets.keys()].map((n) => pileEl(n)).filter(Boolean);
    p.targets.forEach((t) => t.classList.add('drop-target'));
    board.classList.add('dragging');
    move(p, e);
    return true;
  }

  function move(p, e) {
    p.at = { clientX: e.clientX, clientY: e.clientY };
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    for (const { g } of p.ghosts) g.style.transform = `translate(${dx}px, ${dy}px)`;
    const t = target(p, e);
    p.targets.forEach((el) => el.classList.toggle('drop-hover', el === t));
    if (!p.scrolling && speed(p)) {
      p.scrolling = requestAnimationFrame(() => scroll(p));
    }
  }

  /**
   * The scroll speed for drag `p`: only towards an edge the pointer has moved
   * towards, so a drag that starts near the bottom edge does not run away.
   */
  function speed(p) {
    const v = edgeSpeed(p.at.clientY);
    return (v < 0 && p.at.clientY < p.y) || (v > 0 && p.at.clientY > p.y) ? v : 0;
  }

  /** One frame of scrolling while the pointer rests near an edge. */
  function scroll(p) {
    p.scrolling = 0;
    if (press !== p || !p.dragging) return;
    const v = speed(p);
    if (!v) return;
    const page = document.scrollingElement || document.documentElement;
    const was = page.scrollTop;
    window.scrollBy(0, v);
    if (page.scrollTop === was) return; // at the end of the page
    const t = target(p, p.at);
    p.targets.forEach((el) => el.classList.toggle('drop-hover', el === t));
    p.scrolling = requestAnimationFrame(() => scroll(p));
  }

  function target(p, e) {
    const under = document.elementsFromPoint(e.clientX, e.clientY);
    for (const el of under) {
      const pile = el.closest?.('.pile');
      if (pile && p.targets.includes(pile)) return pile;
    }
    const top = p.ghosts[0].g.getBoundingClientRect();
    let best = null, area = 0;
    for (const t of p.targets) {
      const a = overlap(top, t.getBoundingClientRect());
      if (a > area) { area = a; best = t; }
    }
    return best;
  }

  function finish(p) {
    if (p.scrolling) cancelAnimationFrame(p.scrolling);
    p.scrolling = 0;
    p.targets.forEach((t) => t.classList.remove('drop-target', 'drop-hover'));
    board.classList.remove('dragging');
    p.layer.remove();
    p.picked.cards.forEach((c) => c.classList.remove('lifted'));
  }

  function flyBack(p) {
    for (const { g } of p.ghosts) {
      g.style.transition = 'transform 160ms ease-out';
      g.style.transform = '';
    }
    setTimeout(() => finish(p), 170);
  }

  board.addEventListener('pointerdown', (e) => {
    if (press || e.button !== 0 || handlers.blocked()) return;
    const el = e.target.closest('.card');
    if (!el || !board.contains(el)) return;
    press = { el, id: e.pointerId, x: e.clientX, y: e.clientY, dragging: false };
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      // A synthetic event may have no capturable pointer; window listeners still work.
    }
  });

  window.addEventListener('pointermove', (e) => {
    const p = press;
    if (!p || e.pointerId !== p.id) return;
    if (!p.dragging) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < THRESHOLD) return;
      p.dragging = start(p, e);
      if (!p.dragging) { press = null; return; }
    }
    e.preventDefault();
    move(p, e);
  }, { passive: false });

  const up = (e) => {
    const p = press;
    if (!p || e.pointerId !== p.id) return;
    press = null;
    if (!p.dragging) {
      if (e.type === 'pointerup') handlers.click(p.el);
      return;
    }
    const t = e.type === 'pointerup' ? target(p, e) : null;
    if (!t) { flyBack(p); return; }
    const rects = p.ghosts.map(({ g }) => g.getBoundingClientRect());
    finish(p);
    handlers.drop(p.picked.targets.get(t.dataset.pile), p.picked.cards, rects);
  };
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
}
