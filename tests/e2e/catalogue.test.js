// The message catalogues (web/i18n/*.json): both languages hold the same
// keys, no message is empty, plural messages have every form their language
// needs, and every key the page's code names exists. A missing key fails
// here; the page never shows one.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const WEB = new URL('../../web/', import.meta.url);
const read = (rel) => readFileSync(new URL(rel, WEB), 'utf8');
const CATALOGUES = { ru: JSON.parse(read('i18n/ru.json')), en: JSON.parse(read('i18n/en.json')) };
const code = readdirSync(WEB).filter((f) => f.endsWith('.js')).map((f) => [f, read(f)]);

/** The plural forms Intl.PluralRules asks for, per language. */
const forms = (lang) => new Intl.PluralRules(lang).resolvedOptions().pluralCategories;

test('both catalogues have exactly the same keys', () => {
  const ru = Object.keys(CATALOGUES.ru).sort();
  const en = Object.keys(CATALOGUES.en).sort();
  assert.deepEqual(ru.filter((k) => !en.includes(k)), [], 'in ru, not in en');
  assert.deepEqual(en.filter((k) => !ru.includes(k)), [], 'in en, not in ru');
});

test('no message is empty, and a plural has every form of its language', () => {
  for (const [lang, cat] of Object.entries(CATALOGUES)) {
    for (const [key, value] of Object.entries(cat)) {
      if (typeof value === 'string') {
        assert.ok(value.trim(), `${lang}: ${key} is empty`);
        continue;
      }
      assert.equal(typeof value, 'object', `${lang}: ${key} is neither text nor plural forms`);
      for (const form of forms(lang)) {
        if (form === 'zero' || form === 'two') continue;
        assert.ok(typeof value[form] === 'string' && value[form].includes('{n}'), `${lang}: ${key} lacks the "${form}" form`);
      }
    }
  }
});

test('a plural and a placeholder read as Russian and English do', () => {
  const pick = (lang, key, n) => CATALOGUES[lang][key][new Intl.PluralRules(lang).select(n)].replace('{n}', n);
  assert.equal(pick('ru', 'table.moves', 1), '1 ход');
  assert.equal(pick('ru', 'table.moves', 2), '2 хода');
  assert.equal(pick('ru', 'table.moves', 5), '5 ходов');
  assert.equal(pick('ru', 'table.moves', 21), '21 ход');
  assert.equal(pick('ru', 'table.redealsLeft', 2), 'осталось 2 пересдачи');
  assert.equal(pick('ru', 'table.redealsLeft', 1), 'осталась 1 пересдача');
  assert.equal(pick('en', 'table.moves', 1), '1 move');
  assert.equal(pick('en', 'table.moves', 5), '5 moves');
});

test('every key the page names exists', () => {
  const keys = Object.keys(CATALOGUES.en);
  const prefixes = new Set(keys.map((k) => k.split('.')[0]));
  const named = new Set();
  for (const [file, text] of code) {
    // t('key'), has('key'), data-i18n="key" and any quoted 'prefix.word' in a key list.
    for (const m of text.matchAll(/['"`]([a-z]+)\.([A-Za-z0-9_.-]+)['"`]/g)) {
      if (prefixes.has(m[1]) && !/\.(js|json|css|svg|html)$/.test(m[0].slice(1, -1))) named.add(`${m[1]}.${m[2]}\t${file}`);
    }
    for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) named.add(`${m[1]}\t${file}`);
  }
  for (const m of read('index.html').matchAll(/(?:data-i18n(?:-title|-label)?="|\{\{t:)([^"}]+)/g)) named.add(`${m[1]}\tindex.html`);
  assert.ok(named.size > 60, `the scan found the page's keys (${named.size})`);
  const missing = [...named].filter((e) => !keys.includes(e.split('\t')[0]));
  assert.deepEqual(missing, []);
});

test('every key the page builds from server data exists', () => {
  const keys = new Set(Object.keys(CATALOGUES.en));
  const want = [];
  for (const r of ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K']) want.push(`rank.${r}`);
  for (const s of 'SHDC') want.push(`suit.${s}`);
  for (const k of ['tableau', 'foundation', 'cell', 'reserve', 'waste', 'stock']) want.push(`pile.${k}`);
  for (const l of ['easy', 'medium', 'hard', 'any']) want.push(`level.${l}`, `levelAbout.${l}`);
  // Every error code docs/api.md lists in its table of errors.
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const codes = [...api.matchAll(/^\| `([a-z_]+)` \| \d{3} \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 20, `docs/api.md lists the error codes (found ${codes.length})`);
  for (const c of codes) want.push(`error.${c}`);
  // Every game's about line, by the ids of the engine's catalogue.
  const engine = readFileSync(new URL('../../crates/engine/src/catalogue.rs', import.meta.url), 'utf8');
  const ids = [...engine.matchAll(/^\s*id: "([a-z0-9-]+)",/gm)].map((m) => m[1]);
  assert.equal(ids.length, 20, 'the engine has twenty games');
  for (const id of ids) want.push(`about.${id}`);
  assert.deepEqual(want.filter((k) => !keys.has(k)), []);
});
