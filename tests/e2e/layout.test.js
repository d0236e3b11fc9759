// The table as wide as the screen allows: at 1366×800 the La Belle Lucie
// variants with long names show every pile's bottom card, in both
// languages; cards that shrank while a game grew grow back once its piles
// shorten; Swallows' fans never overlap however far they wrap; and on a
// 390×844 phone Fan-shaped House, Swallows and House in the Woods keep
// their own shapes (seed 002): one large fan, flying birds, and the
// foundations between two halves of the fans.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PHONE } from './lib/browser.js';
import { useSuite } from './lib/suite.js';
import { openDeal, settle } from './lib/table.js';

const suite = useSuite();
const DESKTOP = { width: 1366, height: 800 };
const TOUCH = { hasTouch: true, isMobile: true };
const LONG_NAMES = ['la-belle-lucie-one-redeal', 'la-belle-lucie-super-move', 'la-belle-lucie-sequences', 'la-belle-lucie-36'];

const cardWidth = (page) => page.evaluate(() => parseFloat(document.querySelector('.board').style.getPropertyValue('--cw')));

/** Per pile on the board: its kind, tilt (degrees, from its transform) and the box its cards take on screen. */
function pileBoxes(page) {
  return page.evaluate(() => [...document.querySelectorAll('.board .pile')].map((p) => {
    const cards = [...p.querySelectorAll('.card')].map((c) => c.getBoundingClientRect());
    const rects = cards.length ? cards : [p.getBoundingClientRect()];
    const m = /rotate\((-?[\d.]+)deg\)/.exec(p.style.transform || '');
    return {
      name: p.dataset.pile,
      kind: p.dataset.kind,
      rot: m ? Number(m[1]) : 0,
      left: Math.min(...rects.map((r) => r.left)),
      right: Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
    };
  }));
}

/** The pairs of fans whose boxes overlap (by more than half a pixel). */
function overlaps(boxes) {
  const fans = boxes.filter((b) => b.kind === 'tableau');
  const out = [];
  for (let i = 0; i < fans.length; i++) {
    for (let j = i + 1; j < fans.length; j++) {
      const a = fans[i], b = fans[j];
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 0.5 && y > 0.5) out.push(`${a.name}×${b.name}`);
    }
  }
  return out;
}

/**
 * Draws the position on screen with fans `long` grown to `n` cards each (the
 * cards taken from the fans after them), as a game that built on them would:
 * the layout follows the cards, whoever moved them.
 */
function growFans(page, long, n) {
  return page.evaluate(([names, size]) => {
    const t = window.patienceTable;
    const s = structuredClone(t.state);
    const fans = s.piles.filter((p) => p.kind === 'tableau');
    const donors = fans.filter((p) => !names.includes(p.name)).reverse();
    for (const name of names) {
      const fan = fans.find((p) => p.name === name);
      while (fan.cards.length < size) fan.cards.push(donors.find((d) => d.cards.length > 1).cards.pop());
    }
    t.state = s;
    t.render();
  }, [long, n]);
}

for (const locale of ['ru-RU', 'en-US']) {
  test(`${locale}: at 1366×800 every pile's bottom card of the La Belle Lucie variants with long names is on screen`, () => suite.withPage(async (page) => {
    for (const game of LONG_NAMES) {
      await openDeal(page, game, 1);
      // The solver's status line fills in after the first paint: wait for it.
      await page.waitForSelector('.solver-status[data-status]:not([data-status=""])', { timeout: 5000 }).catch(() => {});
      await settle(page);
      const low = await page.evaluate(() => {
        const out = [];
        for (const p of document.querySelectorAll('.board .pile')) {
          const cards = [...p.querySelectorAll('.card')];
          const last = cards[cards.length - 1] || p;
          const r = last.getBoundingClientRect();
          if (r.bottom > innerHeight + 0.5) out.push(`${p.dataset.pile} to ${Math.round(r.bottom)}`);
        }
        return { out, height: innerHeight, scroll: document.documentElement.scrollHeight };
      });
      assert.deepEqual(low.out, [], `${game}: cut off at ${low.height} px (page ${low.scroll} px)`);
    }
  }, DESKTOP, { locale }));
}

test('cards that shrank as La Nivernaise\'s line grew grow back when the deals are taken back', () => suite.withPage(async (page) => {
  await openDeal(page, 'nivernaise', 1);
  const start = await cardWidth(page);
  let deals = 0, grown = start;
  while (grown >= start * 0.85 && deals < 16 && await page.$('.board .card.stock')) {
    await page.waitForTimeout(350); // a second click within the double-click time is not a second deal
    await page.click('.board .card.stock');
    await settle(page, ++deals);
    grown = await cardWidth(page);
  }
  assert.ok(grown < start * 0.85, `the cards shrank as the line grew (${start} → ${grown} px after ${deals} deals)`);
  for (let d = deals - 1; d >= 0; d--) {
    await page.click('button.undo');
    await settle(page, d);
  }
  const back = await cardWidth(page);
  assert.ok(back >= start * 0.9, `back at the deal, the cards grew back (${start} → ${grown} → ${back} px)`);
}, DESKTOP));

