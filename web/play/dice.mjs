// The dice as pictures: a small inline SVG for each face (tank, death ray,
// human, cow, chicken), drawn here, and rows of them for the play mode's
// panel and the how-to-play. Every picture has a text alternative ("3 tanks").
import { FACE, groups, plural } from './words.mjs';

// Each face's drawing on a 32×32 die (the die's body is drawn by dieSvg).
const DRAWINGS = {
  T: '<rect x="5" y="19" width="22" height="7" rx="3.5" fill="#3d3d3d"/>' +
    '<circle cx="9" cy="22.5" r="1.6" fill="#bbb"/><circle cx="13.7" cy="22.5" r="1.6" fill="#bbb"/>' +
    '<circle cx="18.3" cy="22.5" r="1.6" fill="#bbb"/><circle cx="23" cy="22.5" r="1.6" fill="#bbb"/>' +
    '<path d="M7 19 9.5 15h13L25 19z" fill="#666"/><rect x="11" y="10.5" width="9" height="5.5" rx="2" fill="#3d3d3d"/>' +
    '<rect x="19" y="12" width="9.5" height="2.2" rx="1" fill="#3d3d3d"/>',
  R: '<path d="M19 3.5 8 18h7l-3.5 10.5L24.5 13h-7.5l4-9.5z" fill="#1f7a3a" stroke="#0f4a22" stroke-width="1" stroke-linejoin="round"/>',
  H: '<circle cx="16" cy="8" r="3.8" fill="#2356a8"/>' +
    '<path d="M16 12.5v8.5M9 15.5h14M16 21l-4.5 7M16 21l4.5 7" stroke="#2356a8" stroke-width="2.8" stroke-linecap="round" fill="none"/>',
  C: '<path d="M10.5 9.5Q7 7 8 3.5M21.5 9.5Q25 7 24 3.5" stroke="#b08a3e" stroke-width="2" stroke-linecap="round" fill="none"/>' +
    '<ellipse cx="7" cy="12" rx="3.2" ry="1.8" fill="#8a5a00"/><ellipse cx="25" cy="12" rx="3.2" ry="1.8" fill="#8a5a00"/>' +
    '<rect x="10" y="7.5" width="12" height="17" rx="5" fill="#fff" stroke="#8a5a00" stroke-width="1.4"/>' +
    '<ellipse cx="13" cy="11" rx="2.4" ry="2" fill="#8a5a00"/>' +
    '<circle cx="13.5" cy="15" r="1.2" fill="#1d1d1f"/><circle cx="18.5" cy="15" r="1.2" fill="#1d1d1f"/>' +
    '<ellipse cx="16" cy="22.5" rx="6.2" ry="3.8" fill="#f0b49c" stroke="#8a5a00" stroke-width="1.2"/>' +
    '<circle cx="14" cy="22.5" r="0.9" fill="#8a5a00"/><circle cx="18" cy="22.5" r="0.9" fill="#8a5a00"/>',
  K: '<path d="M8 18 3 12.5l6.5 2z" fill="#fff" stroke="#a8233a" stroke-width="1.2" stroke-linejoin="round"/>' +
    '<path d="M13 25.5v3M17 25.5v3" stroke="#e08a00" stroke-width="1.6" stroke-linecap="round"/>' +
    '<ellipse cx="15" cy="19" rx="8.5" ry="6.8" fill="#fff" stroke="#a8233a" stroke-width="1.4"/>' +
    '<path d="M11 18.5q4 4.5 8 0" stroke="#a8233a" stroke-width="1.2" fill="none"/>' +
    '<circle cx="19.5" cy="6.3" r="1.6" fill="#d62839"/><circle cx="21.8" cy="5.6" r="1.6" fill="#d62839"/>' +
    '<circle cx="23.8" cy="6.8" r="1.5" fill="#d62839"/>' +
    '<circle cx="21.5" cy="11" r="4.3" fill="#fff" stroke="#a8233a" stroke-width="1.4"/>' +
    '<path d="M25.3 9.8 29 11.4l-3.7 1.6z" fill="#f4a300"/><circle cx="22.3" cy="10.3" r="1" fill="#1d1d1f"/>' +
    '<ellipse cx="24.6" cy="14.6" rx="1" ry="1.6" fill="#d62839"/>',
};

// The die's colours by face: body fill and edge.
const COLOURS = {
  T: ['#e6e6e6', '#707070'], R: ['#dff3e4', '#1f7a3a'], H: ['#e1ebfa', '#2356a8'],
  C: ['#fbefd8', '#8a5a00'], K: ['#fae1e5', '#a8233a'],
};

/** One die showing `letter` (T R H C K) as SVG markup; decorative (aria-hidden). */
export function dieSvg(letter) {
  const [fill, edge] = COLOURS[letter];
  return `<svg class="die die-${letter}" viewBox="0 0 32 32" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="30" height="30" rx="6" fill="${fill}" stroke="${edge}" stroke-width="1.6"/>` +
    `${DRAWINGS[letter]}</svg>`;
}

// A group of dice of one face: its text alternative and its pictures.
function group(g, grouped) {
  const box = document.createElement('span');
  box.className = `dice-group group-${g.letter}`;
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', plural(g.count, FACE[g.letter]));
  box.dataset.letter = g.letter;
  box.innerHTML = grouped ? `${dieSvg(g.letter)}<span class="times" aria-hidden="true">×${g.count}</span>`
    : dieSvg(g.letter).repeat(g.count);
  return box;
}

/**
 * Fills `element` with the dice of `notation` ("2T 3R 4H"): each face a group,
 * as one die and "×N" (`grouped`) or as N dice; `except` letters left out.
 * `data-dice` keeps the whole notation. Returns false when nothing changed.
 */
export function diceRow(element, notation, { grouped = false, except = '' } = {}) {
  const key = `${notation}|${grouped}|${except}`;
  if (element.dataset.key === key) return false;
  element.dataset.key = key;
  element.dataset.dice = notation ?? '-';
  const list = groups(notation).filter((g) => !except.includes(g.letter));
  element.replaceChildren(...list.map((g) => group(g, grouped)));
  if (list.length === 0) element.append(Object.assign(document.createElement('span'), { className: 'none', textContent: '–' }));
  return true;
}

/** Draws every `[data-die="T"]` placeholder under `root` (the how-to-play's pictures). */
export function drawDice(root) {
  for (const slot of root.querySelectorAll('[data-die]')) {
    slot.innerHTML = dieSvg(slot.dataset.die);
    if (!slot.hasAttribute('aria-label')) slot.setAttribute('aria-hidden', 'true');
  }
  for (const row of root.querySelectorAll('[data-dice-row]')) {
    diceRow(row, row.dataset.diceRow, { grouped: row.hasAttribute('data-grouped') });
  }
}
