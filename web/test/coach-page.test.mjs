// The page's coach mode (web/play/, "Coach a real game") in a real browser
// (Debian's Chromium, headless, through playwright-core): the rulebook's
// sample turn (docs/RULES.md) entered through the page's form, the advice
// shown at every decision checked against `martiandice serve`'s game session
// fed the same entries (every option's chance to win, the best marked), and
// the turn's total; a bad dice entry shows its message and changes nothing;
// another player's whole turn (score N) and undo; a 3-player game from given
// scores at phone width (375 px); 4 players without a table, the fallback's
// points and in the final round its chances (percent); table files given to
// the page (one of house rules, the shipped 3-player one: the page then
// fetches none) and a house-rules table solved in the page advise as serve
// does from the CLI's files. Screenshots: coach-desktop.png, coach-phone.png,
// coach-own-table-setup.png and coach-own-table.png in build-wasm/screenshots/ (or
// $MARTIANDICE_SCREENSHOTS).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { browserTests } from './browser.mjs';
import { cliPath, dataDir, repo, startServe } from './cli.mjs';
import { choiceRows, percent } from './expected.mjs';

const screenshots = process.env.MARTIANDICE_SCREENSHOTS ?? `${repo}build-wasm/screenshots`;
const { missing, url, newPage } = await browserTests();

// House-rules tables the CLI makes, where serve reads them too.
const folder = mkdtempSync(join(tmpdir(), 'martiandice-coach-'));
let serve;
before(() => {
  if (!missing) serve = startServe(['--tables-dir', folder]);
});
after(async () => {
  await serve?.close();
  rmSync(folder, { recursive: true, force: true });
});

// `martiandice solve --no-certify` of 2 players at `target`: its file in the folder.
function cliTable(target) {
  const file = join(folder, `martiandice-p2-d13-b3-t${target}.mdt`);
  execFileSync(cliPath, ['solve', '--players', '2', '--target', String(target), '--no-certify', '--quiet', '--out', file]);
  return file;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const SETTLED = 'body[data-coach-busy="false"]';

async function openPage(viewport) {
  mkdirSync(screenshots, { recursive: true });
  const page = await newPage({ viewport });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url(`play/index.html`));
  await page.waitForSelector('body[data-ready="true"]');
  // The mode switch: a real radio button.
  await page.check('input[name="mode"][value="coach"]');
  assert.equal(await page.getAttribute('body', 'data-mode'), 'coach');
  assert.equal(await page.isVisible('#setup'), false, 'the play mode is hidden');
  await page.waitForSelector('#coach-start:not([disabled])');
  return { page, errors };
}

async function start(page, { players, scores, seat }) {
  await page.selectOption('#coach-players', String(players));
  for (const [i, score] of scores.entries()) await page.fill(`#coach-total-${i}`, String(score));
  await page.selectOption('#coach-seat', String(seat));
  await page.click('#coach-start');
  await page.waitForSelector(`${SETTLED}[data-coach-phase]`);
  assert.equal(await page.isVisible('#coach-form'), false, 'the setup folds away while coaching');
  const theirs = JSON.parse(await serve.ask('open', { players, scores: scores.join(','), seat }));
  return theirs.game;
}

