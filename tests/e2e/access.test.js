// The table without a mouse and with a screen reader: the keys (by physical
// key, so a Russian layout works too) ask for a hint and play it, undo and
// redo, each said in the live region; the skip link leads to the board; the
// question before a game is left; the rules page lists the keys; axe-core
// finds no violation on the table, with its dialog open, in both languages.
// Screenshots of the table and the dialog go to target/screenshots/.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import { DESKTOP, PHONE } from './lib/browser.js';
import { REPO } from './lib/server.js';
import { useSuite } from './lib/suite.js';
import { cardSelector, grabPoint, openDeal, playable, serverState, settle } from './lib/table.js';

const SHOTS = path.join(REPO, 'target/screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const GAME = 'la-belle-lucie-36';

const suite = useSuite();

/** A key press as a Russian keyboard layout sends it: the letter `key` on the physical key `code`. */
const pressRu = (page, key, code, ctrl = false) => page.evaluate(([key, code, ctrl]) => {
  document.dispatchEvent(new KeyboardEvent('keydown', { key, code, ctrlKey: ctrl, bubbles: true, cancelable: true }));
}, [key, code, ctrl]);

const spoken = (page) => page.textContent('.announce');

test('H and P ask for the hint and play it in a Russian layout; undo and redo keys are said', () => suite.withPage(async (page) => {
  await openDeal(page, GAME, 1);
  await pressRu(page, 'р', 'KeyH');
  await page.waitForSelector('#app[data-hint]', { timeout: 15_000 });
  const { hint, state } = await page.evaluate(() => ({ hint: window.patienceTable.hint, state: window.patienceTable.state }));
  assert.ok(hint.move, 'the hint names a move');
  assert.equal(await page.getAttribute('button.play-hint', 'aria-keyshortcuts'), 'P');
  const legal = state.legal.find((m) => m.move === hint.move);
  await pressRu(page, 'з', 'KeyP');
  await settle(page, 1);
  const moved = await serverState(page);
  assert.equal(moved.moves, 1);
  if (legal?.card && legal.to) {
    assert.equal(moved.piles.find((p) => p.name === legal.to).cards.at(-1).card, legal.card, 'the hinted move was played');
  }
  await pressRu(page, 'я', 'KeyZ', true);
  await settle(page, 0);
  assert.equal((await serverState(page)).moves, 0);
  assert.equal(await spoken(page), 'Move undone; 0 moves now.');
  await page.keyboard.press('Control+y');
  await settle(page, 1);
  assert.equal((await serverState(page)).moves, 1);
  assert.equal(await spoken(page), 'Move redone; 1 move now.');
  // The rules page lists these keys.
  await page.goto(`/rules/${GAME}`);
  await page.waitForSelector('.rules .key-list');
  const keys = await page.$$eval('.key-list kbd', (ks) => ks.map((k) => k.textContent));
  for (const k of ['H', 'P', 'Ctrl+Z']) assert.ok(keys.includes(k), k);
}));

for (const lang of ['ru', 'en']) {
  test(`the skip link leads to the board, and axe-core finds no violation on the table and its dialog (${lang})`, async () => {
    const locale = lang === 'ru' ? 'ru-RU' : 'en-US';
    const { context, page } = await suite.open(DESKTOP, { bypassCSP: true, locale });
    try {
      await page.addInitScript((l) => localStorage.setItem('patience.lang', l), lang);
      await openDeal(page, GAME, 2);
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      assert.equal(await page.locator('h1').count(), 1, 'one h1');
      // The first Tab reaches the skip link; it leads past the toolbar to the board.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
      assert.equal(await page.textContent('.skip-link'), lang === 'ru' ? 'К игровому столу' : 'Skip to the table');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'board');
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => document.activeElement.classList.contains('card')), 'the next Tab reaches a card');
      await page.keyboard.press('Enter');
      await settle(page, 1);
      const axe = async (where) => {
        await page.addScriptTag({ path: AXE });
        const result = await page.evaluate(() => window.axe.run(document));
        const found = result.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
        assert.deepEqual(found, [], `${where} (${lang})`);
      };
      await axe('the table');
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, `table-${lang}-desktop.png`) });
      await page.click('button.restart');
      await page.waitForSelector('dialog.confirm[open]');
      await axe('the Start over dialog');
      await page.screenshot({ path: path.join(SHOTS, `confirm-${lang}-desktop.png`) });
      await page.keyboard.press('Escape');
      assert.deepEqual(page.errors, []);

      const phone = await suite.open(PHONE, { locale, hasTouch: true, isMobile: true });
      await phone.page.addInitScript((l) => localStorage.setItem('patience.lang', l), lang);
      await openDeal(phone.page, GAME, 2);
      const [c] = await playable(phone.page);
      const p = await grabPoint(phone.page, cardSelector(c.pile, c.index));
      await phone.page.mouse.click(p.x, p.y);
      await settle(phone.page, 1);
      await phone.page.screenshot({ path: path.join(SHOTS, `table-${lang}-phone.png`) });
      await phone.page.click('button.more-button');
      await phone.page.click('button.restart');
      await phone.page.waitForSelector('dialog.confirm[open]');
      await phone.page.screenshot({ path: path.join(SHOTS, `confirm-${lang}-phone.png`) });
      assert.deepEqual(phone.page.errors, []);
      await phone.context.close();
    } finally {
      await context.close();
    }
  });
}
