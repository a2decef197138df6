// The page: a game of Martian Dice against the bots, you at seat 0. The game
// is the package's (web/src/game.js: the library's GameState, bots, advice,
// log and review), run in a Web Worker (worker.mjs) or, where module workers
// fail, on this thread; this file only shows its events and state and sends
// your moves. Page options in the URL: ?delay=MS between the bots' moves
// (default 450), ?worker=0 runs the engine on the page's thread.
import { startCoach } from './coach.mjs';
import { startStrategy } from './strategy.mjs';
import {
  LETTER, adviceBox, diceChips, diceCount, diceWords, formatValue, groups, plural,
} from './words.mjs';

const params = new URLSearchParams(location.search);
const delay = Number(params.get('delay') ?? 450);
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------
// The engine: a worker, else the page's thread.

async function workerEngine() {
  const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
  const pending = new Map();
  let next = 0;
  const ready = await new Promise((resolve, reject) => {
    worker.onerror = (event) => reject(new Error(event.message || 'the worker failed to load'));
    worker.onmessage = ({ data }) => {
      if (data.ready === true) resolve(data);
      else reject(new Error(data.error ?? 'the worker failed to load'));
    };
  });
  worker.onmessage = ({ data }) => {
    const { resolve, reject } = pending.get(data.id);
    pending.delete(data.id);
    if ('error' in data) reject(new Error(data.error)); else resolve(data.value);
  };
  return {
    version: ready.version,
    thread: 'in a Web Worker',
    call: (op, args = []) => new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args });
    }),
  };
}

async function pageEngine() {
  const { createEngine } = await import('./engine.mjs');
  return { ...(await createEngine()), thread: 'on the page\'s thread' };
}

async function startEngine() {
  if (params.get('worker') !== '0' && typeof Worker === 'function') {
    try {
      return await workerEngine();
    } catch (error) {
      console.warn(`martiandice: no worker (${error.message}); running on the page's thread`);
    }
  }
  return pageEngine();
}

// ---------------------------------------------------------------------------
// Words.

let seats = [];  // 'You', 'Bot 1', ...
const who = (seat) => seats[seat];
const name = (seat) => (seat === 0 ? 'you' : who(seat));

function describe(e) {
  const w = who(e.seat);
  switch (e.event) {
    case 'turn':
      return `Turn ${e.turn} (round ${e.round}): ${name(e.seat)} to move.${e.final_round ? ' Final round.' : ''}`;
    case 'roll': {
      const tanks = groups(e.rolled).find((g) => g.letter === 'T');
      return `${w} rolled ${diceWords(e.rolled)}${tanks ? `; set aside ${diceWords(e.aside)}` : ''}.`;
    }
    case 'take':
      return `${w} took ${plural(e.count, e.take)}: ${plural(e.turn_score, 'point')} so far, ` +
        `${diceCount(e.dice_left)} left.`;
    case 'roll_on':
      return `${w} rolled on.`;
    case 'turn_end': {
      const score = plural(e.score, 'point');
      if (e.reason === 'stop') return `${w} stopped and scored ${score}.`;
      if (e.reason === 'no_legal_take') return `No legal take: ${name(e.seat)} scored ${score}.`;
      return `No dice left: ${name(e.seat)} scored ${score}.`;
    }
    case 'game_over':
      return `Game over after ${e.turns} turns.`;
    default:
      return null;
  }
}

// A value of the advice: a chance to win, or the fallback's expected capped score.
let percentValues = true;
const value = (x) => formatValue(x, percentValues);

// ---------------------------------------------------------------------------
// The game on the page.

let engine;
let state = null;
let hintsOn = false;
let busy = false;
let lastControls = '';

function setBusy(on) {
  busy = on;
  for (const button of document.querySelectorAll('#controls button')) button.disabled = on;
  document.body.dataset.busy = String(on);
}

function logEvents(events) {
  const log = $('log');
  let said = null;
  for (const e of events) {
    const text = describe(e);
    if (!text) continue;
    const item = document.createElement('li');
    item.textContent = text;
    if (e.event === 'turn') item.className = 'turn';
    log.append(item);
    if (e.event !== 'turn') said = text;
  }
  while (log.children.length > 60) log.firstElementChild.remove();
  log.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
  return said;
}

