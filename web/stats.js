// The statistics page (/stats): per game and overall, played, won, win
// percentage, won without hints, streaks, best time and moves, and charts
// drawn from the API's numbers (GET /api/stats and /api/stats/games): wins
// over time by day, week or month, time per won game, levels played.

import { api } from './api.js';
import { barChart } from './charts.js';
import { dayLabel } from './daily.js';
import { formatTime, gameNames, language, t } from './i18n.js';
import { h } from './dom.js';

const PERIODS = { day: 30, week: 12, month: 12 };

/** The `YYYY-MM-DD` of a date (UTC parts). */
function iso(d) {
  return d.toISOString().slice(0, 10);
}

/** The period a day falls in: the day, its week's Monday, or its month's first day. */
export function periodOf(day, period) {
  if (period === 'day') return day;
  if (period === 'month') return `${day.slice(0, 7)}-01`;
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return iso(date);
}

function previous(start, period) {
  const [y, m, d] = start.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (period === 'day') date.setUTCDate(date.getUTCDate() - 1);
  else if (period === 'week') date.setUTCDate(date.getUTCDate() - 7);
  else date.setUTCMonth(date.getUTCMonth() - 1);
  return iso(date);
}

/** Games played and won in each of the last periods up to `today`, oldest first. */
export function winsOverTime(rows, period, today) {
  const count = PERIODS[period];
  const keys = [periodOf(today, period)];
  while (keys.length < count) keys.unshift(previous(keys[0], period));
  const at = new Map(keys.map((k) => [k, { played: 0, won: 0 }]));
  for (const r of rows) {
    const slot = at.get(periodOf(r.day, period));
    if (!slot) continue;
    slot.played += 1;
    if (r.won) slot.won += 1;
  }
  const label = (k) => (period === 'month' ? dayLabel(k, { month: 'short' }) : dayLabel(k, { day: 'numeric', month: 'numeric' }));
  return keys.map((k) => ({ label: label(k), value: at.get(k).played, part: at.get(k).won }));
}

function percent(won, played) {
  return played ? new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 0 }).format(won / played) : '–';
}

function summaryTable(stats, names) {
  const heads = ['stats.game', 'stats.played', 'stats.won', 'stats.winRate', 'stats.wonClean', 'stats.streak', 'stats.bestStreak', 'stats.bestTime', 'stats.bestMoves'];
  const num = (v) => new Intl.NumberFormat(language()).format(v);
  const table = h('table', { class: 'stats' },
    h('caption', { class: 'visually-hidden' }, t('stats.tableCaption')),
    h('thead', {}, h('tr', {}, ...heads.map((k) => h('th', { scope: 'col' }, t(k))))));
  const body = h('tbody');
  const played = stats.filter((s) => s.played);
  for (const s of played) {
    body.append(h('tr', { 'data-game': s.game }, h('th', { scope: 'row' }, names.get(s.game) || s.game),
      ...[s.played, s.won].map((v) => h('td', {}, num(v))),
      h('td', { class: 'rate' }, percent(s.won, s.played)),
      h('td', {}, num(s.won_without_hints)),
      ...[s.current_streak, s.best_streak].map((v) => h('td', {}, num(v))),
      h('td', {}, s.best_time_ms ? formatTime(s.best_time_ms) : '–'),
      h('td', {}, s.best_moves ?? '–')));
  }
  const sum = (k) => played.reduce((a, s) => a + s[k], 0);
  const times = played.map((s) => s.best_time_ms).filter((x) => x);
  const moves = played.map((s) => s.best_moves).filter((x) => x);
  body.append(h('tr', { class: 'total', 'data-game': '' }, h('th', { scope: 'row' }, t('stats.allGames')),
    h('td', {}, num(sum('played'))), h('td', {}, num(sum('won'))),
    h('td', { class: 'rate' }, percent(sum('won'), sum('played'))),
    h('td', {}, num(sum('won_without_hints'))),
    h('td', {}, '–'), h('td', {}, num(Math.max(0, ...played.map((s) => s.best_streak)))),
    h('td', {}, times.length ? formatTime(Math.min(...times)) : '–'),
    h('td', {}, moves.length ? String(Math.min(...moves)) : '–')));
  table.append(body);
  // On a phone each row is drawn as a block of labelled figures (see the
  // style sheet): every cell carries its column's name, and the roles keep
  // the table a table for screen readers whatever its display.
  table.setAttribute('role', 'table');
  for (const tr of table.rows) {
    tr.setAttribute('role', 'row');
    [...tr.cells].forEach((c, i) => {
      if (c.tagName === 'TD') {
        c.setAttribute('role', 'cell');
        c.dataset.label = t(heads[i]);
      } else {
        c.setAttribute('role', c.scope === 'row' ? 'rowheader' : 'columnheader');
      }
    });
  }
  for (const part of [table.tHead, body]) part.setAttribute('role', 'rowgroup');
  const unknown = sum('won_hints_unknown');
  return h('div', { class: 'table-scroll' }, table, unknown ? h('p', { class: 'note' }, t('stats.hintsUnknown', { n: unknown })) : '');
}

