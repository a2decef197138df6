// The page (web/play/) in a real browser (Debian's Chromium, headless, through
// playwright-core): whole games played through its controls, with hints on,
// at 1280x800 (2 players, two games) and at phone size, 375x740 with touch
// (3 players). Every hint shown is checked against the CLI's values for its
// position (`martiandice best/eval --objective win --json`), said once, and
// its best move marked on its button; at every decision the panel (scores,
// dice, controls) must be wholly in the viewport. The game's moves are then
// replayed by `martiandice play --seed S --humans 0 --json` and its final
// scores, review and rating must be what the page shows; the rating is kept
// in localStorage and charted. Some moves are made from the keyboard (Enter
// on the focused button, the page's keys R and H C K). Screenshots (start,
// how-to-play, a decision with its hint, the end) go to
// build-wasm/screenshots/ (or $MARTIANDICE_SCREENSHOTS). A 4-player game (no
// table: the fallback) too. "Your seat": a game at the last of 2 seats (the
// bot moves first; a final-round decision; the review of your seat; a reload
// keeps the seat), the seat choice following the players count, other seats'
// names, and a game kept before the choice resuming at seat 0. Seeded:
// $MARTIANDICE_WEB_SEED (printed).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';

import { browserTests } from './browser.mjs';
import { repo, runCli, runPlay } from './cli.mjs';
import { choiceRows, percent, thenWords } from './expected.mjs';
import { Positions } from './positions.mjs';

const screenshots = process.env.MARTIANDICE_SCREENSHOTS ?? `${repo}build-wasm/screenshots`;
const { missing, url, newPage, newContext } = await browserTests();
const seed = Number(process.env.MARTIANDICE_WEB_SEED ?? Date.now() % 1000000);
console.log(`play.test: seed ${seed} (MARTIANDICE_WEB_SEED=${seed} repeats this run)`);
const positions = new Positions(seed);

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
    // "Rolled" shows the roll's dice but its tanks (set aside above).
    const rolledShown = await page.$$eval('#rolled .dice-group', (gs) => gs.map((g) => g.getAttribute('aria-label')));
    assert.deepEqual(rolledShown, hint.roll.split(' ').filter((g) => !g.endsWith('T')).map((g) =>
      plural(parseInt(g, 10), { R: 'ray', H: 'human', C: 'cow', K: 'chicken' }[g.slice(-1)])));
    // The best take's button is marked, and it is the take the hint names.
    assert.deepEqual(await page.$$eval('#controls button[data-best]', (bs) => bs.map((b) => b.dataset.face)), [best.take]);
    const line = await page.textContent('#hint-best');
    assert.ok(line.startsWith(`Best: take ${plural(best.count, best.take)}, then ${thenWords(best.then)} — ` +
      `${percent(cli.value, 1)} to win.`), line);
    await checkSaidOnce(page);
    return cli;
  }
  const cli = JSON.parse(runCli('eval', query));
  assert.deepEqual(rows, choiceRows(cli, percent), JSON.stringify(query));
  // The action's button is marked; a tie marks neither and says so.
  const marked = await page.$$eval('#controls button[data-best]', (bs) => bs.map((b) => b.id));
  const bestMove = { stop: 'stop', roll: 'roll-on' }[cli.action] ?? null;
  assert.deepEqual(marked, bestMove ? [bestMove] : []);
  assert.ok((await page.textContent('#hint-best')).startsWith(`Best: ${bestMove === null ? 'stop or roll on, as good'
    : bestMove === 'stop' ? 'stop' : 'roll on'} — ${percent(cli.value, 1)} to win`));
  await checkSaidOnce(page);
  return cli;
}

// The hint is said once on screen: one "Best:" line (the live region, for
// screen readers only, aside), the options' table folded away.
async function checkSaidOnce(page) {
  const seen = await page.evaluate(() => {
    const text = document.getElementById('game').innerText.replace(document.getElementById('announce').innerText, '');
    return { best: (text.match(/Best:/g) ?? []).length, open: document.getElementById('hint-more').open };
  });
  assert.deepEqual(seen, { best: 1, open: false });
}

