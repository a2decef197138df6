// The page: a game of Martian Dice against the bots, you at the seat you
// choose ("Your seat": first, seat 0, by default). The game
// is the package's (web/src/game.js: the library's GameState, bots, advice,
// log and review), run in a Web Worker (worker.mjs) or, where module workers
// fail, on this thread; this file only shows its events and state (one
// sticky panel: scores, dice, hint, controls), sends your moves, and rates
// your game at the end (the review's rating, kept in localStorage). House
// rules (target, dice, bonus) with 2 or 3 players get their exact table
// before the game: kept in this browser, else solved in the worker with a
// progress bar (engine.mjs, tables.mjs); a table file the player gives
// ("Your own table": any players and rules) plays its game. A game in
// progress is kept in this browser move by move and resumed after a reload
// (saved.mjs). Page options in the URL: ?delay=MS between the bots' moves
// (default 450), ?worker=0 runs the engine on the page's thread.
import { OFFICIAL_RULES as OFFICIAL, isOfficialRules as isOfficial } from '../src/martiandice.js';
import { startCoach } from './coach.mjs';
import { ownTables } from './own-table.mjs';
import { startStrategy } from './strategy.mjs';
import { diceRow, dieSvg, drawDice } from './dice.mjs';
import { forgetGame, gameRecord, keptGame, replayMismatch } from './saved.mjs';
import {
  LETTER, adviceTable, diceCount, diceWords, fallbackSummary, finalRoundWords, formatValue, groups, isChance,
  noChanceWords, percentText, plural, tanksWonWords, thenWords,
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
    const { resolve, reject, onProgress } = pending.get(data.id);
    if ('progress' in data) {  // a solve's progress, before its answer
      onProgress?.(data.progress, data.seconds);
      return;
    }
    pending.delete(data.id);
    if ('error' in data) reject(new Error(data.error)); else resolve(data.value);
  };
  return {
    version: ready.version,
    thread: 'in a Web Worker',
    call: (op, args = [], { onProgress } = {}) => new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, onProgress });
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
// House rules: the game's rules, and its exact table before it starts.

let rules = { ...OFFICIAL };  // the game's

function readRules() {
  return { dice: Number($('dice').value), bonus: Number($('bonus').value), target: Number($('target').value) };
}

// "3 players, target 15" (and the dice and the bonus where not the official ones).
function gameWords(n, r) {
  const parts = [`${n} players`];
  if (r.dice !== OFFICIAL.dice) parts.push(diceCount(r.dice));
  if (r.bonus !== OFFICIAL.bonus) parts.push(`bonus ${r.bonus}`);
  return [...parts, `target ${r.target}`].join(', ');
}

// What has no exact table: "4 players", or the game with its house rules.
const noTableName = () => (isOfficial(rules) ? `${players} players` : gameWords(players, rules));

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

// The solve's progress bar; its label says the game, the share done and the
// time so far. Shown at the first progress (a table loaded from this
// browser shows none).
function solveProgress(words) {
  const started = performance.now();
  let fraction = 0;
  let ticking = null;
  const render = () => {
    $('solve-label').textContent = `Solving the exact table for ${words}: ${Math.floor(100 * fraction)} %`;
    $('solve-bar').value = fraction;
    $('solve-time').textContent = `${Math.floor((performance.now() - started) / 1000)} s elapsed`;
  };
  return {
    update(done) {
      fraction = done;
      if (ticking === null) {
        $('solve').hidden = false;
        $('solve').scrollIntoView({ block: 'nearest' });
        $('status').textContent = `Solving the exact table for ${words}: a wait of seconds to minutes, ` +
          'once; this browser keeps the table for the next games with these rules.';
        ticking = setInterval(render, 500);  // the elapsed time ticks between progress reports
      }
      render();
    },
    end() {
      clearInterval(ticking);
      $('solve').hidden = true;
      return (performance.now() - started) / 1000;
    },
  };
}

