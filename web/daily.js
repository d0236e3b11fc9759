// The deal of the day's calendar: one game's month, each day its deal,
// its level and what the player did with it (won, won without hints).
// The days and deals are the server's (crates/server/src/daily.rs states the
// rule); the page only lays them out, Monday first.

import { api } from './api.js';
import { gameNames, language, t } from './i18n.js';
import { h } from './dom.js';

/** A `YYYY-MM-DD` day in words: «2 декабря 2026 г.», "2 December 2026". */
export function dayLabel(day, opts = { day: 'numeric', month: 'long', year: 'numeric' }) {
  const [y, m, d] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(language(), { ...opts, timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
}

function monthLabel(month) {
  return dayLabel(`${month}-01`, { month: 'long', year: 'numeric' });
}

function shiftMonth(month, by) {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** `/daily/GAME[?month=YYYY-MM]` */
export async function showDaily(root, game) {
  const month = new URLSearchParams(location.search).get('month') || undefined;
  const [data, games] = await Promise.all([api.dailyMonth(game, month), api.games()]);
  const info = games.find((g) => g.id === game);
  const name = info ? gameNames(info)[0] : game;
  document.title = t('daily.pageTitle', { name });
  const pick = h('select', { class: 'daily-pick', 'aria-label': t('daily.otherGame') },
    ...games.map((g) => h('option', { value: g.id, selected: g.id === game }, gameNames(g)[0])));
  pick.addEventListener('change', () => { location.href = `/daily/${encodeURIComponent(pick.value)}?month=${data.month}`; });
  const nav = h('nav', { class: 'month-nav', 'aria-label': t('daily.months') });
  const first = data.first_day.slice(0, 7), last = data.today.slice(0, 7);
  const prev = shiftMonth(data.month, -1), next = shiftMonth(data.month, 1);
  nav.append(prev >= first ? h('a', { class: 'button', href: `/daily/${encodeURIComponent(game)}?month=${prev}` }, '← ', monthLabel(prev)) : '',
    h('strong', { class: 'month-now' }, monthLabel(data.month)),
    next <= last ? h('a', { class: 'button', href: `/daily/${encodeURIComponent(game)}?month=${next}` }, monthLabel(next), ' →') : '');
  const grid = h('ol', { class: 'calendar', 'aria-label': monthLabel(data.month) });
  const weekdays = h('div', { class: 'weekdays', 'aria-hidden': 'true' });
  // Monday 2026-11-30 .. Sunday 2026-12-06 give the weekday names.
  weekdays.replaceChildren(...[30, 1, 2, 3, 4, 5, 6].map((d, i) => h('span', {}, dayLabel(i ? `2026-12-0${d}` : '2026-11-30', { weekday: 'short' }))));
  const [y, m] = data.month.split('-').map(Number);
  const lead = (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7;
  for (let i = 0; i < lead; i++) grid.append(h('li', { class: 'blank', 'aria-hidden': 'true' }));
  const byDay = new Map(data.days.map((d) => [d.day, d]));
  const daysIn = new Date(Date.UTC(y, m, 0)).getUTCDate();
  for (let d = 1; d <= daysIn; d++) {
    const day = `${data.month}-${String(d).padStart(2, '0')}`;
    const e = byDay.get(day);
    if (!e) {
      grid.append(h('li', { class: 'day off' }, h('span', { class: 'num' }, String(d))));
      continue;
    }
    const mark = e.won_without_hints ? t('daily.markClean') : e.won ? t('daily.markWon') : '';
    const label = [dayLabel(day), t(`level.${e.level}`), t('daily.deal', { deal: String(e.deal) }), mark].filter(Boolean).join(', ');
    grid.append(h('li', { class: `day level-${e.level}${e.won ? ' won' : ''}${e.won_without_hints ? ' clean' : ''}${day === data.today ? ' today' : ''}`, 'data-day': day },
      h('a', { href: `/play/${encodeURIComponent(game)}/${e.deal}`, title: label },
        h('span', { class: 'num', 'aria-hidden': 'true' }, String(d)),
        h('span', { class: 'lvl', 'aria-hidden': 'true' }, t(`levelShort.${e.level}`)),
        h('span', { class: 'mark', 'aria-hidden': 'true' }, e.won_without_hints ? '★' : e.won ? '✓' : ''),
        h('span', { class: 'visually-hidden' }, label))));
  }
  const todays = byDay.get(data.today);
  root.replaceChildren(h('section', { class: 'daily-page' },
    h('h1', {}, t('daily.title'), ': ', name),
    h('p', { class: 'daily-rule' }, t('daily.rule')),
    h('p', {}, h('label', {}, t('daily.otherGame'), ' ', pick)),
    todays ? h('p', { class: 'game-actions' },
      h('a', { class: 'button primary daily-play', href: `/play/${encodeURIComponent(game)}/${todays.deal}` }, t('daily.playToday')),
      h('a', { class: 'button', href: `/deal/${encodeURIComponent(game)}/${todays.deal}` }, t('daily.records'))) : '',
    nav, weekdays, grid,
    h('p', { class: 'legend' }, t('daily.legend'))));
}