// At a decision: are the panel (scores, dice, hint) and the controls wholly in the viewport?
async function panelInView(page) {
  return page.evaluate(() => ['panel', 'controls'].every((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  }));
}

// What the page shows of the game: a reload must show it again as it was.
async function shownGame(page) {
  return page.evaluate(() => ({
    phase: document.body.dataset.phase,
    seed: document.body.dataset.seed,
    scores: [...document.querySelectorAll('#scores li')].map((li) => li.dataset.score),
    aside: document.getElementById('aside').dataset.dice,
    rolled: document.getElementById('rolled').dataset.dice,
    turn: document.getElementById('turn-title').textContent,
    facts: [document.getElementById('turn-score').textContent, document.getElementById('dice-left').textContent],
    log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
    controls: [...document.querySelectorAll('#controls button')].filter((b) => !b.hidden).map((b) => b.textContent),
    hint: document.getElementById('hint').hidden ? null : document.getElementById('hint-best').textContent,
    form: ['players', 'seat', 'bots', 'dice', 'bonus', 'target'].map((id) => document.getElementById(id).value),
    names: [...document.querySelectorAll('#scores li')].map((li) => li.firstElementChild.firstChild.textContent),
  }));
}

// Reloads the page in the middle of a game: the game resumes as it was (the
// browser kept its moves, and the page replays them), said in the status line.
async function reloadGame(page, shot) {
  const before = await shownGame(page);
  const status = await page.textContent('#status');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector(SETTLED);
  assert.deepEqual(await shownGame(page), before);
  assert.equal(await page.textContent('#status'), status.replace(/^Game with/, 'Resumed your game with'));
  assert.equal(await page.isChecked('#hints'), true, 'the hints stay on');
  if (shot) await page.screenshot({ path: `${screenshots}/${shot}-resumed.png` });
}

// Plays a whole game on the page; returns the human's moves as play's input
// lines, the seed and the hints checked. With `reloadAt`, the page is
// reloaded before that move (a screenshot, `shot`-resumed.png).
async function playGame(page, { players, shot, fallback = false, keys = null, reloadAt = null }) {
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
  const view = { decisions: 0, off: 0 };
  for (let moves = 0; ; ++moves) {
    assert.ok(moves < 500, 'the game ends');
    await page.waitForSelector(SETTLED);
    const phase = await page.getAttribute('body', 'data-phase');
    if (phase === 'over') break;
    if (moves === reloadAt) await reloadGame(page, shot);
    ++view.decisions;
    if (!await panelInView(page)) ++view.off;
    // The keyboard line: only with a keyboard (a fine pointer), during the game.
    if (keys !== null) assert.equal(await page.isVisible('#keys'), keys);
    if (phase === 'human-roll') {
      if (!usedKeyboard) {
        // The first control has the focus: Enter presses it.
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'roll');
        await page.keyboard.press('Enter');
        usedKeyboard = true;
      } else if (!usedKey) {
        // The page's key for a roll, after a click on the panel's text (the focus stays in the game).
        await page.click('#turn-title');
        assert.ok(await page.evaluate(() => document.getElementById('game').contains(document.activeElement)), 'the focus left the game');
        await page.keyboard.press('r');
        usedKey = true;
      } else {
        await page.click('#roll');
      }
      continue;
    }
    if (fallback) {
      assert.match(await page.textContent('#hint-values'),
        /^No exact table for \d players: this advice maximises the points you still need.*Its values are points, not chances to win\.$/);
      // Points with their unit, never "capped:" nor a bare number.
      const cells = await page.$$eval('#hint-table tbody td:not(:first-child)', (tds) => tds.map((td) => td.textContent));
      assert.ok(cells.length > 0 && cells.every((c) => /^\d+\.\d\d pts$|^–$/.test(c)), cells.join(' | '));
      const line = await page.textContent('#hint-best');
      assert.match(line, /points expected|^Best: stop or roll on/);
      // The other move's value has its unit too.
      if (phase === 'human-stop_or_roll' && !line.startsWith('Best: stop or roll on')) {
        assert.match(line, /; (stopping|rolling on): \d+\.\d\d points\.$/);
      }
      assert.doesNotMatch(await page.textContent('#game'), /capped:/);
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
        await page.screenshot({ path: `${screenshots}/${shot}-hint.png` });
        shotTaken = true;
      }
      const faces = await page.$$eval('#takes button', (bs) => bs.map((b) => b.dataset.face));
      const best = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.face);
      if (!fallback) assert.equal(await page.$eval('#takes button[data-best]', (b) => b.dataset.face), best);
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
  assert.equal(await page.isVisible('#keys'), false, 'no keyboard line after the game');
  return { gameSeed, input: lines.map((l) => `${l}\n`).join(''), hints, view };
}

