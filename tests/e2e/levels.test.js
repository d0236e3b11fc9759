// Every level the API lists for a game, chosen on the home page, gives a deal
// of that level, and the table shows the level (and the person-like player's wins).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useSuite } from './lib/suite.js';
import { serverState, settle } from './lib/table.js';

const LEVELS = ['any', 'easy', 'medium', 'hard'];
const WORD = { easy: 'Easy', medium: 'Medium', hard: 'Hard' };

const suite = useSuite();

test('each listed level of each game deals a game of that level', async (t) => {
  const { context, page } = await suite.open();
  try {
    await page.goto('/');
    await page.waitForSelector('article.game input[value="any"]');
    const wanted = [];
    for (const game of suite.games) {
      assert.ok(game.levels.includes('any'), `${game.id} offers Any`);
      const card = page.locator(`article.game[data-game="${game.id}"]`);
      const offered = await card.locator('input[type="radio"]').evaluateAll((els) => els.map((e) => e.value));
      const playerLevels = game.levels.filter((l) => LEVELS.includes(l));
      const other = game.levels.filter((l) => !LEVELS.includes(l));
      if (other.length) t.diagnostic(`${game.id}: the API lists levels outside docs/api.md, not offered: ${other.join(', ')}`);
      assert.deepEqual([...offered].sort(), [...playerLevels].sort(), `${game.id}: the page offers exactly the listed levels`);
      for (const level of playerLevels) if (level !== 'any') wanted.push([game.id, level]);
    }
    if (!wanted.length) t.diagnostic('no game lists a graded level yet (empty library): only Any was checked');
    for (const [game, level] of wanted) {
      if (!(await page.locator('article.game').count())) {
        await page.goBack();
        await page.waitForSelector('article.game input[value="any"]');
      }
      const card = page.locator(`article.game[data-game="${game}"]`);
      await card.locator(`input[value="${level}"]`).check();
      await card.locator('a.play').click();
      await page.waitForURL(/\/game\//);
      await page.waitForSelector('.board .pile');
      await settle(page);
      const state = await serverState(page);
      assert.equal(state.game, game);
      assert.equal(state.level, level, `${game}: a ${level} deal`);
      assert.equal(state.grade, level, `${game}: the graded library holds it as ${level}`);
      // The table shows the deal's level and, when the server knows it, how often the person-like player won it.
      const info = await page.textContent('.deal-info');
      assert.ok(info.includes(` · ${WORD[level]}`), `${game}: "${info}" names the level`);
      if (state.person) {
        const { wins, runs } = state.person;
        assert.ok(info.includes(`a program playing like a person wins ${wins} of ${runs}`), `${game}: "${info}"`);
      } else {
        assert.ok(!info.includes('like a person'), `${game}: no runs known, none shown ("${info}")`);
      }
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});
