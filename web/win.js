// The win screen: the summary of a won game, the player's record in this
// game, the next actions, and a short burst of card suits.

import { api } from './api.js';
import { h } from './dom.js';
import { formatTime, gameNames, t } from './i18n.js';
import { celebrate, setCelebrate } from './prefs.js';
import { recordLine } from './records.js';

/** Shows the win screen over `table`, unless it is open or the player closed it. */
export function showWin(table) {
  if (table.winClosed || table.root.querySelector('.win')) return;
  const s = table.state;
  const levelQ = s.level && s.level !== 'any' ? `?level=${encodeURIComponent(s.level)}` : '';
  const again = h('a', { class: 'button primary', href: `/play/${encodeURIComponent(s.game)}${levelQ}` }, t('win.newDeal'));
  const close = () => { table.winClosed = true; box.remove(); };
  const stats = h('p', { class: 'win-stats' });
  api.stats().then((all) => {
    const st = all.find((x) => x.game === s.game);
    if (st) stats.textContent = t('win.stats', { won: st.won, played: st.played, best: st.best_time_ms == null ? '—' : formatTime(st.best_time_ms) });
  }).catch(() => {});
  const party = h('input', { type: 'checkbox', class: 'win-celebrate', onchange: () => setCelebrate(party.checked) });
  party.checked = celebrate();
  const box = h('div', { class: 'win', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'win-title' },
    h('div', { class: 'win-box' },
      h('h2', { id: 'win-title' }, t('win.title')),
      h('p', {}, t('win.summary', { name: gameNames(s)[0], deal: s.deal, time: formatTime(s.elapsed_ms), moves: t('table.moves', { n: s.moves }) })),
      h('ul', { class: 'win-facts' },
        h('li', { class: 'win-time' }, t('win.time', { time: formatTime(s.elapsed_ms) })),
        h('li', { class: 'win-moves' }, t('win.moves', { n: s.moves })),
        h('li', { class: 'win-hints' }, s.hinted ? t('win.hints') : t('win.noHints'))),
      stats,
      recordLine(s),
      h('div', { class: 'win-actions' }, again,
        h('a', { class: 'button', href: '/' }, t('win.allGames')),
        h('button', { type: 'button', class: 'win-undo', title: t('win.undoTitle'), onclick: () => table.undo() }, t('win.undo')),
        h('button', { type: 'button', class: 'win-close', onclick: close }, t('win.close'))),
      h('label', { class: 'win-party' }, party, ' ', t('win.celebrate'))));
  table.root.appendChild(box);
  if (celebrate()) burst(box);
  again.focus();
}

/**
 * A short burst of card suits, by the Web Animations API: each flies
 * outwards from the edge of the win box, beneath it, so none crosses the
 * words the box holds.
 */
function burst(box) {
  box.dataset.celebrating = '1';
  const r = box.querySelector('.win-box').getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const marks = ['♠', '♥', '♦', '♣'];
  const n = 28;
  for (let i = 0; i < n; i++) {
    const angle = (i / n) * 2 * Math.PI;
    const c = Math.cos(angle), sn = Math.sin(angle);
    // Where the ray from the box's middle leaves the box, a little inside its edge.
    const edge = Math.min(Math.abs(c) > 1e-6 ? r.width / 2 / Math.abs(c) : Infinity, Math.abs(sn) > 1e-6 ? r.height / 2 / Math.abs(sn) : Infinity) - 12;
    const far = 90 + (i % 5) * 35;
    const bit = h('span', { class: `confetti${i % 4 === 1 || i % 4 === 2 ? ' red' : ''}`, 'aria-hidden': 'true',
      style: `left:${cx + c * edge}px;top:${cy + sn * edge}px` }, marks[i % 4]);
    box.insertBefore(bit, box.firstChild);
    const anim = bit.animate([
      { transform: 'translate(-50%, -50%) scale(0.5)', opacity: 1 },
      { transform: `translate(calc(${c * far}px - 50%), calc(${sn * far + 60}px - 50%)) rotate(${i * 47}deg)`, opacity: 0 },
    ], { duration: 1100 + (i % 7) * 60, easing: 'ease-out' });
    anim.onfinish = () => bit.remove();
  }
  setTimeout(() => delete box.dataset.celebrating, 1600);
}
