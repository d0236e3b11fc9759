// Debian's Chromium driven by playwright-core (no browser download).

import fs from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: 30_000,
  });
}

/**
 * A fresh context (a new player: its own cookie) and page at `baseURL`.
 * Page errors are collected in `page.errors`; tests assert there are none.
 * Automatic moves home are switched off (each click then makes exactly one
 * move) unless `extra.autoMove` is true, as it is for a new player.
 */
export async function open(browser, baseURL, viewport = DESKTOP, extra = {}) {
  const { autoMove = false, ...options } = extra;
  const context = await browser.newContext({ baseURL, viewport, ...options });
  context.setDefaultTimeout(20_000); // generous: CI shares two cores with the build
  if (!autoMove) {
    await context.addInitScript(() => {
      if (localStorage.getItem('patience.auto') === null) localStorage.setItem('patience.auto', '0');
    });
  }
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  // A refused request (409, 422) is logged by Chromium as a failed resource; that is expected traffic.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) page.errors.push(m.text()); });
  return { context, page };
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.html': 'text/html', '.json': 'application/json' };

/** Answers the page's `/static/...` files from directory `dir` on disk instead of the server's copy. */
export async function serveWebFrom(context, dir) {
  const root = path.resolve(dir);
  await context.route('**/static/**', (route) => {
    const rel = new URL(route.request().url()).pathname.replace(/^\/static\/(b-[0-9a-f]+\/)?/, '');
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
    return route.fulfill({ body: fs.readFileSync(file), contentType: TYPES[path.extname(file)] || 'application/octet-stream' });
  });
}