// What the page shows of the game.
async function shown(page) {
  return page.evaluate(() => ({
    phase: document.body.dataset.coachPhase,
    aside: document.getElementById('coach-aside').dataset.dice,
    diceLeft: Number(document.getElementById('coach-dice-left').textContent),
    turnScore: Number(document.getElementById('coach-turn-score').textContent),
    scores: [...document.querySelectorAll('#coach-scores tbody tr')].map((tr) => Number(tr.cells[2].textContent)),
    mover: document.querySelector('#coach-scores tr.mover')?.cells[0].textContent ?? null,
    entries: document.querySelectorAll('#coach-entries li').length,
    error: document.getElementById('coach-error').textContent,
    advice: document.getElementById('advice').hidden ? null
      : [...document.querySelectorAll('#advice-table tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
    best: document.getElementById('advice-best').textContent,
  }));
}

// The page's state and advice against serve's answer, its values through
// `format`: percent for chances, another for the fallback's points.
function check(page, theirs, format = percent) {
  const s = theirs.state;
  assert.equal(page.phase, s.phase);
  assert.equal(page.aside, s.aside, 'the set-aside (after the roll\'s tanks)');
  assert.equal(page.diceLeft, s.dice_left);
  assert.equal(page.turnScore, s.turn_score);
  assert.deepEqual(page.scores, s.scores);
  if (s.phase !== 'over') assert.equal(page.mover, String(s.seat));
  const a = theirs.advice;
  if (!a) return;
  if (a.decision === 'take') {
    assert.deepEqual(page.advice.map((r) => r.slice(1)),
      a.options.map((o) => [format(o.stop), format(o.roll), format(o.value)]));
    assert.deepEqual(page.advice.map((r) => r[0]), a.options.map((o) =>
      plural(o.count, o.take) + (o.take === a.best.take ? ' (best)' : o.optimal ? ' (as good)' : '')));
    // Each take's chance that rolling on after it scores 0, as serve gives it.
    const chances = a.options.filter((o) => o.zero_chance !== null)
      .map((o) => `${percent(o.zero_chance, 1)} after ${plural(o.count, o.take)}`);
    const best = page.best.replace(/ No move can win the game from here\.$/, '');
    if (chances.length > 0) assert.ok(best.endsWith(` Rolling on scores 0 with chance ${chances.join(', ')}.`), page.best);
  } else if (a.decision === 'stop_or_roll') {
    assert.deepEqual(page.advice, choiceRows(a, format));
  } else {
    assert.deepEqual(page.advice, [['roll', format(a.roll)]]);
  }
}

// Enters the dice through the form's number inputs.
async function roll(page, notation) {
  const counts = { T: 0, R: 0, H: 0, C: 0, K: 0 };
  for (const g of notation.split(' ')) counts[g.slice(-1)] = parseInt(g, 10);
  for (const [letter, n] of Object.entries(counts)) await page.fill(`#dice-${letter}`, String(n));
  await page.click('#enter-roll');
}

// One entry on the page and in serve; the page then shows serve's answer (its values through `format`).
async function entry(page, game, line, act, format = percent) {
  await act();
  await page.waitForSelector(SETTLED);
  const theirs = JSON.parse(await serve.ask('enter', { game, entry: line }));
  assert.equal(theirs.error, undefined, `serve takes ${line}`);
  const now = await shown(page);
  assert.equal(now.error, '', `the page takes ${line}`);
  check(now, theirs, format);
  return theirs;
}

const SAMPLE_TURN = [
  ['roll', '2T 3R 4H 3C 1K'], ['take', 'human'], ['roll', '1T 2R 3C 1K'], ['take', 'ray'],
  ['roll', '2H 1C 1K'], ['take', 'chicken'], ['roll', '1R 1H 1C'], ['take', 'ray'], ['stop'],
];

test('the coach mode follows the rulebook\'s sample turn with serve\'s advice (1280 px)',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 1280, height: 900 });
    const game = await start(page, { players: 2, scores: [0, 0], seat: 0 });
    check(await shown(page), JSON.parse(await serve.ask('enter', { game, entry: 'state' })));
    let decisions = 0;
    for (const [kind, what] of SAMPLE_TURN) {
      const line = kind === 'roll' ? `roll ${what}` : kind === 'take' ? `take ${what}` : 'stop';
      const theirs = await entry(page, game, line, () => (kind === 'roll' ? roll(page, what)
        : kind === 'take' ? page.click(`#coach-takes button[data-face="${what}"]`) : page.click('#coach-stop')));
      if (theirs.advice && theirs.state.seat === 0) ++decisions;
      if (kind === 'roll' && what === '2H 1C 1K') {
        await page.screenshot({ path: `${screenshots}/coach-desktop.png`, fullPage: true });
      }
      if (kind === 'roll' && what === '2T 3R 4H 3C 1K') {
        // "Rolled" shows the roll but its tanks, which are set aside (as the play mode shows them).
        assert.deepEqual(await page.$$eval('#coach-rolled .chip', (cs) => cs.map((c) => c.textContent)),
          ['3 rays', '4 humans', '3 cows', '1 chicken']);
        assert.deepEqual(await page.$$eval('#coach-aside .chip', (cs) => cs.map((c) => c.textContent)), ['2 tanks']);
      }
      if (kind === 'roll' && decisions === 1) {
        // The take buttons have the focus: the keyboard reaches them.
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.face), 'ray');
      }
    }
    assert.equal(decisions, 8, 'a take and a stop or roll on after each of the 4 rolls');
    // The turn scored 4 humans + 1 chicken = 5.
    let now = await shown(page);
    assert.deepEqual(now.scores, [5, 0]);
    assert.equal(now.mover, '1');
    assert.match(await page.textContent('#coach-announce'), /Seat 0's turn ends \(stopped\): 5 points\./);

    // A bad dice entry: the message, nothing changed (not even the entries' list).
    const before = await shown(page);
    await roll(page, '1T 1R');
    const bad = await shown(page);
    assert.equal(bad.error, 'The dice must add up to the 13 dice rolled: you entered 2 dice.');
    assert.deepEqual({ ...bad, error: '' }, before);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'dice-T');
    await page.fill('#dice-T', '-1');
    await page.click('#enter-roll');
    assert.match(await page.textContent('#coach-error'), /whole number, 0 or more/);

    // Another player's whole turn, then undo.
    await page.fill('#turn-points', '7');
    await entry(page, game, 'score 7', () => page.click('#enter-score'));
    assert.deepEqual((await shown(page)).scores, [5, 7]);
    await entry(page, game, 'undo', () => page.click('#coach-undo'));
    now = await shown(page);
    assert.deepEqual(now.scores, [5, 0]);
    assert.equal(now.mover, '1');
    // The log: review's lines of the finished turn.
    await page.click('#coach-log-details summary');
    assert.match(await page.textContent('#coach-log'), /roll 2T 3R 4H 3C 1K/);

    // A reload (a phone's dropped tab): the coach mode, the game and its entries as they were.
    const kept = { ...(await shown(page)), lines: await page.$$eval('#coach-entries li', (lis) => lis.map((li) => li.textContent)),
      log: await page.textContent('#coach-log') };
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForFunction(() => /^Resumed/.test(document.getElementById('coach-status').textContent));
    assert.equal(await page.getAttribute('body', 'data-mode'), 'coach', 'the address keeps the mode');
    assert.equal(await page.textContent('#coach-status'), 'Resumed your coached game (11 entries replayed).');
    assert.deepEqual({ ...(await shown(page)), lines: await page.$$eval('#coach-entries li', (lis) => lis.map((li) => li.textContent)),
      log: await page.textContent('#coach-log') }, kept);
    assert.equal(await page.isVisible('#coach-form'), false);
    await page.fill('#turn-points', '4');
    await entry(page, game, 'score 4', () => page.click('#enter-score'));
    assert.deepEqual((await shown(page)).scores, [5, 4]);
    // A turn the tanks win: its end says why it scored nothing.
    await entry(page, game, 'roll 3T 4H 3C 3K', () => roll(page, '3T 4H 3C 3K'));
    await entry(page, game, 'take human', () => page.click('#coach-takes button[data-face="human"]'));
    await entry(page, game, 'stop', () => page.click('#coach-stop'));
    assert.equal(await page.textContent('#coach-entries li:last-child'),
      'Seat 0\'s turn ends (stopped): 0 points (3 tanks beat 0 rays).');

    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 1280, `the page is ${width} px wide`);
    const unnamed = await page.$$eval('#coach input, #coach-setup input, #coach-setup select',
      (inputs) => inputs.filter((i) => !i.labels?.length).map((i) => i.id));
    assert.deepEqual(unnamed, [], 'every input has a label');
    assert.deepEqual(errors, []);
    await page.close();
  });

