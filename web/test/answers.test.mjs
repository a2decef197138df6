// The package's answers against the native command line's: the JSON text of
// `eval` and `best`, byte for byte (but for the table's path), on the
// rulebook's sample turn (one-shot `martiandice ... --json` runs) and on
// random positions of every objective (through `martiandice serve`, which
// writes the same objects): ev, reach:K, capped:M, final:M/K, each in double
// and exact precision and under varied rules, and win for 2 and 3 players
// with the shipped tables. Also the messages of bad inputs, and the package's own
// checks. Seeded: $MARTIANDICE_WEB_SEED (printed) picks the positions.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { MAX_TABLE_BYTES, MartianDice, MartianDiceError, officialTableUrl } from '../src/martiandice.js';
import { runCli, startServe, tableNamed } from './cli.mjs';
import { Positions } from './positions.mjs';

const seed = Number(process.env.MARTIANDICE_WEB_SEED ?? Date.now() % 1000000);
console.log(`answers.test: seed ${seed} (MARTIANDICE_WEB_SEED=${seed} repeats this run)`);
const positions = new Positions(seed);
const between = (lo, hi) => positions.between(lo, hi);
const randomPositions = (md, rules, count) => positions.turn(md, rules, count);
const randomContext = (md, players) => positions.context(md, players);

let md;
let serve;
before(async () => {
  md = await MartianDice.create({ tables: [officialTableUrl(2), officialTableUrl(3)] });
  serve = startServe();
});
after(() => serve.close());

// The package's and the CLI's JSON for one query, compared.
async function same(command, query, { oneShot = false } = {}) {
  const ours = tableNamed(command === 'eval' ? md.evalJson(query) : md.bestJson(query));
  const theirs = tableNamed(oneShot ? runCli(command, query) : await serve.ask(command, query));
  assert.equal(ours, theirs, `${command} ${JSON.stringify(query)}`);
  return JSON.parse(ours);
}

// Every position as `best` (and the position before the roll as `eval`).
async function sameOnPositions(positions, extra) {
  for (const { aside, roll } of positions) {
    await same('eval', { ...extra, aside });
    if (roll !== undefined) await same('best', { ...extra, aside, roll });
  }
}

describe('the rulebook sample turn, against one-shot CLI runs', () => {
  const turn = [
    { aside: '-', roll: '2T 3R 4H 3C 1K', take: 'human' },
    { aside: '2T 4H', roll: '1T 2R 3C 1K', take: 'ray' },
    { aside: '3T 2R 4H', roll: '2H 1C 1K', take: 'chicken' },
    { aside: '3T 2R 4H 1K', roll: '1R 1H 1C', take: 'ray' },
  ];
  const goals = [
    {},
    { exact: true },
    { objective: 'reach:8' },
    { objective: 'capped:6', exact: true },
    { objective: 'final:7/2', exact: true },
    { objective: 'win', scores: [18, 22] },
    { objective: 'win', scores: [25, 21], seat: 1 },
    { objective: 'win', scores: [10, 20, 5], seat: 2 },
  ];
  for (const goal of goals) {
    test(JSON.stringify(goal), async () => {
      for (const { aside, roll } of turn) {
        await same('eval', { ...goal, aside }, { oneShot: true });
        await same('best', { ...goal, aside, roll }, { oneShot: true });
      }
      await same('eval', { ...goal, aside: '3T 3R 4H 1K' }, { oneShot: true });
    });
  }
  test('the README\'s answers', () => {
    // The rulebook's takes are optimal (the third tied with the cow, the tie convention's pick).
    for (const { aside, roll, take } of turn) {
      const answer = md.best({ aside, roll });
      assert.ok(answer.options.some((o) => o.take === take && o.optimal), `${take} at ${aside}`);
    }
    assert.equal(md.best({ aside: '3T 2R 4H', roll: '2H 1C 1K' }).best.take, 'cow');
    const last = md.eval({ exact: true, aside: '3T 3R 4H 1K' });
    assert.equal(last.roll_exact, '281/54');
    assert.equal(last.action, 'roll');
    const win = md.best({ objective: 'win', scores: [18, 22], aside: '3T 2R 4H 1K', roll: '1R 1H 1C' });
    assert.deepEqual(win.best, { take: 'cow', count: 1, then: 'roll' });
    assert.equal(win.value.toFixed(6), '0.348276');
    assert.equal(win.table, '/tables/martiandice-p2-d13-b3-t25.mdt');
  });
});

