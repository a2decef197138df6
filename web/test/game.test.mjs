// The package's games against `martiandice play --json`: the same seed and
// the same human moves must give the same events (every roll, take, stop,
// hint, prompt, turn end, the result, the review and the log), compared as
// parsed objects, but for the start event's table path (the module's
// in-memory file system against data/, and where the table search looked). Bots-only games of 2 and 3 players
// with the shipped tables and of 4 with the fallback, mixed policies, and
// games with a human seat playing random legal moves (with hints, so every
// decision's advice is compared too), one at the last of 4 seats playing the
// fallback's final round (its chances kept apart from its points in the
// review). Also: dice given (a coach's real dice), refused moves that change
// nothing. Seeded: $MARTIANDICE_WEB_SEED (printed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, test } from 'node:test';

import { MartianDice, MartianDiceError, officialTableUrl } from '../src/martiandice.js';
import { runPlay } from './cli.mjs';
import { Positions } from './positions.mjs';

const seed = Number(process.env.MARTIANDICE_WEB_SEED ?? Date.now() % 1000000);
console.log(`game.test: seed ${seed} (MARTIANDICE_WEB_SEED=${seed} repeats this run)`);
const positions = new Positions(seed);
const gameSeed = () => String(positions.between(0, 2 ** 31));

let md;
before(async () => {
  md = await MartianDice.create({ tables: [officialTableUrl(2), officialTableUrl(3)] });
});

