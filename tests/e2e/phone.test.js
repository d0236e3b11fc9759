// The table on a phone and readable fans: every game fits a 360–430 px
// touch screen with Large on and off; the 35-fan tables fit one screen; a drag
// held near the screen's edge scrolls the page and lands; the hint brings
// its card on screen; La Nivernaise's line stays readable after five deals,
// and every face-up card shows its corner index however a fan has grown.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PHONE } from './lib/browser.js';
import { useSuite } from './lib/suite.js';
import { askHint, cardSelector, grabPoint, openDeal, playable, serverState, settle } from './lib/table.js';
import { playOn } from './playthrough.js';

const suite = useSuite();
const TOUCH = { hasTouch: true, isMobile: true };
const DESKTOP = { width: 1366, height: 800 };
const MIN_STRIP_PX = 14;

async function withPage(fn, viewport, extra = {}, large = false) {
  const { context, page } = await suite.open(viewport, extra);
  try {
    await page.addInitScript((on) => localStorage.setItem('patience.large', on ? '1' : '0'), large);
    await fn(page, context);
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
}

/** What sticks out of the screen sideways: the page, the board's frame, any pile or card. */
function sideways(page) {
  return page.evaluate(() => {
    const out = [];
    const w = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > w) out.push(`page ${document.documentElement.scrollWidth} > ${w}`);
    const wrap = document.querySelector('.board-wrap');
    if (wrap.scrollWidth > wrap.clientWidth) out.push(`board frame ${wrap.scrollWidth} > ${wrap.clientWidth}`);
    for (const el of document.querySelectorAll('.board .pile, .board .card')) {
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.right > w + 0.5) out.push(`${el.dataset.pile}:${el.dataset.index ?? ''} at ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out;
  });
}

/**
 * Face-up cards whose corner index (rank at 10–30 %, suit at 36–55 % of the
 * card's width down, 15 % in) another card hides.
 */
function hiddenIndices(page) {
  return page.evaluate(() => {
    const hidden = [];
    for (const card of document.querySelectorAll('.board .card:not(.stock)')) {
      const r = card.getBoundingClientRect();
      const pile = card.closest('.pile');
      if (pile.classList.contains('stack') && !card.classList.contains('top')) continue; // a stack shows its top card only
      for (const fy of [0.2, 0.46]) {
        const x = r.left + r.width * 0.15, y = r.top + r.width * fy;
        if (y < 4 || y > innerHeight - 4) continue; // scrolled away: checked where it is on screen
        if (document.elementFromPoint(x, y)?.closest('.card') !== card) hidden.push(`${card.dataset.pile}:${card.dataset.index} ${card.dataset.card}`);
      }
    }
    return [...new Set(hidden)];
  });
}

/** Checks indices over the whole page height, a screen at a time. */
async function everyIndexShows(page, what) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const screen = await page.evaluate(() => innerHeight);
  for (let y = 0; y < height; y += screen - 100) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    assert.deepEqual(await hiddenIndices(page), [], `${what}: every face-up card shows its rank and suit (scrolled to ${y})`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

// Russian, the first language, at three widths; English, whose words are shorter, at one.
for (const [locale, widths] of [['ru-RU', [390, 360, 430]], ['en-US', [390]]]) {
  for (const large of [false, true]) {
    test(`every game fits a ${widths.join(', ')} px touch phone across, in ${locale}, Large ${large ? 'on' : 'off'}`, () => withPage(async (page) => {
      for (const width of widths) {
        await page.setViewportSize({ width, height: PHONE.height });
        for (const game of suite.games) {
          await openDeal(page, game.id, 1);
          assert.deepEqual(await sideways(page), [], `${game.id} at ${width} px: nothing sticks out sideways`);
          assert.deepEqual(await hiddenIndices(page), [], `${game.id} at ${width} px: every face-up card shows its rank and suit`);
        }
      }
    }, PHONE, { ...TOUCH, locale }, large));
  }
}

for (const locale of ['ru-RU', 'en-US']) {
  test(`in ${locale}, every game's opening deal fits a 390×844 phone without scrolling, two-deck games too; the toolbar is one row`, () => withPage(async (page) => {
    for (const game of suite.games) {
      await openDeal(page, game.id, 1);
      const fit = await page.evaluate(() => ({
        page: document.documentElement.scrollHeight,
        board: Math.ceil(document.querySelector('.board').getBoundingClientRect().bottom),
        screen: innerHeight,
        toolbar: new Set([...document.querySelectorAll('.toolbar > :is(button, a)')].filter((b) => b.offsetParent).map((b) => Math.round(b.getBoundingClientRect().top))).size,
      }));
      assert.ok(fit.page <= fit.screen && fit.board <= fit.screen, `${game.id}: page ${fit.page} px, board to ${fit.board} px, screen ${fit.screen} px`);
      assert.equal(fit.toolbar, 1, `${game.id}: the toolbar takes one row`);
    }
    // The less used actions are behind ⋯, each with its name from the catalogue.
    await page.click('button.more-button');
    const names = await page.$$eval('.toolbar-more :is(button, a)', (els) => els.filter((e) => e.offsetParent).map((e) => e.textContent.trim()));
    assert.deepEqual(names, locale === 'ru-RU'
      ? ['Показать решение', 'Новый расклад', 'Начать заново', 'Скопировать ссылку', 'Правила']
      : ['Show the solution', 'New deal', 'Start over', 'Copy link', 'Rules']);
    const icons = await page.$$eval('.toolbar > button.iconic', (els) => els.filter((e) => e.offsetParent).map((e) => e.getAttribute('aria-label')));
    assert.ok(icons.includes(locale === 'ru-RU' ? 'Отменить' : 'Undo'), `icon buttons carry their names (${icons})`);
  }, PHONE, { ...TOUCH, locale }));
}

