// The page's strategy mode (web/play/, "Strategy pictures") in a real browser
// (Debian's Chromium, headless, through playwright-core): nothing drawn at the
// page's load; opened from the keyboard, each picture shown is, byte for byte,
// the file `martiandice plot KIND --out FILE` writes, with the SVG's title as
// its text; the distribution redrawn at other scores and seat; a bad score
// shows its message and keeps the picture. Opened during a game against one
// bot, the distribution is the game's position. At 375 px each picture is at
// its own size, scrolling sideways in its box, and the page fits the width.
// Screenshots: strategy-desktop.png and strategy-phone.png in
// build-wasm/screenshots/ (or $MARTIANDICE_SCREENSHOTS).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { browserTests } from './browser.mjs';
import { repo, runPlot } from './cli.mjs';

const screenshots = process.env.MARTIANDICE_SCREENSHOTS ?? `${repo}build-wasm/screenshots`;
const { missing, url, newPage } = await browserTests();

// The picture shown for `kind`: the SVG text of its <img>, its text and its
// widths, and what its full-size link holds.
async function shown(page, kind) {
  return page.$eval(`#${kind}-picture a img`, async (img) => ({
    svg: decodeURIComponent(img.src.slice(img.src.indexOf(',') + 1)),
    alt: img.alt,
    width: img.getBoundingClientRect().width,
    inner: img.clientWidth,  // without its border
    loaded: img.complete && img.naturalWidth > 0,
    linked: await (await fetch(img.parentElement.href)).text(),
    newTab: img.parentElement.target === '_blank',
  }));
}

async function checkPicture(page, kind, args) {
  const picture = await shown(page, kind);
  const theirs = runPlot(kind, args);
  assert.equal(picture.svg, theirs, `${kind} ${args.join(' ')}: the command line's file`);
  assert.equal(picture.linked, theirs, `${kind}: the full-size link holds the same picture`);
  assert.ok(picture.newTab, `${kind}: the full-size link opens a new tab`);
  assert.ok(picture.loaded, `${kind}: the browser drew the picture`);
  const title = /<title>([^<]*)<\/title>/.exec(theirs)[1];
  assert.ok(picture.alt.startsWith(title), `${kind}: its text starts with the SVG's title (${picture.alt})`);
  return picture;
}

async function openPage(viewport) {
  mkdirSync(screenshots, { recursive: true });
  const page = await newPage({ viewport });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url(`play/index.html?delay=0`));
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.$('#heatmap-picture img'), null, 'no picture is drawn at the page\'s load');
  assert.equal(await page.getAttribute('body', 'data-strategy'), null);
  return { page, errors };
}

async function openStrategy(viewport) {
  const { page, errors } = await openPage(viewport);
  // The mode switch from the keyboard: play -> coach -> strategy.
  await page.focus('input[name="mode"][value="play"]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.getAttribute('body', 'data-mode'), 'strategy');
  assert.equal(await page.isVisible('#setup'), false, 'the play mode is hidden');
  assert.equal(await page.isVisible('#coach-setup'), false, 'the coach mode is hidden');
  await page.waitForSelector('body[data-strategy="drawn"]');
  return { page, errors };
}

// Enters the distribution's scores and seat from the keyboard (Enter submits).
async function redraw(page, scores, seat) {
  const before = await page.$eval('#distribution-picture img', (img) => img.src);
  await page.fill('#dist-score-0', String(scores[0]));
  await page.fill('#dist-score-1', String(scores[1]));
  await page.selectOption('#dist-seat', String(seat));
  await page.focus('#dist-score-1');
  await page.keyboard.press('Enter');
  return before;
}

test('the strategy pictures are the command line\'s, and the distribution follows the scores (1280 px)',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openStrategy({ width: 1280, height: 900 });
    await checkPicture(page, 'heatmap', []);
    await checkPicture(page, 'stop', []);
    await checkPicture(page, 'distribution', []);
    assert.ok(await page.isHidden('#strategy .phone-only'), 'no word of sideways scrolling on a desktop');
    await page.screenshot({ path: `${screenshots}/strategy-desktop.png`, fullPage: true });

    const old = await redraw(page, [15, 20], 1);
    await page.waitForFunction((src) => document.querySelector('#distribution-picture img').src !== src, old);
    await checkPicture(page, 'distribution', ['--scores', '15,20', '--seat', '1']);
    assert.equal(await page.textContent('#distribution-error'), '');

    // A bad score: the message, the picture kept, the focus on the field.
    const kept = await redraw(page, [15, -3], 0);
    await page.waitForSelector('#distribution-error:not(:empty)');
    assert.equal(await page.textContent('#distribution-error'),
      'Seat 1\'s score must be a whole number of points, 0 or more (not "-3").');
    assert.equal(await page.$eval('#distribution-picture img', (img) => img.src), kept);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'dist-score-1');
    // A game already over: the library's message.
    await redraw(page, [30, 2], 0);
    await page.waitForFunction(() => /already over/.test(document.getElementById('distribution-error').textContent));
    assert.match(await page.textContent('#distribution-error'), /^Cannot draw it: .*the game is already over/);
    assert.equal(await page.$eval('#distribution-picture img', (img) => img.src), kept);
    assert.deepEqual(errors, []);
    await page.close();
  });