function renderState() {
  const s = state;
  const rows = $('scores').tBodies[0];
  rows.replaceChildren();
  s.scores.forEach((score, seat) => {
    const row = rows.insertRow();
    const mover = !s.over && seat === s.seat;
    if (mover) row.className = 'mover';
    if (s.over && s.winners.includes(seat)) row.className = 'winner';
    row.insertCell().textContent = String(seat);
    row.insertCell().textContent = who(seat) + (mover ? ' (to move)' : '');
    row.insertCell().textContent = String(score);
  });
  $('final-round').hidden = !s.final_round || s.over;
  const take = s.phase === 'take';
  // The set-aside the mover decides from: after the roll's tanks (as "Dice left").
  diceChips($('aside'), s.aside);
  diceChips($('rolled'), take ? s.roll : '-');
  $('turn-score').textContent = String(s.turn_score);
  $('dice-left').textContent = String(s.dice_left);
  $('turn-title').textContent = `Turn ${Math.max(s.turn, 1)}: ${who(s.seat)}`;
  $('turn-facts').hidden = s.over;
  $('turn-title').hidden = s.over;

  const human = !s.over && s.player === 'human';
  $('roll').hidden = !(human && s.phase === 'roll');
  $('stop').hidden = !(human && s.phase === 'stop_or_roll');
  $('roll-on').hidden = !(human && s.phase === 'stop_or_roll');
  $('roll-on').textContent = `Roll on (${diceCount(s.dice_left)})`;
  $('roll').textContent = s.aside === '-' ? 'Roll (start your turn)' : 'Roll';
  const takes = $('takes');
  takes.replaceChildren();
  if (human && take) {
    const rolled = Object.fromEntries(groups(s.roll).map((g) => [g.letter, g.count]));
    for (const face of s.legal) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.face = face;
      button.className = `take face-${LETTER[face]}`;
      button.textContent = `Take ${plural(rolled[LETTER[face]], face)}`;
      button.addEventListener('click', () => move('take', face));
      takes.append(button);
    }
  }
  document.body.dataset.phase = s.over ? 'over' : `${s.player}-${s.phase}`;
  // Focus the first control when the set of controls changes (keyboard play).
  const controls = human ? `${s.phase}:${s.legal.join()}:${s.aside}:${s.turn}` : '';
  if (!controls) {
    lastControls = '';
  } else if (controls !== lastControls && !busy) {
    const first = [...document.querySelectorAll('#controls button')].find((b) => !b.hidden);
    first?.focus({ preventScroll: true });
    lastControls = controls;
  }
}

function renderHint(advice) {
  const box = $('hint');
  percentValues = !advice.fallback;
  box.dataset.scores = state.scores.join(',');
  box.dataset.aside = state.aside_before_roll;
  box.dataset.roll = state.roll;
  return adviceBox('hint', advice, state, value, 'the points you need');
}

async function showHint() {
  if (!hintsOn || state.over || state.player !== 'human') {
    $('hint').hidden = true;
    return null;
  }
  const { advice } = await engine.call('advice');
  return renderHint(advice);
}

function renderResult() {
  const over = state;
  const winners = over.winners;
  let text;
  if (winners.length === 1) text = winners[0] === 0 ? 'You win!' : `${who(winners[0])} wins.`;
  else text = `${winners.map(who).join(' and ')} tie with ${over.scores[winners[0]]} and share the win.`;
  $('result-text').textContent = `${text} Final scores: ${over.scores.map((s, i) => `${who(i)} ${s}`).join(', ')}.`;
  $('result').hidden = false;
  $('hint').hidden = true;
  return text;
}

function renderReview(events) {
  const review = events.find((e) => e.event === 'review' && e.seat === 0);
  const box = $('review');
  box.replaceChildren();
  if (!review) return;
  const summary = document.createElement('p');
  const unit = percentValues ? 'chance to win' : 'in the fallback\'s values';
  summary.textContent = `Your review: ${plural(review.decisions.length, 'decision')}, ` +
    `${plural(review.mistakes, 'mistake')}, lost ${value(review.total_loss)} ${unit}.`;
  box.append(summary);
  const list = document.createElement('ul');
  for (const d of review.decisions.filter((x) => !x.optimal)) {
    const item = document.createElement('li');
    const b = d.best;
    item.textContent = `Turn ${d.turn}: rolled ${diceWords(d.rolled)}; you took ${plural(d.count, d.take)}, ` +
      `then ${d.then === 'roll' ? 'rolled on' : 'stopped'}; best: ${plural(b.count, b.take)}, then ` +
      `${b.then === 'roll' ? 'roll on' : b.then} (lost ${value(d.loss)}).`;
    list.append(item);
  }
  box.append(list);
}

function announce(text) {
  if (text) $('announce').textContent = text;
}

