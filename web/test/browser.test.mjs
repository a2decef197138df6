// The package in a real browser (Debian's Chromium, headless, through
// playwright-core): the demo page shows the README's `best` answer, equal to
// the CLI's; the package answers in the page as the CLI does on the rulebook's
// sample turn; screenshots of the page at desktop and phone width go to
// build-wasm/screenshots/ (or $MARTIANDICE_SCREENSHOTS).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';

import { browserTests } from './browser.mjs';
import { repo, runCli, tableNamed } from './cli.mjs';
import { percent } from './expected.mjs';

const screenshots = process.env.MARTIANDICE_SCREENSHOTS ?? `${repo}build-wasm/screenshots`;
const { missing, url, newPage } = await browserTests();

const demoQuery = { objective: 'win', scores: [18, 22], seat: 0, aside: '3T 2R 4H 1K', roll: '1R 1H 1C' };

test('the demo page shows the CLI\'s best answer', { skip: missing ?? false }, async () => {
  const expected = JSON.parse(runCli('best', demoQuery));
  mkdirSync(screenshots, { recursive: true });
  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const page = await newPage({ viewport });
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url(`demo/index.html`));
    await page.waitForSelector('body[data-ready]');
    assert.deepEqual(errors, []);
    assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
    const best = expected.best;
    assert.equal(await page.textContent('#best'),
      `Best: take ${best.count} ${best.take}, then ${best.then} (wins with probability ${expected.value.toFixed(6)}).`);
    const rows = await page.$$eval('#options tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(rows.map((r) => r[3]), expected.options.map((o) => percent(o.value)));
    await page.screenshot({ path: `${screenshots}/demo-${name}.png`, fullPage: true });
    await page.close();
  }
});

test('in the page, the package answers as the CLI does', { skip: missing ?? false }, async () => {
  const turn = [['-', '2T 3R 4H 3C 1K'], ['2T 4H', '1T 2R 3C 1K'], ['3T 2R 4H', '2H 1C 1K'], ['3T 2R 4H 1K', '1R 1H 1C']];
  const queries = [];
  for (const goal of [{}, { exact: true }, { objective: 'win', scores: [10, 20, 5], seat: 1 }]) {
    for (const [aside, roll] of turn) queries.push(['best', { ...goal, aside, roll }], ['eval', { ...goal, aside }]);
  }
  const page = await newPage();
  await page.goto(url(`demo/index.html`));
  const answers = await page.evaluate(async (qs) => {
    const { MartianDice, officialTableUrl } = await import('../src/martiandice.js');
    const md = await MartianDice.create({ tables: [officialTableUrl(3)] });
    return qs.map(([command, query]) => (command === 'best' ? md.bestJson(query) : md.evalJson(query)));
  }, queries);
  await page.close();
  queries.forEach(([command, query], i) => {
    assert.equal(tableNamed(answers[i]), tableNamed(runCli(command, query)), `${command} ${JSON.stringify(query)}`);
  });
});