// The game's exact table (engine.mjs's 'table'): shipped, kept in this
// browser, or solved now with the progress bar. Its answer, with `wall` (the
// seconds the page waited).
async function gameTable() {
  const words = gameWords(players, rules);
  if (!isOfficial(rules)) $('status').textContent = `Preparing the exact table for ${words}…`;
  if (document.body.dataset.thread === 'page') await nextFrame();  // the status shows before a solve blocks
  const progress = solveProgress(words);
  try {
    const table = await engine.call('table', [{ players, ...rules }], { onProgress: progress.update });
    return { ...table, wall: progress.end() };
  } catch (error) {
    progress.end();
    throw error;
  }
}

// The table in the start's status line.
function tableWords(start, table) {
  if (!start.table) {
    const why = table.reason === 'size'
      ? ` (its exact table for ${gameWords(players, rules)} would take ${Math.floor(table.size / 2 ** 20)} MiB: too large to solve in a page)`
      : isOfficial(rules) ? '' : ' (the page solves exact tables for 2 and 3 players)';
    return 'no table: the bots play the fallback, which maximises the points still needed, and in the final ' +
      `round the chance to pass the leader${why}`;
  }
  const from = {
    file: 'from your file',
    solved: `solved in this browser in ${table.wall?.toFixed(1)} s${table.kept ? ', kept for the next games' : ''}`,
    browser: 'loaded from this browser',
    session: 'solved earlier',
  }[table.from];
  return `bots play to win, from the ${from ? `exact table ${from}` : 'table'}`;
}

// ---------------------------------------------------------------------------
// Words.

let you = 0;      // your seat: the game's one human seat
let seats = [];  // 'Bot 1', 'You', 'Bot 2', ...
const who = (seat) => seats[seat];
const name = (seat) => (seat === you ? 'you' : who(seat));

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
      const score = plural(e.score, 'point') + tanksWonWords(e);
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

// A value in `values`' unit (an advice's, a reviewed decision's): a chance, or (the fallback before the final round) points.
const valueIn = (values, x) => (isChance(values) || x === null || x === undefined ? formatValue(x, true)
  : `${x.toFixed(2)} pts`);
// The values of the advice shown: "win", or the fallback's ("capped:15"; in the final round "final:12/1").
let shownValues = 'win';
const value = (x) => valueIn(shownValues, x);
// What its chances are of: winning, or (the fallback's final round) passing the leader.
const chanceOf = () => (shownValues.startsWith('final:') ? 'to pass the leader' : 'to win');
// The same, short, for the one-line hint.
const short = (x) => (isChance(shownValues) ? `${percentText(x, 1)} ${chanceOf()}` : `${x.toFixed(2)} points expected`);
const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

// ---------------------------------------------------------------------------
// The game on the page.

let engine;
let state = null;
let hintsOn = false;
let busy = false;
let lastControls = '';
let players = 2;
let hint = null;        // the shown hint's best move: {key, best: face, 'stop' or 'roll'}
let slidRoll = '';      // the roll whose tanks were last slid to the set-aside row
let record = null;      // the game's moves, kept in this browser as they are made (saved.mjs)

// Which decision a state is (the hint belongs to one).
const decisionKey = (s) => `${s.turn}:${s.phase}:${s.aside}:${s.roll}`;

// A move of the game (the engine's operation), kept for a resume after a reload.
async function play(op, args = []) {
  const answer = await engine.call(op, args);
  record?.move([op, ...args], answer.state, answer.state.over);
  return answer;
}

function setBusy(on) {
  busy = on;
  for (const button of document.querySelectorAll('#controls button')) button.disabled = on;
  document.body.dataset.busy = String(on);
}

// The game's moves in words, every one since its start (the box scrolls).
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
  // Scroll the log's own box only: the page never moves for it.
  log.scrollTop = log.scrollHeight;
  return said;
}

