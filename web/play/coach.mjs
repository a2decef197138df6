// The page's coach mode: a game played at a real table, followed entry by
// entry. You enter what happened (the dice rolled, a take, stop or roll on,
// another player's whole turn, undo); the package's Coach (web/src/coach.js,
// serve's game sessions) applies it and answers the game's state and the
// advice at its decision, shown here. The entries are coach's lines ("roll
// 2T 3R 4H 3C 1K", "take human", "stop", "score 7", "undo"); no game rule
// here but the dice's sum, checked before sending for a clearer message.
// The game's entries are kept in this browser and replayed after a reload
// (saved.mjs).
import {
  FACE, LETTER, adviceBox, diceChips, diceCount, diceWords, formatValue, isChance, plural, tanksWonWords,
} from './words.mjs';
import { ownTables } from './own-table.mjs';
import { forgetGame, gameRecord, keptGame, replayMismatch } from './saved.mjs';

const $ = (id) => document.getElementById(id);
const LETTERS = ['T', 'R', 'H', 'C', 'K'];
const REASONS = {
  stop: 'stopped',
  no_legal_take: 'no legal take',
  no_dice_left: 'no dice left',
  entered: 'the whole turn entered',
};

let engine;
let busy = false;
let answer = null;  // the last answer: serve's open or enter object
let setBusy = () => {};
let record = null;  // the game's entries, kept in this browser as they are made (saved.mjs)
const seatName = (seat) => `Seat ${seat}`;

// ---------------------------------------------------------------------------
// The setup: players, every seat's total, the seat to move.

function renderSetup() {
  const players = Number($('coach-players').value);
  const totals = $('coach-totals');
  const kept = [...totals.querySelectorAll('input')].map((i) => i.value);
  totals.querySelectorAll('label').forEach((l) => l.remove());
  for (let seat = 0; seat < players; ++seat) {
    const label = document.createElement('label');
    label.append(`${seatName(seat)} `);
    const input = document.createElement('input');
    Object.assign(input, { type: 'number', min: 0, value: kept[seat] ?? '0', id: `coach-total-${seat}` });
    input.inputMode = 'numeric';
    label.append(input);
    totals.append(label);
  }
  const seat = $('coach-seat');
  const chosen = Math.min(Number(seat.value || 0), players - 1);
  seat.replaceChildren(...Array.from({ length: players }, (_, i) => new Option(seatName(i), String(i))));
  seat.value = String(chosen);
}

async function start(event) {
  event?.preventDefault();
  if (busy) return;
  const players = Number($('coach-players').value);
  const scores = [...$('coach-totals').querySelectorAll('input')].map((i) => i.value.trim());
  const bad = scores.findIndex((x) => !/^\d+$/.test(x));
  if (bad >= 0) {
    $('coach-status').textContent = `${seatName(bad)}'s score must be a whole number of points, 0 or more.`;
    $(`coach-total-${bad}`).focus();
    return;
  }
  const rules = { dice: Number($('coach-dice').value), bonus: Number($('coach-bonus').value),
    target: Number($('coach-target').value) };
  setBusy(true);
  try {
    $('coach-status').textContent = players === 3 ? 'Loading the 3-player table…' : 'Starting…';
    const options = { players, scores: scores.map(Number), seat: Number($('coach-seat').value), rules };
    const opened = await engine.call('coach.open', [options], { onProgress: solving(options) });
    record?.drop();
    record = gameRecord('coach', { version: engine.version, options, table: opened.answer.table }, takenOver);
    record.keep(opened.answer.state);
    begin(options, opened);
    $('coach-status').textContent = opened.answer.table
      ? 'Coaching: the advice is each option\'s chance to win, from the table.'
      : `Coaching without a table for ${players} players (${rulesWords(rules)}): the advice is the fallback's.`;
    setBusy(false);
    focusFirst();
  } catch (error) {
    $('coach-status').textContent = `Cannot start: ${error.message}`;
  } finally {
    setBusy(false);
  }
}

// A house-rules table may be solved first: its progress in the status line.
const solving = ({ players, rules }) => (fraction, seconds) => {
  $('coach-status').textContent = `Solving the exact table for ${players} players (${rulesWords(rules)}): ` +
    `${Math.floor(100 * fraction)} %, ${Math.floor(seconds)} s; this browser keeps it for the next games.`;
};

// Another tab keeps its coached game now (saved.mjs): this one's entries are not kept.
function takenOver() {
  $('coach-status').textContent = 'Another tab of this page now keeps its coached game in this browser: ' +
    'this game\'s entries are no longer kept for a reload.';
}

