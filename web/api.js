// The HTTP API of docs/api.md, as small async functions. Errors become
// `ApiError` carrying the status and the parsed body, so callers can tell a
// stale move (409, which carries the current state) from a refused one (422).
// The message shown to a player comes from the error's `code` (i18n.js), never
// from the server's English text. `expect` is the state's `version`, which
// grows with every change.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    /** The server's stable error code (docs/api.md), which the page shows in the player's language. */
    this.code = body && typeof body.code === 'string' ? body.code : null;
  }
}

async function call(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text.slice(0, 200) }; // no code: shown as the generic message
    }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const enc = encodeURIComponent;

export const api = {
  games: () => call('GET', '/api/games'),
  /** The rules page of `game` in `lang` (`ru` or `en`). */
  rules: (game, lang) => call('GET', `/api/games/${enc(game)}/rules?lang=${enc(lang)}`),
  /** `opts` is `{deal}`, `{level}` or `{}` (a random deal). */
  newGame: (game, opts = {}) => call('POST', `/api/games/${enc(game)}/new`, opts),
  state: (uid) => call('GET', `/api/play/${enc(uid)}`),
  /** With `auto`, the server then sends home every card no other card can still need. */
  move: (uid, move, expect, auto = false) => call('POST', `/api/play/${enc(uid)}/move`, { move, expect, auto }),
  finish: (uid, expect) => call('POST', `/api/play/${enc(uid)}/finish`, { expect }),
  /** The same deal and level as a fresh game (201 with its state). */
  restart: (uid) => call('POST', `/api/play/${enc(uid)}/restart`, {}),
  /** One click back; with `to`, clicks back until `to` moves are left. */
  undo: (uid, expect, to) => call('POST', `/api/play/${enc(uid)}/undo`, to === undefined ? { expect } : { expect, to }),
  redo: (uid, expect) => call('POST', `/api/play/${enc(uid)}/redo`, { expect }),
  /** With `auto`, the hint's line is the one the table plays with automatic moves. */
  hint: (uid, auto = false) => call('POST', `/api/play/${enc(uid)}/hint`, { auto }),
  /** What the background solver knows; with `seen` (an answer's `seq`), waits for news. */
  analysis: (uid, auto, seen) => call('GET', `/api/play/${enc(uid)}/analysis?auto=${auto ? 'true' : 'false'}${seen === undefined ? '' : `&seen=${seen}`}`),
  continue: () => call('GET', '/api/continue'),
  stats: () => call('GET', '/api/stats'),
  /** The counted games, oldest first, for the statistics charts. */
  statsGames: () => call('GET', '/api/stats/games'),
  /** Today's deal of every game, with the player's results on them. */
  daily: () => call('GET', '/api/daily'),
  /** One game's calendar month (`YYYY-MM`, or the current one). */
  dailyMonth: (game, month) => call('GET', `/api/daily/${enc(game)}${month ? `?month=${enc(month)}` : ''}`),
  records: (game, deal) => call('GET', `/api/records/${enc(game)}/${enc(deal)}`),
  me: () => call('GET', '/api/me'),
  /** An empty name clears it. */
  setName: (name) => call('POST', '/api/me', { name }),
  figures: () => call('GET', '/api/figures'),
};
