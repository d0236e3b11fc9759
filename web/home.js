// The home page: a heading, the deal of the day first, then Continue when a
// game is in progress, then the games grouped by family (La Belle Lucie
// marked as the one to start with), and the statistics one tap away.

import { api } from './api.js';
import { dayLabel } from './daily.js';
import { ago, formatTime, gameNames, has, language, t } from './i18n.js';
import { h } from './dom.js';

/** The levels in the order offered; Easy is the default choice (the levels are defined in docs/winnability.md). */
const LEVELS = ['easy', 'medium', 'hard', 'any'];

/** The families the games are shown in, in the catalogue's order; a game in none goes last. */
export const FAMILIES = [
  ['lucie', ['la-belle-lucie', 'la-belle-lucie-one-redeal', 'trefoil', 'three-shuffles-and-a-draw', 'la-belle-lucie-super-move', 'la-belle-lucie-sequences', 'la-belle-lucie-36']],
  ['houses', ['fan', 'house-in-the-woods', 'house-on-the-hill', 'fan-layout', 'swallows']],
  ['russian', ['novomanernaya', 'krakowski', 'trilistnik', 'bredulia', 'melnitsa', 'krug']],
  ['blondes', ['blondes-and-brunettes']],
  ['nivernaise', ['nivernaise']],
];

/** The game a newcomer is offered first. */
export const FIRST_GAME = 'la-belle-lucie';

function levelHref(game, level) {
  return `/play/${encodeURIComponent(game)}${level === 'any' ? '' : `?level=${level}`}`;
}

function otherLang() {
  return language() === 'ru' ? 'en' : 'ru';
}

function gameCard(game, stat) {
  const levels = LEVELS.filter((id) => id === 'any' || (game.levels || []).includes(id));
  const chosen = levels.includes('easy') ? 'easy' : 'any';
  const play = h('a', { class: 'button primary play', href: levelHref(game.id, chosen) }, t('home.play'));
  const group = `level-${game.id}`;
  const choice = h('fieldset', { class: 'levels' }, h('legend', {}, t('home.level')));
  for (const id of levels) {
    const input = h('input', { type: 'radio', name: group, value: id, checked: id === chosen });
    input.addEventListener('change', () => { play.href = levelHref(game.id, id); });
    choice.append(h('label', { title: t(`levelAbout.${id}`) }, input, ' ', t(`level.${id}`)));
  }
  const statLine = stat && stat.played
    ? h('p', { class: 'game-stats' }, t('home.gameStats', { played: stat.played, won: stat.won })
      + (stat.best_time_ms ? t('home.gameBest', { time: formatTime(stat.best_time_ms) }) : ''))
    : '';
  const [name, other] = gameNames(game);
  const about = has(`about.${game.id}`) ? t(`about.${game.id}`) : game.about;
  const first = game.id === FIRST_GAME;
  return h('article', { class: `game${first ? ' first' : ''}`, 'data-game': game.id },
    h('h4', {}, name, ' ', h('span', { class: 'other-name', lang: otherLang() }, other)),
    first ? h('p', { class: 'start-here' }, t('home.startHere')) : '',
    h('p', { class: 'about' }, about),
    choice,
    h('div', { class: 'game-actions' }, play, h('a', { class: 'button', href: `/rules/${encodeURIComponent(game.id)}` }, t('home.rules'))),
    statLine);
}

function levelGuide() {
  const list = h('dl', { class: 'level-guide' });
  for (const id of LEVELS) list.append(h('dt', {}, t(`level.${id}`)), h('dd', {}, t(`levelAbout.${id}`)));
  return h('details', { class: 'levels-about' }, h('summary', {}, t('home.levelsTitle')), list);
}