// The game of `options` shown from its opening (`opened`: coach.open's answer).
function begin(options, opened) {
  $('coach-scores-caption').textContent = `Scores (target ${options.rules.target})`;
  $('coach-entries').replaceChildren();
  $('coach-result').hidden = true;
  $('coach').hidden = false;
  $('coach-form').hidden = true;
  show(opened, 'The game starts.');
}

// The coached game in progress when the page was left (saved.mjs): opened
// again, its entries replayed and shown one by one, checked against the
// state kept after the last; else forgotten, the status saying why.
async function resume(kept) {
  setBusy(true);
  $('coach-status').textContent = 'Resuming your coached game…';
  try {
    const opened = await engine.call('coach.open', [kept.options], { onProgress: solving(kept.options) });
    const entries = [];
    let after = opened.answer.state;
    for (const line of kept.moves) {
      if (typeof line !== 'string') throw new Error('its record is damaged');
      entries.push(await engine.call('coach.enter', [line]));
      after = entries.at(-1).answer.state;
    }
    const why = replayMismatch(kept, { version: engine.version, table: opened.answer.table, state: after });
    if (why) throw new Error(why);
    record?.drop();
    record = gameRecord('coach', { version: engine.version, options: kept.options, table: opened.answer.table,
      moves: kept.moves }, takenOver);
    record.keep(after);
    begin(kept.options, opened);
    for (const next of entries) show(next, said(next.answer));
    $('coach-status').textContent = `Resumed your coached game (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} replayed).`;
    setBusy(false);
    focusFirst();
  } catch (error) {
    forgetGame('coach');
    $('coach-status').textContent = `Your unfinished coached game could not be resumed (${error.message}): ` +
      'start a new one.';
  } finally {
    setBusy(false);
  }
}

let own = null;  // the coach's own tables (ownTables), once the engine is ready
// "13 dice, bonus 3, target 25".
const rulesWords = (r) => `${diceCount(r.dice)}, bonus ${r.bonus}, target ${r.target}`;

// The player's own table file: registered in the engine (ownTable), the
// players and rules set to its.
async function ownTable() {
  if (!own || busy) return;
  const table = await own.use();
  if (!table) return;
  renderSetup();
  $('coach-status').textContent = `Your table for ${table.players} players (${rulesWords(table.rules)}) is ready: ` +
    `the advice gives every option's chance to win from it${table.kept ? ' (kept in this browser for the next visits)' : ''}.`;
}

// ---------------------------------------------------------------------------
// The game's state and advice.

function renderState(s) {
  const rows = $('coach-scores').tBodies[0];
  rows.replaceChildren();
  const over = s.phase === 'over';
  s.scores.forEach((score, seat) => {
    const row = rows.insertRow();
    const mover = !over && seat === s.seat;
    if (mover) row.className = 'mover';
    if (over && s.winners.includes(seat)) row.className = 'winner';
    row.insertCell().textContent = String(seat);
    row.insertCell().textContent = seatName(seat) + (mover ? ' (to move)' : '');
    row.insertCell().textContent = String(score);
  });
  $('coach-final-round').hidden = !s.final_round || over;
  diceChips($('coach-aside'), s.aside);
  diceChips($('coach-rolled'), s.roll ?? '-', { except: 'T' });  // its tanks are in the set-aside, as play's
  $('coach-turn-score').textContent = String(s.turn_score);
  $('coach-dice-left').textContent = String(s.dice_left);
  $('coach-turn-title').textContent = over ? 'Game over' : `${seatName(s.seat)} to move`;
  $('coach-facts').hidden = over;

  // The controls of the phase: takes; stop; the dice (a roll, or rolling on);
  // a whole turn at a turn's start.
  const takes = $('coach-takes');
  takes.replaceChildren();
  if (s.phase === 'take') {
    const counts = rollCounts(s.roll);
    for (const face of s.legal) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.face = face;
      button.className = `take face-${LETTER[face]}`;
      button.textContent = `Take ${plural(counts[LETTER[face]], face)}`;
      button.addEventListener('click', () => enter(`take ${face}`));
      takes.append(button);
    }
  }
  takes.hidden = s.phase !== 'take';
  $('coach-stop-box').hidden = s.phase !== 'stop_or_roll';
  $('coach-stop').textContent = `Stop (score ${plural(s.turn_score, 'point')})`;
  const rolling = s.phase === 'roll' || s.phase === 'stop_or_roll';
  $('dice-form').hidden = !rolling;
  $('dice-title').textContent = s.phase === 'stop_or_roll'
    ? `Or roll on: the ${diceCount(s.dice_left)} rolled` : `The ${diceCount(s.dice_left)} rolled`;
  for (const letter of LETTERS) $(`dice-${letter}`).max = String(s.dice_left);
  $('score-form').hidden = !(s.phase === 'roll' && s.aside === '-');
  $('coach-undo').disabled = s.undo === 0;
  document.body.dataset.coachPhase = s.phase;
  renderSum();
}