test('the 35-fan House games fit one phone screen, two fans either side of the foundations, without scrolling sideways', () => withPage(async (page) => {
  for (const game of ['house-in-the-woods', 'house-on-the-hill']) {
    await openDeal(page, game, 2);
    const { board, rows, cw } = await page.evaluate(() => {
      const b = document.querySelector('.board').getBoundingClientRect();
      const fans = [...document.querySelectorAll('.board .pile[data-kind="tableau"]')].map((p) => Math.round(p.getBoundingClientRect().top));
      return { board: b.height, rows: new Set(fans).size, cw: parseFloat(document.querySelector('.board').style.getPropertyValue('--cw')) };
    });
    assert.ok(rows <= 9, `${game}: ${rows} rows of fans`);
    assert.ok(board <= PHONE.height * 0.8, `${game}: the board is ${board} px tall`);
    assert.ok(cw >= 40, `${game}: cards are ${cw} px wide`);
    assert.deepEqual(await sideways(page), [], game);
  }
}, PHONE, TOUCH));

test('fans that grew by play still show every card, on a desktop and on a phone', async () => {
  for (const [viewport, extra] of [[DESKTOP, {}], [PHONE, TOUCH]]) {
    await withPage(async (page) => {
      for (const game of ['house-in-the-woods', 'la-belle-lucie', 'fan']) {
        // Play on until some fan has grown past what its slot holds at full spread.
        let longest = 0;
        for (let seed = 1; seed <= 6 && longest < 5; seed++) {
          await openDeal(page, game, 1);
          const s = await playOn(page, { moves: 40, deals: 2, seed });
          longest = Math.max(...s.piles.filter((p) => p.kind === 'tableau').map((p) => p.cards.length));
        }
        assert.ok(longest >= 5, `${game}: a fan grew to ${longest} cards`);
        await everyIndexShows(page, `${game} at ${viewport.width} px`);
        if (viewport === PHONE) assert.deepEqual(await sideways(page), [], game);
      }
    }, viewport, extra);
  }
});

test('La Nivernaise after five stock deals: every line card at least 14 px under the one before it', async () => {
  for (const [viewport, extra] of [[DESKTOP, {}], [PHONE, TOUCH]]) {
    await withPage(async (page) => {
      await openDeal(page, 'nivernaise', 1);
      for (let d = 1; d <= 5; d++) {
        // Each deal its own click: a second click on the stock within the
        // double-click time is not a second deal.
        await page.waitForTimeout(350);
        await page.click('.board .card.stock');
        await settle(page, d);
      }
      const lines = await page.$$eval('.board .pile[data-kind="tableau"]', (ps) => ps.map((p) => [...p.querySelectorAll('.card')].map((c) => c.getBoundingClientRect().top)));
      assert.ok(Math.max(...lines.map((l) => l.length)) >= 15, 'the line has grown');
      for (const [i, tops] of lines.entries()) {
        for (let k = 1; k < tops.length; k++) {
          assert.ok(tops[k] - tops[k - 1] >= MIN_STRIP_PX, `t${i + 1}: card ${k} is ${(tops[k] - tops[k - 1]).toFixed(1)} px under card ${k - 1} at ${viewport.width} px`);
        }
      }
      await everyIndexShows(page, `nivernaise at ${viewport.width} px`);
      if (viewport === PHONE) {
        assert.deepEqual(await sideways(page), []);
        const fill = await page.evaluate(() => document.querySelector('.board').offsetWidth / document.querySelector('.board-wrap').clientWidth);
        assert.ok(fill > 0.95, `the phone table fills the width (${fill.toFixed(2)})`);
      }
    }, viewport, extra);
  }
});