describe('random positions, against martiandice serve', () => {
  const turnGoals = () => [
    { objective: 'ev' },
    { objective: `reach:${between(1, 16)}` },
    { objective: `capped:${between(1, 16)}` },
    { objective: 'ev', exact: true },
    { objective: `reach:${between(1, 16)}`, exact: true },
    { objective: `capped:${between(1, 16)}`, exact: true },
    { objective: `final:${between(1, 18)}/${between(1, 3)}` },
    { objective: `final:${between(1, 18)}/${between(1, 3)}`, exact: true },
  ];
  test('turn objectives, official rules', async () => {
    for (const goal of turnGoals()) await sameOnPositions(randomPositions(md, {}, 150), goal);
  });
  test('turn objectives, other rules', async () => {
    for (const goal of turnGoals()) {
      const rules = { dice: between(1, 13), bonus: between(0, 6), target: between(10, 40) };
      await sameOnPositions(randomPositions(md, rules, 40), { ...goal, ...rules });
    }
  });
  for (const players of [2, 3]) {
    test(`win, ${players} players`, async () => {
      for (let game = 0; game < 40; game++) {
        const context = randomContext(md, players);
        await sameOnPositions(randomPositions(md, {}, 8), { objective: 'win', ...context });
      }
    });
  }
});

describe('bad inputs', () => {
  const bad = [
    ['eval', { aside: '3X' }],
    ['eval', { aside: '14T' }],
    ['eval', { objective: 'reach:x' }],
    ['eval', { objective: 'bogus' }],
    ['eval', { objective: 'final:7' }],
    ['eval', { objective: 'final:7/0' }],
    ['eval', { dice: 0 }],
    ['eval', { exact: true, objective: 'win', scores: [1, 2] }],
    ['eval', { objective: 'win', scores: [30, 2] }],
    ['eval', { objective: 'win', scores: [1, 2], seat: 2 }],
    ['eval', { objective: 'win', scores: [1, 2], players: 3 }],
    ['eval', { objective: 'win' }],
    ['best', { aside: '3T', roll: '11H' }],
    ['best', { roll: '' }],
    ['best', { aside: '2T 4H', roll: '1T 2R 3C 1Q' }],
  ];
  for (const [command, query] of bad) {
    test(`${command} ${JSON.stringify(query)}: the library's message`, async () => {
      const theirs = JSON.parse(await serve.ask(command, query));
      assert.ok(theirs.error, `serve answered ${JSON.stringify(theirs)}`);
      assert.throws(() => md[command](query), (error) => {
        assert.ok(error instanceof MartianDiceError);
        assert.equal(error.message, theirs.error);
        return true;
      });
    });
  }
  test('the package\'s own checks', () => {
    const input = (query, name) => assert.throws(() => md.best(query), { input: name });
    input({ roll: '1R', asid: '-' }, 'asid');
    input({ roll: '1R', dice: 2.5 }, 'dice');
    input({ roll: '1R', exact: 'yes' }, 'exact');
    input({ roll: '1R', scores: [1, 'x'] }, 'scores');
    input({ aside: '-' }, 'roll');
    // Review's fields are eval's but the set-aside (its lines give every position).
    assert.throws(() => md.review('roll 1R take ray\n', { roll: '1R' }),
      { input: 'roll', message: 'roll: unknown field (fields: objective, exact, scores, seat, players, dice, bonus, target)' });
    // The library's refusals name their input too (the field their message starts with).
    assert.throws(() => md.newGame({ players: 1 }), { input: 'players', message: /^players: / });
    assert.throws(() => md.newGame({ seed: -1 }), { input: 'seed', message: /^seed: / });
    assert.throws(() => md.coach({ seat: 5 }), { input: 'seat', message: /^seat: / });
    assert.throws(() => md.coach({}).enter('take Q'), { input: 'entry', message: /^entry: / });
    const game = md.newGame({ seed: 1 });
    assert.throws(() => game.roll('Q'), { input: 'roll', message: /^roll: / });
    game.free();
    assert.throws(() => md.eval({ dice: 0 }), { input: null, message: /^invalid rules: / });
    // Names of Object.prototype are unknown fields too.
    input({ roll: '1R', toString: 'x' }, 'toString');
    assert.throws(() => md.eval({ constructor: 1 }), /constructor: unknown field/);
    // Fields from a prototype are not the query's.
    assert.equal(md.evalJson(Object.create({ aside: 'x' })), md.evalJson({}));
    assert.throws(() => md.eval({ roll: '1R' }), { input: 'roll' });
    assert.throws(() => md.addTable(new Uint8Array(10)), { code: 'DATA_LOSS' });
    // Judged before any copy into the module: not a table, or too large for it.
    assert.throws(() => md.addTable(new Uint8Array(1000)), /bad magic/);
    assert.equal(MAX_TABLE_BYTES, 512 * 2 ** 20);  // the limit the package states
    assert.throws(() => md.addTable(new ArrayBuffer(512 * 2 ** 20 + 1)),
      { code: 'RESOURCE_EXHAUSTED', message: /the module reads tables up to 536870912 bytes/ });
    // A text cut by a NUL is refused, never read up to it.
    assert.throws(() => md.eval({ aside: '3T 2R\0 junk' }), /NUL/);
  });
});