function renderAdvice(advice, s) {
  const box = $('advice');
  if (!advice) {
    box.hidden = true;
    return null;
  }
  // Chances with a table, and the fallback's in the final round; else the fallback's points.
  const percent = isChance(advice.values);
  $('advice-title').textContent = `Advice for ${seatName(s.seat)}`;
  return adviceBox('advice', advice, s, (x) => formatValue(x, percent), 'the points still needed');
}

function renderEnd(s, log) {
  const winners = s.winners;
  const text = winners.length === 1 ? `${seatName(winners[0])} wins.`
    : `${winners.map(seatName).join(' and ')} tie with ${s.scores[winners[0]]} and share the win.`;
  $('coach-result-text').textContent =
    `${text} Final scores: ${s.scores.map((x, i) => `${seatName(i)} ${x}`).join(', ')}.`;
  $('coach-result').hidden = false;
  $('coach-log-details').open = true;
  $('coach-log').textContent = log;
  return text;
}

// The dice of a roll (notation, "2T 3R ...") by face letter.
const rollCounts = (roll) => Object.fromEntries((roll ?? '').split(' ').map((g) => [g.slice(-1), parseInt(g, 10)]));

// What an entry did, in words (the answer before it, `answer`, shows the roll a take took from).
function said(entry) {
  const parts = [];
  const words = entry.entry.split(/\s+/);
  if (entry.step === 'undone') parts.push(`Undone: ${entry.entry}.`);
  else if (words[0] === 'roll' && words.length > 1) parts.push(`Rolled ${diceWords(words.slice(1).join(' '))}.`);
  else if (words[0] === 'take') {
    const count = rollCounts(answer?.state?.roll)[LETTER[words[1]]];
    parts.push(count ? `Took ${plural(count, words[1])}.` : `Took the ${words[1]}s.`);
  }
  else if (words[0] === 'score') parts.push(`A whole turn of ${plural(Number(words[1]), 'point')}.`);
  for (const end of entry.turn_ends ?? []) {
    parts.push(`${seatName(end.seat)}'s turn ends (${REASONS[end.reason] ?? end.reason}): ` +
      `${plural(end.score, 'point')}${tanksWonWords(end)}.`);
  }
  return parts.join(' ');
}

function show({ answer: next, log }, line) {
  answer = next;
  const s = answer.state;
  $('coach-error').textContent = '';
  renderState(s);
  $('coach-log').textContent = log;
  if (line) {
    const item = document.createElement('li');
    item.textContent = line;
    $('coach-entries').append(item);
    item.scrollIntoView?.({ block: 'nearest' });
  }
  if (s.phase === 'over') {
    $('advice').hidden = true;
    const result = renderEnd(s, log);
    $('coach-announce').textContent = `${line} Game over.`;
    $('coach-again').focus();
    return result;
  }
  $('coach-result').hidden = true;
  const best = renderAdvice(answer.advice, s);
  const prompt = s.phase === 'take' ? `Take: ${s.legal.join(', ')}.`
    : s.phase === 'stop_or_roll' ? 'Stop, or roll on and enter the dice.'
      : `${seatName(s.seat)} rolls ${diceCount(s.dice_left)}.`;
  // The best move is shown in the advice box: spoken here, not shown twice.
  const announce = $('coach-announce');
  announce.textContent = [line, prompt].filter(Boolean).join(' ');
  if (best) {
    const spoken = document.createElement('span');
    spoken.className = 'sr-only';
    spoken.textContent = ` ${best}`;
    announce.append(spoken);
  }
  return null;
}

// The first control of the phase gets the focus (once the controls are enabled),
// scrolled into view only where it is out of it (a phone, below the advice).
function focusFirst() {
  const s = answer?.state;
  if (!s || s.phase === 'over') return;
  const first = s.phase === 'take' ? $('coach-takes').querySelector('button')
    : s.phase === 'stop_or_roll' ? $('coach-stop') : $('dice-T');
  first?.focus({ preventScroll: true });
  first?.scrollIntoView?.({ block: 'nearest' });
}

// ---------------------------------------------------------------------------
// Entries.

function refuse(message) {
  $('coach-error').textContent = message;
}

