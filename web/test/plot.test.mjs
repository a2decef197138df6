// The package's strategy pictures against `martiandice plot KIND --out FILE`:
// the same SVG bytes for the heat map (both seats), the stop chart and the
// score distribution at several positions; bad options refused with the
// library's message.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { MartianDice, MartianDiceError, officialTableUrl } from '../src/martiandice.js';
import { runPlot } from './cli.mjs';

let md;
before(async () => {
  md = await MartianDice.create({ tables: [officialTableUrl(2)] });
});

describe('plot', () => {
  const cases = [
    ['heatmap', {}, []],
    ['heatmap', { seat: 1 }, ['--seat', '1']],
    ['stop', {}, []],
    ['distribution', {}, []],
    ['distribution', { scores: [15, 20] }, ['--scores', '15,20']],
    ['distribution', { scores: '20,10', seat: 1 }, ['--scores', '20,10', '--seat', '1']],
  ];
  for (const [kind, options, args] of cases) {
    test(`${kind} ${JSON.stringify(options)} is the command line's file`, () => {
      const svg = md.plot(kind, options);
      assert.match(svg, /^<\?xml [^\n]*\n<svg /);
      assert.equal(svg, runPlot(kind, args));
    });
  }

  test('bad options are refused with the library message', () => {
    assert.throws(() => md.plot('pie'), /unknown picture 'pie'/);
    assert.throws(() => md.plot('stop', { scores: [1, 2] }),
      { input: 'scores', message: /^scores: applies to the distribution picture only/ });
    assert.throws(() => md.plot('stop', { seat: 1 }),
      { input: 'seat', message: 'seat: does not apply to the stop picture' });
    assert.throws(() => md.plot('distribution', { scores: [1, 2, 3] }),
      { input: 'scores', message: /give 2 totals, not 3/ });
    assert.throws(() => md.plot('heatmap', { seat: 2 }), MartianDiceError);
    assert.throws(() => md.plot('heatmap', { size: 2 }), /size: unknown field/);
  });

  test('without the 2-player table the picture names the missing table', async () => {
    const bare = await MartianDice.create();
    assert.throws(() => bare.plot('stop'), /plot draws pictures of the official 2-player game/);
  });
});