// The scoreboard: one chip a seat, with a bar towards 25.
function renderScores(s) {
  const board = $('scores');
  board.replaceChildren();
  s.scores.forEach((score, seat) => {
    const item = document.createElement('li');
    const mover = !s.over && seat === s.seat;
    item.className = ['seat', mover ? 'mover' : '', s.over && s.winners.includes(seat) ? 'winner' : '',
      seat === you ? 'you' : ''].join(' ').trim();
    item.dataset.seat = String(seat);
    item.dataset.score = String(score);
    const bar = `<span class="bar" aria-hidden="true"><span style="width:${Math.min(100, (100 * score) / rules.target)}%"></span></span>`;
    item.innerHTML = `<span class="who"></span> <b class="pts">${score}</b>${bar}`;
    item.querySelector('.who').textContent = who(seat);
    // "(to move)" for screen readers; the chip's colour says it on screen.
    if (mover) item.querySelector('.who').insertAdjacentHTML('beforeend', '<span class="sr-only"> (to move)</span>');
    board.append(item);
  });
}

// The turn's number: a turn's first roll starts it (the state's turn is then still the one before).
const turnNumber = (s) => (s.phase === 'roll' && s.aside === '-' ? s.turn + 1 : s.turn);

// The turn: the set-aside (grouped), the roll's dice to choose from (its
// tanks have gone to the set-aside), the turn score and the dice left.
function renderTurn(s) {
  const take = s.phase === 'take';
  diceRow($('aside'), s.aside, { grouped: true });
  diceRow($('rolled'), take ? s.roll : '-', { except: 'T' });
  $('turn-score').textContent = String(s.turn_score);
  $('turn-score-unit').textContent = s.turn_score === 1 ? 'point' : 'points';
  $('dice-left').textContent = String(s.dice_left);
  $('dice-left-unit').textContent = s.dice_left === 1 ? 'die left' : 'dice left';
  $('turn-title').textContent = `Turn ${turnNumber(s)} · ${who(s.seat)}`;
  $('turn').hidden = s.over;
  if (take) slideTanks(s);
}

// A new roll: its dice tumble in, its tanks slide up to the set-aside row.
function slideTanks(s) {
  const key = `${s.turn}:${s.aside_before_roll}:${s.roll}`;
  if (key === slidRoll) return;
  slidRoll = key;
  if (reducedMotion()) return;
  const rolled = $('rolled');
  rolled.classList.remove('fresh');
  void rolled.offsetWidth;  // restarts the CSS animation
  rolled.classList.add('fresh');
  const tanks = $('aside').querySelector('.group-T');
  if (!s.roll.includes('T') || !tanks?.animate) return;
  const from = rolled.getBoundingClientRect();
  const to = tanks.getBoundingClientRect();
  tanks.animate([
    { transform: `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(1.3)`, opacity: 0.4 },
    { transform: 'none', opacity: 1 },
  ], { duration: 550, easing: 'cubic-bezier(.2,.8,.2,1)' });
}

function renderControls(s) {
  const human = !s.over && s.player === 'human';
  $('roll').hidden = !(human && s.phase === 'roll');
  $('stop').hidden = !(human && s.phase === 'stop_or_roll');
  $('roll-on').hidden = !(human && s.phase === 'stop_or_roll');
  $('roll-on').textContent = `Roll on (${diceCount(s.dice_left)})`;
  $('roll').textContent = s.aside === '-' ? 'Roll (start your turn)' : 'Roll';
  $('stop').textContent = `Stop (${plural(s.turn_score, 'point')})`;
  const takes = $('takes');
  takes.replaceChildren();
  if (human && s.phase === 'take') {
    const rolled = Object.fromEntries(groups(s.roll).map((g) => [g.letter, g.count]));
    for (const face of s.legal) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.face = face;
      button.className = `take face-${LETTER[face]}`;
      button.innerHTML = dieSvg(LETTER[face]);
      button.append(`Take ${plural(rolled[LETTER[face]], face)}`);
      button.disabled = busy;
      button.addEventListener('click', () => move('take', face));
      takes.append(button);
    }
  }
  markBest();
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

