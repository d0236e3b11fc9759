// Debian's Chromium driven by playwright-core (no browser download).

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
 */
export async function open(browser, baseURL, viewport = DESKTOP, extra = {}) {
  // English unless a test asks for another locale: the page's language follows the browser's.
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-US', ...extra });
  context.setDefaultTimeout(20_000); // generous: CI shares two cores with the build
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  // A refused request (409, 422) is logged by Chromium as a failed resource; that is expected traffic.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) page.errors.push(m.text()); });
  return { context, page };
}