// The review as the page words it, from the CLI's review event.
const FACE = { T: 'tank', R: 'ray', H: 'human', C: 'cow', K: 'chicken' };
const diceWords = (n) => n.split(' ').map((g) => plural(parseInt(g, 10), FACE[g.slice(-1)])).join(', ');
function summaryWords(review) {
  const r = review.rating;
  if (r.decisions > 0 && r.optimal === r.decisions) {
    return `You played ${r.decisions === 1 ? 'your one decision' : `all ${r.decisions} decisions`} optimally: ` +
      'nothing given away.';
  }
  const share = r.decisions > 0 ? ` (${Math.round((100 * r.optimal) / r.decisions)}%)` : '';
  return `You played ${r.optimal} of ${plural(r.decisions, 'decision')} optimally${share} and gave away ` +
    `${percent(r.total_loss)} chance to win, summed over them (${percent(r.mean_loss)} a decision): ` +
    `${r.inaccuracies} ${r.inaccuracies === 1 ? 'inaccuracy' : 'inaccuracies'}, ${plural(r.errors, 'error')}, ` +
    `${plural(r.blunders, 'blunder')}.`;
}
function costliestWords(decisions, value) {
  // Chances (win, final:M/K) before points (capped:M), each by loss.
  const chance = (d) => (/^(win|final:)/.test(d.values) ? 1 : 0);
  return decisions.filter((d) => !d.optimal && d.loss > 0)
    .sort((a, b) => chance(b) - chance(a) || b.loss - a.loss).slice(0, 3).map((d) =>
    `Turn ${d.turn}: rolled ${diceWords(d.rolled)}${d.aside === '-' ? '' : ` with ${diceWords(d.aside)} set aside`}. ` +
    `You took ${plural(d.count, d.take)}, then ${d.then === 'roll' ? 'rolled on' : 'stopped'}; better: take ` +
    `${plural(d.best.count, d.best.take)}, then ${thenWords(d.best.then)}. ` +
    `Cost ${value(d.loss)}${d.class ? ` (${d.class})` : ''}.`);
}

// A bot's name: the bots are numbered 1, 2, ... in seat order, your seat skipped.
const botName = (bot, seat) => `Bot ${bot < seat ? bot + 1 : bot}`;
const seatNames = (players, seat) => Array.from({ length: players }, (_, i) => (i === seat ? 'You' : botName(i, seat)));

