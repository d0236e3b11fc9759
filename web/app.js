// Entry point: reads the address, shows the page it names, in the player's language.
//
// /                      home
// /play/GAME[?level=L]   a new deal of GAME (of level L), then /game/UID
// /play/GAME/DEAL        that deal, then /game/UID
// /game/UID              a stored game
// /rules/GAME            the rules
// /daily/GAME[?month=M]  the deal of the day's calendar of GAME
// /deal/GAME/DEAL        a deal's records
// /stats                 the player's statistics with charts
// /winnability           how often each game comes out
//
// The РУ / EN switch redraws the page on screen in the other language; a
// table keeps its state (the position and the redo list live on the server,
// and nothing is asked of it again).

import { api, ApiError } from './api.js';
import { installSprite } from './cards.js';
import { errorText, gameNames, initialLanguage, language, rememberLanguage, t, translateShell, useLanguage } from './i18n.js';
import { isLarge, setLarge } from './prefs.js';

const root = document.getElementById('app');

function fail(message) {
  const title = document.createElement('h1');
  title.textContent = t('page.errorTitle');
  const p = document.createElement('p');
  p.className = 'error';
  p.textContent = message;
  const a = document.createElement('a');
  a.href = '/';
  a.textContent = t('page.back');
  root.replaceChildren(title, p, a);
  document.title = t('site.title');
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

function markLanguage() {
  for (const b of document.querySelectorAll('.lang-switch button')) b.setAttribute('aria-pressed', String(b.dataset.lang === language()));
  translateShell();
}

function setupLanguageSwitch() {
  for (const b of document.querySelectorAll('.lang-switch button')) {
    b.addEventListener('click', async () => {
      if (b.dataset.lang === language()) return;
      await useLanguage(b.dataset.lang);
      rememberLanguage(language());
      markLanguage();
      if (window.patienceTable) {
        window.patienceTable.relabel();
        setTableTitle(window.patienceTable.state);
      } else {
        show();
      }
    });
  }
}

function setTableTitle(state) {
  document.title = t('page.tableTitle', { name: gameNames(state)[0], deal: state.deal });
}

/** The catalogue, asked for once per page and as early as a table needs it. */
let catalogue = null;
const games = () => (catalogue ||= api.games().catch(() => []));

async function openGame(state) {
  const [all, { Table }] = await Promise.all([games(), page('table')]);
  setTableTitle(state);
  window.patienceTable = new Table(root, state, all.find((g) => g.id === state.game));
}

/**
 * The module that draws a page, loaded when that page is shown. The table's
 * too: its game is asked for while its modules still load (the page names
 * them all as `modulepreload`, see crates/server/src/assets.rs).
 */
const page = (name) => import(`./${name}.js`);

async function route() {
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [kind, a, b] = parts;
  if (!kind) return (await page('home')).showHome(root);
  if (kind === 'rules' && a) return (await page('rules')).showRules(root, a);
  if (kind === 'daily') return (await page('daily')).showDaily(root, a || 'la-belle-lucie');
  if (kind === 'deal' && a && /^\d+$/.test(b || '')) return (await page('records')).showDeal(root, a, Number(b));
  if (kind === 'stats') return (await page('stats')).showStats(root);
  if (kind === 'winnability') return (await page('winnability')).showWinnability(root);
  if (kind === 'game' && a) {
    games();
    return openGame(await api.state(a));
  }
  if (kind === 'play' && a) {
    games(); // in parallel with the new game
    let opts = {};
    if (b !== undefined) {
      if (!/^\d+$/.test(b)) return fail(t('page.badDeal', { deal: b }));
      opts = { deal: Number(b) };
    } else {
      const level = new URLSearchParams(location.search).get('level');
      if (level && level !== 'any') opts = { level };
    }
    const state = await api.newGame(a, opts);
    history.replaceState(null, '', `/game/${encodeURIComponent(state.uid)}`);
    return openGame(state);
  }
  fail(t('page.notFound'));
}

function show() {
  return route().catch((err) => {
    if (err instanceof ApiError && err.status === 404 && !err.code) fail(t('page.gameNotFound'));
    else if (err instanceof ApiError) fail(errorText(err.body));
    else fail(t('error.unreachable'));
  });
}

installSprite();
setupLarge();
await useLanguage(initialLanguage());
rememberLanguage(language());
markLanguage();
setupLanguageSwitch();
show();
