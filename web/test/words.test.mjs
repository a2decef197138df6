// The page's words for numbers (web/play/words.mjs) against the command
// line's rules (app/answers.h), as the test helpers write them
// (expected.mjs), and on the examples the rules give.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { formatValue, percentText } from '../play/words.mjs';
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
