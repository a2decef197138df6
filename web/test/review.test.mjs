// The package's review of played turns (md.review, web/wasm/review.cpp)
// against `martiandice review --json -` on the same lines and options: the
// rulebook's sample turn for turn objectives (double and exact), the logs of
// seeded bot games for the win goal (2 and 3 players), and bad lines, whose
// messages must be the command line's.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { MartianDice, MartianDiceError, officialTableUrl } from '../src/martiandice.js';
import { runPlay, runReview, tableNamed } from './cli.mjs';

const SAMPLE_TURN = 'roll 2T 3R 4H 3C 1K take H\nroll 1T 2R 3C 1K take R\nroll 2H 1C 1K take K\n' +
  'roll 1R 1H 1C take R\nstop\n';

let md;
before(async () => {
  md = await MartianDice.create({ tables: [officialTableUrl(2), officialTableUrl(3)] });
});

// The package's answer and the command line's, with the table's folder left out.
function same(lines, options = {}) {
  const theirs = runReview(lines, options);
  assert.ok(theirs.out, `the command line reviews it: ${theirs.error}`);
  assert.equal(tableNamed(md.reviewJson(lines, options)), tableNamed(theirs.out));
  return JSON.parse(theirs.out);
}

// A seeded game of bots only: its log, in review's lines.
function botGameLog(players, seed) {
  const events = runPlay(['--players', String(players), '--humans', 'none', '--seed', String(seed)]);
  return `${events.find((e) => e.event === 'log').lines.join('\n')}\n`;
}

describe('review', () => {
  test('the rulebook\'s sample turn, for turn objectives, double and exact', () => {
    const exact = same(SAMPLE_TURN, { exact: true });
    assert.equal(exact.mistakes, 1);  // the final stop (README: lost 11/54)
    assert.equal(exact.total_loss_exact, '11/54');
    same(SAMPLE_TURN);
    same(SAMPLE_TURN, { objective: 'reach:10' });
    same(SAMPLE_TURN, { objective: 'capped:8', exact: true });
    same(SAMPLE_TURN.replaceAll('\n', '\n# a comment\n'), { dice: 13, bonus: 3 });
  });

  test('whole games, played to win (2 and 3 players)', () => {
    for (const [players, seed] of [[2, 11], [2, 12], [3, 13]]) {
      const answer = same(botGameLog(players, seed), { objective: 'win' });
      assert.equal(answer.mistakes, 0, 'optimal bots make no mistakes');
      assert.ok(answer.turns.length > players, 'a whole game');
    }
    same('scores 20,18 seat 1\nroll 2T 3R 4H 3C 1K take H\nstop\n', { objective: 'win' });
    same('roll 2T 3R 4H 3C 1K take H\nstop\n', { objective: 'win', scores: [20, 18], seat: 1 });
  });

  test('bad lines and options: the command line\'s messages', () => {
    for (const lines of ['roll 2T 3R 4H 3C 1K take X\n', 'stop\n', '', 'roll 2T 3R 4H 3C 1K take H\n',
      'dance\n', 'roll 9T 9R\n']) {
      const theirs = runReview(lines);
      assert.ok(theirs.error, `the command line refuses ${JSON.stringify(lines)}`);
      assert.throws(() => md.review(lines), (error) => {
        assert.ok(error instanceof MartianDiceError);
        assert.equal(error.message, theirs.error);
        return true;
      });
    }
    assert.throws(() => md.review(SAMPLE_TURN, { objective: 'nope' }), { input: 'objective' });
    assert.throws(() => md.review(SAMPLE_TURN, { aside: '1R' }), { input: 'aside' });
    assert.throws(() => md.review(42), MartianDiceError);
  });
});
