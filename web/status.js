// The live status line: what the server's background solver knows of the
// position on the table («Выигрыш есть», «Выигрыша больше нет», «Решатель
// ещё думает», «Решатель не уверен»), and where no win is left, the move that
// lost it with a button to go back there. After every new state it asks the
// server (`GET /api/play/{uid}/analysis`), then waits for news until the
// answer is final; an answer about a version the table has left is dropped.

import { api } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { autoMove, setStatusLine, statusLine } from './prefs.js';

/** Thinking is shown only after this long, so a quick answer does not flicker. */
const THINKING_DELAY_MS = 250;
/** After a failed request, the next try waits this long. */
const RETRY_MS = 3000;

export class StatusLine {
  /** `goBack(n)`: the table undoes clicks until `n` moves are left. */
  constructor(goBack) {
    this.goBack = goBack;
    this.el = h('div', { class: 'solver-status', role: 'status', 'aria-live': 'polite' });
    this.toggle = h('input', { type: 'checkbox', class: 'status-switch', onchange: () => this.switched() });
    this.toggle.checked = statusLine();
    this.toggleText = h('span');
    this.label = h('label', { class: 'status-label' }, this.toggle, ' ', this.toggleText);
    this.state = null;
    this.answer = null;
    this.asking = null; // the version being asked about
    this.timer = null;
    this.labelSwitch();
  }

  labelSwitch() {
    this.toggleText.textContent = t('solver.switch');
    this.label.title = t('solver.switchTitle');
  }

  /** The words again in the page's new language. */
  relabel() {
    this.labelSwitch();
    this.draw();
  }

  switched() {
    setStatusLine(this.toggle.checked);
    this.asking = null;
    if (this.state) this.update(this.state);
  }

  /** A new state is on the table: ask about it (unless it is the one asked about). */
  update(state) {
    this.state = state;
    if (!this.toggle.checked || state.won) {
      this.asking = null;
      this.answer = null;
      this.draw();
      return;
    }
    if (this.asking === state.version) return;
    this.asking = state.version;
    if (this.answer && this.answer.version !== state.version) this.answer = null;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { if (!this.answer && this.asking === state.version) this.draw('thinking'); }, THINKING_DELAY_MS);
    this.follow(state.uid, state.version);
  }

  async follow(uid, version) {
    let seen;
    while (this.asking === version && this.state?.uid === uid) {
      let a;
      try {
        a = await api.analysis(uid, autoMove(), seen);
      } catch {
        await new Promise((r) => setTimeout(r, RETRY_MS));
        continue;
      }
      // An answer about another version: the game moved on elsewhere (another
      // tab); the table learns it at its next action.
      if (this.asking !== version || a.version !== version) return;
      if (a.status !== 'thinking' || this.answer) { this.answer = a; this.draw(); }
      if (a.done) return;
      seen = a.seq;
    }
  }

  /** Shows the answer held (or `force`, a status without an answer). */
  draw(force) {
    const a = this.answer;
    const status = force || (a && a.status);
    // The line keeps its room while it is on, so the board never shifts under a click.
    this.el.hidden = !this.toggle.checked;
    if (!this.toggle.checked || !status || this.state?.won) {
      this.el.replaceChildren();
      delete this.el.dataset.status;
      return;
    }
    this.el.dataset.status = status;
    const parts = [h('span', { class: 'solver-words' }, t(`solver.${status}`))];
    if (status === 'no-win' && a?.lost) {
      const back = a.lost.back_to;
      parts.push(' ', h('span', { class: 'lost-at' }, t('solver.lostAt', { n: a.lost.at })), ' ',
        h('button', { type: 'button', class: 'go-back', onclick: () => this.goBack(back) }, t('solver.goBack')));
    } else if (status === 'no-win' && a && !a.done) {
      parts.push(' ', h('span', { class: 'lost-at' }, t('solver.searching')));
    }
    this.el.replaceChildren(...parts);
  }
}
