// What every browser test file shares: one real server and one browser,
// started before the file's first test and stopped after its last, and the
// game catalogue read once from the server.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';

import { DESKTOP, launch, open } from './browser.js';
import { startServer } from './server.js';

/** Registers the file's `before` and `after` hooks; the fields fill in when the first test runs. */
export function useSuite(serverArgs = []) {
  const suite = {
    server: null,
    browser: null,
    games: [],
    /** A fresh player's page on this file's server (see `open` in browser.js). */
    open: (viewport = DESKTOP, extra = {}) => open(suite.browser, suite.server.url, viewport, extra),
    /** Runs `fn(page, context)` on a fresh player's page, asserts the page raised no error, and closes it. */
    withPage: async (fn, viewport, extra) => {
      const { context, page } = await suite.open(viewport, extra);
      try {
        await fn(page, context);
        assert.deepEqual(page.errors, []);
      } finally {
        await context.close();
      }
    },
  };
  before(async () => {
    suite.server = await startServer(serverArgs);
    suite.browser = await launch();
    suite.games = await (await fetch(`${suite.server.url}/api/games`)).json();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