test('the strategy pictures at 375 px: their own size, scrolling in their boxes', { skip: missing ?? false }, async () => {
  const { page, errors } = await openStrategy({ width: 375, height: 812 });
  assert.ok(await page.isVisible('#strategy .phone-only'), 'the page says the pictures scroll');
  for (const kind of ['heatmap', 'stop', 'distribution']) {
    const picture = await checkPicture(page, kind, []);
    const natural = Number(/<svg[^>]* width="(\d+)"/.exec(picture.svg)[1]);
    assert.equal(picture.inner, natural, `${kind} is ${picture.inner} px wide, not its own ${natural}`);
    const box = await page.$eval(`#${kind}-picture`, (div) => ({ client: div.clientWidth, scroll: div.scrollWidth }));
    assert.ok(box.client <= 375 && box.scroll > box.client, `${kind}'s box scrolls: ${JSON.stringify(box)}`);
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `the page is ${width} px wide in 375 px`);
  await page.screenshot({ path: `${screenshots}/strategy-phone.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

// The game's scores and seat to move, as the play mode shows them.
const SETTLED = 'body[data-busy="false"][data-phase^="human-"], body[data-busy="false"][data-phase="over"]';
async function gamePosition(page) {
  return page.evaluate(() => ({
    scores: [...document.querySelectorAll('#scores li')].map((li) => Number(li.dataset.score)),
    seat: Number(document.querySelector('#scores li.mover').dataset.seat),
  }));
}

test('opened during a game against one bot, the distribution is the game\'s position',
  { skip: missing ?? false }, async () => {
    const { page, errors } = await openPage({ width: 1280, height: 900 });
    await page.click('#new-game');
    await page.waitForSelector(SETTLED);
    // Your first turn: roll, the first legal take, stop (or whatever the turn allows) until a bot has scored.
    while ((await gamePosition(page)).scores.every((x) => x === 0) || await page.isHidden('#roll')) {
      const phase = await page.getAttribute('body', 'data-phase');
      if (phase === 'over') break;
      if (phase === 'human-roll') await page.click('#roll');
      else if (phase === 'human-take') await page.click('#takes button');
      else await page.click('#stop');
      await page.waitForSelector(SETTLED);
    }
    const position = await gamePosition(page);
    assert.notDeepEqual(position.scores, [0, 0], 'a turn was scored');
    await page.check('input[name="mode"][value="strategy"]');
    await page.waitForSelector('body[data-strategy="drawn"]');
    assert.deepEqual(await page.evaluate(() => ({
      scores: [0, 1].map((seat) => Number(document.getElementById(`dist-score-${seat}`).value)),
      seat: Number(document.getElementById('dist-seat').value),
    })), position);
    await checkPicture(page, 'distribution', ['--scores', position.scores.join(','), '--seat', String(position.seat)]);
    assert.deepEqual(errors, []);
    await page.close();
  });
