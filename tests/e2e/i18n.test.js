// The page in Russian and in English: a browser that asks for ru-RU gets
// Russian, one that asks for en-US English; the РУ / EN switch changes the
// language on a table without touching the game, and the choice survives a
// reload. Saves Russian screenshots (home, a table, a rules page; desktop and
// phone) under target/screenshots/.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { PHONE } from './lib/browser.js';
import { REPO } from './lib/server.js';
import { useSuite } from './lib/suite.js';
import { openDeal, playable, screenPiles, serverState, settle, uidOf } from './lib/table.js';

const suite = useSuite();
const SHOTS = path.join(REPO, 'target/screenshots');
const DESKTOP = { width: 1366, height: 800 };
const catalogue = (lang) => JSON.parse(fs.readFileSync(path.join(REPO, `web/i18n/${lang}.json`), 'utf8'));
const RU = catalogue('ru');
const EN = catalogue('en');
const LOCALES = { ru: 'ru-RU', en: 'en-US' };

async function withLocale(lang, fn, viewport = DESKTOP) {
  const { context, page } = await suite.open(viewport, { locale: LOCALES[lang] });
  try {
    await fn(page, context);
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
}

const CYRILLIC = /[а-яё]/i;

/** A toolbar button's words: its label as shown on a desktop, which is also its accessible name. */
async function buttonWords(page, selector) {
  const [shown, name] = await page.$eval(selector, (b) => [(b.querySelector('.label') || b).textContent.trim(), b.getAttribute('aria-label')]);
  if (name !== null) assert.equal(name, shown, `${selector}: the accessible name is the label`);
  return shown;
}

/** Plays the hint's moves through the API (the page's own cookie) until the game is won. */
async function winByApi(page, uid) {
  return page.evaluate(async (id) => {
    const post = (p, body) => fetch(`/api/play/${id}/${p}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    }).then((r) => r.json());
    for (let i = 0; i < 300; i++) {
      const state = await fetch(`/api/play/${id}`).then((r) => r.json());
      if (state.won) return true;
      const hint = await post('hint', {});
      if (hint.kind !== 'solution' || !hint.move) return false;
      await post('move', { move: hint.move, expect: state.version });
    }
    return false;
  }, uid);
}

for (const lang of ['ru', 'en']) {
  const words = lang === 'ru' ? RU : EN;
  test(`${LOCALES[lang]}: home, table, rules, win screen and an error speak ${lang}`, () => withLocale(lang, async (page) => {
    // Home page.
    await page.goto('/');
    await page.waitForSelector('article.game');
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    assert.equal(await page.title(), words['site.title']);
    assert.equal((await page.textContent('.intro')).trim(), words['home.intro']);
    const lucie = page.locator('article.game[data-game="la-belle-lucie"]');
    assert.equal((await lucie.locator('a.play').textContent()).trim(), words['home.play']);
    assert.equal((await lucie.locator('.about').textContent()).trim(), words['about.la-belle-lucie']);
    assert.equal(await page.locator('.lang-switch button[aria-pressed="true"]').getAttribute('data-lang'), lang);
    const easy = lucie.locator('input[value="easy"]');
    if (await easy.count()) assert.equal(await easy.isChecked(), true, 'Easy is the default level');
    const guide = await page.textContent('.level-guide');
    for (const l of ['easy', 'medium', 'hard', 'any']) assert.ok(guide.includes(words[`level.${l}`]) && guide.includes(words[`levelAbout.${l}`]), l);

    // A table: furniture, card names and pile names.
    await openDeal(page, 'nivernaise', 17);
    assert.equal(await buttonWords(page, 'button.undo'), words['table.undo']);
    assert.equal((await page.textContent('button.hint')).trim(), words['table.hint']);
    const redeal = await buttonWords(page, 'button.redeal');
    assert.equal(redeal, lang === 'ru' ? 'Пересдать (осталось 2)' : 'Redeal (2 left)');
    assert.equal((await page.textContent('.move-count')).trim(), lang === 'ru' ? '0 ходов' : '0 moves');
    assert.match(await page.title(), new RegExp(lang === 'ru' ? 'Ниверне, расклад 17' : 'La Nivernaise.*deal 17|deal 17'));
    const line = await page.getAttribute('.pile[data-pile="t1"]', 'aria-label');
    assert.match(line, lang === 'ru' ? /^стопка линии 1, 3 карты$/ : /^line pile 1, 3 cards$/);
    const flank = await page.getAttribute('.pile[data-kind="cell"]', 'aria-label');
    assert.match(flank, lang === 'ru' ? /^ячейка фланга 1, 1 карта$/ : /^flank cell 1, 1 card$/);
    const card = await page.getAttribute('.pile[data-pile="t1"] .card.top', 'aria-label');
    const code = await page.getAttribute('.pile[data-pile="t1"] .card.top', 'data-card');
    const [rank, suit] = [code.slice(0, -1).replace('T', '10'), code.slice(-1)];
    assert.equal(card, lang === 'ru' ? `${RU[`rank.${rank}`]} ${RU[`suit.${suit}`]}` : `${EN[`rank.${rank}`]} of ${EN[`suit.${suit}`]}`);
    if (lang === 'ru') assert.match(card, CYRILLIC);

    // The rules page asks for this language.
    const asked = page.waitForRequest((r) => r.url().includes('/rules?lang='));
    await page.goto('/rules/nivernaise');
    assert.match((await asked).url(), new RegExp(`lang=${lang}$`));
    await page.waitForSelector('.rules');
    assert.equal((await page.textContent('.rules a.button.primary')).trim(), words['rules.play']);
    assert.match(await page.textContent('.rules h1'), lang === 'ru' ? /^Ниверне/ : /^La Nivernaise/);

    // An error: no such game, shown from the catalogue, never the server's words.
    await page.goto('/play/no-such-game');
    await page.waitForSelector('p.error');
    const error = (await page.textContent('p.error')).trim();
    assert.ok(Object.values(words).includes(error), `"${error}" comes from the ${lang} catalogue`);
    assert.equal((await page.textContent('p.error + a')).trim(), words['page.back']);

    // The win screen.
    await openDeal(page, 'la-belle-lucie-36', 3);
    assert.ok(await winByApi(page, uidOf(page)), 'the solver wins the deal');
    await page.reload();
    await page.waitForSelector('.win');
    assert.equal((await page.textContent('#win-title')).trim(), words['win.title']);
    assert.equal((await page.textContent('.win-close')).trim(), words['win.close']);
    const state = await serverState(page);
    assert.ok((await page.textContent('.win p')).includes(lang === 'ru' ? `расклад 3` : 'deal 3'));
    assert.ok((await page.textContent('.win p')).includes(String(state.moves)));
  }));
}

test('the switch changes the language on a table, keeps position and redo, and holds after a reload', () => withLocale('en', async (page) => {
  await openDeal(page, 'fan', 11);
  for (let i = 0; i < 3; i++) {
    // Three plain moves: no double-click guard, no second-click cycle.
    await page.evaluate(() => { window.patienceTable.doubleClickMs = 0; window.patienceTable.cycle = null; });
    const [card] = await playable(page);
    await page.click(`.pile[data-pile="${card.pile}"] .card[data-index="${card.index}"]`);
    await settle(page, i + 1);
  }
  await page.click('button.undo');
  await settle(page, 2);
  const uid = uidOf(page);
  const piles = await screenPiles(page);
  assert.equal(await buttonWords(page, 'button.undo'), 'Undo');

  await page.click('.lang-switch button[data-lang="ru"]');
  await page.waitForFunction(() => document.documentElement.lang === 'ru');
  assert.equal(uidOf(page), uid, 'the address is the same');
  assert.equal(await buttonWords(page, 'button.undo'), 'Отменить');
  assert.equal(await buttonWords(page, 'button.redo'), 'Вернуть');
  assert.equal((await page.textContent('.move-count')).trim(), '2 хода');
  assert.deepEqual(await screenPiles(page), piles, 'the position on screen stays');
  assert.equal(await page.isEnabled('button.redo'), true, 'the redo history stays');
  assert.match(await page.getAttribute('.pile[data-pile="t1"]', 'aria-label'), /^веер 1/);

  await page.reload();
  await page.waitForSelector('.board .pile');
  await settle(page, 2);
  assert.equal(await page.getAttribute('html', 'lang'), 'ru', 'the server serves the remembered language');
  assert.equal((await page.textContent('button.hint')).trim(), 'Подсказка');
  await page.click('button.redo');
  await settle(page, 3);
  assert.equal((await page.textContent('.move-count')).trim(), '3 хода');

  await page.click('.lang-switch button[data-lang="en"]');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal((await page.textContent('.move-count')).trim(), '3 moves');
}));

test('Russian screenshots: home, a table and a rules page, desktop and phone', async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await withLocale('ru', async (page) => {
      await page.goto('/');
      await page.waitForSelector('article.game');
      await page.screenshot({ path: path.join(SHOTS, `ru-home-${name}.png`) });
      await openDeal(page, 'nivernaise', 17);
      await page.screenshot({ path: path.join(SHOTS, `ru-table-${name}.png`) });
      await page.goto('/rules/blondes-and-brunettes');
      await page.waitForSelector('.rules');
      await page.screenshot({ path: path.join(SHOTS, `ru-rules-${name}.png`) });
    }, viewport);
  }
});
