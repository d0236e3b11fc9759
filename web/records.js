// A deal's records: the best hint-free results over all players, counted by
// the server from the stored games (GET /api/records/GAME/DEAL). Shown on the
// win screen (`recordLine`) and on the deal's own page (`/deal/GAME/DEAL`),
// with the player's display name, which they may set there.

import { api, ApiError } from './api.js';
import { errorText, formatTime, gameNames, t } from './i18n.js';
import { h } from './dom.js';

/** «ваш результат: 48 ходов, 4:12; лучший: 41 ход у 3 игроков из 57» */
function summary(r, state) {
  const parts = [];
  if (state) parts.push(t('records.yours', { moves: t('table.moves', { n: state.moves }), time: formatTime(state.elapsed_ms) }));
  if (r.best_moves != null) {
    parts.push(t('records.best', { moves: t('table.moves', { n: r.best_moves }), players: t('records.players', { n: r.best_moves_players }), winners: r.winners }));
  }
  if (r.mine) parts.push(t('records.rank', { rank: r.mine.rank, winners: r.winners }));
  return parts.join('; ');
}

/** The win screen's record line: filled in when the server answers. */
export function recordLine(state) {
  const p = h('p', { class: 'win-record', 'aria-live': 'polite' });
  const link = h('a', { class: 'win-record-link', href: `/deal/${encodeURIComponent(state.game)}/${state.deal}` }, t('records.dealPage'));
  api.records(state.game, state.deal).then((r) => {
    const text = state.hinted ? t('records.hinted') : summary(r, state);
    p.replaceChildren(text, ' ', link);
  }).catch(() => p.replaceChildren(link));
  return p;
}

function nameForm(me) {
  const input = h('input', { type: 'text', id: 'display-name', maxlength: '24', value: me.name || '', autocomplete: 'nickname' });
  const said = h('p', { class: 'name-said', role: 'status' });
  const form = h('form', { class: 'name-form' },
    h('label', { for: 'display-name' }, t('records.nameLabel')), ' ', input, ' ',
    h('button', { type: 'submit' }, t('records.nameSave')), said);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const r = await api.setName(input.value);
      input.value = r.name || '';
      said.textContent = r.name ? t('records.nameSaved', { name: r.name }) : t('records.nameCleared');
    } catch (err) {
      said.textContent = err instanceof ApiError ? errorText(err.body) : t('error.unreachable');
    }
  });
  return form;
}

/** `/deal/GAME/DEAL`: the deal's records table and the player's place among its winners. */
export async function showDeal(root, game, deal) {
  const [r, games, me] = await Promise.all([api.records(game, deal), api.games(), api.me().catch(() => ({ name: null }))]);
  const info = games.find((g) => g.id === game);
  const name = info ? gameNames(info)[0] : game;
  document.title = t('records.pageTitle', { name, deal: String(deal) });
  const parts = [h('h1', {}, t('records.title', { name, deal: String(deal) }))];
  parts.push(h('p', { class: 'game-actions' },
    h('a', { class: 'button primary', href: `/play/${encodeURIComponent(game)}/${deal}` }, t('records.play')),
    h('a', { class: 'button', href: `/daily/${encodeURIComponent(game)}` }, t('daily.calendar'))));
  if (!r.winners) {
    parts.push(h('p', { class: 'records-none' }, t('records.none')));
  } else {
    parts.push(h('p', { class: 'records-summary' }, summary(r, null)));
    if (r.best_time_ms != null) parts.push(h('p', {}, t('records.fastest', { time: formatTime(r.best_time_ms), players: t('records.players', { n: r.best_time_players }) })));
    const table = h('table', { class: 'stats records' },
      h('caption', {}, t('records.tableCaption')),
      h('thead', {}, h('tr', {}, ...['records.place', 'records.player', 'records.moves', 'records.time'].map((k) => h('th', { scope: 'col' }, t(k))))));
    const body = h('tbody');
    for (const x of r.top) {
      body.append(h('tr', { class: x.mine ? 'mine' : '' },
        h('td', {}, String(x.rank)),
        h('th', { scope: 'row' }, x.name == null ? t('records.anonymous') : x.name, x.mine ? ` (${t('records.you')})` : ''),
        h('td', {}, String(x.moves)),
        h('td', {}, formatTime(x.time_ms))));
    }
    table.append(body);
    parts.push(table);
  }
  parts.push(h('p', { class: 'records-rule' }, t('records.rule')));
  parts.push(nameForm(me));
  root.replaceChildren(h('section', { class: 'deal-page' }, ...parts));
}