// The events with the table named by its file name, and where no table
// covers the game, the reason's first clause (where the search looked differs).
function named(events) {
  const where = (text) => text.replace(/; (looked in|none registered).*$/, '');
  return events.map((e) => {
    const n = { ...e };
    if (typeof n.table === 'string') n.table = n.table.replace(/^.*\//, '');
    if (typeof n.no_table === 'string') n.no_table = where(n.no_table);
    if (typeof n.fallback_reason === 'string') n.fallback_reason = where(n.fallback_reason);
    return n;
  });
}

function cliArgs({ players, humans, bots, seed: s, hints }) {
  const args = ['--players', String(players), '--humans', humans, '--seed', s];
  if (bots) args.push('--bots', bots);
  if (hints) args.push('--hints');
  return args;
}

// A whole game through the package: bots play, a human plays random legal
// moves (rolls are automatic, as in play). Returns the events, the human's
// moves as play's input lines, and the human's decisions (docs/RATING.md: a
// take with a choice of faces, or one that leaves dice for stop or roll on).
function playThrough(options) {
  const game = md.newGame(options);
  const lines = [];
  let decisions = 0;
  let moves = 0;
  while (!game.over) {
    assert.ok(++moves < 2000, 'the game ends');
    const state = game.state;
    if (state.player === 'bot') {
      game.botStep();
    } else if (state.phase === 'roll') {
      game.roll();
    } else if (state.phase === 'take') {
      const face = positions.pick(state.legal);
      lines.push(`take ${face}`);
      game.take(face);
      if (state.legal.length > 1 || game.state.phase === 'stop_or_roll') ++decisions;
    } else {
      const stop = positions.random() < 0.4;
      lines.push(stop ? 'stop' : 'roll');
      if (stop) game.stop(); else game.rollOn();
    }
  }
  const events = game.events;
  game.free();
  return { events, input: lines.map((l) => `${l}\n`).join(''), decisions };
}

describe('games equal martiandice play --json', () => {
  const bots = [
    { players: 2 }, { players: 3 }, { players: 2, bots: 'win,ev' },
    { players: 3, bots: 'cautious,random,win' }, { players: 4, bots: 'win' },
    { players: 4, bots: 'fallback,capped,win,ev' },
  ];
  for (const setup of bots) {
    test(`bots only: ${JSON.stringify(setup)}`, () => {
      const options = { ...setup, humans: 'none', seed: gameSeed() };
      const { events } = playThrough(options);
      const cli = runPlay(cliArgs({ ...options, humans: 'none' }));
      assert.deepEqual(named(events), named(cli), `seed ${options.seed}`);
      const over = events.find((e) => e.event === 'game_over');
      assert.ok(over && over.winners.length >= 1);
      if (setup.players === 4) {
        assert.equal(events[0].table, null);
        // Said as the package's user makes one: no folder of the module, no --out there.
        assert.match(events[0].no_table, /^no policy table martiandice-p4-d13-b3-t25\.mdt .*; none registered: give its file to loadTable or addTable \(`martiandice solve --players 4 --out martiandice-p4-d13-b3-t25\.mdt` makes it\)$/);
      }
      else assert.match(events[0].table, /^\/tables\/martiandice-p\d-d13-b3-t25\.mdt$/);
    });
  }

  for (const players of [2, 3, 4]) {
    test(`a human at seat 0 with hints, random moves, ${players} players`, () => {
      const options = { players, humans: [0], hints: true, seed: gameSeed() };
      const { events, input, decisions } = playThrough(options);
      const cli = runPlay(cliArgs({ ...options, humans: '0' }), input);
      assert.deepEqual(named(events), named(cli), `seed ${options.seed}`);
      const review = events.find((e) => e.event === 'review');
      assert.equal(review.seat, 0);
      assert.equal(review.decisions.length, decisions);
      assert.ok(events.some((e) => e.event === 'hint'));
    });
  }
});

describe('the fallback\'s final round', () => {
  // A human at the last of 4 seats plays it whenever a seat before has
  // reached 25: games are played until one has such a decision.
  test('a human at the last of 4 seats: its hints are chances, its review keeps them apart from the points', () => {
    for (let tries = 1; ; ++tries) {
      assert.ok(tries <= 25, 'a game with a decision in the final round');
      const options = { players: 4, humans: [3], hints: true, seed: gameSeed() };
      const { events, input } = playThrough(options);
      const review = events.find((e) => e.event === 'review');
      const final = review.decisions.filter((d) => /^final:\d+\/\d+$/.test(d.values));
      if (final.length === 0) continue;
      const cli = runPlay(cliArgs({ ...options, humans: '3' }), input);
      assert.deepEqual(named(events), named(cli), `seed ${options.seed}`);
      // Its hints: the fallback's chances to pass the leader, 0 to 1.
      const hints = events.filter((e) => e.event === 'hint' && e.values.startsWith('final:'));
      assert.ok(hints.length >= final.length);
      assert.ok(hints.every((h) => h.fallback && h.value >= 0 && h.value <= 1), JSON.stringify(hints));
      // The points (capped:M) in fallback_loss, the chances (final:M/K) in fallback_final_loss: never added.
      const points = review.decisions.filter((d) => /^capped:\d+$/.test(d.values));
      assert.equal(points.length + final.length, review.decisions.length);
      const sum = (decisions) => decisions.reduce((total, d) => total + d.loss, 0);
      assert.ok(Math.abs(review.fallback_loss - sum(points)) < 1e-9, `${review.fallback_loss} points, seed ${options.seed}`);
      assert.equal(review.total_loss, 0);
      assert.ok(Math.abs(review.fallback_final_loss - sum(final)) < 1e-9,
        `${review.fallback_final_loss} chances, seed ${options.seed}`);
      assert.ok(final.every((d) => d.loss >= 0 && d.loss <= 1 && d.class === null));
      assert.equal(review.rating, null);
      console.log(`game.test: decisions in the final round: ${final.length}, in game ${tries} (seed ${options.seed})`);
      return;
    }
  });

  test('a game with a table has no fallback_final_loss', () => {
    const options = { players: 2, humans: [0], seed: gameSeed() };
    const review = playThrough(options).events.find((e) => e.event === 'review');
    assert.equal(review.fallback_final_loss, 0);
    assert.equal(review.fallback_loss, 0);
    assert.ok(review.decisions.every((d) => d.values === 'win'));
  });
});

describe('moves', () => {
  test('refused moves change nothing; dice can be given; advice is the hint', () => {
    const game = md.newGame({ players: 2, humans: [0, 1], seed: '12345' });
    assert.equal(game.seed, '12345');
    const before = game.state;
    assert.equal(before.phase, 'roll');
    assert.throws(() => game.take('ray'), MartianDiceError);
    assert.throws(() => game.stop(), /waits for roll|stop/);
    assert.throws(() => game.roll('1R 1H'), /roll: .* not the 13 left/);
    assert.deepEqual(game.state, before);
    const events = game.roll('3T 2R 4H 1C 3K');
    assert.deepEqual(events.map((e) => e.event), ['turn', 'roll', 'prompt']);
    assert.equal(game.state.aside, '3T');
    assert.deepEqual(game.state.legal, ['ray', 'human', 'cow', 'chicken']);
    assert.throws(() => game.take('tank'), /tanks are set aside/);
    assert.throws(() => game.take('3H'), /shows 4 humans, not 3/);
    const hint = game.advice();
    assert.equal(hint.event, 'hint');
    assert.equal(hint.decision, 'take');
    assert.equal(hint.options.length, 4);
    assert.ok(hint.options.every((o) => o.value <= hint.value + 1e-12));
    game.take('H');
    assert.equal(game.state.phase, 'stop_or_roll');
    assert.equal(game.state.turn_score, 0); // 3 tanks, no rays
    assert.throws(() => game.take('cow'), MartianDiceError);
    game.stop();
    assert.deepEqual(game.state.scores, [0, 0]);
    assert.equal(game.state.seat, 1);
    assert.equal(game.log, 'scores 0,0 seat 0\nroll 3T 2R 4H 1C 3K take H\nstop\n');
    assert.throws(() => game.botStep(), /human/);
    game.free();
    assert.throws(() => game.state && game.advice(), /no game/);
  });

  test('bad options name the option', () => {
    assert.throws(() => md.newGame({ players: 2, humans: [2] }), /humans: seat 2 is out of range/);
    assert.throws(() => md.newGame({ players: 7 }), MartianDiceError);
    assert.throws(() => md.newGame({ bots: 'nonsense' }), /bots: /);
    assert.throws(() => md.newGame({ seed: -1 }), /seed: /);
    // Refused, never wrapped, cut or read as something else.
    assert.throws(() => md.newGame({ target: 2 ** 32 + 25 }), /target: expected an integer/);
    assert.throws(() => md.newGame({ players: 2 ** 32 + 2 }), /players: expected an integer/);
    assert.throws(() => md.newGame({ player: 3 }), /player: not an option of a game/);
    // A string is shown quoted: "false" is not false, nor "13" 13.
    assert.throws(() => md.newGame({ hints: 'false' }), /^MartianDiceError: hints: expected true or false, got "false"$/);
    assert.throws(() => md.newGame({ dice: '13' }), { input: 'dice', message: 'dice: expected an integer, got "13"' });
    assert.throws(() => md.newGame({ dice: 13n }), { message: 'dice: expected an integer, got 13n' });
    // A Number past 2^53 may not be the seed meant: a string or a BigInt is.
    assert.throws(() => md.newGame({ seed: 2 ** 60 }), { input: 'seed', message: /is past 2\^53.*a string or a BigInt/ });
    assert.throws(() => md.newGame({ bots: [] }), { input: 'bots', message: /non-empty array/ });
    assert.throws(() => md.newGame(null), MartianDiceError);
    const game = md.newGame({ players: 2, humans: [0] });
    for (const dice of [12345, true, {}, NaN]) {
      assert.throws(() => game.roll(dice), /roll: expected dice notation/);
    }
    // The library's refusals of a roll or a take name their input.
    assert.throws(() => game.roll('3T'), { input: 'roll', message: 'roll: 3T shows 3 dice, not the 13 left to roll' });
    assert.throws(() => game.take('dragon'), { input: 'take', message: /^take: expected a face: ray, human, cow or chicken .*; got 'dragon'$/ });
    assert.throws(() => game.roll('3T 2R\0 4H 1C 3K'), /NUL/);
    assert.throws(() => game.roll('T'.repeat(2 ** 20 + 1)), /at most 1048576 are read/);
    assert.equal(game.state.phase, 'roll');  // nothing was rolled
    game.free();
  });

  test('the seed comes back exactly, past 2^53: the same game replays from it', () => {
    const big = '18446744073709551557';
    const first = md.newGame({ players: 2, humans: 'none', seed: big });
    assert.equal(first.seed, big);
    assert.equal(first.start.seed, big);  // the event's too: JSON gives it as text
    assert.equal(JSON.parse(JSON.stringify(first.events[0])).seed, big);
    first.playBots();
    const again = md.newGame({ players: 2, humans: 'none', seed: first.seed });
    again.playBots();
    assert.deepEqual(again.result, first.result);
    const bigint = md.newGame({ seed: 18446744073709551557n });
    assert.equal(bigint.seed, big);
    bigint.free();
    first.free();
    again.free();
  });

  test('the state is a copy: changing it changes nothing', () => {
    const game = md.newGame({ players: 2, humans: [0], seed: 3 });
    game.state.scores.push(99);
    assert.deepEqual(game.state.scores, [0, 0]);
    game.free();
  });

  // clearCaches and a table registered again or removed give later calls a new advisor;
  // a game keeps the one it started with. A game left with a freed advisor
  // spins forever at its next move: hence a process of its own, with a time limit.
  test('a game goes on after clearCaches, a table registered again and removed', () => {
    const pkg = new URL('../src/martiandice.js', import.meta.url).href;
    const script = `
      import assert from 'node:assert/strict';
      import { MartianDice, officialTableUrl } from ${JSON.stringify(pkg)};
      const md = await MartianDice.create({ tables: [officialTableUrl(2)] });
      const game = md.newGame({ players: 2, humans: [0], seed: 11, hints: true });
      game.roll('3T 2R 4H 1C 3K');
      game.take('H');
      md.clearCaches();
      game.rollOn();
      game.roll('1T 2R 1C 2K');  // the 6 dice left; the hint needs the advisor
      assert.equal(game.state.phase, 'take');
      assert.equal(game.advice().options.length, 3);
      await md.loadTable(officialTableUrl(2));  // the same table again: replaced
      game.take('K');
      assert.equal(game.state.phase, 'stop_or_roll');
      assert.equal(game.advice().decision, 'stop_or_roll');
      assert.equal(md.removeTable('/tables/martiandice-p2-d13-b3-t25.mdt'), true);
      assert.equal(game.advice().fallback, false);  // the game's advisor holds the table
      game.free();
      console.log('went on');`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script],
      { timeout: 60000, encoding: 'utf8' });
    assert.equal(out.trim(), 'went on');
  });
});