// The hint's best move, marked on its button (a star and "best").
function markBest() {
  for (const old of document.querySelectorAll('#controls button.best')) {
    old.classList.remove('best');
    delete old.dataset.best;
    old.querySelector('.badge')?.remove();
  }
  if (!hint || !state || hint.key !== decisionKey(state)) return;
  const button = { stop: $('stop'), roll: $('roll-on') }[hint.best]
    ?? document.querySelector(`#takes button[data-face="${hint.best}"]`);
  if (!button || button.hidden) return;
  button.classList.add('best');
  button.dataset.best = 'true';
  button.insertAdjacentHTML('beforeend', '<span class="badge"><span aria-hidden="true">★ </span>best</span>');
}

function renderState() {
  const s = state;
  renderScores(s);
  $('final-round').hidden = !s.final_round || s.over;
  renderTurn(s);
  renderControls(s);
  document.body.dataset.phase = s.over ? 'over' : `${s.player}-${s.phase}`;
}

// The advice in one line: the best move and its value.
function hintLine(advice) {
  if (advice.decision === 'take') {
    const b = advice.best;
    return `Best: take ${plural(b.count, b.take)}, then ${thenWords(b.then)} — ${short(advice.value)}.`;
  }
  if (advice.decision === 'roll') {
    return isChance(shownValues) ? `Your chance ${chanceOf()} now: ${percentText(advice.value, 1)}.`
      : `This turn is worth ${advice.value.toFixed(2)} points expected.`;
  }
  if (advice.action === 'either') return `Best: stop or roll on, as good — ${short(advice.value)}.`;
  const [best, other, otherValue] = advice.action === 'stop' ? ['stop', 'rolling on', advice.roll]
    : ['roll on', 'stopping', advice.stop];
  return `Best: ${best} — ${short(advice.value)}; ${other}: ${short(otherValue).replace(/ (to win|to pass the leader|expected)$/, '')}.`;
}