/** A foundation move whose card, scrolled into view, leaves its foundation off the top of the screen. */
async function farFoundationMove(page, game) {
  for (let deal = 1; deal <= 20; deal++) {
    await openDeal(page, game, deal);
    const s = await serverState(page);
    const foundations = new Set(s.piles.filter((p) => p.kind === 'foundation').map((p) => p.name));
    const candidates = (await playable(page)).filter((c) => foundations.has(c.moves[0].to));
    for (const c of candidates) {
      const far = await page.evaluate(([sel, to]) => {
        document.querySelector(sel).scrollIntoView({ block: 'end' });
        return document.querySelector(`.board .pile[data-pile="${to}"]`).getBoundingClientRect().bottom < 0;
      }, [cardSelector(c.pile, c.index), c.moves[0].to]);
      if (far) return c;
    }
  }
  return null;
}

test('on a phone, a card dragged to the screen\'s top edge scrolls the page up to a foundation and lands there', () => withPage(async (page) => {
  const card = await farFoundationMove(page, 'house-in-the-woods');
  assert.ok(card, 'a deal with a foundation move from far down the table');
  const to = card.moves[0].to;
  const before = (await serverState(page)).moves;
  const scrolledFrom = await page.evaluate(() => window.scrollY);
  assert.ok(scrolledFrom > 0);
  const from = await grabPoint(page, cardSelector(card.pile, card.index));
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
  await touch('touchStart', from);
  const edge = { x: from.x, y: 12 };
  for (let i = 1; i <= 8; i++) await touch('touchMove', { x: from.x, y: from.y + ((edge.y - from.y) * i) / 8 });
  await page.waitForSelector('.board.dragging');
  // Held still at the edge, the page keeps scrolling until the foundation is on screen.
  await page.waitForFunction((name) => {
    const r = document.querySelector(`.board .pile[data-pile="${name}"]`).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  }, to, { timeout: 10_000 });
  assert.ok((await page.evaluate(() => window.scrollY)) < scrolledFrom, 'the page scrolled up');
  const dest = await page.$eval(`.board .pile[data-pile="${to}"]`, (p) => {
    const r = p.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  for (let i = 1; i <= 4; i++) await touch('touchMove', { x: edge.x + ((dest.x - edge.x) * i) / 4, y: edge.y + ((dest.y - edge.y) * i) / 4 });
  await touch('touchEnd');
  await cdp.detach();
  await settle(page, before + 1);
  const s = await serverState(page);
  assert.ok(s.piles.some((p) => p.kind === 'foundation' && p.cards.some((c) => c.card === card.moves[0].card)), `${card.moves[0].card} is on a foundation`);
}, PHONE, TOUCH, true));

test('on a phone, the hint scrolls its card on screen before the arrow is drawn', () => withPage(async (page) => {
  await openDeal(page, 'house-in-the-woods', 3);
  const first = await askHint(page);
  assert.ok(first.move && first.move !== 'deal', `a card move is hinted (${first.move})`);
  // Scroll the hinted card away, to the far end of the page, and ask again.
  const where = await page.evaluate(() => {
    const r = document.querySelector('.hint-source').getBoundingClientRect();
    const top = r.top + window.scrollY, bottom = r.bottom + window.scrollY;
    const room = document.documentElement.scrollHeight - innerHeight;
    // Past the card if the page goes on far enough, else short of it.
    window.scrollTo({ top: bottom + 10 <= room ? bottom + 10 : Math.max(0, top - innerHeight - 10), behavior: 'instant' });
    const now = document.querySelector('.hint-source').getBoundingClientRect();
    return { off: now.bottom < 0 || now.top > innerHeight };
  });
  assert.ok(where.off, 'the hinted card is off screen before the second hint');
  await page.keyboard.press('Escape');
  const again = await askHint(page);
  assert.equal(again.move, first.move);
  await page.waitForFunction(() => {
    const r = document.querySelector('.hint-source')?.getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= innerHeight;
  }, null, { timeout: 5000 });
  // The arrow starts on the card: its first point lies inside the card's box.
  const inside = await page.evaluate(() => {
    const svg = document.querySelector('.hint-overlay');
    const path = svg.querySelector('.arrow');
    const [x, y] = path.getAttribute('d').slice(1).split(/[ Q]/).map(Number);
    const o = svg.getBoundingClientRect(), r = document.querySelector('.hint-source').getBoundingClientRect();
    return o.left + x >= r.left && o.left + x <= r.right && o.top + y >= r.top && o.top + y <= r.bottom;
  });
  assert.ok(inside, 'the arrow starts on the hinted card');
}, PHONE, TOUCH, true));
