// House rules on the page (web/play/) in Debian's Chromium, headless: a game
// at a target, dice or bonus without a shipped table gets its exact table
// first, solved in the page's worker with a progress bar that advances, kept
// in this browser (IndexedDB, play/tables.mjs) byte for byte as `martiandice
// solve --no-certify --out FILE` writes it, and loaded from there after a
// reload (no solve); the bots and hints then play from it (each hint checked
// against `martiandice best/eval --tables FILE`), and the game's scores and
// rating are those of `martiandice play --tables FILE` replaying the page's
// moves. 4 players, and a table too large for a page, play the fallback and
// say so; a 4-player table file given to the page plays its game as the CLI
// plays it from the same file, and a file that is no table is refused. The solve times measured in the page are printed; screenshots of a
// solve in progress at 1280x800 and 375x740, and of each fallback game at
// 800x900, go to build-wasm/screenshots/ (or
// $MARTIANDICE_SCREENSHOTS). Seeded: $MARTIANDICE_WEB_SEED (printed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { browserTests } from './browser.mjs';
import { cliPath, repo, runCli, runPlay } from './cli.mjs';
import { choiceRows, percent } from './expected.mjs';
import { Positions } from './positions.mjs';

const screenshots = process.env.MARTIANDICE_SCREENSHOTS ?? `${repo}build-wasm/screenshots`;
const { missing, url, newPage } = await browserTests();
const seed = Number(process.env.MARTIANDICE_WEB_SEED ?? Date.now() % 1000000);
console.log(`house-rules.test: seed ${seed} (MARTIANDICE_WEB_SEED=${seed} repeats this run)`);
const positions = new Positions(seed);
const folder = mkdtempSync(join(tmpdir(), 'martiandice-house-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const SOLVE_WAIT = 10 * 60 * 1000;  // a 3-player solve on a loaded machine
const SETTLED = 'body[data-busy="false"][data-phase^="human-"], body[data-busy="false"][data-phase="over"]';
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

// `martiandice solve --no-certify` of a game: its file (made once).
const cliFiles = new Map();
function cliTable({ players, dice = 13, bonus = 3, target }) {
  const name = `martiandice-p${players}-d${dice}-b${bonus}-t${target}.mdt`;
  if (!cliFiles.has(name)) {
    const out = join(folder, name);
    const started = performance.now();
    execFileSync(cliPath, ['solve', '--players', String(players), '--dice', String(dice), '--bonus', String(bonus),
      '--target', String(target), '--no-certify', '--quiet', '--out', out]);
    console.log(`house-rules.test: martiandice solve ${name}: ${((performance.now() - started) / 1000).toFixed(2)} s natively`);
    cliFiles.set(name, out);
  }
  return cliFiles.get(name);
}

// Records, in the page, every change of the solve's box and bar (shown, value, label).
async function watchSolve(page) {
  await page.evaluate(() => {
    window.solveSeen = [];
    const note = () => window.solveSeen.push({
      shown: !document.getElementById('solve').hidden,
      value: document.getElementById('solve-bar').value,
      label: document.getElementById('solve-label').textContent,
      time: document.getElementById('solve-time').textContent,
    });
    new MutationObserver(note).observe(document.getElementById('solve'),
      { attributes: true, subtree: true, childList: true, characterData: true });
  });
}

// Fills the setup form and starts; resolves when the game has started
// (its seed on the page). `shot`: a screenshot at a quarter of the solve.
async function startGame(page, { players, target, dice, bonus, gameSeed, shot }) {
  await page.selectOption('#players', String(players));
  await page.fill('#target', String(target));
  if (dice !== undefined || bonus !== undefined) {
    if (!await page.$eval('#more-rules', (d) => d.open)) await page.click('#more-rules summary');
    await page.fill('#dice', String(dice ?? 13));
    await page.fill('#bonus', String(bonus ?? 3));
  }
  await page.check('#hints');
  await page.fill('#seed', gameSeed);
  await watchSolve(page);
  await page.click('#new-game');
  if (shot) {
    // A quarter of the solve (or, failing, the game's start: no solve seen).
    await page.waitForFunction((s) => document.getElementById('solve-bar').value >= 0.25 ||
      document.body.dataset.seed === s, gameSeed, { timeout: SOLVE_WAIT });
    assert.ok(await page.$eval('#solve-bar', (bar) => bar.value >= 0.25 && bar.value < 1), 'the solve shown at a quarter');
    const [width, viewport] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(width <= viewport, `during the solve the page is ${width} px wide in ${viewport} px`);
    await page.screenshot({ path: `${screenshots}/${shot}` });
  }
  await page.waitForFunction((s) => document.body.dataset.seed === s || /^Cannot start/.test(
    document.getElementById('status').textContent), gameSeed, { timeout: SOLVE_WAIT });
  assert.equal(await page.getAttribute('body', 'data-seed'), gameSeed, await page.textContent('#status'));
  await page.waitForSelector(SETTLED);
  return page.evaluate(() => window.solveSeen);
}

// The solve was shown and advanced: its label names the game, its bar grows to the end.
function checkProgress(seen, words) {
  const values = seen.filter((s) => s.shown).map((s) => s.value);
  assert.ok(values.length > 0, 'the progress bar was shown');
  assert.ok(values.every((v, i) => i === 0 || v >= values[i - 1]), 'the bar never goes back');
  assert.ok(new Set(values.filter((v) => v > 0 && v < 1)).size >= 2, `the bar advanced: ${values.join(' ')}`);
  for (const s of seen.filter((x) => x.shown)) {
    assert.match(s.label, new RegExp(`^Solving the exact table for ${words}: \\d+ %$`));
    assert.match(s.time, /^\d+ s elapsed$/);
  }
  assert.equal(seen.at(-1).shown, false, 'the bar is gone once solved');
}

// The table kept in the browser (IndexedDB) for a key, as bytes.
async function storedBytes(page, key) {
  const base64 = await page.evaluate(async (name) => {
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open('martiandice');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const record = await new Promise((resolve, reject) => {
      const get = db.transaction('tables').objectStore('tables').get(name);
      get.onsuccess = () => resolve(get.result);
      get.onerror = () => reject(get.error);
    });
    db.close();
    if (!record) return null;
    let text = '';
    for (let i = 0; i < record.bytes.length; i += 0x8000) {
      text += String.fromCharCode(...record.bytes.subarray(i, i + 0x8000));
    }
    return btoa(text);
  }, key);
  assert.ok(base64 !== null, `${key} kept in the browser`);
  return Buffer.from(base64, 'base64');
}

// A solved game: the status says so, the bytes kept equal the CLI's; the time printed.
async function checkSolved(page, game, words) {
  assert.equal(await page.getAttribute('body', 'data-table-from'), 'solved');
  assert.match(await page.textContent('#status'),
    /bots play to win, from the exact table solved in this browser in \d+\.\d s, kept for the next games\)\.$/);
  const seconds = Number(await page.getAttribute('body', 'data-solve-seconds'));
  console.log(`house-rules.test: the page solved ${words} in ${seconds.toFixed(2)} s (load average ${load()})`);
  const key = `martiandice-p${game.players}-d${game.dice ?? 13}-b${game.bonus ?? 3}-t${game.target}.mdt`;
  const bytes = await storedBytes(page, key);
  assert.ok(bytes.equals(readFileSync(cliTable(game))), `${key}: the page's bytes are martiandice solve's`);
  return seconds;
}

// The hint at a decision against the CLI's answer from the CLI's table file.
async function checkHint(page, game, tables) {
  const hint = await page.$eval('#hint', (box) => ({ ...box.dataset, hidden: box.hidden }));
  assert.equal(hint.hidden, false, 'hints are on: the hint is shown');
  const rows = await page.$$eval('#hint-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const query = { objective: 'win', players: game.players, target: game.target, scores: hint.scores,
    seat: Number(hint.seat), aside: hint.aside, tables };
  if (hint.decision === 'take') {
    const cli = JSON.parse(runCli('best', { ...query, roll: hint.roll }));
    assert.equal(cli.table, tables, 'the CLI answered from its file');
    assert.deepEqual(rows.map((r) => r.slice(1)), cli.options.map((o) => [percent(o.stop), percent(o.roll), percent(o.value)]));
    assert.deepEqual(rows.map((r) => r[0].replace(/ \((best|as good)\)$/, '')), cli.options.map((o) => plural(o.count, o.take)));
    return;
  }
  const cli = JSON.parse(runCli('eval', query));
  assert.deepEqual(rows, choiceRows(cli, percent));
}

// Plays the game to its end (mostly the hint's best moves), each hint
// checked; returns the moves as `play`'s input.
async function playToEnd(page, game, tables) {
  const lines = [];
  for (let moves = 0; ; ++moves) {
    assert.ok(moves < 500, 'the game ends');
    await page.waitForSelector(SETTLED);
    const phase = await page.getAttribute('body', 'data-phase');
    if (phase === 'over') break;
    if (phase === 'human-roll') {
      await page.click('#roll');
      continue;
    }
    await checkHint(page, game, tables);
    if (phase === 'human-take') {
      const faces = await page.$$eval('#takes button', (bs) => bs.map((b) => b.dataset.face));
      const best = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.face);
      const face = positions.random() < 0.75 ? best : positions.pick(faces);
      lines.push(`take ${face}`);
      await page.click(`#takes button[data-face="${face}"]`);
    } else {
      const best = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.move);
      const stop = positions.random() < 0.8 ? best === 'stop' : positions.random() < 0.5;
      lines.push(stop ? 'stop' : 'roll');
      await page.click(stop ? '#stop' : '#roll-on');
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

// Plays the game to its end (playToEnd), then replays it with `martiandice
// play` from the CLI's file of the same game: the same final scores, and the
// same rating (a game with an exact table is rated). Returns the CLI's review.
async function replayed(page, game, gameSeed) {
  const tables = cliTable(game);
  const input = await playToEnd(page, game, tables);
  const cli = runPlay(['--players', String(game.players), '--target', String(game.target), '--tables', tables,
    '--humans', '0', '--seed', gameSeed], input);
  assert.equal(cli[0].table, tables);
  const over = cli.find((e) => e.event === 'game_over');
  assert.deepEqual(await page.$$eval('#scores li', (lis) => lis.map((li) => Number(li.dataset.score))), over.scores,
    `seed ${gameSeed}, moves ${JSON.stringify(input)}`);
  const review = cli.find((e) => e.event === 'review');
  assert.ok(review.rating, 'a game with an exact table is rated');
  assert.equal(await page.getAttribute('#rating', 'data-score'), String(review.rating.score));
  return review;
}

const newSeed = () => String(positions.between(1, 2 ** 31));

async function openPage(options, query = '') {
  const page = await newPage(options);
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url(`play/index.html?delay=0${query}`));
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
  return { page, errors };
}

test('house rules: 3 players at target 15 and 2 at target 20 solved in the page, kept, loaded after a reload',
  { skip: missing ?? false }, async () => {
    mkdirSync(screenshots, { recursive: true });
    const { page, errors } = await openPage({ viewport: { width: 1280, height: 800 } });
    assert.equal(await page.getAttribute('body', 'data-thread'), 'worker');
    const game3 = { players: 3, target: 15 };
    console.log(`house-rules.test: load average before the 3-player solve: ${load()}`);
    const seen3 = await startGame(page, { ...game3, gameSeed: newSeed(), shot: 'house-rules-desktop-solving.png' });
    checkProgress(seen3, '3 players, target 15');
    const seconds3 = await checkSolved(page, game3, '3 players, target 15');
    const start = await page.textContent('#status');
    assert.match(start, /bots play to win/);

    const game2 = { players: 2, target: 20 };
    const seen2 = await startGame(page, { ...game2, gameSeed: newSeed() });
    assert.ok(seen2.some((s) => s.shown && /^Solving the exact table for 2 players, target 20: \d+ %$/.test(s.label)));
    assert.equal(seen2.at(-1).shown, false);
    const seconds2 = await checkSolved(page, game2, '2 players, target 20');
    console.log(`house-rules.test: solve times in Chromium: 3 players target 15 ${seconds3.toFixed(2)} s ` +
      `(goal 15 s), 2 players target 20 ${seconds2.toFixed(2)} s (goal 2 s)`);

    // The same browser after a reload: the 3-player table is loaded from its storage, no solve.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const gameSeed = newSeed();
    const seen = await startGame(page, { ...game3, gameSeed });
    assert.deepEqual(seen.filter((s) => s.shown), [], 'no progress bar: nothing solved');
    assert.equal(await page.getAttribute('body', 'data-table-from'), 'browser');
    assert.match(await page.textContent('#status'), /bots play to win, from the exact table loaded from this browser\)\.$/);
    assert.equal(await page.getAttribute('#scores', 'aria-label'), 'Scores (first to 15)');
    // The bots and the hints play from it: the CLI replays the game from its own file.
    const review = await replayed(page, game3, gameSeed);
    // Rated (docs/RATING.md): an exact table; kept with the game's rules.
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('martiandice.ratings')));
    assert.deepEqual({ ...kept.at(-1), date: undefined }, { date: undefined, players: 3, score: review.rating.score,
      band: review.rating.band, rules: { dice: 13, bonus: 3, target: 15 } });
    assert.deepEqual(errors, []);
    await page.close();
  });

