// The package's table solve (MartianDice.solveTable: the module's mdw_solve)
// against the native command line's: the same bytes for 2 players at the
// official rules (the shipped table) and at a house target, and for 3 players
// at a small target (the module's extended precision is SoftX87, src/wide.h,
// where the CLI's is x87's long double); progress reported up to 1; the solved
// table answers win queries as the CLI does with the CLI's file; tables too
// large for a page refused with the reason; tableSize the bytes a solve writes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import {
  MartianDice, MartianDiceError, OFFICIAL_RULES, isOfficialRules, officialTableUrl,
} from '../src/martiandice.js';
import { cliPath, dataDir, runCli } from './cli.mjs';

const md = await MartianDice.create();
const folder = mkdtempSync(join(tmpdir(), 'martiandice-solve-'));
after(() => rmSync(folder, { recursive: true, force: true }));

// `martiandice solve --no-certify` of the same game: the file's bytes.
function cliTable(players, target) {
  const out = join(folder, `p${players}-t${target}.mdt`);
  execFileSync(cliPath, ['solve', '--players', String(players), '--target', String(target),
    '--no-certify', '--quiet', '--threads', '1', '--out', out]);
  return readFileSync(out);
}

function solve(game) {
  const progress = [];
  const started = performance.now();
  const solved = md.solveTable(game, { onProgress: (fraction) => progress.push(fraction) });
  const ms = performance.now() - started;
  console.log(`solve.test: ${JSON.stringify(game)}: ${solved.size} bytes in ${ms.toFixed(0)} ms ` +
    `(${solved.turn_solves} turn solves)`);
  assert.equal(solved.size, solved.bytes.length);
  assert.equal(md.tableSize(game).size, solved.size);
  assert.ok(progress.length > 0, 'progress reported');
  assert.ok(progress.every((f, i) => f >= (progress[i - 1] ?? 0)), 'progress never goes back');
  assert.equal(progress.at(-1), 1);
  return solved;
}

test('2 players at the official rules: the shipped table, byte for byte', () => {
  const solved = solve({ players: 2 });
  const shipped = readFileSync(join(dataDir, 'martiandice-p2-d13-b3-t25.mdt'));
  assert.ok(Buffer.from(solved.bytes).equals(shipped));
});

test('2 players at target 15 and 3 players at target 10: the CLI\'s bytes', () => {
  for (const [players, target] of [[2, 15], [3, 10]]) {
    const solved = solve({ players, target });
    assert.deepEqual(solved.rules, { dice: 13, bonus: 3, target });
    assert.equal(solved.players, players);
    assert.ok(Buffer.from(solved.bytes).equals(cliTable(players, target)),
      `${players} players, target ${target}`);
  }
});

test('the solved table answers win queries as the CLI does from its file', () => {
  const query = { objective: 'win', players: 3, target: 10, scores: '4,7,2', seat: 1, aside: '2T 3H' };
  const cli = JSON.parse(runCli('eval', { ...query, tables: join(folder, 'p3-t10.mdt') }));
  const mine = md.eval(query);
  assert.deepEqual(mine.win_probabilities, cli.win_probabilities);
  assert.equal(mine.action, cli.action);
  assert.equal(mine.value, cli.value);
});

test('tableSize: the shipped tables\' sizes, the limit a page solves, bad games refused', () => {
  for (const players of [2, 3]) {
    const file = readFileSync(join(dataDir, `martiandice-p${players}-d13-b3-t25.mdt`));
    assert.deepEqual(md.tableSize({ players }),
      { players, rules: { dice: 13, bonus: 3, target: 25 }, size: file.length, limit: 64 * 2 ** 20 });
  }
  // 3 players fit up to target 92; 4 players at the official target do not.
  assert.ok(md.tableSize({ players: 3, target: 92 }).size <= 64 * 2 ** 20);
  assert.ok(md.tableSize({ players: 3, target: 93 }).size > 64 * 2 ** 20);
  assert.ok(md.tableSize({ players: 4 }).size > 64 * 2 ** 20);
  assert.throws(() => md.tableSize({ players: 9 }), (error) => error instanceof MartianDiceError &&
    error.code === 'INVALID_ARGUMENT' && error.input === 'players');
  assert.throws(() => md.tableSize({ target: 0 }), (error) => error.code === 'INVALID_ARGUMENT');
  assert.throws(() => md.tableSize({ taget: 10 }), /taget: not a field of a game to solve/);
  assert.throws(() => md.tableSize(null), MartianDiceError);
});

