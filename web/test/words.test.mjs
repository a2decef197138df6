// The page's words for numbers (web/play/words.mjs) against the command
// line's rules (app/answers.h), as the test helpers write them
// (expected.mjs), and on the examples the rules give; the units of the
// advice's values (chances, or the fallback's points before the final
// round), and a review without a table keeping them apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  fallbackSummary, finalRoundWords, formatValue, isChance, noChanceWords, percentText,
} from '../play/words.mjs';
import { percent } from './expected.mjs';

test('a chance in percent: two decimals, small ones and near-certain ones to their digits', () => {
  const cases = [
    [0.3483, 2, '34.83 %'],
    [0, 2, '0.00 %'],
    [1, 2, '100.00 %'],
    [0.000041, 2, '0.0041 %'],  // not "0.00 %"
    [-0.000041, 2, '-0.0041 %'],
    [0.0001, 2, '0.01 %'],
    [0.9999959, 2, '99.99959 %'],  // not "100.00 %"
    [1 - 1e-14, 2, '100.00 %'],  // within the tie tolerance of 1
    [0.0004, 1, '0.040 %'],
    [0.9996, 1, '99.960 %'],
    [0.259, 1, '25.9 %'],
  ];
  for (const [x, decimals, text] of cases) {
    assert.equal(percentText(x, decimals), text, `${x} to ${decimals} decimals`);
    assert.equal(percent(x, decimals), text, `the helper: ${x} to ${decimals} decimals`);
  }
  assert.equal(formatValue(0.000041, true), '0.0041 %');
  assert.equal(formatValue(null, true), '–');
  assert.equal(formatValue(12.3456, false), '12.346');
});

test('the page and the test helpers agree on chances across every order of magnitude', () => {
  // Values from 10^-12 to 1 and 1 - 10^-12 to 1, spread by a fixed sequence.
  let seed = 12345;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (let i = 0; i < 20000; ++i) {
    const small = next() * 10 ** -Math.floor(next() * 12);
    for (const x of [small, 1 - small]) {
      for (const decimals of [1, 2]) assert.equal(percentText(x, decimals), percent(x, decimals), `${x}, ${decimals}`);
    }
  }
});

test('values are chances for win, reach:K and the fallback\'s final round; points for ev and capped:M', () => {
  for (const values of ['win', 'reach:10', 'final:12/1', 'final:3/2']) assert.equal(isChance(values), true, values);
  for (const values of ['ev', 'capped:15', 'capped', 'winner', undefined]) assert.equal(isChance(values), false, values);
  assert.equal(finalRoundWords('final:12/1'),
    'the chance to pass the leader (scoring at least 12; a tie at 11 with the leader counts its share)');
  assert.equal(finalRoundWords('final:5/2'),
    'the chance to pass the leader (scoring at least 5; a tie at 4 with the 2 leaders counts its share)');
  assert.equal(finalRoundWords('capped:15'), null);
  // A value of 0 is a certain loss in the final round, with a table or the fallback's; never in points.
  const lost = ' No move can win the game from here.';
  assert.equal(noChanceWords({ fallback: false, values: 'win', value: 0 }), lost);
  assert.equal(noChanceWords({ fallback: true, values: 'final:16/1', value: 0 }), lost);
  assert.equal(noChanceWords({ fallback: true, values: 'final:16/1', value: 0.01 }), '');
  assert.equal(noChanceWords({ fallback: true, values: 'capped:16', value: 0 }), '');
});

test('a review without a table gives its points and its final round\'s chances apart, never added', () => {
  const decision = (values, loss) => ({ values, loss, optimal: loss === 0 });
  const review = (decisions, totalLoss, finalLoss) => ({
    decisions, total_loss: 0, fallback_loss: totalLoss, fallback_final_loss: finalLoss, rating: null,
  });
  assert.equal(fallbackSummary(review([decision('capped:15', 0), decision('capped:9', 1.25)], 1.25, 0)),
    'You played 1 of 2 decisions as the fallback advises; the others gave away 1.25 pts of its expected points, summed.');
  assert.equal(fallbackSummary(review(
    [decision('capped:15', 0.5), decision('final:7/1', 0.125), decision('final:7/1', 0.0625)], 0.5, 0.1875)),
  'You played 0 of 3 decisions as the fallback advises; they gave away 0.50 pts of its expected points, and ' +
    '18.75 percentage points of its chance to pass the leader in the final round, summed.');
  // Only chances lost: no points said; nothing lost: 0 points.
  assert.equal(fallbackSummary(review([decision('capped:15', 0), decision('final:3/2', 0.00004)], 0, 0.00004)),
    'You played 1 of 2 decisions as the fallback advises; the others gave away 0.0040 percentage points of ' +
    'its chance to pass the leader in the final round, summed.');
  assert.equal(fallbackSummary(review([decision('final:3/2', 0)], 0, 0)),
    'You played 1 of 1 decision as the fallback advises; the others gave away 0.00 pts of its expected points, summed.');
});
