// The page (web/play/) in a real browser (Debian's Chromium, headless, through
// playwright-core): whole games played through its controls, with hints on,
// at desktop width (2 players) and at phone width, 375 px (3 players). Every
// hint shown is checked against the CLI's values for its position
// (`martiandice best/eval --objective win --json`); the game's moves are then
// replayed by `martiandice play --seed S --humans 0 --json` and its final
// scores and review must be what the page shows. Some moves are made from
// the keyboard (Enter on the focused button, the page's keys R and H C K). Screenshots of a decision with its
// hint and of the end go to build-wasm/screenshots/ (or
// $MARTIANDICE_SCREENSHOTS). A 4-player game (no table: the fallback) too.
// Seeded: $MARTIANDICE_WEB_SEED (printed).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';

import { browserTests } from './browser.mjs';
import { repo, runCli, runPlay } from './cli.mjs';
import { Positions } from './positions.mjs';

const screenshots = process.env.MARTIANDICE_SCREENSHOTS ?? `${repo}build-wasm/screenshots`;
const { missing, url, newPage } = await browserTests();
const seed = Number(process.env.MARTIANDICE_WEB_SEED ?? Date.now() % 1000000);
console.log(`play.test: seed ${seed} (MARTIANDICE_WEB_SEED=${seed} repeats this run)`);
const positions = new Positions(seed);

const percent = (x) => (x === null ? '–' : `${(100 * x).toFixed(2)} %`);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const SETTLED = 'body[data-busy="false"][data-phase^="human-"], body[data-busy="false"][data-phase="over"]';

// Dice notation: how many dice, and a set-aside with a roll's tanks added.
const count = (notation) => (notation === '-' ? 0
  : notation.split(' ').reduce((n, g) => n + parseInt(g, 10), 0));
function withTanks(aside, roll) {
  const n = {};
  for (const g of [...(aside === '-' ? [] : aside.split(' ')), ...roll.split(' ').filter((x) => x.endsWith('T'))]) {
    n[g.slice(-1)] = (n[g.slice(-1)] ?? 0) + parseInt(g, 10);
  }
  return ['T', 'R', 'H', 'C', 'K'].filter((l) => n[l]).map((l) => `${n[l]}${l}`).join(' ') || '-';
}

// The hint on the page against the CLI's answer at its position.
async function checkHint(page) {
  const hint = await page.$eval('#hint', (box) => ({ ...box.dataset, hidden: box.hidden }));
  assert.equal(hint.hidden, false, 'hints are on: the hint is shown');
  const rows = await page.$$eval('#hint-table tbody tr', (trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const query = { objective: 'win', scores: hint.scores, seat: Number(hint.seat), aside: hint.aside };
  if (hint.decision === 'take') {
    // The turn's facts are after the roll's tanks, as the announced line:
    // the set-aside chips (the set-aside before the roll plus the roll's
    // tanks) and the dice left (13 less those).
    const after = withTanks(hint.aside, hint.roll);
    assert.equal(await page.$eval('#aside', (dd) => dd.dataset.dice), after,
      `set-aside ${hint.aside} and roll ${hint.roll}`);
    assert.equal(Number(await page.textContent('#dice-left')), 13 - count(after));
    if (hint.roll.includes('T')) {
      const words = after.split(' ').map((g) => plural(parseInt(g, 10),
        { T: 'tank', R: 'ray', H: 'human', C: 'cow', K: 'chicken' }[g.slice(-1)])).join(', ');
      assert.ok((await page.textContent('#announce')).includes(`set aside ${words}.`), words);
    }
    const cli = JSON.parse(runCli('best', { ...query, roll: hint.roll }));
    assert.deepEqual(rows.map((r) => r.slice(1)),
      cli.options.map((o) => [percent(o.stop), percent(o.roll), percent(o.value)]), JSON.stringify(query));
    assert.deepEqual(rows.map((r) => r[0].replace(/ \((best|as good)\)$/, '')),
      cli.options.map((o) => plural(o.count, o.take)));
    const best = cli.best;
    assert.match(rows.find((r) => r[0].includes('(best)'))[0], new RegExp(`^${best.count} ${best.take}`));
    return cli;
  }
  const cli = JSON.parse(runCli('eval', query));
  assert.deepEqual(rows, [['stop', cli.stop], ['roll on', cli.roll]].map(([label, x]) =>
    [label + (x === cli.value ? ' (best)' : ''), percent(x)]), JSON.stringify(query));
  return cli;
}

// Plays a whole game on the page; returns the human's moves as play's input
// lines, the seed and the hints checked.
async function playGame(page, { players, shot, fallback = false }) {
  const gameSeed = String(positions.between(1, 2 ** 31));
  await page.selectOption('#players', String(players));
  await page.check('#hints');
  await page.fill('#seed', gameSeed);
  await page.click('#new-game');
  const lines = [];
  let hints = 0;
  let usedKeyboard = false;
  let usedKey = false;
  let usedTakeKey = false;
  let shotTaken = false;
  for (let moves = 0; ; ++moves) {
    assert.ok(moves < 500, 'the game ends');
    await page.waitForSelector(SETTLED);
    const phase = await page.getAttribute('body', 'data-phase');
    if (phase === 'over') break;
    if (phase === 'human-roll') {
      if (!usedKeyboard) {
        // The first control has the focus: Enter presses it.
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'roll');
        await page.keyboard.press('Enter');
        usedKeyboard = true;
      } else if (!usedKey) {
        // The page's key for a roll.
        await page.keyboard.press('r');
        usedKey = true;
      } else {
        await page.click('#roll');
      }
      continue;
    }
    if (fallback) {
      assert.match(await page.textContent('#hint-values'), /^No table for \d players: the fallback's values/);
    } else {
      await checkHint(page);
    }
    ++hints;
    const announced = await page.textContent('#announce');
    assert.match(announced, /Hint: Best/, 'the live region says the hint');
    if (phase === 'human-take') {
      if (!shotTaken && shot && lines.length >= 2) {
        const [width, viewport] = await page.evaluate(() =>
          [document.documentElement.scrollWidth, window.innerWidth]);
        assert.ok(width <= viewport, `with the hint, the page is ${width} px wide in ${viewport} px`);
        await page.screenshot({ path: `${screenshots}/${shot}-hint.png`, fullPage: true });
        shotTaken = true;
      }
      const faces = await page.$$eval('#takes button', (bs) => bs.map((b) => b.dataset.face));
      const best = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.face);
      // Mostly the best take, sometimes another (the review then has something to say).
      const face = positions.random() < 0.75 ? best : positions.pick(faces);
      lines.push(`take ${face}`);
      if (!usedTakeKey) {
        usedTakeKey = true;
        await page.keyboard.press({ ray: 'r', human: 'h', cow: 'c', chicken: 'k' }[face]);
      } else {
        await page.click(`#takes button[data-face="${face}"]`);
      }
    } else {
      const best = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.move);
      const stop = positions.random() < 0.8 ? best === 'stop' : positions.random() < 0.5;
      lines.push(stop ? 'stop' : 'roll');
      await page.click(stop ? '#stop' : '#roll-on');
    }
  }
  return { gameSeed, input: lines.map((l) => `${l}\n`).join(''), hints };
}