async function enter(line) {
  if (busy || !answer) return false;
  setBusy(true);
  try {
    const next = await engine.call('coach.enter', [line]);
    record?.move(line, next.answer.state);  // kept when over too: an undo may follow
    show(next, said(next.answer));
    setBusy(false);
    focusFirst();
    return true;
  } catch (error) {
    setBusy(false);
    refuse(`Not entered: ${error.message.replace(/^entry: /, '')}`);
    return false;
  }
}

function diceCounts() {
  return LETTERS.map((letter) => $(`dice-${letter}`).value.trim());
}

function renderSum() {
  if (!answer) return;
  const counts = diceCounts().map(Number);
  const sum = counts.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  $('dice-sum').textContent = `${diceCount(sum)} of the ${diceCount(answer.state.dice_left)} rolled.`;
}

async function enterRoll(event) {
  event.preventDefault();
  const left = answer.state.dice_left;
  const counts = diceCounts();
  const bad = counts.findIndex((x) => !/^\d+$/.test(x));
  if (bad >= 0) {
    refuse(`Each face's count must be a whole number, 0 or more (${FACE[LETTERS[bad]]}s: "${counts[bad]}").`);
    $(`dice-${LETTERS[bad]}`).focus();
    return;
  }
  const sum = counts.reduce((a, b) => a + Number(b), 0);
  if (sum !== left) {
    refuse(`The dice must add up to the ${diceCount(left)} rolled: you entered ${diceCount(sum)}.`);
    $('dice-T').focus();
    return;
  }
  const notation = LETTERS.filter((_, i) => Number(counts[i]) > 0)
    .map((letter) => `${Number(counts[LETTERS.indexOf(letter)])}${letter}`).join(' ');
  if (await enter(`roll ${notation}`)) {
    for (const letter of LETTERS) $(`dice-${letter}`).value = '0';
    renderSum();
  }
}

async function enterScore(event) {
  event.preventDefault();
  const points = $('turn-points').value.trim();
  if (!/^\d+$/.test(points)) {
    refuse(`The turn's points must be a whole number, 0 or more (not "${points}").`);
    $('turn-points').focus();
    return;
  }
  if (await enter(`score ${Number(points)}`)) $('turn-points').value = '0';
}

// ---------------------------------------------------------------------------

function setMode(mode) {
  document.body.dataset.mode = mode;
  for (const radio of document.querySelectorAll('input[name="mode"]')) radio.checked = radio.value === mode;
}

// The mode in the address (?mode=coach), so that a reload comes back to it.
function keepMode(mode) {
  const address = new URL(location.href);
  if (mode === 'play') address.searchParams.delete('mode'); else address.searchParams.set('mode', mode);
  history.replaceState(history.state, '', address);
}

/** Wires the coach mode to `engine` (play.mjs's, ready). */
export function startCoach(theEngine) {
  engine = theEngine;
  own = ownTables(engine, {
    file: 'coach-table-file', status: 'coach-status', players: 'coach-players',
    rule: (name) => `coach-${name}`, more: 'coach-more-rules',
  }, (n) => `${n} (your table)`);
  own.add([]);  // labels the games given or kept so far (play mode's form came first)
  setBusy = (on) => {
    busy = on;
    document.body.dataset.coachBusy = String(on);
    for (const control of document.querySelectorAll('#coach-turn button, #coach-start')) control.disabled = on;
    if (!on && answer) $('coach-undo').disabled = answer.state.undo === 0;
  };
  $('coach-start').disabled = false;
  $('coach-status').textContent = 'Ready: choose the players, the scores so far and the seat to move.';
  const unfinished = keptGame('coach');
  if (unfinished) resume(unfinished);
}

// The mode switch and the setup work before the engine is ready.
renderSetup();
const asked = new URLSearchParams(location.search).get('mode');
setMode(['coach', 'strategy'].includes(asked) ? asked : 'play');
for (const radio of document.querySelectorAll('input[name="mode"]')) {
  radio.addEventListener('change', () => {
    setMode(radio.value);
    keepMode(radio.value);
  });
}
$('coach-players').addEventListener('change', renderSetup);
$('coach-table-file').addEventListener('change', ownTable);
$('coach-form').addEventListener('submit', start);
$('dice-form').addEventListener('submit', enterRoll);
$('dice-form').addEventListener('input', renderSum);
$('score-form').addEventListener('submit', enterScore);
$('coach-stop').addEventListener('click', () => enter('stop'));
$('coach-undo').addEventListener('click', () => enter('undo'));
// Back to the setup (the game stays shown until another starts).
function newGame() {
  $('coach-form').hidden = false;
  $('coach-status').textContent = 'Choose the players, the scores so far and the seat to move.';
  window.scrollTo(0, 0);
  $('coach-players').focus();
}
$('coach-again').addEventListener('click', newGame);
$('coach-new').addEventListener('click', newGame);