describe('tables', () => {
  test('registered from bytes or a URL, and listed', async () => {
    const fresh = await MartianDice.create();
    assert.deepEqual(fresh.tables, []);
    // No table yet: the fallback answers, saying why.
    const before = fresh.eval({ objective: 'win', scores: [0, 0] });
    assert.equal(before.fallback, true);
    assert.equal(before.values, 'capped:25');
    assert.match(before.fallback_reason, /^no policy table martiandice-p2-d13-b3-t25\.mdt/);
    assert.equal(before.win_probabilities, null);
    const info = await fresh.loadTable(officialTableUrl(2));
    assert.deepEqual(info, {
      table: '/tables/martiandice-p2-d13-b3-t25.mdt', players: 2,
      rules: { dice: 13, bonus: 3, target: 25 }, error_bound: info.error_bound, format_version: 3,
    });
    assert.ok(info.error_bound > 0 && info.error_bound < 1e-12);
    const first = fresh.eval({ objective: 'win', scores: [0, 0] });
    assert.equal(first.win_probabilities[0].toFixed(6), '0.484123');
    // The same table again, as bytes: replaced, not listed twice.
    const { readFile } = await import('node:fs/promises');
    fresh.addTable(await readFile(officialTableUrl(2)));
    assert.equal(fresh.tables.length, 1);
    // And from a file path, and a URL string.
    const { fileURLToPath } = await import('node:url');
    await fresh.loadTable(fileURLToPath(officialTableUrl(2)));
    await fresh.loadTable(String(officialTableUrl(2)));
    assert.equal(fresh.tables.length, 1);
    // A file that cannot be read: MartianDiceError, with the system's reason.
    await assert.rejects(fresh.loadTable('/nonexistent/table.mdt'),
      { name: 'MartianDiceError', code: 'NOT_FOUND', message: /^cannot read \/nonexistent\/table\.mdt: ENOENT/ });
    await assert.rejects(fresh.loadTable(new URL('file:///')), { name: 'MartianDiceError', code: 'INVALID_ARGUMENT' });
    await assert.rejects(fresh.loadTable('http://127.0.0.1:1/table.mdt'),
      { name: 'MartianDiceError', code: 'UNAVAILABLE', message: /^cannot fetch http:\/\/127\.0\.0\.1:1\/table\.mdt: / });
    assert.deepEqual(fresh.eval({ objective: 'win', scores: [0, 0] }), first);
    // Removed: unlisted, the file gone (the folder stays), win queries answered by the fallback.
    assert.equal(fresh.removeTable(info), true);
    assert.deepEqual(fresh.tables, []);
    const after = fresh.eval({ objective: 'win', scores: [0, 0] });
    assert.equal(after.fallback, true);
    assert.equal(after.win_probabilities, null);
    assert.equal(after.value, before.value);
    assert.match(after.fallback_reason, /; none registered: loadTable\(officialTableUrl\(2\)\) registers the package's$/);
    assert.equal(fresh.removeTable(info.table), false);
    assert.throws(() => fresh.removeTable(42), /expected a table's path/);
    // Registered again: answered from it again.
    fresh.addTable(await readFile(officialTableUrl(2)));
    assert.deepEqual(fresh.eval({ objective: 'win', scores: [0, 0] }), first);
  });
  test('create\'s options are checked', async () => {
    await assert.rejects(MartianDice.create(null), { name: 'MartianDiceError', message: /options must be an object/ });
    await assert.rejects(MartianDice.create({ table: [] }), { input: 'table', message: /unknown option/ });
    await assert.rejects(MartianDice.create({ tables: String(officialTableUrl(2)) }),
      { input: 'tables', message: /expected an array/ });
    await assert.rejects(MartianDice.create({ wasmUrl: '/no/such.wasm' }),
      { name: 'MartianDiceError', code: 'NOT_FOUND' });
    // Bytes that are no module: the package's error, the runtime's lines not printed.
    const printed = [];
    const { error: consoleError, log: consoleLog } = console;
    console.error = (...args) => printed.push(args.join(' '));
    console.log = console.error;
    try {
      await assert.rejects(MartianDice.create({ wasmBinary: new Uint8Array(10) }), {
        name: 'MartianDiceError', code: 'INVALID_ARGUMENT', input: 'wasmBinary',
        message: /^wasmBinary: not a martiandice WebAssembly module that loads \(.*CompileError/,
      });
    } finally {
      console.error = consoleError;
      console.log = consoleLog;
    }
    assert.deepEqual(printed, []);
  });
  test('a query is an object', () => {
    for (const query of [null, [], 'ev', 5]) {
      assert.throws(() => md.eval(query), { name: 'MartianDiceError', message: /^eval: the query must be an object, not / });
    }
  });
  test('the version', () => {
    assert.match(md.version, /^\d+\.\d+\.\d+$/);
  });
});
