// What the page's play and coach modes (play.mjs: against the bots; coach.mjs: a real
// game) say alike: dice in words and as chips, and the advice's table (every
// option's value, the best marked, ties as ties).
export const FACE = { T: 'tank', R: 'ray', H: 'human', C: 'cow', K: 'chicken' };
export const LETTER = { tank: 'T', ray: 'R', human: 'H', cow: 'C', chicken: 'K' };
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const diceCount = (n) => plural(n, 'die').replace('dies', 'dice');
// What to do after a take: "stop", "roll on", or either ("stop or roll on", as good).
export const thenWords = (then) => ({ stop: 'stop', roll: 'roll on', either: 'stop or roll on' })[then];

export function groups(notation) {
  if (!notation || notation === '-') return [];
  return notation.split(' ').map((g) => ({ count: parseInt(g, 10), letter: g.slice(-1) }));
}
// Why a turn end scored nothing, where its event says the tanks won
// (`tanks_won`): " (3 tanks beat 1 ray)"; else "".
export function tanksWonWords(end) {
  if (!end.tanks_won) return '';
  const count = (letter) => groups(end.aside).find((g) => g.letter === letter)?.count ?? 0;
  return ` (${plural(count('T'), 'tank')} beat ${plural(count('R'), 'ray')})`;
}
export const diceWords = (notation) =>
  groups(notation).map((g) => plural(g.count, FACE[g.letter])).join(', ') || 'nothing';

// Dice as chips: the words, coloured by face; `except` letters left out
// (`data-dice` keeps the whole notation).
export function diceChips(element, notation, { except = '' } = {}) {
  element.replaceChildren();
  const list = groups(notation).filter((g) => !except.includes(g.letter));
  if (list.length === 0) element.textContent = '–';
  for (const g of list) {
    const chip = document.createElement('span');
    chip.className = `chip face-${g.letter}`;
    chip.textContent = plural(g.count, FACE[g.letter]);
    element.append(chip, ' ');
  }
  element.dataset.dice = notation ?? '-';
}

// A chance in percent with `decimals` decimals ("34.83 %"), as the command
// line writes it (app/answers.h's Percent): under the last decimal (not 0),
// 2 significant digits, written out ("0.0041 %", not "0.00 %"); short of
// 100 % by less than the last decimal (and by more than the tie tolerance,
// 10^-12), enough decimals to show what it lacks ("99.99959 %", not
// "100.00 %").
export function percentText(x, decimals = 2) {
  const p = 100 * x;
  const unit = 10 ** -decimals;
  // The decimals that show `v` to 2 significant digits (4 for 0.0041), written out, not as 4.1e-3.
  const twoDigits = (v) => 1 - Math.floor(Math.log10(Math.abs(Number(v.toPrecision(2)))));
  if (p !== 0 && Math.abs(Number(p.toPrecision(2))) < unit) return `${p.toFixed(twoDigits(p))} %`;
  const lack = 100 - p;
  if (lack > 1e-10 && Number(lack.toPrecision(2)) < unit) return `${p.toFixed(Math.min(17, twoDigits(lack)))} %`;
  return `${p.toFixed(decimals)} %`;
}

// Whether values (an advice's or a reviewed decision's `values`) are chances,
// shown in percent: "win", "reach:K" and the fallback's final round
// ("final:M/K"); else points ("ev", the fallback's "capped:M" before it).
export const isChance = (values) => /^(win$|reach:|final:)/.test(String(values));

// A value of the advice: a chance (percent), or the fallback's expected capped score.
export const formatValue = (x, percent) => (x === null || x === undefined ? '–'
  : percent ? percentText(x) : x.toFixed(3));

// A sum of chances in percentage points ("1.25 percentage points"), as the
// command line's review says it (app/answers.h's PercentagePoints).
export const percentagePoints = (x) => percentText(x).replace(/ %$/, ' percentage points');

// A review without a table (no rating, play's review event): the decisions
// played as the fallback advises, and what the others gave away: its points
// (capped:M, `fallback_loss`) and, apart, its final round's chances (final:M/K,
// `fallback_final_loss`), never added (other units). As the command line's
// review: the points unless only chances were lost.
export function fallbackSummary(review) {
  const n = review.decisions.length;
  const optimal = review.decisions.filter((d) => d.optimal).length;
  const chances = review.fallback_final_loss ?? 0;
  const parts = [];
  const points = review.fallback_loss ?? 0;
  if (points > 0 || chances === 0) parts.push(`${points.toFixed(2)} pts of its expected points`);
  if (chances > 0) parts.push(`${percentagePoints(chances)} of its chance to pass the leader in the final round`);
  return `You played ${optimal} of ${plural(n, 'decision')} as the fallback advises; ` +
    `${optimal === 0 ? 'they' : 'the others'} gave away ${parts.join(', and ')}, summed.`;
}

