// A game's rules page in the player's language, drawn from the Markdown the
// API returns for that language.

import { api } from './api.js';
import { gameNames, language, t } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { h } from './dom.js';

export async function showRules(root, game) {
  const [rules, games] = await Promise.all([api.rules(game, language()), api.games().catch(() => [])]);
  const info = games.find((g) => g.id === game);
  const [name, other] = info ? gameNames(info) : [game, ''];
  const title = h('h1', {}, name, ' ', h('span', { class: 'other-name', lang: language() === 'ru' ? 'en' : 'ru' }, other));
  document.title = t('page.rulesTitle', { name });
  const actions = h('p', { class: 'game-actions' },
    h('a', { class: 'button primary', href: `/play/${encodeURIComponent(game)}` }, t('rules.play')),
    h('a', { class: 'button', href: '/' }, t('rules.allGames')));
  const body = renderMarkdown(rules.markdown);
  root.replaceChildren(h('article', { class: 'rules', lang: language() }, title, body, keys(), actions));
}

/** The table's keys (table.js reads them by the same names). */
const KEYS = ['hint', 'playHint', 'undo', 'redo', 'tab', 'arrows', 'play', 'escape'];

function keys() {
  return h('section', { class: 'keys', 'aria-labelledby': 'keys-title' },
    h('h2', { id: 'keys-title' }, t('rules.keys.title')),
    h('dl', { class: 'key-list' }, ...KEYS.flatMap((k) => [
      h('dt', {}, h('kbd', {}, t(`rules.keys.${k}Key`))),
      h('dd', {}, t(`rules.keys.${k}`)),
    ])),
    h('p', {}, t('rules.keys.note')));
}