test('the coach mode says when no move can win any more (a final turn that cannot catch the leader)',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 1280, height: 900 });
    const game = await start(page, { players: 2, scores: [26, 0], seat: 1 });
    assert.equal(await page.textContent('#advice-best'), 'The position is worth 0.00 %. No move can win the game from here.');
    await entry(page, game, 'roll 1T 3R 4H 3C 2K', () => roll(page, '1T 3R 4H 3C 2K'));
    assert.match(await page.textContent('#advice-best'), / No move can win the game from here\.$/);
    // Where a chance is left, no such words.
    await entry(page, game, 'take human', () => page.click('#coach-takes button[data-face="human"]'));
    await entry(page, game, 'undo', () => page.click('#coach-undo'));
    assert.deepEqual(errors, []);
    await page.close();
    const other = await openPage({ width: 1280, height: 900 });
    await start(other.page, { players: 2, scores: [20, 0], seat: 1 });
    assert.doesNotMatch(await other.page.textContent('#advice-best'), /No move can win/);
    await other.page.close();
  });

test('the coach mode with 4 players: the fallback\'s points, and in the final round its chances, as serve gives them',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 1280, height: 900 });
    const game = await start(page, { players: 4, scores: [22, 20, 12, 10], seat: 0 });
    // Before the final round: points (3 decimals, no unit), capped at the 3 points seat 0 still needs.
    const points = (x) => (x === null ? '–' : x.toFixed(3));
    const opened = JSON.parse(await serve.ask('enter', { game, entry: 'state' }));
    assert.equal(opened.advice.values, 'capped:3');
    assert.equal(await page.textContent('#advice-values'),
      'No table for 4 players: the fallback\'s values (expected score capped at the points still needed, capped:3).');
    check(await shown(page), opened, points);
    assert.ok(opened.advice.roll > 1, 'points, not a chance');
    // Seat 0 reaches 27: seat 1's turn is the final round's, its values chances to pass the leader
    // (check compares them in percent with serve's).
    const values = () => page.textContent('#advice-values');
    const finalWords = 'No table for 4 players: in the final round the fallback plays for the chance to pass the ' +
      'leader (scoring at least 8; a tie at 7 with the leader counts its share): its values are chances (final:8/1).';
    await page.fill('#turn-points', '5');
    let theirs = await entry(page, game, 'score 5', () => page.click('#enter-score'));
    assert.equal(theirs.advice.values, 'final:8/1');
    assert.equal(await values(), finalWords);
    assert.ok(theirs.advice.value > 0 && theirs.advice.value < 1);
    theirs = await entry(page, game, 'roll 2T 3R 4H 3C 1K', () => roll(page, '2T 3R 4H 3C 1K'));
    assert.equal(theirs.advice.decision, 'take');
    const cells = await page.$$eval('#advice-table tbody td:not(:first-child)', (tds) => tds.map((td) => td.textContent));
    assert.ok(cells.length > 0 && cells.every((c) => / %$|^–$/.test(c)), cells.join(' | '));
    assert.match(await page.textContent('#advice-best'), /^Best: take .* \(\d+\.\d\d %\)\./);
    assert.doesNotMatch(await page.textContent('#advice-best'), /No move can win/);
    await entry(page, game, 'take human', () => page.click('#coach-takes button[data-face="human"]'));
    assert.equal(await values(), finalWords);
    // Seat 0 at 37 instead: no turn of seat 1 scores the 18 that pass it (16 at most), a certain loss said in words.
    for (let i = 0; i < 3; ++i) await entry(page, game, 'undo', () => page.click('#coach-undo'), i < 2 ? percent : points);
    await page.fill('#turn-points', '15');
    theirs = await entry(page, game, 'score 15', () => page.click('#enter-score'));
    assert.equal(theirs.advice.values, 'final:18/1');
    assert.equal(theirs.advice.value, 0);
    assert.equal(await page.textContent('#advice-best'), 'The position is worth 0.00 %. No move can win the game from here.');
    await serve.ask('close', { game });
    assert.deepEqual(errors, []);
    await page.close();
  });