/** The deal of the day: La Belle Lucie's first, any other game's one choice away. */
function dealOfTheDay(daily, games) {
  const names = new Map(games.map((g) => [g.id, gameNames(g)[0]]));
  const entries = daily.games.filter((d) => names.has(d.game));
  if (!entries.length) return '';
  let current = entries.find((d) => d.game === FIRST_GAME) || entries[0];
  const title = h('strong', { class: 'daily-game' });
  const facts = h('p', { class: 'daily-facts' });
  const mark = h('p', { class: 'daily-mark' });
  const play = h('a', { class: 'button primary daily-play' }, t('daily.play'));
  const records = h('a', { class: 'button daily-records' }, t('daily.records'));
  const calendar = h('a', { class: 'daily-calendar' }, t('daily.calendar'));
  const pick = h('select', { class: 'daily-pick', 'aria-label': t('daily.otherGame') },
    ...entries.map((d) => h('option', { value: d.game, selected: d === current }, names.get(d.game))));
  const show = () => {
    const d = current;
    title.textContent = names.get(d.game);
    facts.textContent = t('daily.facts', { deal: String(d.deal), level: t(`level.${d.level}`) });
    mark.textContent = d.won_without_hints ? t('daily.wonClean') : d.won ? t('daily.won') : '';
    play.href = `/play/${encodeURIComponent(d.game)}/${d.deal}`;
    records.href = `/deal/${encodeURIComponent(d.game)}/${d.deal}`;
    calendar.href = `/daily/${encodeURIComponent(d.game)}`;
  };
  pick.addEventListener('change', () => { current = entries.find((d) => d.game === pick.value) || current; show(); });
  show();
  return h('section', { class: 'daily', 'aria-labelledby': 'daily-title' },
    h('h2', { id: 'daily-title' }, t('daily.title'), ' ', h('span', { class: 'daily-date' }, dayLabel(daily.today))),
    h('p', { class: 'daily-rule' }, t('daily.today', { level: t(`level.${daily.level}`) })),
    h('div', { class: 'daily-card' }, title, facts, mark,
      h('div', { class: 'game-actions' }, play, records)),
    h('p', { class: 'daily-more' }, h('label', {}, t('daily.otherGame'), ' ', pick), ' ', calendar));
}

function continueSection(progress, names) {
  if (!progress.length) return '';
  const list = h('ul', { class: 'continue-list' });
  for (const g of progress.slice(0, 5)) {
    list.append(h('li', {}, h('a', { class: 'continue', href: `/game/${encodeURIComponent(g.uid)}` },
      t('home.continue'), ' ', h('strong', {}, names.get(g.game) || g.game),
      t('home.continueDeal', { deal: g.deal, moves: t('table.moves', { n: g.moves }) })),
    ' ', h('span', { class: 'when' }, ago(g.updated))));
  }
  return h('section', { class: 'progress' }, h('h2', {}, t('home.progress')), list);
}

export async function showHome(root) {
  document.title = t('site.title');
  const [games, progress, stats, daily] = await Promise.all([
    api.games(),
    api.continue().catch(() => []),
    api.stats().catch(() => []),
    api.daily().catch(() => null),
  ]);
  const names = new Map(games.map((g) => [g.id, gameNames(g)[0]]));
  const statOf = new Map(stats.map((s) => [s.game, s]));
  const played = stats.filter((s) => s.played).length;
  const parts = [
    h('div', { class: 'home-head' },
      h('h1', {}, t('home.title')),
      h('nav', { class: 'home-links', 'aria-label': t('home.more') },
        h('a', { class: 'button stats-link', href: '/stats' }, t('stats.title')),
        h('a', { class: 'button', href: '/winnability' }, t('odds.title')))),
    h('p', { class: 'intro' }, t('home.intro')),
  ];
  if (daily) parts.push(dealOfTheDay(daily, games));
  parts.push(continueSection(progress, names));
  const byId = new Map(games.map((g) => [g.id, g]));
  const placed = new Set();
  const families = h('section', { class: 'families', 'aria-labelledby': 'games-title' }, h('h2', { id: 'games-title' }, t('home.games')));
  for (const [family, ids] of FAMILIES) {
    const members = ids.filter((id) => byId.has(id));
    if (!members.length) continue;
    members.forEach((id) => placed.add(id));
    families.append(h('section', { class: 'family', 'data-family': family },
      h('h3', { class: 'family-title' }, t(`family.${family}`)),
      h('div', { class: 'games' }, ...members.map((id) => gameCard(byId.get(id), statOf.get(id))))));
  }
  const rest = games.filter((g) => !placed.has(g.id));
  if (rest.length) families.append(h('div', { class: 'games' }, ...rest.map((g) => gameCard(g, statOf.get(g.id)))));
  parts.push(families, levelGuide());
  if (played) parts.push(h('p', { class: 'stats-more' }, h('a', { href: '/stats' }, t('home.allStats', { n: played }))));
  root.replaceChildren(...parts);
}
