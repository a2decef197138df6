// What the pages must show for an answer of the native command line (its
// --json), written here apart from the pages' own code (web/play/words.mjs).

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