// The end of a game against the CLI's replay: scores, winner, review, rating,
// the costliest decisions; the rating kept (`games` in storage) and charted.
async function checkEnd(page, { gameSeed, input, players, games, seat = 0 }) {
  const cli = runPlay(['--players', String(players), '--humans', String(seat), '--seed', gameSeed], input);
  const over = cli.find((e) => e.event === 'game_over');
  const shown = await page.$$eval('#scores li', (lis) => lis.map((li) => Number(li.dataset.score)));
  assert.deepEqual(shown, over.scores, `seed ${gameSeed}, moves ${JSON.stringify(input)}`);
  const review = cli.find((e) => e.event === 'review');
  assert.equal(review.seat, seat, 'the review is of your seat');
  assert.ok(review.rating, 'a table game has a rating');
  assert.equal(await page.textContent('#review-summary'), summaryWords(review));
  const rating = await page.$eval('#rating', (p) => ({ text: p.textContent, ...p.dataset }));
  assert.deepEqual(rating, { text: `Rating ${Math.floor(review.rating.score)} of 100 (${review.rating.band})`,
    score: String(review.rating.score), band: review.rating.band });
  assert.deepEqual(await page.$$eval('#costly li', (lis) => lis.map((li) => li.textContent)),
    costliestWords(review.decisions, percent));
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('martiandice.ratings')));
  assert.equal(kept.length, games);
  assert.deepEqual({ ...kept.at(-1), date: undefined },
    { date: undefined, players, score: review.rating.score, band: review.rating.band });
  assert.equal(await page.$$eval('#rating-chart circle', (cs) => cs.length), games, 'a point a game');
  const result = await page.textContent('#result-text');
  if (over.winners.length === 1) {
    assert.ok(result.startsWith(over.winners[0] === seat ? 'You win!' : `${botName(over.winners[0], seat)} wins.`), result);
  } else {
    assert.match(result, /share the win/);
  }
}

