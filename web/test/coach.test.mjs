// The package's coached games (Coach) against `martiandice serve`'s game
// sessions: the same open and enter requests must give the same answers,
// byte for byte (but for the game's id and the table's path): the
// rulebook's sample turn (docs/RULES.md) with its advice at every decision,
// another seat's whole turn (`score N`), `undo`, `help`, `state`, a game
// opened at given scores and seat, a game no shipped table covers (the
// fallback), `close`'s log; and bad entries: serve's message, and nothing
// changed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Coach, MartianDice, MartianDiceError, officialTableUrl } from '../src/martiandice.js';
import { startServe, tableNamed } from './cli.mjs';

let md;
let serve;
before(async () => {
  md = await MartianDice.create({ tables: [officialTableUrl(2), officialTableUrl(3)] });
  serve = startServe();
});
after(() => serve.close());

// An answer's text with the game's id and the table's path (and where the
// table search looked, or how the package's user gives a table) left out:
// they differ between the module and serve.
function normal(text) {
  return tableNamed(text.trim())
    .replace(/^\{"game":\d+,/, '{"game":0,')
    .replace(/; (looked in|none registered)[^"]*"/g, '"');
}

// Opens the same game in serve and the package.
async function openBoth(options, request) {
  const coach = md.coach(options);
  const theirs = await serve.ask('open', request);
  assert.equal(normal(coach.openingJson), normal(theirs), `open ${JSON.stringify(request)}`);
  return { coach, game: JSON.parse(theirs).game };
}

// One entry in both: the same answer, or the same error (and then the
// package's state is unchanged).
async function enterBoth({ coach, game }, entry) {
  const theirsJson = await serve.ask('enter', { game, entry });
  const theirs = JSON.parse(theirsJson);
  if (theirs.error !== undefined) {
    const before = coach.answer;
    assert.throws(() => coach.enter(entry), (e) => e instanceof MartianDiceError &&
      e.message === theirs.error, `entry ${entry}: serve says ${theirs.error}`);
    assert.deepEqual(coach.answer, before, `entry ${entry} changed nothing`);
    return null;
  }
  const ours = coach.enterJson(entry);
  assert.equal(normal(ours), normal(theirsJson), `entry ${entry}`);
  return JSON.parse(ours);
}

const SAMPLE_TURN = [
  'roll 2T 3R 4H 3C 1K', 'take humans', 'roll 1T 2R 3C 1K', 'take R', 'roll 2H 1C 1K',
  'take chicken', 'roll 1R 1H 1C', 'take ray', 'stop',
];

describe('coached games equal serve\'s game sessions', () => {
  test('the rulebook\'s sample turn, another seat\'s turn, undo and bad entries', async () => {
    const both = await openBoth({ players: 2 }, { players: 2 });
    const answers = [];
    for (const entry of SAMPLE_TURN) answers.push(await enterBoth(both, entry));
    // Every decision of the turn had the table's advice; the turn scored 4 + 1.
    assert.ok(answers.slice(0, -1).every((a) => a.advice.values === 'win'));
    assert.equal(answers[0].advice.decision, 'take');
    assert.equal(answers[1].advice.decision, 'stop_or_roll');
    assert.deepEqual(answers.at(-1).turn_ends.map((e) => [e.seat, e.score]), [[0, 5]]);
    assert.deepEqual(both.coach.state.scores, [5, 0]);
    assert.equal(both.coach.state.seat, 1);

    // Bad entries: serve's message, nothing changed.
    for (const bad of ['roll 1T', 'take cow', 'stop', 'score x', 'scores 1,2,3', 'frobnicate',
      'roll 2T 3R 4H 3C 1K take T', 'quit', 'roll 1T\nroll 2T']) {
      assert.equal(await enterBoth(both, bad), null, `${bad} is refused`);
    }
    const scored = await enterBoth(both, 'score 7');
    assert.deepEqual(scored.turn_ends.map((e) => [e.seat, e.score]), [[1, 7]]);
    assert.deepEqual(scored.state.scores, [5, 7]);
    const undone = await enterBoth(both, 'undo');
    assert.equal(undone.step, 'undone');
    assert.deepEqual(undone.state.scores, [5, 0]);
    assert.equal((await enterBoth(both, 'help')).step, 'help');
    await enterBoth(both, 'state');
    await enterBoth(both, 'roll 3T 4R 2H 2C 2K');
    await enterBoth(both, 'take humans');
    assert.equal(both.coach.undo().step, 'undone');
    await serve.ask('enter', { game: both.game, entry: 'undo' });
    await enterBoth(both, 'roll 4T 3R 2H 2C 2K');
    assert.match(both.coach.log, /^scores 0,0 seat 0\n/);
    assert.match(both.coach.finishedLog, /stop/);

    const closed = both.coach.close();
    const theirs = await serve.ask('close', { game: both.game });
    assert.equal(normal(JSON.stringify(closed)), normal(theirs));
    assert.throws(() => both.coach.enter('stop'), MartianDiceError);
  });

  test('a game from given scores and seat, played to its end', async () => {
    const both = await openBoth({ players: 3, scores: [20, 24, 12], seat: 1 },
      { players: 3, scores: '20,24,12', seat: 1 });
    for (const entry of ['roll 1T 4R 5H 2C 1K', 'take H', 'stop', 'score 3', 'score 0',
      'roll 3T 3R 2H 3C 2K take C', 'stop', 'undo', 'roll', 'roll 1T 1R 1H 1C 1K 2T',
      'take K', 'stop', 'state']) {
      await enterBoth(both, entry);
    }
    assert.equal(both.coach.over, both.coach.state.phase === 'over');
    const closed = both.coach.close();
    assert.equal(normal(JSON.stringify(closed)), normal(await serve.ask('close', { game: both.game })));
  });

  test('a game no shipped table covers: the fallback\'s advice', async () => {
    const both = await openBoth({ players: 4 }, { players: 4 });
    assert.equal(both.coach.opening.table, null);
    assert.equal(both.coach.advice.fallback, true);
    for (const entry of SAMPLE_TURN) await enterBoth(both, entry);
    both.coach.free();
    await serve.ask('close', { game: both.game });
  });

  test('bad openings: serve\'s messages', async () => {
    for (const [options, request] of [
      [{ players: 7 }, { players: 7 }],
      [{ scores: [1, 2], players: 3 }, { scores: '1,2', players: 3 }],
      [{ scores: [30, 26] }, { scores: '30,26' }],
      [{ seat: 2 }, { seat: 2 }],
      [{ rules: { dice: 0 } }, { dice: 0 }],
    ]) {
      const theirs = JSON.parse(await serve.ask('open', request));
      assert.ok(theirs.error, `serve refuses ${JSON.stringify(request)}`);
      assert.throws(() => md.coach(options), (e) => e instanceof MartianDiceError &&
        e.message === theirs.error, JSON.stringify(options));
    }
    assert.throws(() => md.coach({ player: 2 }), /player: unknown option/);
    assert.ok(Coach);
  });
});