for (const [name, viewport, players] of [
  ['play-desktop', { width: 1280, height: 900 }, 2],
  ['play-phone', { width: 375, height: 812 }, 3],
]) {
  test(`the page plays a whole game (${players} players, ${viewport.width} px) as the CLI does`,
    { skip: missing ?? false }, async () => {
      mkdirSync(screenshots, { recursive: true });
      const page = await newPage({ viewport });
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url(`play/index.html?delay=0`));
      await page.waitForSelector('body[data-ready]');
      assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
      assert.equal(await page.getAttribute('body', 'data-thread'), 'worker', 'the engine runs in a Web Worker');
      const { gameSeed, input, hints } = await playGame(page, { players, shot: name });
      assert.ok(hints > 0, 'hints were checked');

      const cli = runPlay(['--players', String(players), '--humans', '0', '--seed', gameSeed], input);
      const over = cli.find((e) => e.event === 'game_over');
      const shown = await page.$$eval('#scores tbody tr', (trs) => trs.map((tr) => Number(tr.cells[2].textContent)));
      assert.deepEqual(shown, over.scores, `seed ${gameSeed}, moves ${JSON.stringify(input)}`);
      const review = cli.find((e) => e.event === 'review');
      assert.equal(await page.textContent('#review p'),
        `Your review: ${plural(review.decisions.length, 'decision')}, ${plural(review.mistakes, 'mistake')}, ` +
        `lost ${percent(review.total_loss)} chance to win.`);
      const result = await page.textContent('#result-text');
      if (over.winners.length === 1) {
        assert.ok(result.startsWith(over.winners[0] === 0 ? 'You win!' : `Bot ${over.winners[0]} wins.`), result);
      } else {
        assert.match(result, /share the win/);
      }
      // Every control is a real button with a name; the page is no wider than the viewport.
      const names = await page.$$eval('button', (bs) => bs.map((b) => b.textContent.trim()));
      assert.ok(names.every((n) => n.length > 0));
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page is ${width} px wide in a ${viewport.width} px viewport`);
      assert.deepEqual(errors, []);
      await page.screenshot({ path: `${screenshots}/${name}-end.png`, fullPage: true });
      await page.close();
    });
}

test('with 4 players the page plays the fallback, as the CLI does', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  const { gameSeed, input } = await playGame(page, { players: 4, fallback: true });
  const cli = runPlay(['--players', '4', '--humans', '0', '--seed', gameSeed], input);
  const shown = await page.$$eval('#scores tbody tr', (trs) => trs.map((tr) => Number(tr.cells[2].textContent)));
  assert.deepEqual(shown, cli.find((e) => e.event === 'game_over').scores, `seed ${gameSeed}`);
  assert.match(await page.textContent('#status'), /no table: the bots play the fallback/);
  await page.close();
});

test('without a worker (?worker=0) the page runs the package on its thread', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url(`play/index.html?delay=0&worker=0`));
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.getAttribute('body', 'data-thread'), 'page');
  await page.check('#hints');
  await page.fill('#seed', String(positions.between(1, 2 ** 31)));
  await page.click('#new-game');
  await page.waitForSelector(SETTLED);
  await page.click('#roll');
  await page.waitForSelector(SETTLED);
  if (await page.getAttribute('body', 'data-phase') === 'human-take') await checkHint(page);
  assert.deepEqual(errors, []);
  await page.close();
});
