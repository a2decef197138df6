// One fresh Node process of the benchmark: loads the package, runs the plan
// (argv[2], JSON), prints {init_ms, results} as JSON.
import { readFile } from 'node:fs/promises';

import { MartianDice } from '../src/martiandice.js';
import { runPlan } from './harness.mjs';

const plan = JSON.parse(await readFile(process.argv[2], 'utf8'));
const start = performance.now();
const md = await MartianDice.create();
const init = performance.now() - start;
const tables = new URL('../dist/tables/', import.meta.url);
const results = await runPlan(md, plan, async (file) => new Uint8Array(await readFile(new URL(file, tables))));
console.log(JSON.stringify({ init_ms: init, results }));