test('OFFICIAL_RULES are the library\'s defaults, and name the shipped tables', () => {
  // The rules a game takes when it names none come from the wasm library.
  assert.deepEqual(md.tableSize({ players: 2 }).rules, OFFICIAL_RULES);
  assert.ok(Object.isFrozen(OFFICIAL_RULES));
  assert.ok(isOfficialRules({ dice: 13, bonus: 3, target: 25 }));
  for (const change of [{ dice: 12 }, { bonus: 4 }, { target: 15 }]) {
    assert.equal(isOfficialRules({ ...OFFICIAL_RULES, ...change }), false);
  }
  assert.equal(isOfficialRules({ dice: 13, bonus: 3 }), false);
  for (const notRules of [undefined, null, 13, 'official']) assert.equal(isOfficialRules(notRules), false);
  assert.match(officialTableUrl(3).href, /\/tables\/martiandice-p3-d13-b3-t25\.mdt$/);
});

test('a table too large for a page, and bad rules, are refused with the reason', () => {
  assert.throws(() => md.solveTable({ players: 4 }), (error) => error instanceof MartianDiceError &&
    error.code === 'RESOURCE_EXHAUSTED' &&
    /would take \d+ MiB; the page solves tables up to 64 MiB/.test(error.message));
  assert.throws(() => md.solveTable({ players: 2, target: 0 }), MartianDiceError);
  assert.throws(() => md.solveTable({ players: 9 }), MartianDiceError);
  assert.throws(() => md.solveTable({ players: 2, target: 'x' }), /target: expected an integer/);
  // Past 32 bits: refused, never wrapped to another target (2^32 + 10 is not 10).
  assert.throws(() => md.solveTable({ players: 2, target: 2 ** 32 + 10 }), /target: expected an integer/);
  assert.throws(() => md.solveTable({ players: 2 }, { onProgress: 5 }), /onProgress: expected a function/);
  assert.throws(() => md.solveTable({ taget: 10 }), /taget: not a field of a game to solve/);
  assert.throws(() => md.solveTable({ players: 2 }, { onProgres() {} }), { input: 'onProgres', message: /unknown option/ });
  assert.throws(() => officialTableUrl('2'), { input: 'players', message: /, not "2"$/ });
  // A game no table covers, as the package's user makes it: solveTable where the page can.
  const fallback = md.eval({ objective: 'win', scores: [0, 0, 0], dice: 6, target: 8 });
  assert.match(fallback.fallback_reason, /; none registered: .*\(`martiandice solve --players 3 --dice 6 --target 8 --out martiandice-p3-d6-b3-t8\.mdt` makes it\), or make it here with solveTable\(\{players: 3, dice: 6, target: 8\}\)$/);
  assert.throws(() => md.solveTable(null), MartianDiceError);
});

// A callback's exception stops the solve and comes out of solveTable, the
// module unharmed: the same solve then runs to its end (and repeatedly, no
// memory lost to an unwound solve: the module's heap stays put).
test('an exception thrown by onProgress stops the solve and is thrown', () => {
  const game = { players: 2, target: 8 };
  const thrown = new Error('stop here');
  let calls = 0;
  assert.throws(() => md.solveTable(game, { onProgress() { calls += 1; throw thrown; } }),
    (error) => error === thrown);
  assert.equal(calls, 1);
  for (let i = 0; i < 20; i++) {
    assert.throws(() => md.solveTable(game, { onProgress() { throw thrown; } }), (e) => e === thrown);
  }
  const solved = solve(game);
  assert.ok(solved.size > 0);
});

// A solve started from another's onProgress: the outer callback is called
// again once the inner solve ends (its hook put back), and both tables are
// the plain solves' bytes; a field given as undefined takes its default.
test('a solve inside another\'s onProgress leaves the outer one its callback', () => {
  let outerCalls = 0;
  let inner = null;
  let afterInner = 0;
  const outer = md.solveTable({ players: 2, target: 8, dice: undefined }, {
    onProgress() {
      outerCalls += 1;
      if (inner) afterInner += 1;
      if (!inner) inner = md.solveTable({ players: 2, target: 6 }, { onProgress() {} });
    },
  });
  assert.ok(inner && afterInner > 0, `the outer callback ran ${afterInner} times after the inner solve`);
  assert.deepEqual(outer.bytes, solve({ players: 2, target: 8 }).bytes);
  assert.deepEqual(inner.bytes, solve({ players: 2, target: 6 }).bytes);
  assert.ok(outerCalls > afterInner);
});