// What the values are: chances to win, or (no table) the fallback's points,
// in the final round its chances to pass the leader.
function valuesWords(advice) {
  if (!advice.fallback) return 'Each option\'s chance to win the game, playing on perfectly.';
  const final = finalRoundWords(advice.values);
  if (final) {
    return `No exact table for ${noTableName()}: in the final round this advice plays for ${final}. ` +
      'Its values are chances.';
  }
  const cap = /^capped:(\d+)$/.exec(advice.values ?? '');
  return `No exact table for ${noTableName()}: this advice maximises the points you still need` +
    `${cap ? ` (the turn's expected points, counted up to ${cap[1]})` : ''}. Its values are points, not chances to win.`;
}

function renderHint(advice) {
  shownValues = advice.values;
  const box = $('hint');
  Object.assign(box.dataset, {
    scores: state.scores.join(','), aside: state.aside_before_roll, roll: state.roll,
    seat: String(state.seat), decision: advice.decision,
  });
  adviceTable($('hint-table'), advice, value);
  $('hint-values').textContent = valuesWords(advice);
  const line = hintLine(advice) + noChanceWords(advice);
  $('hint-best').textContent = line;
  box.hidden = false;
  $('hint-more').hidden = advice.decision === 'roll';
  hint = { key: decisionKey(state), best: advice.decision === 'take' ? advice.best.take : advice.action };
  markBest();
  return line;
}

function hideHint() {
  $('hint').hidden = true;
  $('hint-more').hidden = true;
  hint = null;
  markBest();
}

async function showHint() {
  if (!hintsOn || state.over || state.player !== 'human') {
    hideHint();
    return null;
  }
  const { advice } = await engine.call('advice');
  return renderHint(advice);
}

// The panel in view: scrolls the page (once, when needed) so that its bottom
// is on screen; sticky, it then stays at the top.
function keepPanelInView() {
  const box = $('panel').getBoundingClientRect();
  if (box.bottom > window.innerHeight) {
    window.scrollBy({ top: Math.min(box.bottom - window.innerHeight + 4, box.top), behavior: 'instant' });
  }
}

function renderResult() {
  const over = state;
  const winners = over.winners;
  let text;
  if (winners.length === 1) text = winners[0] === you ? 'You win!' : `${who(winners[0])} wins.`;
  else text = `${winners.map(who).join(' and ')} tie with ${over.scores[winners[0]]} and share the win.`;
  $('result-text').textContent = `${text} Final scores: ${over.scores.map((s, i) => `${who(i)} ${s}`).join(', ')}.`;
  $('result').hidden = false;
  hideHint();
  return text;
}

// ---------------------------------------------------------------------------
// The review and the rating (docs/RATING.md).

const HISTORY = 'martiandice.ratings';

function ratingHistory() {
  try {
    const list = JSON.parse(localStorage.getItem(HISTORY) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// Keeps a game's rating (the last 100 games) in the browser's storage.
function keepRating(rating) {
  const game = { date: new Date().toISOString(), players, score: rating.score, band: rating.band };
  if (!isOfficial(rules)) game.rules = { ...rules };  // a house-rules game says so
  const list = [...ratingHistory(), game];
  try {
    localStorage.setItem(HISTORY, JSON.stringify(list.slice(-100)));
  } catch {
    // Storage off (private mode): the chart shows this game only.
    return [list.at(-1)];
  }
  return list;
}

// The last 20 ratings as a small line chart (SVG), the newest highlighted.
function ratingChart(list) {
  const games = list.slice(-20);
  const [w, h, left, right, top, bottom] = [320, 130, 30, 10, 8, 20];
  const x = (i) => (games.length === 1 ? (left + w - right) / 2 : left + (i * (w - left - right)) / (games.length - 1));
  const y = (score) => top + ((100 - score) * (h - top - bottom)) / 100;
  const grid = [0, 25, 50, 75, 90, 100].map((v) => `<line x1="${left}" x2="${w - right}" y1="${y(v)}" y2="${y(v)}" class="grid"/>` +
    `<text x="${left - 4}" y="${y(v) + 3.5}" text-anchor="end">${v}</text>`).join('');
  const line = games.length > 1 ? `<polyline points="${games.map((g, i) => `${x(i)},${y(g.score)}`).join(' ')}"/>` : '';
  const dots = games.map((g, i) => `<circle cx="${x(i)}" cy="${y(g.score)}" r="${i === games.length - 1 ? 5.5 : 4}"` +
    `${i === games.length - 1 ? ' class="latest"' : ''}><title>${g.date.slice(0, 10)}: ${Math.floor(g.score)} (${g.band})</title></circle>`).join('');
  const label = `Your last ${plural(games.length, 'rating')}, oldest first: ${games.map((g) => Math.floor(g.score)).join(', ')}.`;
  const figure = document.createElement('figure');
  figure.className = 'history';
  figure.innerHTML = `<figcaption>Your ratings, last ${plural(games.length, 'game')}</figcaption>` +
    `<svg id="rating-chart" viewBox="0 0 ${w} ${h}" role="img">${grid}${line}${dots}` +
    `<text x="${(left + w - right) / 2}" y="${h - 4}" text-anchor="middle">older → newer</text></svg>`;
  figure.querySelector('svg').setAttribute('aria-label', label);
  return figure;
}

function paragraph(id, className, text) {
  return Object.assign(document.createElement('p'), { id, className, textContent: text });
}

// The review's summary: decisions played optimally and what the others gave away.
function summaryWords(review) {
  const r = review.rating;
  if (!r) return fallbackSummary(review);
  if (r.decisions > 0 && r.optimal === r.decisions) {
    return `You played ${r.decisions === 1 ? 'your one decision' : `all ${r.decisions} decisions`} optimally: ` +
      'nothing given away.';
  }
  const share = r.decisions > 0 ? ` (${Math.round((100 * r.optimal) / r.decisions)}%)` : '';
  return `You played ${r.optimal} of ${plural(r.decisions, 'decision')} optimally${share} and gave away ` +
    `${formatValue(r.total_loss, true)} chance to win, summed over them (${formatValue(r.mean_loss, true)} a decision): ` +
    `${count(r.inaccuracies, 'inaccuracy', 'inaccuracies')}, ${plural(r.errors, 'error')}, ${plural(r.blunders, 'blunder')}.`;
}

// A costly decision in words, with the better move; its cost in its own values' unit.
function decisionWords(d) {
  const b = d.best;
  const aside = d.aside === '-' ? '' : ` with ${diceWords(d.aside)} set aside`;
  return `Turn ${d.turn}: rolled ${diceWords(d.rolled)}${aside}. You took ${plural(d.count, d.take)}, then ` +
    `${d.then === 'roll' ? 'rolled on' : 'stopped'}; better: take ${plural(b.count, b.take)}, then ` +
    `${thenWords(b.then)}. Cost ${valueIn(d.values, d.loss)}${d.class ? ` (${d.class})` : ''}.`;
}

// The three costliest decisions, costliest first (the review's order among equals), each unit
// apart as the command line's: the fallback's final-round chances (the game itself) before its points.
const costliest = (decisions) => decisions.filter((d) => !d.optimal && d.loss > 0)
  .sort((a, b) => Number(isChance(b.values)) - Number(isChance(a.values)) || b.loss - a.loss).slice(0, 3);

function renderReview(events) {
  const review = events.find((e) => e.event === 'review' && e.seat === you);
  const box = $('review');
  box.replaceChildren();
  if (!review) return;
  const r = review.rating;
  if (r) {
    const rating = paragraph('rating', `rating band-${r.band}`, '');
    rating.innerHTML = `Rating <b>${Math.floor(r.score)}</b> of 100 <span class="band">(${r.band})</span>`;
    Object.assign(rating.dataset, { score: String(r.score), band: r.band });
    box.append(rating);
  } else {
    // The fallback's final round (final:M/K) plays for chances to pass the leader: not to win either.
    const final = review.decisions.some((d) => finalRoundWords(d.values) !== null)
      ? ' (in the final round, chances to pass the leader)' : '';
    box.append(paragraph('rating', 'rating none', `No rating for this game: there is no exact table for ` +
      `${noTableName()}, so the advice's values are points${final}, not chances to win, and what a decision ` +
      'gives away cannot be rated as a chance.'));
  }
  box.append(paragraph('review-summary', '', summaryWords(review)));
  const worst = costliest(review.decisions);
  box.append(Object.assign(document.createElement('h4'), {
    textContent: worst.length > 0 ? 'Your costliest decisions' : 'No decision gave anything away.',
  }));
  const list = document.createElement('ol');
  list.id = 'costly';
  for (const d of worst) list.append(Object.assign(document.createElement('li'), { textContent: decisionWords(d) }));
  box.append(list);
  const history = r ? keepRating(r) : ratingHistory();
  if (history.length > 0) box.append(ratingChart(history));
}

function announce(text) {
  if (text) $('announce').textContent = text;
}

// The last thing that happened, on screen (the live region says it with the prompt).
function showLast(text) {
  if (text) $('last').textContent = text;
}

// Shows a move's answer; then the bots play (one step every `delay` ms)
// until you are to move or the game is over.
async function show(answer) {
  state = answer.state;
  let said = logEvents(answer.events);
  renderState();
  while (!state.over && state.player === 'bot') {
    announce(said);
    showLast(said);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    const step = await play('botStep');
    state = step.state;
    said = logEvents(step.events) ?? said;
    renderState();
    answer = { events: [...answer.events, ...step.events] };
  }
  showLast(said);
  if (state.over) {
    const result = renderResult();
    renderReview(answer.events);
    announce(`${said ?? ''} ${result}`);
    document.body.dataset.over = 'true';
    document.body.dataset.game = 'over';
    $('again').focus();
    return;
  }
  let prompt = '';
  if (state.phase === 'roll') prompt = 'Your turn: roll.';
  else if (state.phase === 'take') prompt = `Your take: ${state.legal.join(', ')}.`;
  else prompt = `Stop with ${plural(state.turn_score, 'point')}, or roll on?`;
  const line = await showHint();
  announce([said, prompt, line ? `Hint: ${line}` : ''].filter(Boolean).join(' '));
  keepPanelInView();
}

async function move(op, ...args) {
  if (busy) return;
  setBusy(true);
  try {
    await show(await play(op, args));
  } catch (error) {
    announce(`Not allowed: ${error.message}`);
  } finally {
    setBusy(false);
    renderState();
  }
}

// The form's game: players, your seat, rules, bots and seed (none: a random one).
function formGame() {
  const options = {
    players: Number($('players').value), ...readRules(), humans: [Number($('seat').value)], bots: $('bots').value,
    hints: false,
  };
  const seed = $('seed').value.trim();
  if (seed) options.seed = seed;
  return options;
}

// The seat choice's words: "first (seat 0)", "second (seat 1)", ..., "last (seat N-1)".
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];
const seatWords = (seat, n) => `${seat === n - 1 ? 'last' : ORDINALS[seat]} (seat ${seat})`;

// The seat choice follows the players count: a seat each, the chosen one kept (or the last, when fewer).
function renderSeats() {
  const n = Number($('players').value);
  const chosen = Math.min(Number($('seat').value || 0), n - 1);
  $('seat').replaceChildren(...Array.from({ length: n }, (_, i) => new Option(seatWords(i, n), String(i))));
  $('seat').value = String(chosen);
}

// A game's human seat: its options' `humans`, else seat 0 (the engine's default).
const humanSeat = (options) => (Array.isArray(options.humans) ? options.humans[0] : 0);

// The form set to a resumed game's settings, so that "Play again" plays them.
function setForm(options, hints) {
  $('players').value = String(options.players);
  renderSeats();
  $('seat').value = String(humanSeat(options));
  for (const name of ['dice', 'bonus', 'target']) $(name).value = String(options[name]);
  $('bots').value = options.bots;
  $('hints').checked = hints;
}

async function newGame(event) {
  event?.preventDefault();
  if (busy) return;
  hintsOn = $('hints').checked;
  await startGame(formGame());
}

// The moves a kept game may replay, with their arguments' count: the page's
// own (the record is the browser's, so it is checked: no dice chosen).
const REPLAYED = { roll: 0, take: 1, stop: 0, rollOn: 0, botStep: 0 };
const replayable = (step) => Array.isArray(step) && Object.hasOwn(REPLAYED, step[0]) &&
  step.length === 1 + REPLAYED[step[0]] && step.slice(1).every((arg) => typeof arg === 'string');

// A kept game's moves replayed after its start (`answer`): the answer of them
// all, or an error saying why the game does not resume as it was.
async function replay(kept, answer) {
  const events = [...answer.events];
  let after = answer.state;
  for (const step of kept.moves) {
    if (!replayable(step) || after.over) throw new Error('its record is damaged');
    const next = await engine.call(step[0], step.slice(1));
    events.push(...next.events);
    after = next.state;
  }
  if (after.over) throw new Error('its record is damaged');  // an ended game is never kept
  const why = replayMismatch(kept, { version: engine.version, table: answer.events[0].table, state: after });
  if (why) throw new Error(why);
  return { events, state: after, seed: answer.seed };
}

// Starts the game of `options` (formGame's); `kept`, a game kept in this
// browser (saved.mjs), replays its moves first: the game resumes.
async function startGame(options, kept = null) {
  players = options.players;
  rules = { dice: options.dice, bonus: options.bonus, target: options.target };
  you = humanSeat(options);
  // The bots numbered 1, 2, ... in seat order, your seat skipped.
  seats = Array.from({ length: players }, (_, i) => (i === you ? 'You' : `Bot ${i < you ? i + 1 : i}`));
  setBusy(true);
  $('new-game').disabled = true;
  try {
    $('status').textContent = kept ? 'Resuming your game…' : players === 3 ? 'Loading the 3-player table…' : 'Starting…';
    const table = await gameTable();
    Object.assign(document.body.dataset, {  // for the tests: where the table came from, the solve's time
      tableFrom: table.from ?? 'none', solveSeconds: table.from === 'solved' ? String(table.wall) : '',
    });
    let answer = await engine.call('new', [options]);
    const start = answer.events[0];
    if (kept) answer = await replay(kept, answer);
    record?.drop();
    record = gameRecord('play', {
      version: engine.version, options: { ...options, seed: answer.seed }, table: start.table,
      moves: kept?.moves, page: { hints: hintsOn },
    }, () => {
      $('status').textContent = 'Another tab of this page now keeps its game in this browser: ' +
        'this game\'s moves are no longer kept for a reload.';
    });
    record.keep(answer.state);
    $('log').replaceChildren();
    $('last').textContent = '';
    $('result').hidden = true;
    hideHint();
    $('game').hidden = false;
    delete document.body.dataset.over;
    document.body.dataset.game = 'playing';
    $('scores').setAttribute('aria-label', `Scores (first to ${rules.target})`);
    $('status').textContent = `${kept ? 'Resumed your game' : 'Game'} with seed ${answer.seed} (${tableWords(start, table)}).`;
    document.body.dataset.seed = answer.seed;
    lastControls = '';
    await show(answer);
  } catch (error) {
    if (kept) {
      forgetGame('play');
      $('setup-form').reset();  // not the damaged record's settings
      renderSeats();
      $('status').textContent = `Your unfinished game could not be resumed (${error.message}): start a new one.`;
    } else {
      $('status').textContent = `Cannot start: ${error.message}`;
    }
  } finally {
    setBusy(false);
    $('new-game').disabled = false;
    if (state) renderState();
  }
}

let own = null;  // the player's own tables (ownTables), once the engine is ready

// The player's own table file: registered in the engine, the form set to its game.
async function ownTable() {
  if (busy || !own) return;
  const table = await own.use();
  if (!table) return;
  renderSeats();  // the table's players count
  $('status').textContent = `Your table for ${gameWords(table.players, table.rules)} is ready: ` +
    `start, and the bots and hints play from it${table.kept ? ' (kept in this browser for the next visits)' : ''}.`;
}

$('setup-form').addEventListener('submit', newGame);
$('players').addEventListener('change', renderSeats);
renderSeats();
$('table-file').addEventListener('change', ownTable);
$('roll').addEventListener('click', () => move('roll'));
$('stop').addEventListener('click', () => move('stop'));
$('roll-on').addEventListener('click', async () => {
  // Rolling on, then the roll: one press.
  if (busy) return;
  setBusy(true);
  try {
    const on = await play('rollOn');
    const rolled = await play('roll');
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
  if (record && state && !state.over) {
    record.page.hints = hintsOn;
    record.keep();
  }
  if (state && !busy) announce(await showHint());
});
drawDice($('how-to'));
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
  if (!$('setup-form').reportValidity()) return;  // the rules' fields may have been edited since
  $('seed').value = '';
  window.scrollTo(0, 0);
  newGame();
});

try {
  engine = await startEngine();
  $('version').textContent = `martiandice ${engine.version}.`;
  $('thread').textContent = engine.thread;
  $('status').textContent = 'Ready: choose the players and your seat, and start.';
  $('new-game').disabled = false;
  document.body.dataset.ready = 'true';
  document.body.dataset.thread = engine.thread.includes('Worker') ? 'worker' : 'page';
  // Games of 4 players or more whose table a file gave on an earlier visit, at any rules: named
  // so (the page solves tables for 2 and 3 players only, so a kept one of more players was given).
  const kept = (await engine.call('keptTables')).filter((g) => g.players >= 4);
  own = ownTables(engine, {
    file: 'table-file', status: 'status', players: 'players', rule: (name) => name, more: 'more-rules',
  }, (n) => `${n} (you and ${plural(n - 1, 'bot')}, your table)`);
  own.add(kept);
  startCoach(engine);
  // The distribution's default: the game against one bot, while it goes on.
  startStrategy(engine, () => (state && !state.over && state.scores.length === 2
    ? { scores: state.scores, seat: state.seat } : null));
  // The game in progress when the page was left (a reload, the back button): resumed.
  const unfinished = keptGame('play');
  if (unfinished) {
    setForm(unfinished.options, unfinished.page?.hints === true);
    hintsOn = $('hints').checked;
    await startGame(unfinished.options, unfinished);
  }
} catch (error) {
  $('status').textContent = `Error: ${error.message}`;
  document.body.dataset.ready = 'error';
  $('strategy-status').textContent = `Error: ${error.message}`;
}