// Shows a move's answer; then the bots play (one step every `delay` ms)
// until you are to move or the game is over.
async function show(answer) {
  state = answer.state;
  let said = logEvents(answer.events);
  renderState();
  while (!state.over && state.player === 'bot') {
    announce(said);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const step = await engine.call('botStep');
    state = step.state;
    said = logEvents(step.events) ?? said;
    renderState();
    answer = { events: [...answer.events, ...step.events] };
  }
  if (state.over) {
    const result = renderResult();
    renderReview(answer.events);
    announce(`${said ?? ''} ${result}`);
    document.body.dataset.over = 'true';
    $('again').focus();
    return;
  }
  let prompt = '';
  if (state.phase === 'roll') prompt = 'Your turn: roll.';
  else if (state.phase === 'take') prompt = `Your take: ${state.legal.join(', ')}.`;
  else prompt = `Stop with ${plural(state.turn_score, 'point')}, or roll on?`;
  const hint = await showHint();
  announce([said, prompt, hint ? `Hint: ${hint}` : ''].filter(Boolean).join(' '));
}

async function move(op, ...args) {
  if (busy) return;
  setBusy(true);
  try {
    await show(await engine.call(op, args));
  } catch (error) {
    announce(`Not allowed: ${error.message}`);
  } finally {
    setBusy(false);
    renderState();
  }
}

async function newGame(event) {
  event?.preventDefault();
  if (busy) return;
  const players = Number($('players').value);
  const options = { players, humans: [0], bots: $('bots').value, hints: false };
  const seed = $('seed').value.trim();
  if (seed) options.seed = seed;
  hintsOn = $('hints').checked;
  seats = Array.from({ length: players }, (_, i) => (i === 0 ? 'You' : `Bot ${i}`));
  setBusy(true);
  try {
    $('status').textContent = players === 3 ? 'Loading the 3-player table…' : 'Starting…';
    const answer = await engine.call('new', [options]);
    const start = answer.events[0];
    percentValues = start.table !== null;
    $('log').replaceChildren();
    $('result').hidden = true;
    $('hint').hidden = true;
    $('game').hidden = false;
    delete document.body.dataset.over;
    $('status').textContent = `Game with seed ${start.seed} (${start.table ? 'bots play to win, from the table' : 'no table: the bots play the fallback'}).`;
    document.body.dataset.seed = String(start.seed);
    lastControls = '';
    await show(answer);
  } catch (error) {
    $('status').textContent = `Cannot start: ${error.message}`;
  } finally {
    setBusy(false);
    if (state) renderState();
  }
}

$('setup-form').addEventListener('submit', newGame);
$('roll').addEventListener('click', () => move('roll'));
$('stop').addEventListener('click', () => move('stop'));
$('roll-on').addEventListener('click', async () => {
  // Rolling on, then the roll: one press.
  if (busy) return;
  setBusy(true);
  try {
    const on = await engine.call('rollOn');
    const rolled = await engine.call('roll');
    await show({ events: [...on.events, ...rolled.events], state: rolled.state });
  } catch (error) {
    announce(`Not allowed: ${error.message}`);
  } finally {
    setBusy(false);
    renderState();
  }
});
$('hints').addEventListener('change', async () => {
  hintsOn = $('hints').checked;
  if (state && !busy) announce(await showHint());
});
// Another game with the same settings and new dice.
// Keys: in a take, R H C K take that face; S stops; R rolls (or rolls on).
// Only while the focus is in the game (the move's buttons have it), so that
// a screen reader's own single keys elsewhere stay its own (WCAG 2.1.4).
$('game').addEventListener('keydown', (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || busy || !state || state.over) return;
  const key = event.key.toLowerCase();
  let button = null;
  if (state.phase === 'take') {
    const face = { r: 'ray', h: 'human', c: 'cow', k: 'chicken' }[key];
    button = face ? document.querySelector(`#takes button[data-face="${face}"]`) : null;
  } else if (key === 's') {
    button = $('stop');
  } else if (key === 'r') {
    button = state.phase === 'roll' ? $('roll') : $('roll-on');
  }
  if (button && !button.hidden && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

$('again').addEventListener('click', () => {
  $('seed').value = '';
  window.scrollTo(0, 0);
  newGame();
});

try {
  engine = await startEngine();
  $('version').textContent = `martiandice ${engine.version}.`;
  $('thread').textContent = engine.thread;
  $('status').textContent = 'Ready: choose the players and start.';
  $('new-game').disabled = false;
  document.body.dataset.ready = 'true';
  document.body.dataset.thread = engine.thread.includes('Worker') ? 'worker' : 'page';
  startCoach(engine);
  // The distribution's default: the game against one bot, while it goes on.
  startStrategy(engine, () => (state && !state.over && state.scores.length === 2
    ? { scores: state.scores, seat: state.seat } : null));
} catch (error) {
  $('status').textContent = `Error: ${error.message}`;
  document.body.dataset.ready = 'error';
  $('strategy-status').textContent = `Error: ${error.message}`;
}
