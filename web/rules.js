// A game's rules page, drawn from the markdown the API returns.

import { api } from './api.js';
import { renderMarkdown } from './markdown.js';

export async function showRules(root, game) {
  const [rules, games] = await Promise.all([api.rules(game), api.games().catch(() => [])]);
  const info = games.find((g) => g.id === game);
  const title = document.createElement('h1');
  title.textContent = info ? `${info.name_en} — ${info.name_ru}` : game;
  document.title = `${info ? info.name_en : game}: rules — Patience`;
  const play = document.createElement('a');
  play.className = 'button primary';
  play.href = `/play/${encodeURIComponent(game)}`;
  play.textContent = 'Play';
  const back = document.createElement('a');
  back.className = 'button';
  back.href = '/';
  back.textContent = 'All games';
  const actions = document.createElement('p');
  actions.className = 'game-actions';
  actions.append(play, back);
  const article = document.createElement('article');
  article.className = 'rules';
  const body = renderMarkdown(rules.markdown);
  // The rule book's section heading is the bare id, which the title already says better.
  if (/^H\d$/.test(body.firstElementChild?.tagName || '') && body.firstElementChild.textContent.trim() === game) {
    body.firstElementChild.remove();
  }
  article.append(title, body, actions);
  root.replaceChildren(article);
}
