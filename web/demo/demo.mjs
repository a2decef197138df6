// The demo page: one `best` answer from the package, shown as a table.
import { MartianDice, officialTableUrl } from '../src/martiandice.js';
import { percentText } from '../play/words.mjs';

const status = document.getElementById('status');
const percent = (x) => (x === null ? '–' : percentText(x));
try {
  const md = await MartianDice.create({ tables: [officialTableUrl(2)] });
  const answer = md.best({ objective: 'win', scores: [18, 22], seat: 0, aside: '3T 2R 4H 1K', roll: '1R 1H 1C' });
  const rows = document.querySelector('#options tbody');
  for (const option of answer.options) {
    const row = rows.insertRow();
    if (option.optimal) row.className = 'optimal';
    const label = `${option.count} ${option.take}${option.count === 1 ? '' : 's'}`;
    for (const text of [label, percent(option.stop), percent(option.roll), percent(option.value), option.then]) {
      row.insertCell().textContent = text;
    }
  }
  document.getElementById('options').hidden = false;
  const best = answer.best;
  document.getElementById('best').textContent =
    `Best: take ${best.count} ${best.take}, then ${best.then} (wins with probability ${answer.value.toFixed(6)}).`;
  status.textContent = `martiandice ${md.version}: answered ${performance.now().toFixed(0)} ms after navigation.`;
  document.body.dataset.ready = 'true';
} catch (error) {
  status.textContent = `Error: ${error.message}`;
  document.body.dataset.ready = 'error';
}
