// The home page: games in progress, what the levels mean, every game with its
// level choice and rules, and the player's statistics.

import { api } from './api.js';
import { ago, formatTime, gameNames, has, language, t } from './i18n.js';
import { h } from './dom.js';

/** The levels in the order offered; Easy is the default choice (the levels are defined in docs/winnability.md). */
const LEVELS = ['easy', 'medium', 'hard', 'any'];

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
  return h('article', { class: 'game', 'data-game': game.id },
    h('h2', {}, name, ' ', h('span', { class: 'other-name', lang: otherLang() }, other)),
    h('p', { class: 'about' }, about),
    choice,
    h('div', { class: 'game-actions' }, play, h('a', { class: 'button', href: `/rules/${encodeURIComponent(game.id)}` }, t('home.rules'))),
    statLine);
}

function levelGuide() {
  const list = h('dl', { class: 'level-guide' });
  for (const id of LEVELS) list.append(h('dt', {}, t(`level.${id}`)), h('dd', {}, t(`levelAbout.${id}`)));
  return h('section', { class: 'levels-about' }, h('h2', {}, t('home.levelsTitle')), list);
}

export async function showHome(root) {
  document.title = t('site.title');
  const [games, progress, stats] = await Promise.all([
    api.games(),
    api.continue().catch(() => []),
    api.stats().catch(() => []),
  ]);
  const names = new Map(games.map((g) => [g.id, gameNames(g)[0]]));
  const statOf = new Map(stats.map((s) => [s.game, s]));
  const parts = [h('p', { class: 'intro' }, t('home.intro'))];
  if (progress.length) {
    const list = h('ul', { class: 'continue-list' });
    for (const g of progress) {
      list.append(h('li', {}, h('a', { class: 'continue', href: `/game/${encodeURIComponent(g.uid)}` },
        t('home.continue'), ' ', h('strong', {}, names.get(g.game) || g.game),
        t('home.continueDeal', { deal: g.deal, moves: t('table.moves', { n: g.moves }) })),
      ' ', h('span', { class: 'when' }, ago(g.updated))));
    }
    parts.push(h('section', { class: 'progress' }, h('h2', {}, t('home.progress')), list));
  }
  parts.push(levelGuide());
  parts.push(h('section', { class: 'games' }, ...games.map((g) => gameCard(g, statOf.get(g.id)))));
  const played = stats.filter((s) => s.played);
  if (played.length) {
    const heads = ['stats.game', 'stats.played', 'stats.won', 'stats.streak', 'stats.bestStreak', 'stats.bestTime'];
    const table = h('table', { class: 'stats' },
      h('thead', {}, h('tr', {}, ...heads.map((k) => h('th', { scope: 'col' }, t(k))))));
    const body = h('tbody');
    for (const s of played) {
      body.append(h('tr', {}, h('th', { scope: 'row' }, names.get(s.game) || s.game),
        ...[s.played, s.won, s.current_streak, s.best_streak].map((v) => h('td', {}, new Intl.NumberFormat(language()).format(v))),
        h('td', {}, s.best_time_ms ? formatTime(s.best_time_ms) : '–')));
    }
    table.append(body);
    parts.push(h('section', { class: 'stats-section' }, h('h2', {}, t('stats.title')), table));
  }
  root.replaceChildren(...parts);
}
