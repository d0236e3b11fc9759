// Entry point: reads the address, shows the page it names.
//
// /                      home
// /play/GAME[?level=L]   a new deal of GAME (of level L), then /game/UID
// /play/GAME/DEAL        that deal, then /game/UID
// /game/UID              a stored game
// /rules/GAME            the rules

import { api, ApiError } from './api.js';
import { installSprite } from './cards.js';
import { showHome } from './home.js';
import { isLarge, setLarge } from './prefs.js';
import { showRules } from './rules.js';
import { Table } from './table.js';

const root = document.getElementById('app');

function fail(message) {
  const p = document.createElement('p');
  p.className = 'error';
  p.textContent = message;
  const a = document.createElement('a');
  a.href = '/';
  a.textContent = 'Back to all games';
  root.replaceChildren(p, a);
}

function setupLarge() {
  const box = document.getElementById('large');
  box.checked = isLarge();
  setLarge(box.checked);
  box.addEventListener('change', () => {
    setLarge(box.checked);
    window.dispatchEvent(new Event('resize'));
  });
}

async function openGame(state) {
  const games = await api.games().catch(() => []);
  document.title = `${state.name_en || state.game}, deal ${state.deal} — Patience`;
  window.patienceTable = new Table(root, state, games.find((g) => g.id === state.game));
}

async function route() {
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [page, a, b] = parts;
  if (!page) return showHome(root);
  if (page === 'rules' && a) return showRules(root, a);
  if (page === 'game' && a) return openGame(await api.state(a));
  if (page === 'play' && a) {
    let opts = {};
    if (b !== undefined) {
      if (!/^\d+$/.test(b)) throw new ApiError(400, { error: `"${b}" is not a deal number` });
      opts = { deal: Number(b) };
    } else {
      const level = new URLSearchParams(location.search).get('level');
      if (level && level !== 'any') opts = { level };
    }
    const state = await api.newGame(a, opts);
    history.replaceState(null, '', `/game/${encodeURIComponent(state.uid)}`);
    return openGame(state);
  }
  fail('There is no such page.');
}

installSprite();
setupLarge();
route().catch((err) => {
  if (err instanceof ApiError && err.status === 404) fail('Not found: no such game, or not one of yours.');
  else fail(err.message || 'Something went wrong.');
});