/** `/stats[?game=ID]` */
export async function showStats(root) {
  const [stats, rows, games, daily] = await Promise.all([api.stats(), api.statsGames(), api.games(), api.daily().catch(() => null)]);
  const names = new Map(games.map((g) => [g.id, gameNames(g)[0]]));
  const today = daily ? daily.today : iso(new Date(Date.now() + 3 * 3600 * 1000));
  document.title = t('stats.title');
  const params = new URLSearchParams(location.search);
  let game = params.get('game') || '';
  let period = PERIODS[params.get('period')] ? params.get('period') : 'day';
  const charts = h('div', { class: 'charts' });
  const pick = h('select', { id: 'stats-game' }, h('option', { value: '' }, t('stats.allGames')),
    ...games.filter((g) => stats.some((s) => s.game === g.id && s.played)).map((g) => h('option', { value: g.id, selected: g.id === game }, names.get(g.id))));
  const periods = h('div', { class: 'periods', role: 'group', 'aria-label': t('stats.period') });
  const draw = () => {
    const mine = rows.filter((r) => !game || r.game === game);
    const wonRows = mine.filter((r) => r.won).slice(-30);
    const levels = ['easy', 'medium', 'hard', 'unwinnable', 'unknown'];
    const levelBars = [...levels, null].map((l) => {
      const of = mine.filter((r) => r.level === l);
      return { label: l ? t(`level.${l}`) : t('stats.ungraded'), value: of.length, part: of.filter((r) => r.won).length };
    }).filter((b) => b.value);
    const wonPart = (n) => t('stats.wonN', { n });
    charts.replaceChildren(
      h('figure', { class: 'chart-box', 'data-chart': 'wins' }, h('figcaption', {}, t(`stats.chartWins.${period}`)),
        barChart({ label: t(`stats.chartWins.${period}`), bars: winsOverTime(mine, period, today), partLabel: wonPart })),
      h('figure', { class: 'chart-box', 'data-chart': 'times' }, h('figcaption', {}, t('stats.chartTimes')),
        wonRows.length
          ? barChart({ label: t('stats.chartTimes'), bars: wonRows.map((r, i) => ({ label: String(i + 1), value: Math.round(r.time_ms / 1000) })), format: (s) => formatTime(s * 1000) })
          : h('p', {}, t('stats.noWins'))),
      h('figure', { class: 'chart-box', 'data-chart': 'levels' }, h('figcaption', {}, t('stats.chartLevels')),
        levelBars.length ? barChart({ label: t('stats.chartLevels'), bars: levelBars, partLabel: wonPart }) : h('p', {}, t('stats.nothing'))));
    for (const b of periods.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.period === period));
  };
  for (const p of Object.keys(PERIODS)) {
    periods.append(h('button', { type: 'button', 'data-period': p, onclick: () => { period = p; draw(); } }, t(`stats.by.${p}`)));
  }
  pick.addEventListener('change', () => { game = pick.value; draw(); });
  const anything = stats.some((s) => s.played);
  root.replaceChildren(h('section', { class: 'stats-page' },
    h('h1', {}, t('stats.title')),
    anything ? summaryTable(stats, names) : h('p', {}, t('stats.nothing')),
    h('div', { class: 'chart-controls' }, h('label', { for: 'stats-game' }, t('stats.show')), ' ', pick, ' ', periods),
    h('p', { class: 'legend' }, h('span', { class: 'key-all' }, t('stats.keyPlayed')), ' ', h('span', { class: 'key-part' }, t('stats.keyWon'))),
    charts,
    h('p', {}, h('a', { href: '/winnability' }, t('odds.title')))));
  draw();
}