// Fills `table` (a thead and a tbody) with the advice's options: for a take
// every take then stop / then roll on, else stop against roll on; every
// optimal row marked, the advice's first "(best)" and the others "(as good)".
// Returns the line saying the best.
// " Rolling on scores 0 with chance 2.0 % after 5 rays, 25.9 % after 3 humans."
// for the takes that leave dice to roll ("" if none does).
function zeroChances(options) {
  const parts = options.filter((o) => o.zero_chance !== null && o.zero_chance !== undefined)
    .map((o) => `${percentText(o.zero_chance, 1)} after ${plural(o.count, o.take)}`);
  return parts.length > 0 ? ` Rolling on scores 0 with chance ${parts.join(', ')}.` : '';
}

// " No move can win the game from here." where the best chance to win, or
// the fallback's in the final round, is 0 (a final turn that cannot catch
// the leader), else "".
export const noChanceWords = (advice) =>
  (isChance(advice.values) && advice.value === 0 ? ' No move can win the game from here.' : '');

export function adviceTable(table, advice, value) {
  const head = table.tHead;
  const body = table.tBodies[0];
  body.replaceChildren();
  if (advice.decision === 'take') {
    head.innerHTML = '<tr><th scope="col">take</th><th scope="col">then stop</th>' +
      '<th scope="col">then roll on</th><th scope="col">value</th></tr>';
    for (const o of advice.options) {
      const row = body.insertRow();
      row.dataset.face = o.take;
      const isBest = o.take === advice.best.take;
      row.className = [o.optimal ? 'optimal' : '', isBest ? 'best' : ''].join(' ').trim();
      row.insertCell().textContent = `${plural(o.count, o.take)}${isBest ? ' (best)' : o.optimal ? ' (as good)' : ''}`;
      for (const x of [o.stop, o.roll, o.value]) row.insertCell().textContent = value(x);
    }
    const b = advice.best;
    return `Best: take ${plural(b.count, b.take)}, then ${thenWords(b.then)} (${value(advice.value)}).` +
      zeroChances(advice.options) + noChanceWords(advice);
  }
  head.innerHTML = '<tr><th scope="col">move</th><th scope="col">value</th></tr>';
  const rows = advice.decision === 'roll' ? [['roll', advice.roll]]
    : [['stop', advice.stop], ['roll on', advice.roll]];
  // The action's row is the best; a tie (equal within the table's tolerance):
  // the row holding the advice's value "(best)", the other "(as good)".
  const bestRow = advice.action === 'stop' ? 0 : advice.action === 'roll' ? 1
    : rows.findIndex(([, x]) => x === advice.value);
  rows.forEach(([label, x], i) => {
    const row = body.insertRow();
    row.dataset.move = label;
    const mark = i === bestRow || rows.length === 1 ? 'best' : advice.action === 'either' ? 'as good' : '';
    if (mark) row.className = mark === 'best' ? 'optimal best' : 'optimal';
    row.insertCell().textContent = label + (mark && rows.length > 1 ? ` (${mark})` : '');
    row.insertCell().textContent = value(x);
  });
  if (advice.decision === 'roll') return `The position is worth ${value(advice.value)}.${noChanceWords(advice)}`;
  return `Best: ${advice.action === 'either' ? 'stop or roll on, as good' : thenWords(advice.action)} (${value(advice.value)}).` +
    (advice.zero_chance !== null ? ` Rolling on ends the turn with 0 points with chance ${percentText(advice.zero_chance, 1)}.` : '') +
    noChanceWords(advice);
}

// The fallback's final-round values ("final:M/K") in words: "the chance to
// pass the leader (scoring at least M; a tie at M - 1 with the leader counts
// its share)"; null for other values.
export function finalRoundWords(values) {
  const final = /^final:(\d+)\/(\d+)$/.exec(values);
  if (!final) return null;
  const [m, k] = [Number(final[1]), Number(final[2])];
  return `the chance to pass the leader (scoring at least ${m}; a tie at ${m - 1} with the ` +
    `${k === 1 ? 'leader' : `${k} leaders`} counts its share)`;
}

// Fills the advice box `id` (with its parts `${id}-values`, `${id}-table` and
// `${id}-best`) for the mover at state `s`: what the values are (a chance to
// win, or the fallback's: `needed` says whose points it caps, and in the
// final round it plays for the chance to pass the leader), every option's
// row and the best. Returns the line saying the best.
export function adviceBox(id, advice, s, value, needed) {
  const box = document.getElementById(id);
  box.dataset.seat = String(s.seat);
  box.dataset.decision = advice.decision;
  const final = finalRoundWords(advice.values);
  document.getElementById(`${id}-values`).textContent = !advice.fallback
    ? 'Each option\'s chance to win the game, playing on perfectly.'
    : final ? `No table for ${s.scores.length} players: in the final round the fallback plays for ${final}: ` +
      `its values are chances (${advice.values}).`
      : `No table for ${s.scores.length} players: the fallback's values (expected score capped at ${needed}, ${advice.values}).`;
  const best = adviceTable(document.getElementById(`${id}-table`), advice, value);
  document.getElementById(`${id}-best`).textContent = best;
  box.hidden = false;
  return best;
}
