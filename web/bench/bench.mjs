// The web benchmark: the package in Node and in headless Chromium against the
// native build of the same code (native.cpp over web/wasm/binding.cpp) on the
// same plan of queries, and the download size of what a page needs. Prints
// its figures and the machine; it is not a test (nothing fails on a figure).
//
//   node web/bench/bench.mjs [--runs N] [--native PATH] [--no-browser] [--js-flags FLAGS]
//
// --js-flags FLAGS: V8 flags for Node and Chromium, to see what the engine's
// tiers do (--no-liftoff: optimized code from the first call; not what a page
// gets). (web/scripts/bench.sh builds what it needs, then runs it.) Each run is a
// fresh process or page; a step's figure is its best run's fastest pass over
// its queries (the least disturbed by other work on the machine), per query.
//
// Steps: the first query of a process or page (ev at the start of a turn:
// builds the turn model, then solves), turn solves of fresh objectives (the
// first ones of a process, and steady: after 184 other solves, once the engine's
// optimizing compiler has the code; then exact), warm `best` and `eval` (ev,
// solved turns), registering the shipped tables (every value checked), and
// for 2 and 3 players `best` at contexts not asked before (the mover's turn
// solved from the table, after 20 others) and warm `best` at them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { MartianDice, officialTableUrl } from '../src/martiandice.js';
import { Positions } from '../test/positions.mjs';
import { browserMissing, launchChromium, serveWeb } from '../test/browser.mjs';
import { planText } from './harness.mjs';