for (const [name, viewport, players, games, device] of [
  ['play-desktop', { width: 1280, height: 800 }, 2, 2, {}],
  ['play-phone', { width: 375, height: 740 }, 3, 1, { hasTouch: true, isMobile: true }],
]) {
  test(`the page plays whole games (${players} players, ${viewport.width}x${viewport.height}) as the CLI does`,
    { skip: missing ?? false }, async () => {
      mkdirSync(screenshots, { recursive: true });
      const page = await newPage({ viewport, ...device });
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url(`play/index.html?delay=0`));
      await page.waitForSelector('body[data-ready]');
      assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
      assert.equal(await page.getAttribute('body', 'data-thread'), 'worker', 'the engine runs in a Web Worker');
      await page.screenshot({ path: `${screenshots}/${name}-start.png` });
      // How to play, from the start screen: the rules with the dice drawn.
      await page.click('#how-to summary');
      assert.equal(await page.$$eval('#how-to svg.die', (svgs) => svgs.length) >= 9, true);
      await page.$eval('#how-to', (d) => d.scrollIntoView());
      await page.screenshot({ path: `${screenshots}/${name}-howto.png` });
      await page.click('#how-to summary');
      const keys = !device.hasTouch;  // a fine pointer: the keyboard line shows during the game
      const view = { decisions: 0, off: 0 };
      for (let game = 1; game <= games; ++game) {
        const played = await playGame(page, { players, shot: game === 1 ? name : null, keys, reloadAt: game === 1 ? 4 : null });
        assert.ok(played.hints > 0, 'hints were checked');
        view.decisions += played.view.decisions;
        view.off += played.view.off;
        await checkEnd(page, { ...played, players, games: game });
      }
      console.log(`play.test: ${viewport.width}x${viewport.height}: ${view.decisions} decisions, ` +
        `${view.off} with the panel or the controls off screen`);
      assert.equal(view.off, 0, `${view.off} of ${view.decisions} decisions with the panel off screen`);
      // Every control is a real button with a name; the page is no wider than the viewport.
      const names = await page.$$eval('button', (bs) => bs.map((b) => b.textContent.trim()));
      assert.ok(names.every((n) => n.length > 0));
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page is ${width} px wide in a ${viewport.width} px viewport`);
      assert.deepEqual(errors, []);
      await page.$eval('#result', (r) => r.scrollIntoView());
      await page.screenshot({ path: `${screenshots}/${name}-end.png` });
      await page.screenshot({ path: `${screenshots}/${name}-end-full.png`, fullPage: true });
      await page.close();
    });
}

test('with 4 players the page plays the fallback, as the CLI does', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  const { gameSeed, input } = await playGame(page, { players: 4, fallback: true, reloadAt: 3 });
  const cli = runPlay(['--players', '4', '--humans', '0', '--seed', gameSeed], input);
  const shown = await page.$$eval('#scores li', (lis) => lis.map((li) => Number(li.dataset.score)));
  assert.deepEqual(shown, cli.find((e) => e.event === 'game_over').scores, `seed ${gameSeed}`);
  assert.match(await page.textContent('#status'), /no table: the bots play the fallback/);
  // No rating: the review's values are points; nothing kept.
  const review = cli.find((e) => e.event === 'review');
  assert.equal(review.rating, null);
  assert.match(await page.textContent('#rating'), /^No rating for this game: there is no exact table for 4 players, so the advice's values are points, not chances to win/);
  // Seat 0 moves first in every round, never in the final round: every value is the fallback's points.
  assert.ok(review.decisions.every((d) => /^capped:\d+$/.test(d.values)), review.decisions.map((d) => d.values).join());
  assert.equal(review.fallback_final_loss, 0);
  const optimal = review.decisions.filter((d) => d.optimal).length;
  assert.equal(await page.textContent('#review-summary'), `You played ${optimal} of ${plural(review.decisions.length, 'decision')} ` +
    `as the fallback advises; ${optimal === 0 ? 'they' : 'the others'} gave away ${review.fallback_loss.toFixed(2)} pts ` +
    'of its expected points, summed.');
  assert.deepEqual(await page.$$eval('#costly li', (lis) => lis.map((li) => li.textContent)),
    costliestWords(review.decisions, (x) => `${x.toFixed(2)} pts`));
  assert.equal(await page.evaluate(() => localStorage.getItem('martiandice.ratings')), null);
  assert.equal(await page.evaluate(() => localStorage.getItem('martiandice.game.play')), null, 'an ended game is forgotten');
  await page.close();
});

// Opens the page, starts a game of `seed` and rolls its first dice.
async function startAndRoll(page, seed) {
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  await page.fill('#seed', String(seed));
  await page.click('#new-game');
  await page.waitForSelector(SETTLED);
  await page.click('#roll');
  await page.waitForSelector(SETTLED);
}

test('a kept game that replays elsewhere is not resumed, and the page says why', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  await startAndRoll(page, 77);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('martiandice.game.play')));
  assert.deepEqual(kept.moves, [['roll']]);
  assert.equal(kept.options.seed, '77');
  // Another position than its moves give (as a record of another version could hold).
  const other = kept.state.replace('"turn_score":0', '"turn_score":1');
  assert.notEqual(other, kept.state);
  await page.evaluate((record) => localStorage.setItem('martiandice.game.play', JSON.stringify(record)),
    { ...kept, state: other });
  await page.reload();
  await page.waitForSelector('body[data-ready="true"][data-busy="false"]');
  await page.waitForFunction(() => /could not be resumed/.test(document.getElementById('status').textContent));
  assert.equal(await page.textContent('#status'),
    'Your unfinished game could not be resumed (its moves replay to another position): start a new one.');
  assert.equal(await page.isVisible('#game'), false);
  assert.equal(await page.evaluate(() => localStorage.getItem('martiandice.game.play')), null);
  await page.close();
});

test('two tabs: the one that last resumed a game keeps it; a record that cannot be written is removed',
  { skip: missing ?? false }, async () => {
    const tabs = await newContext({ viewport: { width: 800, height: 900 } });
    const first = await tabs.newPage();
    await startAndRoll(first, 91);
    // A second tab of the same browser resumes the game and plays on.
    const second = await tabs.newPage();
    await second.goto(url(`play/index.html?delay=0`));
    await second.waitForSelector(`${SETTLED}[data-seed="91"]`);
    const kept = () => second.evaluate(() => JSON.parse(localStorage.getItem('martiandice.game.play')));
    const resumed = await kept();
    await second.click('#takes button');
    await second.waitForSelector(SETTLED);
    const after = await kept();
    assert.equal(after.owner, resumed.owner);
    assert.equal(after.moves.length, resumed.moves.length + 1);
    // The first tab is told, and its moves no longer overwrite the record.
    await first.waitForFunction(() => /^Another tab of this page now keeps its game/.test(
      document.getElementById('status').textContent));
    await first.click('#takes button');
    await first.waitForSelector(SETTLED);
    assert.deepEqual(await kept(), after);
    // Storage full: the next move's record cannot be written, and the older one goes.
    await second.evaluate(() => {
      Storage.prototype.setItem = () => { throw new DOMException('full', 'QuotaExceededError'); };
    });
    await second.click(await second.isVisible('#stop') ? '#stop' : '#roll');
    await second.waitForSelector(SETTLED);
    assert.equal(await kept(), null);
    await tabs.close();
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

// The seat choice's options: [value, text] each, and the one chosen.
const seatChoice = (page) => page.$eval('#seat', (select) => ({
  options: [...select.options].map((o) => [o.value, o.textContent]), value: select.value,
}));

test('the seat choice follows the players count', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  assert.deepEqual(await seatChoice(page), { options: [['0', 'first (seat 0)'], ['1', 'last (seat 1)']], value: '0' });
  await page.selectOption('#players', '6');
  assert.deepEqual(await seatChoice(page), { value: '0', options: [['0', 'first (seat 0)'], ['1', 'second (seat 1)'],
    ['2', 'third (seat 2)'], ['3', 'fourth (seat 3)'], ['4', 'fifth (seat 4)'], ['5', 'last (seat 5)']] });
  await page.selectOption('#seat', '5');
  await page.selectOption('#players', '4');
  assert.deepEqual(await seatChoice(page), { value: '3', options: [['0', 'first (seat 0)'], ['1', 'second (seat 1)'],
    ['2', 'third (seat 2)'], ['3', 'last (seat 3)']] }, 'clamped to the last seat');
  await page.selectOption('#seat', '1');
  await page.selectOption('#players', '3');
  assert.equal((await seatChoice(page)).value, '1', 'a seat that is still there stays chosen');
  await page.close();
});

test('at the last of 2 seats the bot moves first, and you play the final round', { skip: missing ?? false }, async () => {
  // Seed 65 with the best moves: the bot reaches 25 first (25-24), and your turn is the final round's.
  const gameSeed = '65';
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  await page.selectOption('#seat', '1');
  await page.check('#hints');
  await page.fill('#seed', gameSeed);
  await page.click('#new-game');
  await page.waitForSelector(SETTLED);
  // The bot's whole first turn is played before yours.
  const log = await page.$$eval('#log li', (lis) => lis.map((li) => li.textContent));
  assert.equal(log[0], 'Turn 1 (round 1): Bot 1 to move.');
  assert.ok(log.length > 2 && log.slice(1).every((line) => /^(Bot 1|No .*: Bot 1) /.test(line)), log.join(' | '));
  assert.match(log.at(-1), /^(Bot 1 stopped and|No .*: Bot 1) scored \d+ points?/);
  assert.equal(await page.getAttribute('body', 'data-phase'), 'human-roll');
  assert.equal(await page.textContent('#turn-title'), 'Turn 2 · You');
  assert.deepEqual((await shownGame(page)).names, seatNames(2, 1));
  assert.deepEqual(await page.$$eval('#scores li.you', (lis) => lis.map((li) => li.dataset.seat)), ['1']);
  assert.equal(await page.getAttribute('#hint', 'data-seat'), '1');
  assert.match(await page.textContent('#announce'), /Your turn: roll\. Hint: Your chance to win now: \d+\.\d %\./);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('martiandice.game.play')));
  assert.deepEqual(kept.options.humans, [1], 'the kept game has your seat');
  // Your moves: the hint's best, each hint checked against the CLI's at your seat.
  const lines = [];
  const finalDecisions = [];
  for (let moves = 0; ; ++moves) {
    assert.ok(moves < 500, 'the game ends');
    await page.waitForSelector(SETTLED);
    const phase = await page.getAttribute('body', 'data-phase');
    if (phase === 'over') break;
    if (moves === 3) await reloadGame(page);
    assert.equal(await page.getAttribute('#hint', 'data-seat'), '1');
    const finalRound = await page.isVisible('#final-round');
    if (phase === 'human-roll') {
      if (finalRound) {
        // Your chance to win at the start of the final round's turn, as the CLI says.
        const scores = await page.getAttribute('#hint', 'data-scores');
        const cli = JSON.parse(runCli('eval', { objective: 'win', scores, seat: 1 }));
        assert.ok(cli.value > 0 && cli.value < 1, `a chance to win at ${scores}: ${cli.value}`);
        assert.ok((await page.textContent('#hint-best')).startsWith(`Your chance to win now: ${percent(cli.value, 1)}.`));
        finalDecisions.push('roll');
      }
      await page.click('#roll');
      if (moves === 0) {
        await page.waitForSelector(SETTLED);
        assert.ok((await page.$$eval('#log li', (lis) => lis.map((li) => li.textContent)))
          .includes('Turn 2 (round 1): you to move.'), 'your turn is the second');
      }
      continue;
    }
    await checkHint(page);
    if (finalRound) finalDecisions.push(phase);
    if (phase === 'human-take') {
      const face = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.face);
      lines.push(`take ${face}`);
      await page.click(`#takes button[data-face="${face}"]`);
    } else {
      const stop = await page.$eval('#hint-table tr.best', (tr) => tr.dataset.move) === 'stop';
      lines.push(stop ? 'stop' : 'roll');
      await page.click(stop ? '#stop' : '#roll-on');
    }
  }
  assert.ok(finalDecisions.length >= 2 && finalDecisions[0] === 'roll', `final-round decisions: ${finalDecisions}`);
  const input = lines.map((l) => `${l}\n`).join('');
  const cli = runPlay(['--players', '2', '--humans', '1', '--seed', gameSeed], input);
  const over = cli.find((e) => e.event === 'game_over');
  const turns = cli.filter((e) => e.event === 'turn');
  assert.deepEqual(turns.at(-1), { ...turns.at(-1), seat: 1, final_round: true }, 'the last turn is yours, in the final round');
  const review = cli.find((e) => e.event === 'review');
  assert.ok(review.decisions.some((d) => d.turn === over.turns), 'the review has your final-round decisions');
  await checkEnd(page, { gameSeed, input, players: 2, games: 1, seat: 1 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('other seats: the names, the first turn and "Play again" follow the seat', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  for (const [players, seat] of [[3, 1], [6, 5]]) {
    await page.selectOption('#players', String(players));
    await page.selectOption('#seat', String(seat));
    await page.fill('#seed', '7');
    await page.click('#new-game');
    await page.waitForSelector(`${SETTLED}[data-phase="human-roll"]`);
    const shown = await shownGame(page);
    assert.deepEqual(shown.names, seatNames(players, seat));
    assert.equal(shown.turn, `Turn ${seat + 1} · You`, 'the seats before yours moved first');
    assert.deepEqual(await page.$$eval('#scores li.you', (lis) => lis.map((li) => li.dataset.seat)), [String(seat)]);
  }
  // Another game with the same settings: the same seat.
  await page.evaluate(() => {
    document.getElementById('again').hidden = false;  // as at a game's end
    document.getElementById('result').hidden = false;
  });
  await page.click('#again');
  await page.waitForSelector(`${SETTLED}[data-phase="human-roll"]`);
  assert.equal((await shownGame(page)).turn, 'Turn 6 · You');
  await page.close();
});

test('a game kept before the seat choice (no seat in its record) resumes at seat 0', { skip: missing ?? false }, async () => {
  const page = await newPage({ viewport: { width: 800, height: 900 } });
  await startAndRoll(page, 77);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('martiandice.game.play')));
  assert.deepEqual(kept.options.humans, [0]);
  delete kept.options.humans;
  await page.evaluate((record) => localStorage.setItem('martiandice.game.play', JSON.stringify(record)), kept);
  await page.selectOption('#players', '3');  // the form is the record's after the reload
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector(`${SETTLED}[data-seed="77"]`);
  const shown = await shownGame(page);
  assert.deepEqual(shown.names, ['You', 'Bot 1']);
  assert.deepEqual(shown.form.slice(0, 2), ['2', '0']);
  assert.equal(shown.turn, 'Turn 1 · You');
  assert.match(await page.textContent('#status'), /^Resumed your game with seed 77/);
  await page.close();
});
