// Asking before a game in progress is left: a modal <dialog> (focus stays in
// it, Escape answers no), its words from the message catalogue.

import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * Asks the player `question` (catalogue keys: `title`, `text` with `params`,
 * `yes`, `no`); resolves true for yes, false for no, Escape or a click
 * beside the box. The safe answer has the focus.
 */
export function ask({ title, text, params = {}, yes, no }) {
  return new Promise((resolve) => {
    const answer = (value) => () => { dialog.returnValue = value; dialog.close(); };
    const noBtn = h('button', { type: 'button', class: 'confirm-no', onclick: answer('no') }, t(no));
    const yesBtn = h('button', { type: 'button', class: 'confirm-yes primary', onclick: answer('yes') }, t(yes));
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' },
      h('div', { class: 'confirm-box' },
        h('h2', { id: 'confirm-title' }, t(title)),
        h('p', { id: 'confirm-text' }, t(text, params)),
        h('div', { class: 'confirm-actions' }, yesBtn, noBtn)));
    dialog.addEventListener('click', (e) => { if (e.target === dialog) answer('no')(); });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'yes');
    });
    // Inside the page's main landmark, as the win screen is.
    (document.querySelector('main') || document.body).append(dialog);
    dialog.showModal();
    noBtn.focus();
  });
}