test('house rules at 375x740: the dice and the bonus under "More rules", the solve in progress',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
    const game = { players: 3, dice: 10, bonus: 5, target: 12 };
    const words = '3 players, 10 dice, bonus 5, target 12';
    const seen = await startGame(page, { ...game, gameSeed: newSeed(), shot: 'house-rules-phone-solving.png' });
    checkProgress(seen, words);
    await checkSolved(page, game, words);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the page is ${width} px wide in 375 px`);
    assert.equal(await page.$eval('#dice-left', (b) => Number(b.textContent)) <= 10, true, 'a game of 10 dice');
    assert.deepEqual(errors, []);
    await page.close();
  });

test('house rules with 4 players, or a table too large for a page: no solve, the fallback named',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ viewport: { width: 800, height: 900 } });
    for (const [game, why, named] of [
      [{ players: 4, target: 15 }, /\(the page solves exact tables for 2 and 3 players\)\)\.$/, '4 players, target 15'],
      [{ players: 3, target: 100 }, /\(its exact table for 3 players, target 100 would take \d+ MiB: too large to solve in a page\)\)\.$/,
        '3 players, target 100'],
    ]) {
      const seen = await startGame(page, { ...game, gameSeed: newSeed() });
      assert.deepEqual(seen.filter((s) => s.shown), [], `${named}: no progress bar`);
      assert.equal(await page.getAttribute('body', 'data-table-from'), 'none');
      const status = await page.textContent('#status');
      assert.match(status, /no table: the bots play the fallback, which maximises the points still needed/);
      assert.match(status, why);
      await page.screenshot({ path: `${screenshots}/house-rules-fallback-p${game.players}.png` });
      // The hint says the fallback's points, naming the game.
      if (await page.getAttribute('body', 'data-phase') === 'human-roll') await page.click('#roll');
      await page.waitForSelector(SETTLED);
      if ((await page.getAttribute('body', 'data-phase')).startsWith('human-')) {
        assert.match(await page.textContent('#hint-values'), new RegExp(`^No exact table for ${named}: this advice maximises the points you still need`));
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

test('your own table file: 4 players at target 6 from a CLI-made table, played and rated as the CLI plays it',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
    await page.click('#own-table summary');
    // A file too large for the module is refused unread (a sparse file: no disk used).
    const huge = join(folder, 'huge.mdt');
    writeFileSync(huge, '');
    truncateSync(huge, 600 * 2 ** 20);
    await page.setInputFiles('#table-file', huge);
    await page.waitForFunction(() => /^Cannot use/.test(document.getElementById('status').textContent));
    assert.equal(await page.textContent('#status'), 'Cannot use huge.mdt: it takes 600 MiB, and the page reads ' +
      'tables up to 512 MiB (the martiandice command reads larger ones)');
    rmSync(huge);
    // Bytes that are no table are refused, naming the file; the form is unchanged.
    const junk = join(folder, 'notes.mdt');
    writeFileSync(junk, 'not a table');
    await page.setInputFiles('#table-file', junk);
    await page.waitForFunction(() => /^Cannot use/.test(document.getElementById('status').textContent));
    assert.match(await page.textContent('#status'), /^Cannot use notes\.mdt: .*not a martiandice policy table/);
    assert.equal(await page.inputValue('#players'), '2');

    const game = { players: 4, target: 6 };
    const tables = cliTable(game);
    await page.setInputFiles('#table-file', tables);
    await page.waitForFunction(() => /is ready/.test(document.getElementById('status').textContent));
    assert.equal(await page.textContent('#status'), 'Your table for 4 players, target 6 is ready: ' +
      'start, and the bots and hints play from it (kept in this browser for the next visits).');
    assert.equal(await page.inputValue('#players'), '4');
    assert.equal(await page.inputValue('#target'), '6');
    assert.equal(await page.textContent('#players option[value="4"]'), '4 (you and 3 bots, your table)');
    // The label follows the rules: another target has no table of the player's; the
    // coach's form names it at the table's rules only.
    await page.fill('#target', '7');
    assert.equal(await page.textContent('#players option[value="4"]'), '4 (fallback bots)');
    await page.fill('#target', '6');
    assert.equal(await page.textContent('#players option[value="4"]'), '4 (you and 3 bots, your table)');
    assert.equal(await page.textContent('#coach-players option[value="4"]'), '4 (fallback advice)');
    await page.check('input[name="mode"][value="coach"]');
    await page.fill('#coach-target', '6');
    assert.equal(await page.textContent('#coach-players option[value="4"]'), '4 (your table)');
    await page.fill('#coach-target', '25');
    await page.check('input[name="mode"][value="play"]');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `with the table's note open, the page is ${width} px wide in 375 px`);
    await page.screenshot({ path: `${screenshots}/own-table-phone-ready.png`, fullPage: true });

    const gameSeed = newSeed();
    const seen = await startGame(page, { ...game, gameSeed });
    assert.deepEqual(seen.filter((s) => s.shown), [], 'nothing solved');
    assert.equal(await page.getAttribute('body', 'data-table-from'), 'file');
    assert.match(await page.textContent('#status'), /bots play to win, from the exact table from your file\)\.$/);
    await page.screenshot({ path: `${screenshots}/own-table-phone-game.png` });
    // The bots and the hints play from it: the CLI replays the game from the same file.
    await replayed(page, game, gameSeed);
    // The next visit: the table kept in this browser is named at its rules and plays the game,
    // no file asked.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#target', '6');
    assert.equal(await page.textContent('#players option[value="4"]'), '4 (you and 3 bots, your table)');
    await page.fill('#target', '7');
    assert.equal(await page.textContent('#players option[value="4"]'), '4 (fallback bots)');
    await startGame(page, { ...game, gameSeed: newSeed() });
    assert.equal(await page.getAttribute('body', 'data-table-from'), 'browser');
    assert.match(await page.textContent('#status'), /bots play to win, from the exact table loaded from this browser\)\.$/);
    assert.deepEqual(errors, []);
    await page.close();
  });