test('the coach mode at 375 px: 3 players from given scores, played to the end of the game',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 375, height: 812 });
    const game = await start(page, { players: 3, scores: [22, 24, 12], seat: 1 });
    await entry(page, game, 'roll 4R 5H 2C 2K', () => roll(page, '4R 5H 2C 2K'));
    // Below the advice on a phone, the focused first take is scrolled into view.
    const focused = await page.evaluate(() => ({ takes: document.activeElement.closest('#coach-takes') !== null,
      bottom: document.activeElement.getBoundingClientRect().bottom, height: window.innerHeight,
      text: document.activeElement.textContent, y: window.scrollY }));
    assert.ok(focused.takes && focused.bottom <= focused.height + 1, `the first take is off the screen: ${JSON.stringify(focused)}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `with the advice, the page is ${width} px wide in 375 px`);
    await page.screenshot({ path: `${screenshots}/coach-phone.png`, fullPage: true });
    await entry(page, game, 'take human', () => page.click('#coach-takes button[data-face="human"]'));
    assert.equal(await page.textContent('#coach-entries li:last-child'), 'Took 5 humans.');
    await entry(page, game, 'stop', () => page.keyboard.press('Enter'));  // the focused Stop
    // Seat 1 reached 29: the final round; seat 2 plays the round's last turn.
    assert.equal(await page.isVisible('#coach-final-round'), true);
    await page.fill('#turn-points', '3');
    const last = await entry(page, game, 'score 3', () => page.click('#enter-score'));
    assert.equal(last.state.phase, 'over');
    assert.match(await page.textContent('#coach-result-text'), /^Seat 1 wins\. Final scores: Seat 0 22, Seat 1 29, Seat 2 15\.$/);
    const closed = JSON.parse(await serve.ask('close', { game }));
    assert.equal((await page.textContent('#coach-log')).trim(), closed.log.trim());
    await page.screenshot({ path: `${screenshots}/coach-phone-end.png`, fullPage: true });
    // An undo after the end, then a reload: the game resumes before its last entry, focused.
    await page.click('#coach-undo');
    await page.waitForSelector(`${SETTLED}[data-coach-phase="roll"]`);
    await page.reload();
    await page.waitForFunction(() => /^Resumed/.test(document.getElementById('coach-status').textContent));
    assert.equal(await page.textContent('#coach-status'), 'Resumed your coached game (5 entries replayed).');
    const resumed = await shown(page);
    assert.deepEqual([resumed.phase, resumed.scores, resumed.mover], ['roll', [22, 29, 12], '2']);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'dice-T');
    assert.deepEqual(errors, []);
    await page.close();
  });

test('the coach mode with your own table file: house rules and the 3-player table, advising as serve',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 375, height: 812 });
    const fetched = [];
    page.on('request', (request) => fetched.push(request.url()));
    await page.click('#coach-own-table summary');
    // A house-rules table: the players and the target set to its game's.
    const house = cliTable(10);
    await page.setInputFiles('#coach-table-file', house);
    await page.waitForFunction(() => /is ready|^Cannot/.test(document.getElementById('coach-status').textContent));
    assert.match(await page.textContent('#coach-status'),
      /^Your table for 2 players \(13 dice, bonus 3, target 10\) is ready: the advice gives/);
    assert.equal(await page.inputValue('#coach-players'), '2');
    assert.equal(await page.inputValue('#coach-target'), '10');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the setup with the table's note open is ${width} px wide in 375 px`);
    await page.screenshot({ path: `${screenshots}/coach-own-table-setup.png`, fullPage: true });
    await page.click('#coach-start');
    await page.waitForSelector(`${SETTLED}[data-coach-phase]`);
    assert.equal(await page.textContent('#coach-scores-caption'), 'Scores (target 10)');
    const houseGame = JSON.parse(await serve.ask('open', { players: 2, target: 10, tables: house })).game;
    await entry(page, houseGame, 'roll 2T 3R 4H 3C 1K', () => roll(page, '2T 3R 4H 3C 1K'));
    await entry(page, houseGame, 'take human', () => page.click('#coach-takes button[data-face="human"]'));
    await serve.ask('close', { game: houseGame });
    // The official 3-player table as a file: the page then fetches none.
    await page.click('#coach-new');
    await page.setInputFiles('#coach-table-file', join(dataDir, 'martiandice-p3-d13-b3-t25.mdt'));
    await page.waitForFunction(() => /3 players .* is ready/.test(document.getElementById('coach-status').textContent));
    assert.equal(await page.inputValue('#coach-players'), '3');
    assert.equal(await page.inputValue('#coach-target'), '25');
    assert.equal(await page.textContent('#coach-players option[value="3"]'), '3 (your table)');
    assert.equal(await page.locator('#coach-totals input').count(), 3);
    const game = await start(page, { players: 3, scores: [10, 18, 4], seat: 2 });
    assert.equal(await page.textContent('#coach-status'),
      'Coaching: the advice is each option\'s chance to win, from the table.');
    await entry(page, game, 'roll 2T 3R 4H 3C 1K', () => roll(page, '2T 3R 4H 3C 1K'));
    await page.screenshot({ path: `${screenshots}/coach-own-table.png`, fullPage: true });
    await entry(page, game, 'take human', () => page.click('#coach-takes button[data-face="human"]'));
    assert.deepEqual(fetched.filter((u) => /martiandice-p3-/.test(u)), [], 'the shipped 3-player table is not fetched');
    await serve.ask('close', { game });
    assert.deepEqual(errors, []);
    await page.close();
  });

test('the coach mode at house rules: 2 players to 15, the table solved in the page, advising as serve',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 1280, height: 800 });
    const file = cliTable(15);
    await page.fill('#coach-target', '15');
    await page.fill('#coach-total-0', '9');
    await page.click('#coach-start');
    await page.waitForSelector(`${SETTLED}[data-coach-phase]`);
    assert.equal(await page.textContent('#coach-status'),
      'Coaching: the advice is each option\'s chance to win, from the table.');
    assert.equal(await page.textContent('#coach-scores-caption'), 'Scores (target 15)');
    const game = JSON.parse(await serve.ask('open', { players: 2, scores: '9,0', target: 15, tables: file })).game;
    for (const [kind, what] of SAMPLE_TURN) {
      if (kind === 'roll') await entry(page, game, `roll ${what}`, () => roll(page, what));
      else if (kind === 'take') await entry(page, game, `take ${what}`, () => page.click(`#coach-takes button[data-face="${what}"]`));
      else await entry(page, game, 'stop', () => page.click('#coach-stop'));
    }
    await serve.ask('close', { game });
    assert.deepEqual(errors, []);
    await page.close();
  });
