// The page's strategy mode: the three pictures of the official 2-player game
// (the package's md.plot, run by the engine: the heat map of the chance to
// win, the stop chart, a turn's score distribution at the scores and seat
// chosen here), each shown as an <img> of the SVG text with the picture's own
// title and description as its text. Drawn when the mode is first opened,
// never at the page's load; the distribution again at each "Draw", and at the
// position of the game against one bot when the mode is opened during it.
const $ = (id) => document.getElementById(id);

let engine = null;
let drawn = false;
let gamePosition = () => null;  // play.mjs's game against one bot: {scores, seat}, or null
let filled = '';                 // the game's position last put in the form

// The SVG's <title> and <desc>: the picture's text alternative.
function words(svg) {
  const field = (tag) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(svg)?.[1] ?? '';
  const text = `${field('title')}. ${field('desc')}`;
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, '\'').replace(/&amp;/g, '&');
}

async function draw(kind, options = {}) {
  const { svg } = await engine.call('plot', [kind, options]);
  const img = document.createElement('img');
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  img.alt = words(svg);
  img.dataset.kind = kind;
  // The picture is a link to itself at full size (its small print is small
  // at phone width); the address of the picture it replaces is freed.
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  link.target = '_blank';
  link.rel = 'noopener';
  link.title = 'The picture at full size, in a new tab';
  link.append(img);
  const box = $(`${kind}-picture`);
  const old = box.querySelector('a');
  if (old) URL.revokeObjectURL(old.href);
  box.replaceChildren(link);
}

// The distribution at the form's scores and seat, checked here for a clear message.
async function drawDistribution(event) {
  event?.preventDefault();
  const error = $('distribution-error');
  const scores = [0, 1].map((seat) => $(`dist-score-${seat}`).value.trim());
  const bad = scores.findIndex((x) => !/^\d+$/.test(x));
  if (bad >= 0) {
    error.textContent = `Seat ${bad}'s score must be a whole number of points, 0 or more (not "${scores[bad]}").`;
    $(`dist-score-${bad}`).focus();
    return;
  }
  const button = $('dist-draw');
  button.disabled = true;
  try {
    await draw('distribution', { scores: scores.map(Number), seat: Number($('dist-seat').value) });
    error.textContent = '';
  } catch (failure) {
    error.textContent = `Cannot draw it: ${failure.message}`;
  } finally {
    button.disabled = false;
  }
}

// The form at the game's position, once per position: true if it changed.
function fillFromGame() {
  const position = gamePosition();
  if (!position || JSON.stringify(position) === filled) return false;
  filled = JSON.stringify(position);
  position.scores.forEach((score, seat) => { $(`dist-score-${seat}`).value = String(score); });
  $('dist-seat').value = String(position.seat);
  return true;
}

async function drawAll() {
  const mode = document.querySelector('input[name="mode"]:checked')?.value;
  if (!engine || mode !== 'strategy') return;
  const moved = fillFromGame();
  if (drawn) {
    if (moved) await drawDistribution();
    return;
  }
  drawn = true;
  document.body.dataset.strategy = 'drawing';
  $('strategy-status').textContent = 'Drawing the pictures…';
  try {
    await draw('heatmap');
    await draw('stop');
    await drawDistribution();
    $('strategy-status').textContent = '';
  } catch (error) {
    $('strategy-status').textContent = `Cannot draw the pictures: ${error.message}`;
  }
  document.body.dataset.strategy = 'drawn';
}

/**
 * Wires the strategy mode to `engine` (play.mjs's, ready); `position()`: the
 * game against one bot's scores and seat to move, or null.
 */
export function startStrategy(theEngine, position) {
  engine = theEngine;
  gamePosition = position;
  $('dist-draw').disabled = false;
  $('strategy-status').textContent = 'Ready.';
  drawAll();
}

for (const radio of document.querySelectorAll('input[name="mode"]')) {
  radio.addEventListener('change', drawAll);
}
$('distribution-form').addEventListener('submit', drawDistribution);
