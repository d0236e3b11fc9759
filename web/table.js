// The table: draws a game's state, and turns clicks, drags and keys into API calls.
//
// The server is authoritative. Every action is a POST; its answer is the new
// state. Actions queue: each is sent when the answer to the one before has
// arrived, and is read against that answer (a click names a card by its
// place; if the card is no longer there or has no move, it does nothing).
// Only the piles whose cards or moves changed are drawn again, and the cards
// the server says moved (`played`, by place) slide there by transforms.
// The only game knowledge here is the server's `legal` list.

import { api, ApiError } from './api.js';
import { ask } from './confirm.js';
import { baseMark, cardBack, cardFace } from './cards.js';
import { enableDrag } from './dnd.js';
import { clearArrow, drawArrow } from './hint.js';
import { fanOffsets, fitTable, isNarrow } from './layout.js';
import { dropTargets, findMove, movesByCard, pileOf } from './moves.js';
import { autoMove, isLarge, setAutoMove } from './prefs.js';
import { StatusLine } from './status.js';
import { SolutionPlayer } from './watch.js';
import { showWin } from './win.js';
import { h, setText } from './dom.js';
import { icon } from './icons.js';
import { baseName, cardName, errorText, formatTime, gameNames, language, pileName, t } from './i18n.js';

const DOUBLE_CLICK_MS = 300;
// How long a card slides to its new place: short enough that a move lands
// within 200 ms of the click on loopback (bench/table measures it).
const SLIDE_MS = 130;

/**
 * The table's keys, by physical key (`KeyboardEvent.code`), so they work in
 * any keyboard layout: H asks for a hint, P plays the hint shown, Ctrl+Z
 * undoes, Ctrl+Y or Ctrl+Shift+Z redoes (the rules page lists them, rules.js).
 */
const KEYS = { hint: 'KeyH', playHint: 'KeyP', undo: 'KeyZ', redo: 'KeyY' };

/**
 * Tabs of this browser tell each other a game's new version, or the game
 * that a restart put in its place (see `follow`).
 */
const CHANNEL = 'patience.games';

/**
 * A length of `n` card widths, as CSS: places follow the board's `--cw`, so a
 * new card width (the board grew, the window changed) redraws nothing.
 */
const inCards = (n) => (n ? `calc(var(--cw) * ${+n.toFixed(5)})` : '0');

/** A pile's spoken name as its game names it: «веер 3», «стопка линии 2», "foundation 5". */
function pileLabel(state, pile) {
  return pileName(state.game, pile.kind, pile.name);
}

export class Table {
  constructor(root, state, game) {
    this.root = root;
    this.game = game; // the catalogue entry, for names and the redeal count
    this.state = state;
    this.busy = false;
    this.queue = []; // actions waiting for the answer to the one in flight
    this.lastClick = { pile: null, card: null, at: 0 }; // a double click's second half is not a second action
    this.cycle = null; // the card last sent by a click, to move it on at the next click
    this.clickedAt = 0; // when the last click-move landed
    this.doubleClickMs = DOUBLE_CLICK_MS;
    this.hint = null;
    this.receivedAt = Date.now();
    this.build();
    // The words above the board first: the board's room is measured below them.
    this.byCard = movesByCard(state);
    this.updateFurniture();
    this.render();
    enableDrag(this.board, {
      pick: (el) => this.pick(el),
      click: (el) => this.activate(el),
      drop: (move, cards, rects) => this.dropped(move, cards, rects),
      // Presses always reach the queue; a drag starts only on an idle table (`pick`).
      blocked: () => false,
    });
    document.addEventListener('keydown', (e) => this.key(e));
    let timer = null;
    window.addEventListener('resize', () => {
      clearTimeout(timer);
      timer = setTimeout(() => { this.cw = null; this.rows = null; this.render(); }, 120);
    });
    this.tick = setInterval(() => this.updateClock(), 1000);
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    this.channel?.addEventListener('message', (e) => this.follow(e.data));
    this.skipToBoard();
  }

  /** The page's skip link leads to the board, past the head and the toolbar. */
  skipToBoard() {
    const skip = document.querySelector('.skip-link');
    if (!skip) return;
    skip.href = '#board';
    skip.dataset.i18n = 'site.skipTable';
    skip.textContent = t('site.skipTable');
  }

  /** A game in progress: a move made and not won; leaving it loses something. */
  inProgress() {
    return this.state.moves > 0 && !this.state.won;
  }

  /**
   * Asks before leaving the game in progress for another game: `restart`
   * (this deal afresh, counted as the same game) or `newDeal` (this game
   * counts as lost). Nothing to ask when no move was made or the game is won.
   */
  confirmLeave(kind) {
    if (!this.inProgress()) return Promise.resolve(true);
    this.watcher.stop();
    return ask({
      title: `leave.${kind}.title`,
      text: `leave.${kind}.text`,
      params: { moves: t('table.moves', { n: this.state.moves }) },
      yes: `leave.${kind}.yes`,
      no: 'leave.stay',
    });
  }