const web = fileURLToPath(new URL('../', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const runs = Number(option('--runs', 3));
const native = option('--native', `${repo}build-web-native/martiandice_web_bench`);
const withBrowser = !args.includes('--no-browser');
const jsFlags = option('--js-flags', '').split(' ').filter(Boolean);

// ---------------------------------------------------------------------------
// The plan, from a fixed seed.

async function makePlan() {
  const md = await MartianDice.create({ tables: [officialTableUrl(2), officialTableUrl(3)] });
  const positions = new Positions(20240613);
  const q = (command, query) => ({ command, ...query });
  const turn = positions.turn(md, {}, 200);
  const objectives = (name, from, to, extra = {}) =>
    Array.from({ length: to - from + 1 }, (_, k) => q('eval', { objective: `${name}:${from + k}`, ...extra }));
  const rolled = turn.filter((p) => p.roll);
  const plan = [
    { name: 'first query of a process or page (ev, turn start)', warmup: 0, repeat: 1, queries: [q('eval', {})] },
    {
      name: 'turn solve, fresh objective: the first 16 (reach:K)', warmup: 0, repeat: 1,
      queries: objectives('reach', 1, 16),
    },
    {
      // Steady: after 184 other solves, tens of milliseconds in the engine's
      // baseline code: its optimizing compiler works in the background and
      // needs that long to reach the solver.
      name: 'turn solve, fresh objective: steady (capped:M)', warmup: 0, repeat: 1,
      before: objectives('capped', 17, 200), queries: objectives('capped', 1, 16),
    },
    {
      name: 'turn solve, exact (ev, reach:10, capped:8)', warmup: 0, repeat: 1,
      before: [...objectives('reach', 3, 3, { exact: true }), ...objectives('capped', 12, 12, { exact: true })],
      queries: ['ev', 'reach:10', 'capped:8'].map((objective) => q('eval', { objective, exact: true })),
    },
    {
      name: 'warm best (ev)', warmup: 5, repeat: 20,
      queries: rolled.map(({ aside, roll }) => q('best', { aside, roll })),
    },
    { name: 'warm eval (ev)', warmup: 5, repeat: 20, queries: turn.map(({ aside }) => q('eval', { aside })) },
  ];
  for (const players of [2, 3]) {
    const file = `martiandice-p${players}-d13-b3-t25.mdt`;
    plan.push({ name: `register the ${players}-player table (${readFileSync(officialTableUrl(players)).length} bytes)`, table: file });
    const seen = new Set();
    const contexts = [];
    while (contexts.length < 50) {
      const context = positions.context(md, players);
      const key = JSON.stringify(context);
      if (!seen.has(key)) {
        seen.add(key);
        contexts.push(context);
      }
    }
    const at = (context, i) => q('best', { objective: 'win', ...context, ...rolled[i % rolled.length] });
    const timed = contexts.slice(20);
    plan.push({
      name: `win, first query at a context (${players} players: turn solve)`, warmup: 0, repeat: 1,
      before: contexts.slice(0, 20).map(at), queries: timed.map(at),
    });
    plan.push({
      name: `warm best (win, ${players} players)`, warmup: 5, repeat: 20,
      queries: timed.flatMap((c) => rolled.slice(0, 10).map((_, i) => at(c, i))),
    });
  }
  return plan;
}

// ---------------------------------------------------------------------------
// The three sides.

function runNative(planFile, tablesDir) {
  const out = execFileSync(native, [planFile, `${repo}data`], {
    encoding: 'utf8', env: { ...process.env, MARTIANDICE_WEB_TABLES: tablesDir },
  });
  return { results: out.trim().split('\n').map((line) => JSON.parse(line)) };
}

function runNode(planJson) {
  const child = spawnSync(process.execPath, [...jsFlags, `${web}bench/node-run.mjs`, planJson], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`node-run failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

async function runBrowser(browser, server) {
  const context = await browser.newContext();  // a fresh cache every run
  const page = await context.newPage();
  await page.goto(`${server.url}bench/page.html`);
  await page.waitForFunction(() => window.benchResults, null, { timeout: 300000 });
  const results = await page.evaluate(() => window.benchResults);
  await context.close();
  if (results.error) throw new Error(`page: ${results.error}`);
  return results;
}

// Per step: the best run's time per query.
function best(runResults) {
  const steps = runResults[0].results.map((r) => r.name);
  return steps.map((name, i) => {
    const perQuery = runResults.map((run) => run.results[i].ms / run.results[i].queries);
    return { name, queries: runResults[0].results[i].queries, ms: Math.min(...perQuery) };
  });
}

function time(ms) {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

function command(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return 'not found';
  }
}

// ---------------------------------------------------------------------------

const plan = await makePlan();
const tmp = mkdtempSync(join(os.tmpdir(), 'martiandice-web-bench-'));
const planJson = join(tmp, 'plan.json');
const planTxt = join(tmp, 'plan.txt');
writeFileSync(planJson, JSON.stringify(plan));
writeFileSync(planTxt, planText(plan));
const load = [os.loadavg()[0]];

const sides = [];
const nativeRuns = [];
for (let r = 0; r < runs; r++) nativeRuns.push(runNative(planTxt, join(tmp, `tables-${r}`)));
sides.push({ name: 'native', figures: best(nativeRuns) });
const nodeRuns = [];
for (let r = 0; r < runs; r++) nodeRuns.push(runNode(planJson));
sides.push({ name: `node ${process.version}`, figures: best(nodeRuns), init: Math.min(...nodeRuns.map((x) => x.init_ms)) });

let chromiumVersion = 'not run';
const missing = withBrowser ? await browserMissing() : '--no-browser';
if (!missing) {
  const server = await serveWeb({ '/plan.json': JSON.stringify(plan) });
  const browser = await launchChromium(jsFlags.length > 0 ? [`--js-flags=${jsFlags.join(' ')}`] : []);
  chromiumVersion = browser.version();
  const pageRuns = [];
  for (let r = 0; r < runs; r++) pageRuns.push(await runBrowser(browser, server));
  await browser.close();
  await server.close();
  sides.push({
    name: `chromium ${chromiumVersion}`, figures: best(pageRuns),
    init: Math.min(...pageRuns.map((x) => x.init_ms)),
    firstAnswerAt: Math.min(...pageRuns.map((x) => x.first_answer_at_ms)),
    isolated: pageRuns.every((x) => x.isolated),
  });
}
rmSync(tmp, { recursive: true, force: true });
load.push(os.loadavg()[0]);

// ---------------------------------------------------------------------------
// Report.

console.log(`martiandice web benchmark: ${runs} runs per side, the best run's time per query; ` +
  'ratios against native.');
const width = Math.max(...plan.map((s) => s.name.length)) + 2;
console.log(`\n${'step'.padEnd(width)}${'queries'.padStart(8)}  ${sides.map((s) => s.name.split(' ')[0].padStart(20)).join('')}`);
sides[0].figures.forEach((figure, i) => {
  const cells = sides.map((side, s) => {
    const ms = side.figures[i].ms;
    const cell = s === 0 ? time(ms) : `${time(ms)} (${(ms / figure.ms).toFixed(1)}×)`;
    return cell.padStart(20);
  });
  console.log(`${figure.name.padEnd(width)}${String(figure.queries).padStart(8)}  ${cells.join('')}`);
});
for (const side of sides.slice(1)) {
  let line = `${side.name}: module load and instantiation ${time(side.init)}`;
  if (side.firstAnswerAt !== undefined) {
    line += `; first answer ${time(side.firstAnswerAt)} after navigation (localhost, empty cache); ` +
      `timer ${side.isolated ? '5 µs (cross-origin isolated)' : '100 µs'}`;
  }
  console.log(line);
}

// What the page downloads: the module, its loader, every file of the package
// (src/) and of the page (play/), and the shipped tables.
const inFolder = (folder, pattern) =>
  readdirSync(join(web, folder)).filter((f) => pattern.test(f)).sort().map((f) => `${folder}/${f}`);
const files = [
  ['module (dist/martiandice-wasm.wasm)', 'dist/martiandice-wasm.wasm'],
  ['loader (dist/martiandice-wasm.mjs)', 'dist/martiandice-wasm.mjs'],
  ...inFolder('src', /\.js$/).map((f) => [`package (${f})`, f]),
  [`page (play/: ${inFolder('play', /./).length} files)`, inFolder('play', /./)],
  ['2-player table', 'dist/tables/martiandice-p2-d13-b3-t25.mdt'],
  ['3-player table', 'dist/tables/martiandice-p3-d13-b3-t25.mdt'],
];
console.log('\nDownload size (gzip -9):');
let raw = 0;
let packed = 0;
for (const [label, file] of files) {
  const bytes = Buffer.concat([file].flat().map((f) => readFileSync(join(web, f))));
  const gz = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  packed += gz;
  console.log(`  ${label.padEnd(38)}${String(bytes.length).padStart(9)} B  ${String(gz).padStart(9)} B gzipped`);
}
console.log(`  ${'total'.padEnd(38)}${String(raw).padStart(9)} B  ${String(packed).padStart(9)} B gzipped ` +
  `(${(packed / 1e6).toFixed(3)} MB; goal 1.5 MB)`);

const cpus = os.cpus();
console.log('\nMachine:');
console.log(`  ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
  `${os.type()} ${os.release()} ${os.arch()}`);
console.log(`  load average (1 min) ${load[0].toFixed(2)} before, ${load[1].toFixed(2)} after`);
console.log(`  native: ${command('c++', ['--version'])}, -O3 (CMake Release)`);
console.log(`  wasm: ${command('emcc', ['--version'])}, -O3; node ${process.version}; chromium ${chromiumVersion}`);
if (jsFlags.length > 0) console.log(`  V8 flags (Node and Chromium): ${jsFlags.join(' ')}`);
if (missing) console.log(`  browser not run: ${missing}`);
