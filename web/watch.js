// Watching the solution: the solver's line played from the position on the
// table, one move at a time with the table's own slides, at a speed the
// player sets, with pause, one step forward, and stop (the player takes over
// where it stopped). Each move is the hint's (so the kept line, redeals and
// draws included), and the game counts as won with help, as a hinted one does.

import { api, ApiError } from './api.js';
import { h } from './dom.js';
import { errorText, t } from './i18n.js';
import { autoMove, setWatchSpeed, watchSpeed } from './prefs.js';

/** The pause between two moves at each speed, slow to fast, in ms. */
const PAUSES_MS = [1600, 1000, 600, 300, 120];

export class SolutionPlayer {
  /** `table` plays moves (`play`), says things (`say`) and holds the state. */
  constructor(table) {
    this.table = table;
    this.running = false;
    this.paused = false;
    this.wake = null;
    this.pauseBtn = h('button', { type: 'button', class: 'watch-pause', onclick: () => this.togglePause() });
    this.stepBtn = h('button', { type: 'button', class: 'watch-step', onclick: () => this.stepOnce() });
    this.stopBtn = h('button', { type: 'button', class: 'watch-stop', onclick: () => this.stop() });
    this.speed = h('input', { type: 'range', class: 'watch-speed', min: '1', max: '5', step: '1',
      oninput: () => setWatchSpeed(Number(this.speed.value)) });
    this.speed.value = String(watchSpeed());
    this.speedText = h('span');
    this.bar = h('div', { class: 'watch-bar', role: 'group', hidden: '' },
      h('span', { class: 'watch-title' }), this.pauseBtn, this.stepBtn,
      h('label', { class: 'watch-speed-label' }, this.speedText, ' ', this.speed), this.stopBtn);
    this.relabel();
  }

  relabel() {
    this.bar.setAttribute('aria-label', t('watch.title'));
    this.bar.querySelector('.watch-title').textContent = t('watch.title');
    this.pauseBtn.textContent = this.paused ? t('watch.resume') : t('watch.pause');
    this.stepBtn.textContent = t('watch.step');
    this.stopBtn.textContent = t('watch.stop');
    this.speedText.textContent = t('watch.speed');
  }

  start() {
    if (this.running || this.table.state.won) return;
    this.running = true;
    this.paused = false;
    this.bar.hidden = false;
    this.table.root.dataset.watching = '1';
    this.relabel();
    this.loop();
  }

  /** The player takes over where the solution stands. */
  stop(words) {
    if (!this.running) return;
    this.running = false;
    this.bar.hidden = true;
    delete this.table.root.dataset.watching;
    this.wake?.();
    if (words) this.table.say(words);
  }

  togglePause() {
    this.paused = !this.paused;
    this.relabel();
    this.wake?.();
  }

  /** While paused: one move forward. */
  stepOnce() {
    if (!this.paused) { this.paused = true; this.relabel(); }
    this.oneStep = true;
    this.wake?.();
  }

  sleep(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() { clearTimeout(timer); resolve(); }
      this.wake = done;
    });
  }

  async loop() {
    while (this.running) {
      if (this.paused && !this.oneStep) {
        await this.sleep(60_000);
        continue;
      }
      this.oneStep = false;
      const more = await this.step();
      if (!more || !this.running) return;
      await this.sleep(PAUSES_MS[Number(this.speed.value) - 1] ?? PAUSES_MS[2]);
    }
  }

  /** Plays the line's next move; false when the watch has ended. */
  async step() {
    const s = this.table.state;
    if (s.won) { this.stop(t('watch.done')); return false; }
    let hint;
    try {
      hint = await api.hint(s.uid, autoMove());
    } catch (err) {
      this.stop(err instanceof ApiError ? errorText(err.body) : t('hint.failed'));
      return false;
    }
    if (!this.running) return false;
    if (this.table.state.version !== s.version) return true; // the table moved meanwhile: ask again
    if (hint.kind !== 'solution' || !hint.move) {
      this.stop(hint.kind === 'no-win' ? t('hint.noWin') : t('watch.noLine'));
      return false;
    }
    await this.table.play(hint.move, { watched: true });
    if (this.table.state.won) { this.stop(t('watch.done')); return false; }
    return true;
  }
}
