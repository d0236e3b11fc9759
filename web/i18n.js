// The page's words: one message catalogue per language (`web/i18n/ru.json`,
// `web/i18n/en.json`, the same files the server reads for the page's first
// paint), looked up by key with `t(key, params)`.
//
// A value is a string with `{name}` placeholders, or, for a word that agrees
// with a number, an object of plural forms (`one`, `few`, `many`, `other`)
// chosen by Intl.PluralRules for `params.n`. Numbers in params are formatted
// for the language. A key missing from the catalogue shows the generic error
// text, never the key itself; tests/e2e/catalogue.test.js keeps that from
// happening.

export const LANGUAGES = ['ru', 'en'];
const STORE = 'patience.lang';

let lang = 'en';
let messages = {};
let plurals = new Intl.PluralRules('en');
let numbers = new Intl.NumberFormat('en');
const loaded = new Map();

/** The language in use: `ru` or `en`. */
export function language() {
  return lang;
}

function cookieLang() {
  const m = /(?:^|;\s*)lang=(ru|en)(?:;|$)/.exec(document.cookie);
  return m ? m[1] : null;
}

/**
 * The language to start with: the player's remembered choice, else the first
 * of the browser's languages that is Russian or English, else English.
 */
export function initialLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORE);
  } catch {
    // Private mode: the cookie still remembers.
  }
  if (LANGUAGES.includes(stored)) return stored;
  const cookie = cookieLang();
  if (cookie) return cookie;
  for (const l of navigator.languages || [navigator.language || '']) {
    const primary = l.toLowerCase().split('-')[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return 'en';
}

/** The catalogue the page came with (see crates/server/src/assets.rs), if it is `code`'s. */
function inlineCatalogue(code) {
  const el = document.getElementById('catalogue');
  if (!el || el.dataset.lang !== code) return null;
  try {
    return JSON.parse(el.textContent);
  } catch {
    return null;
  }
}

async function catalogue(code) {
  if (!loaded.has(code)) {
    const inline = inlineCatalogue(code);
    if (inline && typeof inline === 'object') {
      loaded.set(code, inline);
      return inline;
    }
    // Beside this module, under the same build's address (see crates/server/src/assets.rs).
    const res = await fetch(new URL(`./i18n/${code}.json`, import.meta.url), { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`no catalogue for ${code}`);
    loaded.set(code, await res.json());
  }
  return loaded.get(code);
}

/** Loads `code`'s catalogue and makes it the page's language (`<html lang>` too). */
export async function useLanguage(code) {
  const next = LANGUAGES.includes(code) ? code : 'en';
  messages = await catalogue(next);
  lang = next;
  plurals = new Intl.PluralRules(next);
  numbers = new Intl.NumberFormat(next);
  document.documentElement.lang = next;
}

/** Remembers `code` as the player's choice: localStorage, and a cookie the server reads for `<html lang>`. */
export function rememberLanguage(code) {
  try {
    localStorage.setItem(STORE, code);
  } catch {
    // Private mode: the cookie alone remembers.
  }
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
}

/** Whether the catalogue has `key` (for keys built from server data: error codes, pile kinds). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (all, name) => {
    const v = params[name];
    if (v === undefined || v === null) return all;
    return typeof v === 'number' ? numbers.format(v) : String(v);
  });
}

/** The message `key` in the page's language, with `{name}`s filled from `params`. */
export function t(key, params = {}) {
  let value = messages[key];
  if (value === undefined) value = messages['error.generic'] ?? '';
  if (typeof value === 'object') {
    const n = params.n ?? 0;
    value = value[plurals.select(n)] ?? value.other ?? '';
  }
  return fill(value, params);
}

/** A card's spoken name from its code ("TH", "10H") : «десятка червей», "ten of hearts". */
export function cardName(code) {
  const suit = code.slice(-1).toUpperCase();
  let rank = code.slice(0, -1).toUpperCase();
  if (rank === 'T') rank = '10';
  return t('card.name', { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** What opens an empty foundation: a card name, or "ace of any suit". */
export function baseName(rank, suit) {
  return suit ? cardName(`${rank}${suit}`) : t('card.anySuit', { rank: t(`rank.${rank}`) });
}

/**
 * A pile's name as its game names it: a fan, a column of Blondes and
 * Brunettes, a line pile or flank cell of La Nivernaise, with its number.
 */
export function pileName(game, kind, name) {
  const n = (name.match(/\d+$/) || [''])[0];
  const own = `pile.${game}.${kind}`;
  const key = has(own) ? own : `pile.${kind}`;
  return t(key, { n }).trim();
}

/** The message for a server error answer, by its `code`; a generic one when there is none. */
export function errorText(body) {
  const code = body && typeof body.code === 'string' ? body.code : '';
  return code && has(`error.${code}`) ? t(`error.${code}`) : t('error.generic');
}

/** A time span as the clock shows it: 4:07, 1:02:03. */
export function formatTime(ms) {
  const s = Math.max(0, Math.floor((ms || 0) / 1000));
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (x) => String(x).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** How long ago `when` (seconds or ms since the epoch, or a date string) was, in words. */
export function ago(when) {
  const at = typeof when === 'number' ? when : Date.parse(when);
  if (!Number.isFinite(at)) return '';
  const s = Math.max(0, (Date.now() - (at < 1e12 ? at * 1000 : at)) / 1000);
  if (s < 90) return t('home.justNow');
  const rel = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (s < 5400) return rel.format(-Math.round(s / 60), 'minute');
  if (s < 129600) return rel.format(-Math.round(s / 3600), 'hour');
  return rel.format(-Math.round(s / 86400), 'day');
}

/** Sets the text of every `[data-i18n]` element under `root` (the page shell's header). */
export function translateShell(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}

/** A game's name in the page's language, and its name in the other one (shown beside it). */
export function gameNames(game) {
  const ru = game.name_ru || game.name_en || game.id || game.game;
  const en = game.name_en || game.id || game.game;
  return lang === 'ru' ? [ru, en] : [en, ru];
}
