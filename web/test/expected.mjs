// What the pages must show for an answer of the native command line (its
// --json), written here apart from the pages' own code (web/play/words.mjs).

/**
 * A chance `x` in percent, as the command line writes it (app/answers.h's
 * Percent), with `decimals` decimals: a value below the last decimal but not
 * 0 to 2 significant digits, one short of 100 % by less than the last decimal
 * (but more than 10^-10 %) to the first 2 digits of what it lacks; '–' for null.
 */
export function percent(x, decimals = 2) {
  if (x === null) return '–';
  const p = 100 * x;
  // The exponent of a value's first significant digit: -3 for 0.0041.
  const exponent = (v) => Number(Math.abs(v).toExponential(1).split('e')[1]);
  if (p !== 0 && exponent(p) < -decimals) return `${p.toFixed(1 - exponent(p))} %`;
  const lack = 100 - p;
  if (lack > 1e-10 && exponent(lack) < -decimals) return `${p.toFixed(Math.min(17, 1 - exponent(lack)))} %`;
  return `${p.toFixed(decimals)} %`;
}

/** What to do after a take, in words: "stop", "roll on", or a tie's "stop or roll on". */
export const thenWords = (then) => ({ stop: 'stop', roll: 'roll on', either: 'stop or roll on' })[then];

/**
 * The rows of a stop-or-roll answer `a` ({stop, roll, value, action}), each
 * value through `format`: the action's row "(best)"; a tie (action "either",
 * equal within the table's tolerance): the row holding the value "(best)",
 * the other "(as good)".
 */
export function choiceRows(a, format) {
  const rows = [['stop', a.stop], ['roll on', a.roll]];
  const best = { stop: 0, roll: 1 }[a.action] ?? rows.findIndex(([, x]) => x === a.value);
  return rows.map(([label, x], i) =>
    [label + (i === best ? ' (best)' : a.action === 'either' ? ' (as good)' : ''), format(x)]);
}
