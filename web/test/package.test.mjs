// The package as a user gets it: `npm pack` makes a tarball, which installs
// into a fresh project (no registry needed: the package has no dependencies)
// and answers from there, in an ES module and in TypeScript checked against
// the declarations (tsc from Debian's node-typescript, when installed).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { runCli, runPlay } from './cli.mjs';

const web = fileURLToPath(new URL('../', import.meta.url));
const tsc = ['/usr/bin/tsc', '/usr/share/nodejs/typescript/bin/tsc'].find((p) => existsSync(p));

let project;
before(() => {
  project = mkdtempSync(join(tmpdir(), 'martiandice-web-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', project],
    { cwd: web, encoding: 'utf8' }));
  const files = packed[0].files.map((f) => f.path).sort();
  for (const file of ['LICENSE', 'README.md', 'dist/martiandice-wasm.mjs',
    'dist/martiandice-wasm.wasm', 'dist/tables/martiandice-p2-d13-b3-t25.mdt',
    'dist/tables/martiandice-p3-d13-b3-t25.mdt', 'package.json', 'src/martiandice.d.ts',
    'src/coach.js', 'src/game.js', 'src/martiandice.js', 'src/wasm.js']) {
    assert.ok(files.includes(file), `the tarball holds ${file} (it holds ${files.join(', ')})`);
  }
  assert.equal(files.length, 12, `only the package's files: ${files.join(', ')}`);
  writeFileSync(join(project, 'package.json'), '{"name":"consumer","private":true,"type":"module"}\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(project, packed[0].filename)],
    { cwd: project, stdio: 'inherit' });
});
after(() => rmSync(project, { recursive: true, force: true }));

test('the installed package answers from an ES module', () => {
  writeFileSync(join(project, 'main.mjs'), `
import { MartianDice, officialTableUrl } from 'martiandice';
const md = await MartianDice.create({ tables: [officialTableUrl(2)] });
const answer = md.best({ objective: 'win', scores: [18, 22], aside: '3T 2R 4H 1K', roll: '1R 1H 1C' });
console.log(answer.best.take, answer.value.toFixed(6));
const game = md.newGame({ humans: 'none', seed: 7 });
game.playBots();
console.log(game.result.scores.join(','));
const coach = md.coach({ players: 2 });
coach.enter('roll 2T 3R 4H 3C 1K');
console.log(coach.advice.best.take);
`);
  const out = execFileSync('node', ['main.mjs'], { cwd: project, encoding: 'utf8' });
  const [first, scores, coached] = out.trim().split('\n');
  assert.equal(first, 'cow 0.348276');
  // The same seed's game as the command line plays it.
  const cli = runPlay(['--players', '2', '--humans', 'none', '--seed', '7']);
  assert.equal(scores, cli.find((e) => e.event === 'game_over').scores.join(','));
  // The coach's advice at the rulebook's first roll: best's take for the same position.
  const best = JSON.parse(runCli('best', { objective: 'win', scores: '0,0', roll: '2T 3R 4H 3C 1K' }));
  assert.equal(coached, best.best.take);
});

// The README's examples, as written, in one module of the installed package:
// each line followed by a "// VALUE" line must print as VALUE (util.inspect);
// the other lines must run without throwing.
test('the README\'s examples run as written', () => {
  const readme = readFileSync(join(web, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  assert.equal(blocks.length, 3, 'Use, A game, A coached game');
  const lines = ["import { inspect } from 'node:util';", 'let failures = 0;'];
  for (const block of blocks) {
    const source = block.split('\n');
    for (let i = 0; i < source.length; i++) {
      const expected = source[i + 1]?.match(/^\/\/ (.*)$/);
      if (expected && source[i].endsWith(';')) {
        lines.push(`{ const got = inspect(${source[i].slice(0, -1)}, { breakLength: Infinity });`,
          `  if (got !== ${JSON.stringify(expected[1])}) { failures++; console.log(${JSON.stringify(source[i])}, got); } }`);
        i += 1;
      } else {
        lines.push(source[i]);
      }
    }
  }
  lines.push("console.log(failures === 0 ? 'README ok' : `README: ${failures} wrong`);");
  writeFileSync(join(project, 'readme.mjs'), `${lines.join('\n')}\n`);
  const out = execFileSync('node', ['readme.mjs'], { cwd: project, encoding: 'utf8' });
  assert.equal(out.trim(), 'README ok');
});

test('TypeScript: the declarations check a consumer', { skip: !tsc && 'tsc not installed (Debian node-typescript)' }, () => {
  writeFileSync(join(project, 'main.ts'), `
import { MartianDice, MartianDiceError, officialTableUrl, BestAnswer, EvalAnswer, Game, GameAdvice, Coach, CoachAnswer, ReviewAnswer } from 'martiandice';
export async function main(): Promise<string> {
  const md: MartianDice = await MartianDice.create({ tables: [officialTableUrl(3)] });
  const e: EvalAnswer = md.eval({ objective: 'capped:6', exact: true, aside: '3T 3R 4H 1K' });
  const b: BestAnswer = md.best({ objective: 'win', scores: [1, 2, 3], roll: '2T 3R 4H 3C 1K' });
  const exact: string | null | undefined = e.value_exact;
  const win: number[] | null | undefined = b.win_probabilities;
  const fallback: boolean | undefined = b.fallback;
  const values: string | undefined = b.values;
  try { md.eval({ aside: 'Z' }); } catch (error) {
    if (error instanceof MartianDiceError) return error.input ?? error.code;
  }
  const game: Game = md.newGame({ players: 3, humans: [0], bots: 'win', seed: 5n });
  game.playBots();
  game.roll();
  const advice: GameAdvice = game.advice();
  const take: string | undefined = advice.best?.take;
  const coach: Coach = md.coach({ players: 3, scores: [3, 5, 0], seat: 1 });
  const help = coach.enter('help');
  const entries: string = help.step === 'help' ? help.message : '';
  const answer = coach.enter('roll 2T 3R 4H 3C 1K');
  if (answer.step === 'help') return entries;
  const entered: CoachAnswer = answer;
  const chance: number[] | null | undefined = entered.advice?.win_probabilities;
  const log: string = coach.close().log;
  const reviewed: ReviewAnswer = md.review('roll 2T 3R 4H 3C 1K take H\\nstop\\n', { exact: true });
  const lost: string | undefined = reviewed.turns[0].decisions[0].loss_exact;
  const zero: number | null | undefined = advice.options?.[0].zero_chance;
  return [exact, win?.length, b.best?.take, b.options[0].aside_after, md.tables[0].players,
    take, game.state.phase, game.state.legal.join(' '), entered.state.dice_left, chance?.length,
    log, lost, zero, fallback, values].join();
}
`);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'es2022',
      moduleResolution: 'node', lib: ['es2022', 'dom'], types: [] },
    files: ['main.ts'],
  }));
  execFileSync(tsc, ['-p', 'tsconfig.json'], { cwd: project, stdio: 'inherit' });
});
