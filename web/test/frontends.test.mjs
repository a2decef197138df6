// The same 200 random queries through every front end, which must answer the
// same: the one-shot command line (`martiandice eval/best --json`), `martiandice
// serve`, the JavaScript package (byte for byte, but for the table's path) and
// the C API (tests/frontends/c_api_answers.c prints its result structs; every field
// equal to the JSON's, doubles compared exactly). Every objective: ev,
// reach:K, capped:M in double and exact precision (the C API has no exact
// precision: those queries skip it) under varied rules, and win for 2 and 3
// players with the shipped tables, for 4 by the fallback (each front end says
// in its own words where a table would come from: the reason's first words
// compared). Seeded: $MARTIANDICE_WEB_SEED (printed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { MartianDice, officialTableUrl } from '../src/martiandice.js';
import { cliPath, dataDir, runCli, startServe, tableNamed } from './cli.mjs';
import { Positions } from './positions.mjs';

const seed = Number(process.env.MARTIANDICE_WEB_SEED ?? Date.now() % 1000000);
console.log(`frontends.test: seed ${seed} (MARTIANDICE_WEB_SEED=${seed} repeats this run)`);
const QUERIES = 200;
const cAnswers = process.env.MARTIANDICE_C_ANSWERS ?? join(dirname(cliPath), 'martiandice_c_answers');

let md;
let serve;
before(async () => {
  md = await MartianDice.create({ tables: [officialTableUrl(2), officialTableUrl(3)] });
  serve = startServe();
});
after(() => serve.close());

// 200 queries: {command, query}, a fifth of them win queries.
function randomQueries() {
  const positions = new Positions(seed);
  const queries = [];
  const add = (position, extra) => {
    const { aside, roll } = position;
    const command = roll !== undefined && positions.random() < 0.75 ? 'best' : 'eval';
    queries.push({ command, query: { ...extra, aside, ...(command === 'best' ? { roll } : {}) } });
  };
  while (queries.length < QUERIES) {
    const kind = positions.between(0, 4);
    if (kind === 4) {
      const players = positions.between(2, 4);  // 4: no table, the fallback
      const { scores, seat } = positions.context(md, players);
      const [position] = positions.turn(md, {}, positions.between(1, 4)).slice(-1);
      add(position, { objective: 'win', scores, seat });
      continue;
    }
    const rules = { dice: positions.between(3, 13), bonus: positions.between(0, 5) };
    const objective = ['ev', `reach:${positions.between(0, 20)}`,
      `capped:${positions.between(0, 20)}`, 'ev'][kind];
    const exact = positions.random() < 0.3;
    const [position] = positions.turn(md, rules, positions.between(1, 5)).slice(-1);
    add(position, { ...rules, objective, ...(exact ? { exact: true } : {}) });
  }
  return queries;
}

// `json` with the table's folder and the fallback's reason after its first
// clause left out (the table's name and game stay).
function comparable(json) {
  return tableNamed(json).replace(/("fallback_reason":"[^;"]*)[^"]*"/, '$1"');
}

// The C API's answers, one object per query: a single run of the tool.
function cApiAnswers(queries) {
  const field = (value) => (value === undefined || value === '' ? '-' : String(value));
  const lines = queries.map(({ command, query: q }) => [command, q.objective ?? 'ev', field(q.aside),
    field(q.roll), q.dice ?? 13, q.bonus ?? 3, q.target ?? 25, q.seat ?? 0,
    q.scores ? q.scores.join(',') : '-'].join('\t'));
  const out = execFileSync(cAnswers, [dataDir], { input: `${lines.join('\n')}\n`, encoding: 'utf8' });
  return out.trimEnd().split('\n').map((line) => JSON.parse(line));
}

// A stop or roll value of the JSON (null when not allowed) against the C API's.
function sameOptional(json, allowed, value, what) {
  if (json === null) {
    assert.equal(allowed, 0, `${what}: the JSON has none`);
  } else {
    assert.equal(allowed, 1, `${what}: the C API has none`);
    assert.equal(value, json, what);
  }
}

function sameWin(json, c, what) {
  assert.equal(c.fallback, json.fallback ? json.values : undefined, `${what}: fallback`);
  if (json.win_probabilities === undefined || json.win_probabilities === null) {
    assert.equal(c.players, 0, `${what}: players`);
  } else {
    assert.deepEqual(c.win, json.win_probabilities, `${what}: win probabilities`);
  }
}

function sameEval(json, c, what) {
  assert.equal(c.dice_left, json.dice_left, `${what}: dice_left`);
  sameOptional(json.stop, c.can_stop, c.stop, `${what}: stop`);
  sameOptional(json.roll, c.can_roll, c.roll, `${what}: roll`);
  assert.equal(c.value, json.value, `${what}: value`);
  assert.equal(c.action, json.action, `${what}: action`);
  sameWin(json, c, what);
}

function sameBest(json, c, what) {
  assert.equal(c.turn_over, json.turn_over ? 1 : 0, `${what}: turn_over`);
  if (json.turn_over) assert.equal(c.turn_over_score, json.turn_over_score, `${what}: score`);
  assert.equal(c.value, json.value, `${what}: value`);
  assert.equal(c.takes.length, json.options.length, `${what}: takes`);
  json.options.forEach((option, i) => {
    const take = c.takes[i];
    const at = `${what}: take ${i}`;
    for (const name of ['take', 'count', 'aside_after', 'value', 'then', 'stop']) {
      assert.equal(take[name], option[name], `${at}: ${name}`);
    }
    sameOptional(option.roll, take.can_roll, take.roll, `${at}: roll`);
    assert.equal(take.optimal, option.optimal ? 1 : 0, `${at}: optimal`);
  });
  if (json.best === null) {
    assert.equal(c.best, -1, `${what}: best`);
  } else {
    assert.equal(c.takes[c.best].take, json.best.take, `${what}: best`);
  }
  sameWin(json, c, what);
}

test('200 random queries: the CLI, serve, the package and the C API answer the same', async () => {
  const queries = randomQueries();
  const c = cApiAnswers(queries);
  assert.equal(c.length, queries.length);
  const objectives = new Set();
  for (const [i, { command, query }] of queries.entries()) {
    const what = `${command} ${JSON.stringify(query)}`;
    const ours = comparable(command === 'eval' ? md.evalJson(query) : md.bestJson(query));
    assert.equal(comparable(await serve.ask(command, query)), ours, `serve: ${what}`);
    assert.equal(comparable(runCli(command, query)), ours, `one-shot CLI: ${what}`);
    const fallback = JSON.parse(ours).fallback ? ' fallback' : '';
    objectives.add(`${query.objective.replace(/:.*/, '')}${query.exact ? ' exact' : ''}${fallback}`);
    if (query.exact) continue;
    assert.equal(c[i].error, undefined, `C API: ${what}: ${c[i].message}`);
    (command === 'eval' ? sameEval : sameBest)(JSON.parse(ours), c[i], `C API: ${what}`);
  }
  // Every objective was asked (the seed could not skip one).
  for (const kind of ['ev', 'ev exact', 'reach', 'reach exact', 'capped', 'capped exact', 'win',
    'win fallback']) {
    assert.ok(objectives.has(kind), `no ${kind} query among the ${QUERIES}`);
  }
});

test('the C API answer tool is built beside the CLI', () => {
  assert.ok(existsSync(cAnswers), `${cAnswers} (target martiandice_c_answers) is missing`);
});
