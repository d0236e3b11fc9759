// How often each game comes out (/winnability): per game, the share of deals
// the solver wins, proves lost and leaves undecided, each with its 95%
// interval, the person-like player's rate and the levels' shares, from the
// store's figures (GET /api/figures, the numbers docs/winnability.md states).

import { api } from './api.js';
import { intervalChart } from './charts.js';
import { gameNames, language, t } from './i18n.js';
import { h } from './dom.js';

const LEVELS = ['easy', 'medium', 'hard', 'unwinnable', 'unknown'];

export async function showWinnability(root) {
  const [figures, games] = await Promise.all([api.figures(), api.games()]);
  const names = new Map(games.map((g) => [g.id, gameNames(g)[0]]));
  document.title = t('odds.title');
  const pct = (x) => new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 1 }).format(x);
  const num = (x) => new Intl.NumberFormat(language()).format(x);
  const sections = figures.filter((f) => f.deals).map((f) => {
    const rows = [
      { kind: 'won', label: t('odds.won'), ...f.won },
      { kind: 'lost', label: t('odds.lost'), ...f.lost },
      { kind: 'unknown', label: t('odds.unknown'), ...f.unknown },
    ];
    if (f.person) rows.push({ kind: 'person', label: t('odds.person'), ...f.person });
    const levels = h('p', { class: 'odds-levels' }, t('odds.levels'), ' ',
      LEVELS.map((l, i) => `${t(`level.${l}`)} ${pct(f.deals ? f.levels[i] / f.deals : 0)}`).join(' · '));
    const name = names.get(f.game) || f.game;
    return h('section', { class: 'odds-game', 'data-game': f.game },
      h('h2', {}, h('a', { href: `/rules/${encodeURIComponent(f.game)}` }, name)),
      h('p', { class: 'odds-deals' }, t('odds.deals', { n: f.deals })),
      intervalChart({ label: t('odds.chart', { name }), rows, format: pct }),
      levels);
  });
  root.replaceChildren(h('section', { class: 'odds-page' },
    h('h1', {}, t('odds.title')),
    h('p', { class: 'intro' }, t('odds.intro')),
    h('div', { class: 'odds-grid' }, ...sections)));
}