test('La Belle Lucie\'s cards grow back once the long fans are gone', () => suite.withPage(async (page) => {
  await openDeal(page, 'la-belle-lucie', 1);
  const start = await cardWidth(page);
  await page.evaluate(() => { window.dealt = window.patienceTable.state; });
  await growFans(page, ['t1', 't7', 't13'], 11);
  const shrunk = await cardWidth(page);
  assert.ok(shrunk < start * 0.95, `long fans shrink the cards (${start} → ${shrunk} px)`);
  // The fans of three again (as after a redeal).
  await page.evaluate(() => { const t = window.patienceTable; t.state = window.dealt; t.render(); });
  const back = await cardWidth(page);
  assert.ok(back >= start * 0.9, `the cards grew back (${start} → ${shrunk} → ${back} px)`);
}, DESKTOP));

for (const [where, viewport, extra] of [['1366×800', DESKTOP, {}], ['a 390×844 phone', PHONE, TOUCH]]) {
  test(`on ${where}, no two of Swallows' fans overlap, as dealt and with fans wrapped onto three lines`, () => suite.withPage(async (page) => {
    await openDeal(page, 'swallows', 1);
    assert.deepEqual(overlaps(await pileBoxes(page)), [], 'as dealt');
    await growFans(page, ['t1', 't4', 't6', 't11', 't18', 't35'], 10);
    const boxes = await pileBoxes(page);
    const tall = boxes.find((b) => b.name === 't4');
    const low = boxes.find((b) => b.name === 't10');
    assert.ok(tall.bottom - tall.top > (low.bottom - low.top) * 1.4, `t4 wrapped (${(tall.bottom - tall.top).toFixed(0)} px tall)`);
    assert.deepEqual(overlaps(boxes), [], 'wrapped');
  }, viewport, extra));
}

/** What a table's shape is on screen: its fans' tilts, rows and where the foundations stand among them. */
async function shape(page, game) {
  await openDeal(page, game, 1);
  const boxes = await pileBoxes(page);
  const fans = boxes.filter((b) => b.kind === 'tableau');
  const found = boxes.filter((b) => b.kind === 'foundation');
  const mid = (b) => (b.left + b.right) / 2;
  const fanLeft = Math.min(...fans.map((b) => b.left)), fanRight = Math.max(...fans.map((b) => b.right));
  // Rows: fans whose tops lie within a card height of the row's first fan.
  const rows = [];
  for (const f of [...fans].sort((a, b) => a.top - b.top)) {
    const row = rows.find((r) => Math.abs(r[0].top - f.top) < (f.bottom - f.top) * 0.5);
    if (row) row.push(f);
    else rows.push([f]);
  }
  return {
    tilted: fans.filter((f) => Math.abs(f.rot) > 1).length,
    // Tilts that rise towards the ends of a row (a big fan: left ones turned back, right ones on).
    outwards: fans.filter((f) => f.rot !== 0 && Math.sign(f.rot) === Math.sign(mid(f) - (fanLeft + fanRight) / 2)).length,
    // Neighbours in a row tilted against each other, the left one up at its left end: a bird's wings.
    wings: rows.reduce((n, r) => {
      const s = [...r].sort((a, b) => a.left - b.left);
      return n + s.filter((f, i) => i + 1 < s.length && f.rot > 1 && s[i + 1].rot < -1).length;
    }, 0),
    rowLengths: rows.map((r) => r.length),
    // Foundations with fans both to their left and to their right, level with them.
    between: found.filter((b) => fans.some((f) => f.right <= b.left && f.top < b.bottom && f.bottom > b.top)
      && fans.some((f) => f.left >= b.right && f.top < b.bottom && f.bottom > b.top)).length,
    found: found.length,
  };
}

test('on a 390×844 phone, Fan-shaped House, Swallows and House in the Woods keep their own shapes', () => suite.withPage(async (page) => {
  const fan = await shape(page, 'fan-layout');
  const birds = await shape(page, 'swallows');
  const house = await shape(page, 'house-in-the-woods');
  const seen = JSON.stringify({ fan, birds, house });
  // House in the Woods: every foundation between the two halves of the fans, nothing tilted.
  assert.equal(house.between, house.found, `House: the foundations stand between the fans: ${seen}`);
  assert.equal(house.tilted, 0, seen);
  // Fan-shaped House: fans tilted outwards, rows shorter towards the bottom.
  assert.ok(fan.tilted >= 20 && fan.outwards === fan.tilted, `Fan: tilted outwards: ${seen}`);
  assert.ok(fan.rowLengths[0] > fan.rowLengths[fan.rowLengths.length - 2], `Fan: rows narrow downwards: ${seen}`);
  assert.equal(fan.between, 0, seen);
  // Swallows: fans paired into wings, at least two birds a row.
  assert.ok(birds.wings >= 14, `Swallows: birds of two wings: ${seen}`);
  assert.ok(fan.wings < 4, `Fan: no birds: ${seen}`);
  assert.equal(birds.between, 0, seen);
}, PHONE, TOUCH));
