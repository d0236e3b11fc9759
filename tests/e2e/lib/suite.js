// What every browser test file shares: one real server and one browser,
// started before the file's first test and stopped after its last, and the
// game catalogue read once from the server.

import { after, before } from 'node:test';

import { DESKTOP, launch, open } from './browser.js';
import { startServer } from './server.js';

/** Registers the file's `before` and `after` hooks; the fields fill in when the first test runs. */
export function useSuite() {
  const suite = {
    server: null,
    browser: null,
    games: [],
    /** A fresh player's page on this file's server (see `open` in browser.js). */
    open: (viewport = DESKTOP, extra = {}) => open(suite.browser, suite.server.url, viewport, extra),
  };
  before(async () => {
    suite.server = await startServer();
    suite.browser = await launch();
    suite.games = await (await fetch(`${suite.server.url}/api/games`)).json();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
