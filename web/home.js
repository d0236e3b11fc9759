// The home page: games in progress, every game with its level choice and
// rules, and the player's statistics.

import { api } from './api.js';
import { formatTime } from './table.js';
import { h } from './dom.js';

const LEVELS = [['easy', 'Easy'], ['medium', 'Medium'], ['hard', 'Hard'], ['any', 'Any']];

function ago(when) {
  const t = typeof when === 'number' ? when : Date.parse(when);
  if (!Number.isFinite(t)) return '';
  const s = Math.max(0, (Date.now() - (t < 1e12 ? t * 1000 : t)) / 1000);
  if (s < 90) return 'just now';
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 129600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}

function gameCard(game, stat) {
  const levels = LEVELS.filter(([id]) => id === 'any' || (game.levels || []).includes(id));
  const play = h('a', { class: 'button primary play', href: `/play/${encodeURIComponent(game.id)}` }, 'Play');
  const group = `level-${game.id}`;
  const choice = h('fieldset', { class: 'levels' }, h('legend', {}, 'Level'));
  for (const [id, label] of levels) {
    const input = h('input', { type: 'radio', name: group, value: id, checked: id === 'any' });
    input.addEventListener('change', () => {
      play.href = `/play/${encodeURIComponent(game.id)}${id === 'any' ? '' : `?level=${id}`}`;
    });
    choice.append(h('label', {}, input, ' ', label));
  }
  const statLine = stat && stat.played
    ? h('p', { class: 'game-stats' }, `Played ${stat.played}, won ${stat.won}` + (stat.best_time_ms ? `, best ${formatTime(stat.best_time_ms)}` : ''))
    : '';
  return h('article', { class: 'game', 'data-game': game.id },
    h('h2', {}, game.name_en, ' ', h('span', { class: 'ru', lang: 'ru' }, game.name_ru)),
    h('p', { class: 'about' }, game.about),
    choice,
    h('div', { class: 'game-actions' }, play, h('a', { class: 'button', href: `/rules/${encodeURIComponent(game.id)}` }, 'Rules')),
    statLine);
}

export async function showHome(root) {
  document.title = 'Patience';
  const [games, progress, stats] = await Promise.all([
    api.games(),
    api.continue().catch(() => []),
    api.stats().catch(() => []),
  ]);
  const names = new Map(games.map((g) => [g.id, g.name_en]));
  const statOf = new Map(stats.map((s) => [s.game, s]));
  const parts = [h('p', { class: 'intro' }, 'Fan patience games: La Belle Lucie and its relatives, the two-deck houses, Blondes and Brunettes, La Nivernaise. Every deal comes with a solver behind the Hint button.')];
  if (progress.length) {
    const list = h('ul', { class: 'continue-list' });
    for (const g of progress) {
      list.append(h('li', {}, h('a', { class: 'continue', href: `/game/${encodeURIComponent(g.uid)}` },
        'Continue ', h('strong', {}, names.get(g.game) || g.game), `, deal ${g.deal}, ${g.moves} moves`),
      ' ', h('span', { class: 'when' }, ago(g.updated))));
    }
    parts.push(h('section', { class: 'progress' }, h('h2', {}, 'Games in progress'), list));
  }
  parts.push(h('section', { class: 'games' }, ...games.map((g) => gameCard(g, statOf.get(g.id)))));
  const played = stats.filter((s) => s.played);
  if (played.length) {
    const table = h('table', { class: 'stats' },
      h('thead', {}, h('tr', {}, ...['Game', 'Played', 'Won', 'Streak', 'Best streak', 'Best time'].map((t) => h('th', { scope: 'col' }, t)))));
    const body = h('tbody');
    for (const s of played) {
      body.append(h('tr', {}, h('th', { scope: 'row' }, names.get(s.game) || s.game),
        ...[s.played, s.won, s.current_streak, s.best_streak, s.best_time_ms ? formatTime(s.best_time_ms) : '–'].map((v) => h('td', {}, String(v)))));
    }
    table.append(body);
    parts.push(h('section', { class: 'stats-section' }, h('h2', {}, 'Statistics'), table));
  }
  root.replaceChildren(...parts);
}
