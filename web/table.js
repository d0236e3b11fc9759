// The table: draws a game's state, and turns clicks, drags and keys into API calls.
//
// The server is authoritative. Every action is a POST; its answer is the new
// state, which is drawn afresh (cards that moved slide from where they were).
// The only game knowledge here is the server's `legal` list.

import { api, ApiError } from './api.js';
import { baseMark, cardBack, cardFace, rankName, SUITS } from './cards.js';
import { enableDrag } from './dnd.js';
import { clearArrow, drawArrow } from './hint.js';
import { arrange, CH, isNarrow } from './layout.js';
import { dropTargets, findMove, movesByCard, pileOf } from './moves.js';
import { isLarge } from './prefs.js';
import { h } from './dom.js';

const FAN_DX = 0.36; // horizontal fan spread, in card widths
const FAN_DY = 0.36; // vertical fan spread, in card heights
const DOUBLE_CLICK_MS = 300;

export function formatTime(ms) {
  const s = Math.max(0, Math.floor((ms || 0) / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

const PILE_WORDS = { tableau: 'fan', foundation: 'foundation', cell: 'cell', reserve: 'reserve', waste: 'waste', stock: 'stock' };

function pileLabel(pile) {
  const n = pile.name.replace(/^\D+/, '');
  return `${PILE_WORDS[pile.kind] || pile.kind}${n ? ' ' + n : ''}`;
}

export class Table {
  constructor(root, state, game) {
    this.root = root;
    this.game = game; // the catalogue entry, for names and the redeal count
    this.state = state;
    this.busy = false;
    this.cycle = null; // the card last sent by a click, to move it on at the next click
    this.clickedAt = 0; // when the last click-move landed
    this.doubleClickMs = DOUBLE_CLICK_MS;
    this.hint = null;
    this.receivedAt = Date.now();
    this.build();
    this.render();
    enableDrag(this.board, {
      pick: (el) => this.pick(el),
      click: (el) => this.activate(el),
      drop: (move, cards, rects) => this.dropped(move, cards, rects),
      blocked: () => this.busy,
    });
    document.addEventListener('keydown', (e) => this.key(e));
    let timer = null;
    window.addEventListener('resize', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.render(), 120);
    });
    this.tick = setInterval(() => this.updateClock(), 1000);
  }

  // ---- page furniture -------------------------------------------------------

  build() {
    const s = this.state;
    const title = h('h1', { class: 'table-title' }, s.name_en || s.game, ' ', h('span', { class: 'ru', lang: 'ru' }, s.name_ru || ''));
    this.dealInfo = h('span', { class: 'deal-info' });
    this.share = h('a', { class: 'share', href: '#', title: 'A link to this deal, to share' });
    this.clock = h('span', { class: 'clock', 'aria-label': 'time' });
    this.moveCount = h('span', { class: 'move-count' });
    const btn = (label, title, fn, cls) => h('button', { type: 'button', class: cls, title, onclick: () => fn() }, label);
    this.undoBtn = btn('Undo', 'Undo (Ctrl+Z)', () => this.undo(), 'undo');
    this.redoBtn = btn('Redo', 'Redo (Ctrl+Y)', () => this.redo(), 'redo');
    this.hintBtn = btn('Hint', 'Hint (H)', () => this.askHint(), 'hint');
    this.redealBtn = btn('Redeal', 'Gather the fans and deal them again', () => this.play('redeal'), 'redeal');
    const levelQ = s.level && s.level !== 'any' ? `?level=${encodeURIComponent(s.level)}` : '';
    const newDeal = h('a', { class: 'button new-deal', href: `/play/${encodeURIComponent(s.game)}${levelQ}` }, 'New deal');
    const rules = h('a', { class: 'button rules-link', href: `/rules/${encodeURIComponent(s.game)}` }, 'Rules');
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.board = h('div', { class: 'board', role: 'region', 'aria-label': 'card table' });
    this.wrap = h('div', { class: 'board-wrap' }, this.board);
    this.root.replaceChildren(
      h('div', { class: 'table-head' }, title, h('div', { class: 'meta' }, this.dealInfo, this.share, this.moveCount, this.clock)),
      h('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'game actions' }, this.undoBtn, this.redoBtn, this.hintBtn, this.redealBtn, newDeal, rules),
      this.status,
      this.wrap,
    );
    if (this.game && this.game.redeals === 0) this.redealBtn.hidden = true;
  }

  updateFurniture() {
    const s = this.state;
    this.dealInfo.textContent = `Deal ${s.deal}${s.level && s.level !== 'any' ? ` · ${s.level[0].toUpperCase()}${s.level.slice(1)}` : ''}`;
    const link = `/play/${encodeURIComponent(s.game)}/${s.deal}`;
    this.share.href = link;
    this.share.textContent = link;
    this.moveCount.textContent = `${s.moves} move${s.moves === 1 ? '' : 's'}`;
    this.undoBtn.disabled = !s.can_undo;
    this.redoBtn.disabled = !s.can_redo;
    this.hintBtn.disabled = !!s.won; // nothing to hint at on a won table
    const canRedeal = s.legal.some((m) => m.kind === 'redeal');
    this.redealBtn.disabled = !canRedeal;
    this.redealBtn.textContent = `Redeal (${s.redeals_left ?? 0} left)`;
    this.root.dataset.moves = String(s.moves);
    this.root.dataset.won = String(!!s.won);
    this.updateClock();
  }

  updateClock() {
    const s = this.state;
    const running = !s.won && s.moves > 0;
    this.clock.textContent = formatTime(s.elapsed_ms + (running ? Date.now() - this.receivedAt : 0));
  }

  say(text, extra) {
    this.status.replaceChildren(text || '');
    if (extra) this.status.append(' ', extra);
    this.status.classList.toggle('shown', !!text);
  }

  // ---- drawing --------------------------------------------------------------

  /** Card width in px that fits the arrangement on this screen. */
  cardWidth(arr, narrow, large) {
    const availW = Math.max(200, this.wrap.clientWidth - 16);
    const top = this.wrap.getBoundingClientRect().top + window.scrollY;
    const availH = Math.max(240, window.innerHeight - top - 16);
    let cw = availW / arr.width;
    if (!narrow && !large) cw = Math.min(cw, availH / arr.height);
    if (large && ['blondes-and-brunettes', 'nivernaise'].includes(this.state.layout)) cw *= 1.35;
    return Math.max(narrow ? 30 : 40, Math.min(cw, large ? 170 : 125));
  }

  snapshot() {
    const rects = new Map();
    for (const el of this.board.querySelectorAll('.card[data-key]')) rects.set(el.dataset.key, el.getBoundingClientRect());
    const stock = this.board.querySelector('.pile[data-kind="stock"]');
    return { rects, stock: stock ? stock.getBoundingClientRect() : null };
  }

  render(before = null) {
    const s = this.state;
    const focused = document.activeElement && this.board.contains(document.activeElement)
      ? { pile: document.activeElement.dataset.pile, index: document.activeElement.dataset.index } : null;
    const narrow = isNarrow(window.innerWidth);
    const large = isLarge();
    const arr = arrange(s, { narrow, large });
    const cw = this.cardWidth(arr, narrow, large);
    const ch = cw * CH;
    this.cw = cw;
    this.byCard = movesByCard(s);
    this.board.replaceChildren();
    this.board.dataset.layout = s.layout;
    this.board.style.width = `${Math.ceil(arr.width * cw)}px`;
    this.board.style.height = `${Math.ceil(arr.height * cw)}px`;
    this.board.style.setProperty('--cw', `${cw}px`);
    const seen = new Map();
    for (const place of arr.items) {
      const pile = pileOf(s, place.name);
      if (!pile) continue;
      this.board.appendChild(this.drawPile(pile, place, cw, ch, seen));
    }
    this.updateFurniture();
    this.updateStatus();
    if (before) this.animate(before);
    if (focused) this.refocus(focused);
    // The win screen follows the position: an undo after a win takes it away,
    // and a second win brings it back (unless the player closed it meanwhile).
    if (s.won) this.showWin();
    else {
      this.root.querySelector('.win')?.remove();
      this.winClosed = false;
    }
  }

  drawPile(pile, place, cw, ch, seen) {
    // An empty foundation shows what opens it (the server's `base`), faintly.
    const base = pile.kind === 'foundation' && !pile.cards.length && pile.base ? pile.base : null;
    const opens = base ? `: ${rankName(base.rank)}${base.suit ? ` of ${SUITS[base.suit]?.[2] ?? base.suit}` : ' of any suit'} goes here` : '';
    const el = h('div', {
      class: `pile ${place.mode} kind-${pile.kind}`,
      'data-pile': pile.name,
      'data-kind': pile.kind,
      role: 'group',
      'aria-label': `${pileLabel(pile)}${pile.kind === 'stock' ? '' : pile.cards.length ? `, ${pile.cards.length} card${pile.cards.length === 1 ? '' : 's'}` : `, empty${opens}`}`,
    });
    Object.assign(el.style, {
      left: `${place.x * cw}px`,
      top: `${place.y * cw}px`,
      width: `${place.w * cw}px`,
      height: `${place.h * cw}px`,
    });
    if (place.rot) el.style.transform = `rotate(${place.rot}deg)`;
    if (pile.kind === 'stock') {
      el.appendChild(this.drawStock(pile));
      return el;
    }
    if (base) el.appendChild(baseMark(base.rank, base.suit));
    const n = pile.cards.length;
    let dx = 0, dy = 0, from = 0;
    if (place.mode === 'fan-h' && n > 1) dx = Math.min((place.spread || FAN_DX) * cw, (place.w * cw - cw) / (n - 1));
    if (place.mode === 'fan-v' && n > 1) dy = Math.min(FAN_DY * ch, (place.h * cw - ch) / (n - 1));
    if (place.mode === 'stack') from = Math.max(0, n - 2);
    const top = n - 1;
    // Keys name a card by its code and how many copies came before it, so the
    // same card can be found again after a move and slide from where it was.
    pile.cards.forEach((c, i) => {
      const k = seen.get(c.card) || 0;
      seen.set(c.card, k + 1);
      if (i < from) return;
      const moves = this.byCard.get(`${pile.name}:${i}`);
      const card = h('div', {
        class: `card${moves ? ' playable' : ''}${i === top ? ' top' : ''}`,
        'data-pile': pile.name,
        'data-index': i,
        'data-card': c.card,
        'data-key': `${c.card}#${k}`,
        role: 'button',
        tabindex: moves ? 0 : -1,
        'aria-label': c.label,
        'aria-disabled': moves ? null : 'true',
      });
      card.style.left = `${i * dx}px`;
      card.style.top = `${i * dy}px`;
      card.appendChild(cardFace(c.card));
      el.appendChild(card);
    });
    return el;
  }

  drawStock(pile) {
    const count = pile.count ?? 0;
    const canDeal = this.state.legal.some((m) => m.kind === 'deal');
    const card = h('div', {
      class: `card stock${count ? '' : ' empty'}${canDeal ? ' playable' : ''}`,
      'data-pile': pile.name,
      'data-index': -1,
      role: 'button',
      tabindex: canDeal ? 0 : -1,
      'aria-label': `stock, ${count} card${count === 1 ? '' : 's'}${canDeal ? ': deal' : ''}`,
      'aria-disabled': canDeal ? null : 'true',
    });
    if (count) card.appendChild(cardBack());
    card.appendChild(h('span', { class: 'count' }, String(count)));
    return card;
  }

  /** FLIP: cards that changed place slide from their old rect to the new one. */
  animate(before) {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const moved = [];
    for (const el of this.board.querySelectorAll('.card[data-key]')) {
      const old = before.rects.get(el.dataset.key) || (before.fresh ? before.stock : null);
      if (!old) continue;
      const now = el.getBoundingClientRect();
      const dx = old.left - now.left, dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      el.style.transition = 'none';
      el.style.transform = `translate(${dx}px, ${dy}px)`;
      el.classList.add('moving');
      el.parentElement.classList.add('animating');
      moved.push(el);
    }
    if (!moved.length) return;
    void this.board.offsetWidth; // commit the start positions before transitioning
    for (const el of moved) {
      el.style.transition = 'transform 180ms ease-out';
      el.style.transform = '';
      const done = () => {
        el.classList.remove('moving');
        el.parentElement?.classList.remove('animating');
        el.style.transition = '';
      };
      el.addEventListener('transitionend', done, { once: true });
      setTimeout(done, 260);
    }
  }

  refocus({ pile, index }) {
    const same = this.board.querySelector(`.card[data-pile="${CSS.escape(pile || '')}"][data-index="${index}"][tabindex="0"]`);
    const inPile = this.board.querySelector(`.pile[data-pile="${CSS.escape(pile || '')}"] .card.top[tabindex="0"]`);
    const any = this.board.querySelector('.card[tabindex="0"]');
    (same || inPile || any)?.focus({ preventScroll: true });
  }

  updateStatus() {
    const s = this.state;
    if (s.won) this.say('Won!');
    else if (s.stuck) this.say('No moves left: undo, or start a new deal.');
    else if (s.draw_available && s.legal.some((m) => m.kind === 'draw')) this.say('The draw is available: a covered card can be played once.');
    else this.say('');
  }

  showWin() {
    if (this.winClosed || this.root.querySelector('.win')) return;
    const s = this.state;
    const again = h('a', { class: 'button primary', href: `/play/${encodeURIComponent(s.game)}` }, 'New deal');
    const close = () => { this.winClosed = true; box.remove(); };
    const box = h('div', { class: 'win', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'win-title' },
      h('div', { class: 'win-box' },
        h('h2', { id: 'win-title' }, 'You won!'),
        h('p', {}, `${s.name_en}, deal ${s.deal}: ${formatTime(s.elapsed_ms)} and ${s.moves} moves.`),
        h('div', { class: 'win-actions' }, again,
          h('a', { class: 'button', href: '/' }, 'All games'),
          h('button', { type: 'button', class: 'win-undo', title: 'Undo (Ctrl+Z): the win stays counted', onclick: () => this.undo() }, 'Undo'),
          h('button', { type: 'button', class: 'win-close', onclick: close }, 'Look at the table'))));
    this.root.appendChild(box);
    again.focus();
  }

  // ---- actions --------------------------------------------------------------

  /** Runs one server action at a time; the answer (a state) is drawn with animation. */
  async act(fn, opts = {}) {
    if (this.busy) return;
    this.busy = true;
    document.body.dataset.busy = '1';
    const before = opts.before || this.snapshot();
    try {
      const next = await fn();
      if (next) this.setState(next, before);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Another tab moved on: take the server's state silently.
        const fresh = err.body?.state || (await api.state(this.state.uid).catch(() => null));
        this.cycle = null;
        if (fresh) this.setState(fresh, before);
      } else {
        this.say(err instanceof ApiError ? err.message : 'The server cannot be reached; try again.');
        const fresh = await api.state(this.state.uid).catch(() => null);
        if (fresh) { this.state = fresh; this.receivedAt = Date.now(); this.render(); this.say(err.message); }
      }
    } finally {
      this.busy = false;
      delete document.body.dataset.busy;
    }
  }

  setState(next, before) {
    const fresh = before && before.stock ? { ...before, fresh: true } : before;
    this.state = next;
    this.receivedAt = Date.now();
    this.hint = null;
    delete this.root.dataset.hint;
    this.redealBtn.classList.remove('hinted');
    this.render(fresh);
  }

  play(move, opts) {
    clearArrow(this.board);
    return this.act(() => api.move(this.state.uid, move, this.state.version), opts);
  }

  undo() {
    if (!this.state.can_undo) return;
    this.cycle = null;
    clearArrow(this.board);
    this.act(() => api.undo(this.state.uid, this.state.version));
  }

  redo() {
    if (!this.state.can_redo) return;
    this.cycle = null;
    clearArrow(this.board);
    this.act(() => api.redo(this.state.uid, this.state.version));
  }

  /** The cards a press on `el` would pick up and where they may go, for dragging. */
  pick(el) {
    const moves = this.byCard.get(`${el.dataset.pile}:${el.dataset.index}`);
    if (!moves || this.busy) return null;
    const pile = el.closest('.pile');
    const index = Number(el.dataset.index);
    const cards = [...pile.querySelectorAll('.card')].filter((c) => Number(c.dataset.index) >= index);
    return { cards, targets: dropTargets(this.state, moves) };
  }

  dropped(move, cards, rects) {
    this.cycle = null;
    const before = this.snapshot();
    // The dropped cards slide on from where the pointer let go of them.
    cards.forEach((c, i) => c.dataset.key && rects[i] && before.rects.set(c.dataset.key, rects[i]));
    this.play(move, { before });
  }

  /**
   * A click (or Enter/Space) on a card: send it to its first destination in
   * the server's order; a further click on the same card, straight after,
   * takes that move back and plays its next destination, and after the last
   * one the card returns home. A click on the stock deals.
   */
  activate(el) {
    if (this.busy) return;
    const s = this.state;
    const pile = pileOf(s, el.dataset.pile);
    if (!pile) return;
    if (pile.kind === 'stock') {
      const deal = s.legal.find((m) => m.kind === 'deal');
      if (deal) this.play(deal.move);
      else this.say(s.legal.some((m) => m.kind === 'redeal') ? 'The stock is empty: you may redeal.' : 'The stock is empty.');
      return;
    }
    // A double-click is one click: its second half, landing on the moved card
    // or on the card it uncovered, must not play again.
    if (Date.now() - this.clickedAt < this.doubleClickMs) return;
    const c = this.cycle;
    if (c && c.after === s.moves && el.dataset.pile === c.at && el.dataset.card === c.card) {
      const next = c.i + 1;
      const uid = s.uid;
      clearArrow(this.board);
      this.act(async () => {
        const back = await api.undo(uid, s.version);
        if (next >= c.list.length) return back;
        return api.move(uid, c.list[next].move, back.version);
      }).then(() => {
        this.cycle = next < c.list.length && this.state.moves === c.after ? { ...c, i: next, at: c.list[next].to } : null;
        this.clickedAt = Date.now();
      });
      return;
    }
    const moves = this.byCard.get(`${el.dataset.pile}:${el.dataset.index}`);
    if (!moves) {
      el.classList.remove('nope');
      void el.offsetWidth;
      el.classList.add('nope');
      return;
    }
    const first = moves[0];
    const expectAfter = s.moves + 1;
    this.play(first.move).then(() => {
      this.clickedAt = Date.now();
      this.cycle = this.state.moves === expectAfter && moves.length > 1
        ? { card: el.dataset.card, list: moves, i: 0, at: first.to, after: expectAfter }
        : null;
    });
  }

  async askHint() {
    if (this.busy || this.state.won) return;
    this.busy = true;
    document.body.dataset.busy = '1';
    this.say('Thinking…');
    try {
      const hint = await api.hint(this.state.uid);
      this.showHint(hint);
    } catch (err) {
      this.root.dataset.hint = 'error';
      this.say(err.message || 'No hint now.');
    } finally {
      this.busy = false;
      delete document.body.dataset.busy;
    }
  }

  showHint(hint) {
    clearArrow(this.board);
    this.hint = hint;
    this.root.dataset.hint = hint.kind;
    if (hint.kind === 'no-win') {
      this.say('No win is possible from here: undo a few moves.');
      return;
    }
    if (!hint.move) {
      this.say(hint.message || 'No hint for this position.');
      return;
    }
    const heuristic = hint.kind === 'heuristic';
    const playBtn = h('button', { type: 'button', class: 'play-hint', onclick: () => this.play(hint.move) }, 'Play it');
    const text = heuristic ? 'Heuristic hint (the solver ran out of time, so this may not lead to a win)' : 'Hint';
    if (hint.move === 'deal') {
      const stock = this.board.querySelector('.card.stock');
      if (stock) drawArrow(this.board, stock, null, heuristic);
      this.say(`${text}: deal from the stock.`, playBtn);
      return;
    }
    if (hint.move === 'redeal') {
      this.redealBtn.classList.add('hinted');
      this.say(`${text}: redeal.`, playBtn);
      return;
    }
    const m = /^([a-z]+\d*)(?:@(\d+))?>([a-z]+\d*)$/.exec(hint.move);
    const fromName = hint.from || (m && m[1]);
    const toName = hint.to || (m && m[3]);
    const legal = findMove(this.state, hint.move);
    const pile = this.board.querySelector(`.pile[data-pile="${CSS.escape(fromName || '')}"]`);
    let source = null;
    if (pile) {
      const idx = m && m[2] !== undefined ? Number(m[2]) : null;
      if (idx !== null) source = pile.querySelector(`.card[data-index="${idx}"]`);
      else if (legal && legal.card) {
        const all = [...pile.querySelectorAll(`.card[data-card="${CSS.escape(legal.card)}"]`)];
        source = all[all.length - 1];
      }
      source = source || pile.querySelector('.card.top') || pile;
    }
    const destPile = this.board.querySelector(`.pile[data-pile="${CSS.escape(toName || '')}"]`);
    const dest = destPile ? destPile.querySelector('.card.top') || destPile : null;
    if (source && dest) drawArrow(this.board, source, dest, heuristic);
    const label = source?.getAttribute('aria-label');
    this.say(`${text}: ${label && source.classList.contains('card') ? label : fromName} to ${destPile ? destPile.getAttribute('aria-label').split(',')[0] : toName}.`, playBtn);
  }

  key(e) {
    if (e.target.closest?.('input, select, textarea')) return;
    const k = e.key.toLowerCase();
    const mod = e.ctrlKey || e.metaKey;
    if (mod && k === 'z' && !e.shiftKey) { e.preventDefault(); this.undo(); return; }
    if (mod && (k === 'y' || (k === 'z' && e.shiftKey))) { e.preventDefault(); this.redo(); return; }
    if (mod || e.altKey) return;
    if (k === 'h') { e.preventDefault(); this.askHint(); return; }
    if (k === 'escape') {
      clearArrow(this.board);
      if (this.root.querySelector('.win')) {
        this.winClosed = true;
        this.root.querySelector('.win').remove();
      }
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && e.target.classList?.contains('card') && this.board.contains(e.target)) {
      e.preventDefault();
      this.activate(e.target);
    }
  }
}
