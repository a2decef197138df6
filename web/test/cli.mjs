// The native command line, for comparing the package's answers with it:
// one-shot `martiandice eval/best --json` runs, and a `martiandice serve`
// process for many queries. The binary: $MARTIANDICE_CLI, else the
// repository's build/bin/martiandice.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = process.env.MARTIANDICE_CLI ?? `${repo}build/bin/martiandice`;
export const dataDir = `${repo}data`;

if (!existsSync(cliPath)) {
  throw new Error(`no martiandice CLI at ${cliPath}: build it (cmake --build build) ` +
    'or set MARTIANDICE_CLI');
}

// The shipped tables, and no table solved on demand (the module's answers
// come from the tables the tests give it).
const env = { ...process.env, MARTIANDICE_DATA: dataDir, MARTIANDICE_CACHE: 'off' };

// The query's fields as the CLI's options.
function options(query) {
  const args = [];
  for (const [name, value] of Object.entries(query)) {
    if (name === 'exact') {
      if (value) args.push('--exact');
    } else {
      args.push(`--${name}`, Array.isArray(value) ? value.join(',') : String(value));
    }
  }
  return args;
}

/** `martiandice COMMAND --json OPTIONS`: its stdout. */
export function runCli(command, query) {
  return execFileSync(cliPath, [command, '--json', ...options(query)], { env, encoding: 'utf8' });
}

/**
 * A `martiandice serve` process (`args`: more of its options, as --tables-dir DIR):
 * `ask(command, query)` resolves to the response line without its id.
 */
export function startServe(args = []) {
  const child = spawn(cliPath, ['serve', ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let next = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /^\{"id":(\d+),?/.exec(line);
    if (!match) throw new Error(`serve: unexpected line ${line}`);
    const id = Number(match[1]);
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve(`{${line.slice(match[0].length)}\n`);
  });
  return {
    ask(command, query) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, command, ...query })}\n`);
      });
    },
    close() {
      child.stdin.end();
      return new Promise((resolve) => child.on('close', resolve));
    },
  };
}

/** A JSON answer with its "table" field reduced to the file's name (the CLI's path differs). */
export function tableNamed(json) {
  return json.replace(/"table":"[^"]*\/([^"/]+)"/, '"table":"$1"');
}

/**
 * `martiandice review --json OPTIONS -` on `lines`: {out} (its stdout), or
 * {error} (its error message, without the program's prefix) when it fails.
 */
export function runReview(lines, query = {}) {
  try {
    return { out: execFileSync(cliPath, ['review', '--json', ...options(query), '-'],
      { env, encoding: 'utf8', input: lines, stdio: ['pipe', 'pipe', 'pipe'] }) };
  } catch (failure) {
    return { error: String(failure.stderr).trim().replace(/^martiandice: error: /, '') };
  }
}

/**
 * `martiandice play --json --ask-forced ARGS` with `input` (a human's moves,
 * one a line): its events, parsed. --ask-forced: the module's games prompt for
 * every take, a take with one legal choice too, as the CLI does with it.
 */
export function runPlay(args, input = '') {
  const out = execFileSync(cliPath, ['play', '--json', '--ask-forced', ...args],
    { env, encoding: 'utf8', input });
  return out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}

/** The SVG file `martiandice plot KIND --out FILE ARGS` writes, as text. */
export function runPlot(kind, args = []) {
  const folder = mkdtempSync(join(tmpdir(), 'martiandice-plot-'));
  try {
    const file = join(folder, `${kind}.svg`);
    execFileSync(cliPath, ['plot', kind, '--out', file, ...args], { env });
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