  /** A link that leaves this game: asked about when followed in this tab. */
  guardLink(link, kind) {
    link.addEventListener('click', async (e) => {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || !this.inProgress()) return;
      e.preventDefault();
      if (await this.confirmLeave(kind)) location.assign(link.href);
    });
  }

  /**
   * Another tab of this browser changed game `uid` to `version`: this tab,
   * on the same game and behind it, takes the server's state (the server's
   * version decides, not the message). A tab on a game started over in
   * another (`restarted`, the new game's uid) moves to the new game, as
   * that tab did.
   */
  async follow(msg) {
    if (!msg || msg.uid !== this.state.uid) return;
    if (typeof msg.restarted === 'string') {
      this.watcher.stop();
      location.assign(`/game/${encodeURIComponent(msg.restarted)}`);
      return;
    }
    if (!(msg.version > this.state.version)) return;
    this.act(async () => {
      if (!(msg.version > this.state.version)) return null;
      const fresh = await api.state(this.state.uid);
      return fresh.version !== this.state.version ? fresh : null;
    });
  }

  // ---- page furniture -------------------------------------------------------

  build() {
    const s = this.state;
    this.title = h('h1', { class: 'table-title' });
    this.dealInfo = h('span', { class: 'deal-info' });
    this.share = h('a', { class: 'share', href: '#' });
    this.clock = h('span', { class: 'clock' });
    this.moveCount = h('span', { class: 'move-count' });
    const btn = (fn, cls) => h('button', { type: 'button', class: cls, onclick: () => fn() });
    // On a phone these show their icon alone (their name stays the button's label).
    const iconic = (fn, cls, name) => {
      const b = h('button', { type: 'button', class: `${cls} iconic`, onclick: () => fn() }, icon(name), h('span', { class: 'label' }));
      return b;
    };
    this.undoBtn = iconic(() => this.undo(), 'undo', 'undo');
    this.undoBtn.setAttribute('aria-keyshortcuts', 'Control+Z');
    this.redoBtn = iconic(() => this.redo(), 'redo', 'redo');
    this.redoBtn.setAttribute('aria-keyshortcuts', 'Control+Y');
    this.hintBtn = btn(() => this.askHint(), 'hint');
    this.hintBtn.setAttribute('aria-keyshortcuts', 'H');
    this.watchBtn = btn(() => this.watch(), 'watch');
    this.statusLine = new StatusLine((n) => this.goBack(n));
    this.watcher = new SolutionPlayer(this);
    this.redealBtn = iconic(() => this.play('redeal'), 'redeal', 'redeal');
    this.redealBtn.append(h('span', { class: 'short', 'aria-hidden': 'true' }));
    this.finishBtn = btn(() => this.finish(), 'finish');
    this.restartBtn = btn(() => this.restart(), 'restart');
    this.copyBtn = btn(() => this.copyLink(), 'copy-link');
    this.autoBox = h('input', { type: 'checkbox', class: 'auto-move', onchange: () => setAutoMove(this.autoBox.checked) });
    this.autoBox.checked = autoMove();
    this.autoText = h('span');
    this.autoLabel = h('label', { class: 'auto-label' }, this.autoBox, ' ', this.autoText);
    this.announcer = h('div', { class: 'announce', 'aria-live': 'polite', 'aria-atomic': 'true',
      style: 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap' });
    const levelQ = s.level && s.level !== 'any' ? `?level=${encodeURIComponent(s.level)}` : '';
    this.newDeal = h('a', { class: 'button new-deal', href: `/play/${encodeURIComponent(s.game)}${levelQ}` });
    this.guardLink(this.newDeal, 'newDeal');
    this.guardLink(this.share, 'restart');
    this.rulesLink = h('a', { class: 'button rules-link', href: `/rules/${encodeURIComponent(s.game)}` });
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.board = h('div', { class: 'board', role: 'region', id: 'board', tabindex: '-1' });
    this.wrap = h('div', { class: 'board-wrap' }, this.board);
    // The less used actions: in the row on a desktop, behind "⋯" on a phone.
    this.more = h('div', { class: 'toolbar-more', id: 'toolbar-more', onclick: (e) => { if (e.target.closest('button, a')) this.openMore(false); } },
      this.watchBtn, this.newDeal, this.restartBtn, this.copyBtn, this.rulesLink, this.autoLabel, this.statusLine.label);
    this.moreBtn = h('button', { type: 'button', class: 'more-button iconic', 'aria-expanded': 'false', 'aria-controls': 'toolbar-more',
      onclick: () => this.openMore(this.moreBtn.getAttribute('aria-expanded') !== 'true') }, icon('more'));
    this.toolbar = h('div', { class: 'toolbar', role: 'toolbar' }, this.undoBtn, this.redoBtn, this.hintBtn, this.redealBtn, this.finishBtn,
      this.more, this.moreBtn);
    document.addEventListener('pointerdown', (e) => { if (!this.toolbar.contains(e.target)) this.openMore(false); });
    this.root.replaceChildren(
      h('div', { class: 'table-head' }, this.title, h('div', { class: 'meta' }, this.dealInfo, this.share, this.moveCount, this.clock)),
      this.toolbar,
      this.watcher.bar,
      this.statusLine.el,
      this.status,
      this.announcer,
      this.wrap,
    );
    if (this.game && this.game.redeals === 0) this.redealBtn.hidden = true;
    this.labelFurniture();
  }

  /** The words of the page furniture that do not change with the position. */
  labelFurniture() {
    const [name, other] = gameNames(this.state);
    this.title.replaceChildren(name, ' ', h('span', { class: 'other-name', lang: language() === 'ru' ? 'en' : 'ru' }, other));
    this.share.title = t('table.share');
    this.clock.setAttribute('aria-label', t('table.time'));
    const words = [
      [this.undoBtn, 'table.undo', 'table.undoTitle'],
      [this.redoBtn, 'table.redo', 'table.redoTitle'],
      [this.hintBtn, 'table.hint', 'table.hintTitle'],
      [this.watchBtn, 'watch.show', 'watch.showTitle'],
      [this.finishBtn, 'table.finish', 'table.finishTitle'],
      [this.restartBtn, 'table.restart', 'table.restartTitle'],
      [this.copyBtn, 'table.copyLink', 'table.copyLinkTitle'],
    ];
    for (const [b, label, title] of words) {
      const text = b.querySelector('.label');
      if (text) {
        text.textContent = t(label);
        b.setAttribute('aria-label', t(label));
      } else {
        b.textContent = t(label);
      }
      b.title = t(title);
    }
    this.moreBtn.setAttribute('aria-label', t('table.more'));
    this.moreBtn.title = t('table.more');
    this.newDeal.textContent = t('table.newDeal');
    this.autoText.textContent = t('table.auto');
    this.autoLabel.title = t('table.autoTitle');
    this.rulesLink.textContent = t('table.rules');
    this.board.setAttribute('aria-label', t('table.board'));
    this.toolbar.setAttribute('aria-label', t('table.toolbar'));
  }

  /** Opens or closes the phone's menu of the less used actions. */
  openMore(open) {
    this.moreBtn.setAttribute('aria-expanded', String(open));
    this.toolbar.classList.toggle('open', open);
  }

  /**
   * Redraws every word in the page's new language, from the state on screen:
   * no request, so the position, the redo list and an open win screen stay.
   */
  relabel() {
    this.labelFurniture();
    this.statusLine.relabel();
    this.watcher.relabel();
    const winOpen = !!this.root.querySelector('.win');
    this.root.querySelector('.win')?.remove();
    // The win screen comes back in the new language if it was open (render
    // draws it again unless the player had closed it).
    if (winOpen) this.winClosed = false;
    this.render();
    if (this.hint) this.showHint(this.hint);
  }

  updateFurniture() {
    const s = this.state;
    setText(this.dealInfo, [t('table.deal', { deal: s.deal }), ...this.gradeWords(s)].join(' · '));
    const link = `/play/${encodeURIComponent(s.game)}/${s.deal}`;
    this.share.href = link;
    setText(this.share, link);
    setText(this.moveCount, t('table.moves', { n: s.moves }));
    this.undoBtn.disabled = !s.can_undo;
    this.redoBtn.disabled = !s.can_redo;
    this.hintBtn.disabled = !!s.won; // nothing to hint at on a won table
    this.watchBtn.disabled = !!s.won;
    const canRedeal = s.legal.some((m) => m.kind === 'redeal');
    this.redealBtn.disabled = !canRedeal;
    const left = s.redeals_left ?? 0;
    const redeal = t('table.redeal', { left: t('table.redealLeft', { n: left }) });
    setText(this.redealBtn.querySelector('.label'), redeal);
    setText(this.redealBtn.querySelector('.short'), String(left));
    this.redealBtn.setAttribute('aria-label', redeal);
    this.redealBtn.title = t('table.redealTitle', { left: t('table.redealsLeft', { n: left }) });
    // A disabled Redeal says why, on hover and to screen readers.
    const why = !canRedeal && s.redeal_refusal ? t(`redeal.why.${s.redeal_refusal}`) : '';
    if (why) this.redealBtn.title = why;
    if (why) this.redealBtn.setAttribute('aria-description', why);
    else this.redealBtn.removeAttribute('aria-description');
    this.finishBtn.hidden = !s.finish;
    this.toolbar.classList.toggle('finishing', !!s.finish);
    this.root.dataset.moves = String(s.moves);
    this.root.dataset.won = String(!!s.won);
    this.updateClock();
  }

  /**
   * The deal's level as the graded library holds it (else the level asked
   * for), and how often the person-like player won it, when the state says.
   */
  gradeWords(s) {
    const words = [];
    const levels = ['easy', 'medium', 'hard'];
    if (levels.includes(s.grade)) words.push(t(`level.${s.grade}`));
    else if (s.grade === 'unwinnable') words.push(t('grade.unwinnable'));
    else if (levels.includes(s.level)) words.push(t(`level.${s.level}`));
    const p = s.person;
    if (p && Number.isInteger(p.wins) && Number.isInteger(p.runs) && p.runs > 0) {
      words.push(t('table.person', { n: p.wins, runs: p.runs }));
    }
    return words;
  }

  updateClock() {
    const s = this.state;
    const running = !s.won && s.moves > 0;
    // Counted the server's way: the time since its answer, at most its idle cap.
    const since = Math.min(Date.now() - this.receivedAt, s.idle_cap_ms ?? Infinity);
    setText(this.clock, formatTime(s.elapsed_ms + (running ? since : 0)));
  }

  say(text, extra) {
    // The same words again, with nothing beside them: nothing to redraw.
    if (!extra && !this.status.firstElementChild && this.status.textContent === (text || '')) return;
    this.status.replaceChildren(text || '');
    if (extra) this.status.append(' ', extra);
    this.status.classList.toggle('shown', !!text);
  }

  // ---- drawing --------------------------------------------------------------

  /** The room for the board on this screen, in px. */
  room(narrow, large) {
    const pad = narrow ? 4 : 16;
    const top = this.wrap.getBoundingClientRect().top + window.scrollY;
    return { availW: this.wrap.clientWidth - pad, availH: window.innerHeight - top - 16, narrow, large };
  }

  /**
   * The state drawn now, before an action changes it. Where its cards lie on
   * screen is read when the answer is drawn (`render`), and only for the
   * piles the answer changed: a card that moved left a changed pile. `rects`
   * may hold places read earlier (the cards a drag let go of).
   */
  snapshot() {
    return { rects: new Map(), state: this.state };
  }

  /** Fills `before` with the screen places of the cards in the old pile elements `els`, and the stock's. */
  measure(before, els) {
    for (const pile of els) {
      if (pile.dataset.kind === 'stock') before.stock = pile.getBoundingClientRect();
      for (const el of pile.querySelectorAll('.card[data-key]')) {
        if (!before.rects.has(el.dataset.key)) before.rects.set(el.dataset.key, el.getBoundingClientRect());
      }
    }
    if (!before.stock) before.stock = this.board.querySelector('.pile[data-kind="stock"]')?.getBoundingClientRect() ?? null;
  }

  /**
   * What decides how a pile is drawn: the same signature, the same element.
   * Where it stands and which of its cards can move are not part of it:
   * those are updated in place.
   */
  signature(pile, place) {
    const canDeal = pile.kind === 'stock' && this.stockWords().join('/');
    return [language(), place.w, place.h, place.rot || 0, place.mode, place.spread || 0,
      pile.count ?? '', canDeal, pile.cards.map((c) => c.card).join(' ')].join('|');
  }

  /** Marks the cards of pile element `el` that have a move now, and only those, as playable. */
  markPlayable(el) {
    for (const card of el.querySelectorAll('.card[data-key]')) this.markCard(card, !!this.byCard.get(card.dataset.key));
  }

  markCard(card, can) {
    card.classList.toggle('playable', can);
    card.tabIndex = can ? 0 : -1;
    if (can) card.removeAttribute('aria-disabled');
    else card.setAttribute('aria-disabled', 'true');
  }

  render(before = null) {
    const s = this.state;
    const focused = document.activeElement && this.board.contains(document.activeElement)
      ? { pile: document.activeElement.dataset.pile, index: document.activeElement.dataset.index } : null;
    const narrow = isNarrow(window.innerWidth);
    const large = isLarge();
    const room = this.room(narrow, large);
    // The card width and the rows of fans hold while the game goes on and
    // the table fits, and grow back when it has room again; a resize or the
    // Large switch starts afresh (both null).
    const { arr, cw } = fitTable(s, { narrow, large, aspect: room.availH / Math.max(1, room.availW) }, room, this.cw, this.rows);
    this.rows = arr.rows ?? null;
    this.cw = cw;
    this.byCard = movesByCard(s);
    const playable = new Map();
    for (const key of this.byCard.keys()) {
      const [name, i] = key.split(':');
      if (!playable.has(name)) playable.set(name, []);
      playable.get(name).push(i);
    }
    // Only the piles whose signature changed are drawn again. Where their
    // cards lay is read first, before anything on the page changes.
    const old = new Map([...this.board.querySelectorAll(':scope > .pile')].map((el) => [el.dataset.pile, el]));
    const piles = new Map(s.piles.map((p) => [p.name, p]));
    const plan = [];
    for (const place of arr.items) {
      const pile = piles.get(place.name);
      if (!pile) continue;
      const sig = this.signature(pile, place);
      const play = (playable.get(pile.name) || []).join(',');
      const el = old.get(pile.name);
      plan.push({ pile, place, sig, play, el, redraw: !el || el.dataset.sig !== sig });
    }
    if (before) this.measure(before, plan.filter((x) => x.redraw && x.el).map((x) => x.el));
    this.setBoard(s.layout, `${Math.ceil(arr.width * cw)}px`, `${Math.ceil(arr.height * cw)}px`, `${cw}px`);
    const changed = [];
    let touched = 0;
    let prev = null;
    for (const { pile, place, sig, play, redraw } of plan) {
      let el = old.get(pile.name);
      old.delete(pile.name);
      if (!redraw && el.dataset.play !== play) {
        this.markPlayable(el);
        el.dataset.play = play;
        touched += 1;
      }
      if (!redraw) {
        // A pile that only moved (a row above it grew) keeps its element.
        const left = inCards(place.x), top = inCards(place.y);
        if (el.style.left !== left) el.style.left = left;
        if (el.style.top !== top) el.style.top = top;
      }
      if (redraw) {
        const fresh = this.drawPile(pile, place);
        fresh.dataset.sig = sig;
        fresh.dataset.play = play;
        if (el) el.replaceWith(fresh);
        else this.board.insertBefore(fresh, prev ? prev.nextSibling : this.board.firstChild);
        el = fresh;
        changed.push(el);
      }
      prev = el;
    }
    for (const el of old.values()) el.remove();
    this.board.dataset.drawn = String(changed.length);
    this.board.dataset.touched = String(touched);
    this.updateFurniture();
    this.updateStatus();
    this.statusLine.update(s);
    // Focus first: focusing reads the layout, which the slides' start must not dirty again.
    const moved = this.focusMoved && (s.played || []).find((p) => !p.auto && p.to);
    this.focusMoved = false;
    const target = moved && this.board.querySelector(`.card[data-key="${CSS.escape(`${moved.to}:${moved.to_index}`)}"]`);
    if (target) target.focus({ preventScroll: true });
    else if (focused && !(this.board.contains(document.activeElement) && document.activeElement.tabIndex === 0)) this.refocus(focused);
    if (before) this.animate(before, changed);
    // The win screen follows the position: an undo after a win takes it away,
    // and a second win brings it back (unless the player closed it meanwhile).
    if (s.won) showWin(this);
    else {
      this.root.querySelector('.win')?.remove();
      this.winClosed = false;
    }
  }

  /** The board's layout, size and card width, each written only when it changes. */
  setBoard(layout, width, height, cw) {
    const b = this.board;
    if (b.dataset.layout !== layout) b.dataset.layout = layout;
    if (b.style.width !== width) b.style.width = width;
    if (b.style.height !== height) b.style.height = height;
    if (b.style.getPropertyValue('--cw') !== cw) {
      b.style.setProperty('--cw', cw);
      b.style.setProperty('--k', String(parseFloat(cw) / 100));
    }
  }

  drawPile(pile, place) {
    // An empty foundation shows what opens it (the server's `base`), faintly.
    const base = pile.kind === 'foundation' && !pile.cards.length && pile.base ? pile.base : null;
    const name = pileLabel(this.state, pile);
    let label = name;
    if (pile.kind !== 'stock') {
      if (pile.cards.length) label = t('pile.withCards', { pile: name, cards: t('pile.cards', { n: pile.cards.length }) });
      else if (base) label = t('pile.emptyOpens', { pile: name, card: baseName(base.rank, base.suit) });
      else label = t('pile.empty', { pile: name });
    }
    const el = h('div', {
      class: `pile ${place.mode} kind-${pile.kind}`,
      'data-pile': pile.name,
      'data-kind': pile.kind,
      role: 'group',
      'aria-label': label,
    });
    Object.assign(el.style, {
      left: inCards(place.x),
      top: inCards(place.y),
      width: inCards(place.w),
      height: inCards(place.h),
    });
    if (place.rot) el.style.transform = `rotate(${place.rot}deg)`;
    if (pile.kind === 'stock') {
      el.appendChild(this.drawStock(pile));
      return el;
    }
    if (base) el.appendChild(baseMark(base.rank, base.suit));
    const n = pile.cards.length;
    const at = fanOffsets(place, n);
    const from = place.mode === 'stack' ? Math.max(0, n - 2) : 0;
    const top = n - 1;
    // Keys name a card by its place; the server's `played` says which place
    // each card came from (two decks hold two of each card).
    pile.cards.forEach((c, i) => {
      if (i < from) return;
      const moves = this.byCard.get(`${pile.name}:${i}`);
      const card = h('div', {
        class: `card${moves ? ' playable' : ''}${i === top ? ' top' : ''}`,
        'data-pile': pile.name,
        'data-index': i,
        'data-card': c.card,
        'data-key': `${pile.name}:${i}`,
        role: 'button',
        tabindex: moves ? 0 : -1,
        'aria-label': cardName(c.card),
        'aria-disabled': moves ? null : 'true',
      });
      card.style.left = inCards(at[i][0]);
      card.style.top = inCards(at[i][1]);
      card.appendChild(cardFace(c.card));
      el.appendChild(card);
    });
    return el;
  }

  /**
   * What a click on the stock does, from the server's `stock_click`: the
   * short words on the stock and the longer ones of its label and title.
   */
  stockWords() {
    const c = this.state.stock_click;
    if (!c) return ['', ''];
    if (c.does === 'redeal') {
      const left = t('table.redealLeft', { n: this.state.redeals_left ?? 0 });
      return [t('table.redeal', { left }), t('stock.redealTitle', { left })];
    }
    if (c.move) return [t(`stock.${c.does}`), t(`stock.${c.does}Title`)];
    const why = c.why === 'refills' ? t('status.stockRefills') : t('status.stockEmpty');
    return ['', why];
  }

  drawStock(pile) {
    const count = pile.count ?? 0;
    const click = this.state.stock_click;
    const canDeal = !!click?.move;
    const [short, long] = this.stockWords();
    const name = t('pile.withCards', { pile: pileLabel(this.state, pile), cards: t('pile.cards', { n: count }) });
    const card = h('div', {
      class: `card stock${count ? '' : ' empty'}${canDeal ? ' playable' : ''}`,
      'data-pile': pile.name,
      'data-index': -1,
      'data-does': click?.does ?? 'none',
      role: 'button',
      tabindex: canDeal ? 0 : -1,
      'aria-label': long ? `${name}: ${long}` : name,
      title: long,
      'aria-disabled': canDeal ? null : 'true',
    });
    if (count) card.appendChild(cardBack());
    card.appendChild(h('span', { class: 'count' }, String(count)));
    if (short) card.appendChild(h('span', { class: 'says', 'aria-hidden': 'true' }, short));
    return card;
  }

  /**
   * Where each card of the new state was before, as the old place of the
   * card now at each place, pile by pile: the previous state's places with
   * the server's `played` moves applied. Null when the answer names no moves
   * by place (an undo, a redo, a deal, a redeal, another tab's state).
   */
  oldPlaces(before) {
    const played = this.state.played || [];
    const prev = before.state;
    if (!prev || !played.length || played.some((p) => !p.from || !p.to)) return null;
    const ids = new Map(prev.piles.map((p) => [p.name, p.cards.map((_, i) => `${p.name}:${i}`)]));
    for (const p of played) {
      const from = ids.get(p.from), to = ids.get(p.to);
      if (!from || !to) return null;
      to.splice(p.to_index, 0, ...from.splice(p.from_index, p.count));
    }
    return ids;
  }

  /** Every face-up card of `state` by place ("t3:2" → "10H"), pile by pile, bottom first. */
  cardsOf(state) {
    const out = new Map();
    for (const p of state?.piles || []) p.cards.forEach((c, i) => out.set(`${p.name}:${i}`, c.card));
    return out;
  }

  /** The old place of each card by its code and copy (when no move names places). */
  byCopy(cards) {
    const seen = new Map();
    const out = new Map();
    for (const [place, code] of cards) {
      const k = seen.get(code) || 0;
      seen.set(code, k + 1);
      out.set(`${code}#${k}`, place);
    }
    return out;
  }

  /** FLIP: cards of the redrawn piles that changed place slide there, by transforms. */
  animate(before, piles) {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const places = this.oldPlaces(before);
    let copies = null;
    if (!places) {
      const oldByCopy = this.byCopy(this.cardsOf(before.state));
      copies = new Map([...this.byCopy(this.cardsOf(this.state))].map(([copy, place]) => [place, oldByCopy.get(copy)]));
    }
    const moved = [];
    for (const pile of piles) {
      for (const el of pile.querySelectorAll('.card[data-key]')) {
        const from = places ? places.get(el.dataset.pile)?.[Number(el.dataset.index)] : copies.get(el.dataset.key);
        const old = (from && before.rects.get(from)) || (from === undefined && before.stock ? before.stock : null);
        if (!old) continue;
        const now = el.getBoundingClientRect();
        const dx = old.left - now.left, dy = old.top - now.top;
        if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
        moved.push([el, dx, dy]);
      }
    }
    // Web Animations of `transform` alone: they run on the compositor, and
    // start without forcing a second style and layout pass.
    for (const [el, dx, dy] of moved) {
      el.classList.add('moving');
      el.parentElement.classList.add('animating');
      const slide = el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }],
        { duration: SLIDE_MS, easing: 'cubic-bezier(0.2, 0.7, 0.3, 1)' });
      const done = () => {
        el.classList.remove('moving');
        el.parentElement?.classList.remove('animating');
      };
      slide.finished.then(done, done);
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
    if (s.won) this.say(t('status.won'));
    else if (s.stuck) this.say(t('status.stuck'));
    else if (s.draw_available && s.legal.some((m) => m.kind === 'draw')) this.say(t('status.draw'));
    else this.say('');
  }

  // ---- actions --------------------------------------------------------------

  /**
   * Queues a server action: `fn` is called when every action before it has
   * been answered, reads the state as it is then, and returns the new state
   * (or null for nothing to do). The answer is drawn with animation.
   */
  act(fn, opts = {}) {
    return new Promise((resolve) => {
      this.queue.push({ fn, opts, resolve });
      if (!this.busy) this.pump();
    });
  }

  async pump() {
    this.busy = true;
    document.body.dataset.busy = '1';
    while (this.queue.length) {
      const { fn, opts, resolve } = this.queue.shift();
      const before = opts.before || this.snapshot();
      try {
        const next = await fn();
        if (next) this.setState(next, before, opts.said);
      } catch (err) {
        this.cycle = null;
        if (err instanceof ApiError && err.status === 409) {
          // Another tab moved on: take the server's state, and say why the table
          // changed; what was queued after this was meant for the old position.
          this.queue.length = 0;
          const fresh = err.body?.state || (await api.state(this.state.uid).catch(() => null));
          if (fresh) this.setState(fresh, before);
          this.say(t('error.stale'));
        } else {
          const message = err instanceof ApiError ? errorText(err.body) : t('error.unreachable');
          this.say(message);
          const fresh = await api.state(this.state.uid).catch(() => null);
          if (fresh) { this.setState(fresh, before); this.say(message); }
        }
      }
      resolve();
    }
    this.busy = false;
    delete document.body.dataset.busy;
  }

  setState(next, before, said) {
    const changed = next.uid === this.state.uid && next.version !== this.state.version;
    this.state = next;
    this.receivedAt = Date.now();
    this.hint = null;
    delete this.root.dataset.hint;
    this.redealBtn.classList.remove('hinted');
    this.render(before);
    this.announce(next, said);
    if (changed) this.channel?.postMessage({ uid: next.uid, version: next.version });
  }

  /**
   * Says each move of the answer, each deal and the end, in the live region;
   * an undo or redo (`said`) says so and the moves now; moves that end in a
   * win say one sentence.
   */
  announce(next, said) {
    if (said) {
      this.announcer.textContent = t(`announce.${said}`, { moves: t('table.moves', { n: next.moves }) });
      return;
    }
    const played = next.played || [];
    const home = played.filter((p) => pileOf(next, p.to)?.kind === 'foundation').length;
    if (next.won && home > 1) {
      this.announcer.textContent = t('announce.wonHome', { n: home });
      return;
    }
    const parts = played.map((p) => {
      if (p.kind === 'deal') return t('announce.deal');
      if (p.kind === 'redeal') return t('announce.redeal', { left: t('table.redealsLeft', { n: next.redeals_left ?? 0 }) });
      const kind = pileOf(next, p.to)?.kind;
      return t(p.auto ? 'announce.auto' : 'announce.move', { card: cardName(p.card), pile: kind ? pileName(next.game, kind, p.to) : p.to });
    });
    if (next.won) parts.push(t('status.won'));
    if (parts.length) this.announcer.textContent = parts.join('. ');
  }

  play(move, opts) {
    clearArrow(this.board);
    return this.act(() => api.move(this.state.uid, move, this.state.version, autoMove()), opts);
  }

  undo() {
    this.watcher.stop();
    if (!this.state.can_undo && !this.busy) return;
    this.cycle = null;
    clearArrow(this.board);
    this.act(() => (this.state.can_undo ? api.undo(this.state.uid, this.state.version) : null), { said: 'undo' });
  }

  redo() {
    this.watcher.stop();
    if (!this.state.can_redo && !this.busy) return;
    this.cycle = null;
    clearArrow(this.board);
    this.act(() => (this.state.can_redo ? api.redo(this.state.uid, this.state.version) : null), { said: 'redo' });
  }

  /** Goes back to the position after `moves` of the player's moves (where a win was lost). */
  goBack(moves) {
    this.watcher.stop();
    this.cycle = null;
    clearArrow(this.board);
    this.act(() => (this.state.moves > moves ? api.undo(this.state.uid, this.state.version, moves) : null), { said: 'undo' });
  }

  /** Plays the solver's line from here, move by move (see watch.js). */
  watch() {
    clearArrow(this.board);
    this.watcher.start();
  }

  /** Plays out a game whose every card left goes home (the state's `finish`). */
  finish() {
    this.watcher.stop();
    clearArrow(this.board);
    this.act(() => (this.state.finish ? api.finish(this.state.uid, this.state.version) : null));
  }

  /**
   * The same deal and level again, as a new game, once the player agrees;
   * this one stays in the history, and statistics count both as one game.
   */
  async restart() {
    if (!(await this.confirmLeave('restart'))) return;
    try {
      const fresh = await api.restart(this.state.uid);
      this.channel?.postMessage({ uid: this.state.uid, restarted: fresh.uid });
      location.assign(`/game/${encodeURIComponent(fresh.uid)}`);
    } catch (err) {
      this.say(err instanceof ApiError ? errorText(err.body) : t('error.unreachable'));
    }
  }

  async copyLink() {
    const link = new URL(`/play/${encodeURIComponent(this.state.game)}/${this.state.deal}`, location.href).href;
    try {
      await navigator.clipboard.writeText(link);
      this.say(t('table.copied'));
    } catch {
      this.say(link); // no clipboard here: the link, to copy by hand
    }
  }

  /** The cards a press on `el` would pick up and where they may go, for dragging. */
  pick(el) {
    const moves = this.byCard.get(`${el.dataset.pile}:${el.dataset.index}`);
    if (!moves || this.busy || this.queue.length) return null;
    const pile = el.closest('.pile');
    const index = Number(el.dataset.index);
    const cards = [...pile.querySelectorAll('.card')].filter((c) => Number(c.dataset.index) >= index);
    return { cards, targets: dropTargets(this.state, moves) };
  }

  dropped(move, cards, rects) {
    this.watcher.stop();
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
   * one the card returns home. A click on the stock deals, or once it is
   * empty redeals. Clicks queue: each is read when the one before is
   * answered. The second half of a double click (the same pile or card within
   * the double-click time) is not a second action; keys never are.
   */
  activate(el, how = {}) {
    const pileName = el.dataset.pile;
    const now = Date.now();
    if (!how.keyboard) {
      // The second half of a double click lands on the same pile (the card
      // uncovered, or the stock again) or on the card itself, moved.
      const last = this.lastClick;
      this.lastClick = { pile: pileName, card: el.dataset.card, at: now };
      const again = last.pile === pileName || (el.dataset.card && last.card === el.dataset.card);
      if (again && now - last.at < this.doubleClickMs) return;
    }
    this.focusMoved = !!how.keyboard;
    this.watcher.stop();
    clearArrow(this.board);
    if (pileOf(this.state, pileName)?.kind === 'stock') {
      this.act(() => this.stockAction());
      return;
    }
    const index = Number(el.dataset.index), card = el.dataset.card;
    this.act(() => this.cardAction(pileName, index, card, how.keyboard));
  }

  /** A click on the stock plays what the stock says (`stock_click`), or says why it does nothing. */
  stockAction() {
    const s = this.state;
    const mv = s.stock_click?.move;
    if (mv) return api.move(s.uid, mv, s.version, autoMove());
    this.say(this.stockWords()[1]);
    return null;
  }

  async cardAction(pileName, index, card, keyboard) {
    const s = this.state;
    const c = this.cycle;
    if (c && c.after === s.version && pileName === c.at && card === c.card) {
      const next = c.i + 1;
      const back = await api.undo(s.uid, s.version);
      if (next >= c.list.length) { this.cycle = null; return back; }
      const moved = await api.move(s.uid, c.list[next].move, back.version);
      this.cycle = { ...c, i: next, at: moved.played?.[0]?.to ?? c.list[next].to, after: moved.version };
      this.focusMoved = keyboard;
      return moved;
    }
    const moves = this.byCard.get(`${pileName}:${index}`);
    if (!moves || pileOf(s, pileName)?.cards[index]?.card !== card) {
      const el = this.board.querySelector(`.card[data-key="${CSS.escape(`${pileName}:${index}`)}"]`);
      if (el) {
        el.classList.remove('nope');
        void el.offsetWidth;
        el.classList.add('nope');
      }
      this.cycle = null;
      return null;
    }
    const first = moves[0];
    const moved = await api.move(s.uid, first.move, s.version, autoMove());
    // After automatic moves the next destination would undo those first: no cycle.
    this.cycle = moves.length > 1 && moved.played?.length === 1
      ? { card, list: moves, i: 0, at: first.to, after: moved.version }
      : null;
    this.focusMoved = keyboard;
    return moved;
  }

  askHint() {
    this.watcher.stop();
    if (this.state.won) return;
    this.act(async () => {
      if (this.state.won) return null;
      this.say(t('hint.thinking'));
      try {
        const hint = await api.hint(this.state.uid, autoMove());
        this.showHint(hint);
      } catch (err) {
        this.root.dataset.hint = 'error';
        this.say(err instanceof ApiError ? errorText(err.body) : t('hint.failed'));
      }
      return null;
    });
  }

  /** Plays the move of the hint shown, if there is one (the P key). */
  playHint() {
    if (this.hint?.move && this.hint.kind !== 'no-win') this.play(this.hint.move);
  }

  showHint(hint) {
    clearArrow(this.board);
    this.hint = hint;
    this.root.dataset.hint = hint.kind;
    if (hint.kind === 'no-win') {
      this.say(t('hint.noWin'));
      return;
    }
    if (!hint.move) {
      this.say(t('hint.none'));
      return;
    }
    const heuristic = hint.kind === 'heuristic';
    const playBtn = h('button', { type: 'button', class: 'play-hint', title: t('hint.playTitle'), 'aria-keyshortcuts': 'P',
      onclick: () => this.play(hint.move) }, t('hint.play'));
    const text = heuristic ? t('hint.heuristic') : t('hint.exact');
    if (hint.move === 'deal') {
      const stock = this.board.querySelector('.card.stock');
      if (stock) drawArrow(this.board, stock, null, heuristic);
      this.say(t('hint.deal', { hint: text }), playBtn);
      return;
    }
    if (hint.move === 'redeal') {
      this.redealBtn.classList.add('hinted');
      this.say(t('hint.redeal', { hint: text }), playBtn);
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
    const card = source?.classList.contains('card') && source.dataset.card ? cardName(source.dataset.card) : (fromName || '');
    const destKind = pileOf(this.state, toName)?.kind;
    const where = destKind ? pileName(this.state.game, destKind, toName) : (toName || '');
    this.say(t('hint.move', { hint: text, card, pile: where }), playBtn);
  }

  key(e) {
    if (e.target.closest?.('input, select, textarea, dialog')) return;
    if (document.querySelector('dialog[open]')) return;
    const k = e.key.toLowerCase();
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.code === KEYS.undo && !e.shiftKey) { e.preventDefault(); this.undo(); return; }
    if (mod && (e.code === KEYS.redo || (e.code === KEYS.undo && e.shiftKey))) { e.preventDefault(); this.redo(); return; }
    if (mod || e.altKey) return;
    if (e.code === KEYS.hint) { e.preventDefault(); this.askHint(); return; }
    if (e.code === KEYS.playHint) { e.preventDefault(); this.playHint(); return; }
    if (k === 'escape') {
      clearArrow(this.board);
      this.openMore(false);
      if (this.root.querySelector('.win')) {
        this.winClosed = true;
        this.root.querySelector('.win').remove();
      }
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && e.target.classList?.contains('card') && this.board.contains(e.target)) {
      e.preventDefault();
      this.activate(e.target, { keyboard: true });
      return;
    }
    if (k.startsWith('arrow') && e.target.classList?.contains('card') && this.board.contains(e.target)) {
      e.preventDefault();
      this.moveFocus(e.target, k);
    }
  }

  /** Arrow keys: left and right to the top card of the pile before or after, up and down within a pile. */
  moveFocus(el, k) {
    const piles = [...this.board.querySelectorAll(':scope > .pile')].filter((p) => p.querySelector('.card'));
    const pile = el.closest('.pile');
    let target = null;
    if (k === 'arrowleft' || k === 'arrowright') {
      const i = piles.indexOf(pile);
      const next = piles[(i + (k === 'arrowright' ? 1 : -1) + piles.length) % piles.length];
      const cards = next ? [...next.querySelectorAll('.card')] : [];
      target = cards[cards.length - 1];
    } else {
      const cards = [...pile.querySelectorAll('.card')];
      const j = cards.indexOf(el) + (k === 'arrowdown' ? 1 : -1);
      target = cards[Math.max(0, Math.min(cards.length - 1, j))];
    }
    target?.focus();
  }
}