// The official 4-player table (116 MiB, `martiandice solve --players 4`: minutes) given
// to the page, where MARTIANDICE_P4_TABLE names it: the times printed, the advice checked.
const p4Table = process.env.MARTIANDICE_P4_TABLE;
test('your own table file: the official 4-player table (MARTIANDICE_P4_TABLE), hints checked against the CLI',
  { skip: missing ?? (p4Table ? false : 'MARTIANDICE_P4_TABLE names no 4-player table') }, async () => {
    const { page, errors } = await openPage({ viewport: { width: 1280, height: 900 } });
    await page.click('#own-table summary');
    let started = performance.now();
    await page.setInputFiles('#table-file', p4Table);
    await page.waitForFunction(() => /is ready|^Cannot/.test(document.getElementById('status').textContent), null,
      { timeout: SOLVE_WAIT });
    const given = performance.now() - started;
    assert.match(await page.textContent('#status'),
      /^Your table for 4 players, target 25 is ready: start, and the bots and hints play from it/);
    started = performance.now();
    await startGame(page, { players: 4, target: 25, gameSeed: newSeed() });
    const first = performance.now() - started;
    assert.equal(await page.getAttribute('body', 'data-table-from'), 'file');
    // Hints on: each checked against `martiandice best` / `eval` from the same file.
    const game = { players: 4, target: 25 };
    for (let decisions = 0; decisions < 4 && await page.getAttribute('body', 'data-phase') !== 'over'; ++decisions) {
      await page.waitForSelector(SETTLED);
      if (await page.getAttribute('body', 'data-phase') === 'human-roll') await page.click('#roll');
      await page.waitForSelector(SETTLED);
      if (!(await page.getAttribute('body', 'data-phase')).startsWith('human-')) break;
      await checkHint(page, game, p4Table);
      if (await page.getAttribute('body', 'data-phase') === 'human-take') {
        await page.click('#takes button:first-child');
      } else {
        await page.click('#roll-on');
      }
    }
    // The next visit: kept in this browser, named in both modes' options, and the coach advises from it.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    assert.equal(await page.textContent('#players option[value="4"]'), '4 (you and 3 bots, your table)');
    assert.equal(await page.textContent('#coach-players option[value="4"]'), '4 (your table)');
    await page.check('input[name="mode"][value="coach"]');
    await page.selectOption('#coach-players', '4');
    await page.click('#coach-start');
    await page.waitForSelector('body[data-coach-busy="false"][data-coach-phase]');
    assert.equal(await page.textContent('#coach-status'),
      'Coaching: the advice is each option\'s chance to win, from the table.');
    console.log(`house-rules.test: the 4-player table given: ${(given / 1000).toFixed(2)} s to register ` +
      `(read, sent to the worker, checked, kept); game started with its first hint in ${(first / 1000).toFixed(2)} s`);
    assert.deepEqual(errors, []);
    await page.close();
  });

test('house rules without a worker (?worker=0): the solve runs on the page\'s thread',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ viewport: { width: 800, height: 900 } }, '&worker=0');
    assert.equal(await page.getAttribute('body', 'data-thread'), 'page');
    const game = { players: 2, target: 18 };
    await startGame(page, { ...game, gameSeed: newSeed() });
    await checkSolved(page, game, '2 players, target 18');
    assert.deepEqual(errors, []);
    await page.close();
  });
