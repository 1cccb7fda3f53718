// cases_player.js - the page as a player meets it (issue 31), at 1366x768
// and 390x844, light and dark: a puzzle waiting on arrival, conflicts as you
// type, questions before anything is lost, keys after the pad, staged
// hints, pause and the clock, the finish with statistics and a result to
// copy, the daily puzzle, colours, a layout that stays put, zoom on 16x16
// and the keystroke time on 25x25. Selectors are roles, names and aria-*
// only. With PAGE_SHOTS=docs/page (make test-browser PAGE_SHOTS=docs/page)
// the screenshots of docs/page.md are written there as well; a plain run
// leaves the source tree alone.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');
const {
  ROOT, DESKTOP, PHONE, test, needs, base, post, solveBody, openPage, arrive, shot, axe, ratio,
} = require('./harness');

const DOCS = process.env.PAGE_SHOTS ? path.resolve(ROOT, process.env.PAGE_SHOTS) : null;

// A screenshot of the viewport at CSS pixels, into build/browser/ (and
// PAGE_SHOTS when set).
async function docShot(page, name) {
  await shot(page, name, false);
  if (DOCS === null) return;
  fs.mkdirSync(DOCS, { recursive: true });
  await page.screenshot({ path: path.join(DOCS, name), scale: 'css' });
}

const cells = (page) => page.getByRole('gridcell');
// The board's digits, one character a cell ('.' for a blank).
const digits = (page) => cells(page).evaluateAll((els) => els.map((e) => e.firstChild.textContent || '.').join(''));
const cell = (page, i) => cells(page).nth(i);
const status = (page) => page.getByRole('status').first();
const bar = (page) => page.getByRole('group', { name: 'Game' });
const button = (page, name) => page.getByRole('button', { name: name, exact: true });
const rc = (i) => 'row ' + (Math.floor(i / 9) + 1) + ', column ' + (i % 9 + 1);

async function waitText(page, re) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[role=status]').textContent), re.source);
  return (await status(page).textContent()).trim();
}

// A blank cell and a given of its row: typing that digit there clashes.
function clashPair(puzzle) {
  for (let i = 0; i < 81; i++) {
    if (puzzle[i] !== '.') continue;
    const r = Math.floor(i / 9);
    for (let c = 0; c < 9; c++) if (puzzle[r * 9 + c] !== '.') return [i, r * 9 + c];
  }
  throw new Error('no clash to make');
}

for (const [size, opts] of [['1366x768', DESKTOP], ['390x844', PHONE]]) {
  test('a player at ' + size + ': a puzzle waiting, conflicts, keys after the pad, questions first, staged hint', async () => {
    await needs('/generate');
    await needs('/hint');
    const page = await openPage(opts);
    await arrive(page);
    const suffix = size === '1366x768' ? '' : '-phone';

    // Arrival: a Medium puzzle, New game at hand, the tools closed.
    assert.match(await bar(page).textContent(), /Level Medium/);
    const puzzle = await digits(page);
    assert.ok(puzzle.replace(/\./g, '').length >= 17, 'givens on arrival');
    assert.ok(await button(page, 'New game').isVisible());
    assert.equal(await button(page, 'Validate').isVisible(), false, 'developer tools closed');
    assert.equal(await page.getByRole('group', { name: 'Developer tools' }).isVisible(), false);
    assert.match(await page.getByRole('combobox', { name: 'Rules' }).getAttribute('aria-describedby'), /\S/);
    assert.match(await page.getByText(/^9x9\. Classic: every row, column and box holds each digit once\.$/).textContent(), /Classic/);
    await docShot(page, 'arrival' + suffix + '.png');
    await axe(page, 'arrival ' + size);

    // A conflict as you type: both cells invalid, each naming the other.
    const [blank, given] = clashPair(puzzle);
    await cell(page, blank).click();
    await page.keyboard.press(puzzle[given]);
    assert.equal(await cell(page, blank).getAttribute('aria-invalid'), 'true');
    assert.equal(await cell(page, given).getAttribute('aria-invalid'), 'true');
    assert.match(await cell(page, blank).getAttribute('aria-label'), new RegExp('clashes with ' + rc(given)));
    assert.match(await cell(page, given).getAttribute('aria-label'), /clashes with row \d, column \d/);
    assert.match(await waitText(page, /already in/), new RegExp(puzzle[given] + ' is already in ' + rc(given)));
    assert.match(await bar(page).textContent(), /Mistakes 1/, 'a wrong digit counts against the solution');
    const look = await cell(page, blank).evaluate((e) => getComputedStyle(e).boxShadow);
    assert.match(look, /inset/, 'marked visibly, not by colour alone');
    await docShot(page, 'conflict' + suffix + '.png');
    await axe(page, 'conflict ' + size);

    // Keys after a pad button: the focus is on the button, keys still play.
    await page.getByRole('group', { name: 'Number pad' }).getByRole('button', { name: 'Erase' }).click();
    assert.equal((await digits(page))[blank], '.');
    const next = puzzle.indexOf('.', blank + 1);
    await page.getByRole('group', { name: 'Number pad' }).getByRole('button', { name: '1', exact: true }).click();
    assert.equal((await digits(page))[blank], '1', 'the pad fills the selected cell');
    await page.keyboard.press('Backspace');
    assert.equal((await digits(page))[blank], '.', 'Backspace after the pad still erases');
    for (let k = blank; k < next; k++) await page.keyboard.press('ArrowRight');
    if (Math.floor(next / 9) === Math.floor(blank / 9)) {
      await page.keyboard.press('2');
      assert.equal((await digits(page))[next], '2', 'arrows and a digit after the pad');
      await page.keyboard.press('Delete');
    }

    // Nothing lost to one click: New game asks when there is progress.
    await cell(page, blank).click();
    await page.keyboard.press('Shift+3');
    const before = await digits(page);
    const absY = async (b) => (await b.boundingBox()).y + await page.evaluate(() => window.scrollY);
    const layoutY = await absY(button(page, 'Hint'));
    await button(page, 'New game').click();
    const dialog = page.getByRole('dialog', { name: 'New game' });
    await dialog.waitFor();
    assert.match(await dialog.textContent(), /Your game in progress \(0 digits, \d+:\d\d\) will be lost/);
    for (const l of ['Easy', 'Medium', 'Hard', 'Expert', 'Extreme']) assert.ok(await dialog.getByRole('button', { name: l, exact: true }).isVisible());
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await digits(page), before, 'cancel keeps the game');
    await button(page, 'Reveal solution').click();
    const ask = page.getByRole('dialog', { name: 'Reveal the solution?' });
    await ask.waitFor();
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'hidden' });
    assert.equal(await digits(page), before, 'Escape keeps it too');

    // A staged hint: where to look, why, the move; the buttons stay put.
    await button(page, 'Hint').click();
    const h1 = await waitText(page, /^Hint 1 of 3: look at /);
    assert.match(h1, /\(shaded\)\. [A-Z][^(]+ \([a-z ,XYZ-]+\): /, 'a plain name, the expert one beside it');
    assert.equal(await digits(page), before, 'stage 1 places nothing');
    await button(page, 'Show why').click();
    const h2 = await waitText(page, /^Hint 2 of 3, why: /);
    assert.doesNotMatch(h2, /\[\d,\d\]/);
    assert.equal(await absY(button(page, 'Show the move')), layoutY, 'messages do not move the buttons');
    await docShot(page, 'hint' + suffix + '.png');
    await axe(page, 'staged hint ' + size);
    await button(page, 'Show the move').click();
    await waitText(page, /^Hint 3 of 3, the move: /);
    assert.equal(await page.getByRole('gridcell', { name: /, hint$/ }).count(), 1);
    assert.ok(await button(page, 'Hint').isVisible(), 'the button is Hint again');
    await page.finish();
  });

  test('a player at ' + size + ': pause, a clock that is always right, the finish, statistics, a result to copy', async () => {
    await needs('/generate');
    const page = await openPage(Object.assign({ colorScheme: size === '390x844' ? 'dark' : 'light' }, opts));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
    await page.clock.install();
    await arrive(page);
    const suffix = size === '1366x768' ? '' : '-phone';
    const timer = () => bar(page).textContent().then((t) => /Time (\d+:\d\d)/.exec(t)[1]);
    await page.clock.runFor(5000);
    assert.equal(await timer(), '0:05');
    await button(page, 'Pause').click();
    assert.equal(await button(page, 'Paused').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.getByRole('grid').isVisible(), false, 'the board is hidden while paused');
    await page.clock.runFor(60000);
    assert.equal(await timer(), '0:05', 'and the clock stopped');
    await docShot(page, 'pause' + suffix + '.png');
    await axe(page, 'paused ' + size);
    await button(page, 'Resume').click();
    await page.clock.runFor(3000);
    assert.equal(await timer(), '0:08');

    // Play to the end with one mistake and one hint.
    const puzzle = await digits(page);
    const sol = await solveBody({ board: puzzle });
    const blanks = [];
    for (let i = 0; i < 81; i++) if (puzzle[i] === '.') blanks.push(i);
    await cell(page, blanks[0]).click();
    await page.keyboard.press(String(Number(sol[blanks[0]]) % 9 + 1));
    for (const i of blanks) {
      await cell(page, i).click();
      await page.keyboard.press(sol[i]);
    }
    const finish = page.getByRole('dialog', { name: 'Solved!' });
    await finish.waitFor();
    const facts = await finish.textContent();
    assert.match(facts, /Time0:1\d/);
    assert.match(facts, /Mistakes1/);
    assert.match(facts, /Hints0/);
    assert.match(facts, /LevelMedium/);
    assert.match(facts, /Streak1/);
    await docShot(page, 'finish' + suffix + '.png');
    await axe(page, 'finish ' + size);
    await finish.getByRole('button', { name: 'Copy result' }).click();
    await finish.getByText('Copied: paste it anywhere.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /^sudokud Medium Sudoku: solved in 0:1\d, 1 mistake, 0 hints\.\nhttp:\/\/127\.0\.0\.1:\d+\/#p=[1-9.]{81}$/);
    await finish.getByRole('button', { name: 'Close' }).click();

    // Erasing a cell of the finished board: playing again, the clock runs.
    await cell(page, blanks[3]).click();
    await page.keyboard.press('Backspace');
    const t0 = await timer();
    await page.clock.runFor(2000);
    assert.notEqual(await timer(), t0, 'the clock runs after erasing a cell of a finished board');

    // Reveal (asked), then undone: the clock runs again.
    await button(page, 'Reveal solution').click();
    await page.getByRole('dialog', { name: 'Reveal the solution?' }).getByRole('button', { name: 'Reveal the solution' }).click();
    await waitText(page, /^Solved in/);
    const t1 = await timer();
    await page.clock.runFor(4000);
    assert.equal(await timer(), t1, 'stopped once revealed');
    await button(page, 'Undo').click();
    await page.clock.runFor(2000);
    assert.notEqual(await timer(), t1, 'running again after undoing Solve');

    // Statistics: a row per level, kept over a reload.
    const row = page.getByRole('row', { name: /^Medium/ });
    assert.match(await row.textContent(), /^Medium1 of 10:1\d0:1\d1$/);
    await page.reload();
    await page.getByRole('grid').waitFor();
    assert.match(await page.getByRole('row', { name: /^Medium/ }).textContent(), /^Medium1 of 1/);
    await page.finish();
  });
}

test('the daily puzzle: the same for everyone on a date, seeded by it', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await arrive(page);
  const bodies = [];
  page.on('request', (r) => { if (r.url().endsWith('/generate')) bodies.push(JSON.parse(r.postData())); });
  await button(page, 'Daily puzzle').click();
  const text = await waitText(page, /^The daily puzzle of \d{4}-\d\d-\d\d/);
  const date = /(\d{4}-\d\d-\d\d)/.exec(text)[1];
  assert.deepEqual(bodies.pop(), { difficulty: 'medium', seed: Number(date.replace(/-/g, '')) });
  const res = await post('/generate', { difficulty: 'medium', seed: Number(date.replace(/-/g, '')) });
  assert.equal(await digits(page), (await res.json()).puzzle, 'anyone asking for that seed gets this puzzle');
  assert.match(await bar(page).textContent(), new RegExp('Level Daily ' + date));
  await page.finish();
});

test('player digits stand apart from the givens, light and dark; the shading is light', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openPage(Object.assign({ colorScheme: scheme }, DESKTOP));
    await arrive(page);
    const puzzle = await digits(page);
    const blank = puzzle.indexOf('.');
    const given = puzzle.search(/[1-9]/);
    const sol = await solveBody({ board: puzzle });
    await cell(page, blank).click();
    await page.keyboard.press(sol[blank]);
    await cell(page, puzzle.indexOf('.', blank + 1)).click(); // the typed cell is plain again
    const style = (i) => cell(page, i).evaluate((e) => {
      const s = getComputedStyle(e);
      return [s.color, s.backgroundColor];
    });
    const [pc, pbg] = await style(blank);
    const [gc, gbg] = await style(given);
    const between = ratio(pc, gc);
    assert.ok(between >= 2, scheme + ': player against given ' + between.toFixed(2) + ':1');
    assert.ok(ratio(pc, pbg) >= 4.5, scheme + ': player on its cell ' + ratio(pc, pbg).toFixed(2));
    assert.ok(ratio(gc, gbg) >= 4.5, scheme + ': given on its cell ' + ratio(gc, gbg).toFixed(2));
    console.log('     ' + scheme + ': player/given ' + between.toFixed(2) + ':1, player ' + ratio(pc, pbg).toFixed(2) +
                ':1, given ' + ratio(gc, gbg).toFixed(2) + ':1 on their cells');
    await page.finish();
  }
});

test('variants: 16x16 notes legible with Zoom on a phone; a 25x25 keystroke redraws only what it changes', async () => {
  await needs('/generate');
  const page = await openPage(PHONE);
  await arrive(page);
  await page.getByRole('combobox', { name: 'Size' }).selectOption('16');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.querySelectorAll('[role=gridcell]').length === 256);
  assert.match(await page.getByText(/^16x16\. Classic/).textContent(), /Digits 1-9 then A-G\./);
  await button(page, 'New game').click();
  await page.getByRole('dialog', { name: 'New game' }).getByRole('button', { name: 'A new 16x16 puzzle' }).click();
  await waitText(page, /^A new 16x16 puzzle/);
  const b16 = await digits(page);
  const blank = b16.indexOf('.');
  await button(page, 'Zoom').click();
  assert.equal(await button(page, 'Zoom').getAttribute('aria-pressed'), 'true');
  await cell(page, blank).click();
  await page.getByRole('group', { name: 'Number pad' }).getByRole('button', { name: 'Notes' }).click();
  for (const k of ['1', '9', 'g']) await page.keyboard.press(k);
  await page.getByRole('gridcell', { name: /notes 1 9 G$/ }).waitFor();
  const note = await cell(page, blank).evaluate((e) => {
    const s = getComputedStyle(e.children[1]);
    return [parseFloat(s.fontSize), e.getBoundingClientRect().width];
  });
  assert.ok(note[0] >= 9, '16x16 notes ' + note[0] + ' px high when zoomed');
  assert.ok(note[1] >= 40, 'cells ' + note[1].toFixed(0) + ' px wide when zoomed');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, 'the page does not scroll sideways (' + width + ')');
  await axe(page, '16x16 zoomed');

  // 25x25: each keystroke redraws only the cells it changes (a whole-board
  // redraw per key is what made 25x25 slow), counted with a
  // MutationObserver; its time from keydown to the next frame is printed
  // as a figure, not asserted: on a shared 2-core machine a time says more
  // about the other jobs than about the page.
  await page.getByRole('combobox', { name: 'Size' }).selectOption('25');
  const ask = page.getByRole('dialog', { name: 'Change the board?' });
  await ask.getByRole('button', { name: 'Change the board' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[role=gridcell]').length === 625);
  await button(page, 'New game').click();
  await page.getByRole('dialog', { name: 'New game' }).getByRole('button', { name: 'A new 25x25 puzzle' }).click();
  await waitText(page, /^A new 25x25 puzzle/);
  const b25 = await digits(page);
  const first = b25.indexOf('.');
  await cell(page, first).click();
  await page.evaluate(() => {
    window.__keys = [];
    window.__touched = [];
    const grid = document.querySelector('[role=grid]');
    let seen = null;
    new MutationObserver((records) => {
      for (const r of records) {
        const c = (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest('[role=gridcell]');
        if (c && seen) seen.add(c);
      }
    }).observe(grid, { subtree: true, attributes: true, childList: true, characterData: true });
    document.addEventListener('keydown', () => {
      const t0 = performance.now();
      seen = new Set();
      requestAnimationFrame(() => setTimeout(() => {
        window.__keys.push(performance.now() - t0);
        window.__touched.push(seen.size);
      }, 0));
    }, { capture: true });
  });
  const keys = ['5', 'ArrowRight', 'A', 'ArrowDown', 'Backspace', 'P', 'ArrowLeft', '7', 'ArrowUp', 'Delete',
    'B', 'ArrowRight', '3', 'ArrowDown', 'K', 'Backspace'];
  for (const k of keys) await page.keyboard.press(k);
  await page.waitForFunction((n) => window.__keys.length === n, keys.length);
  const ms = (await page.evaluate(() => window.__keys)).sort((x, y) => x - y);
  const touched = await page.evaluate(() => window.__touched);
  const most = Math.max(...touched);
  console.log('     25x25 keystroke to next frame: median ' + ms[ms.length >> 1].toFixed(1) + ' ms, max ' +
              ms[ms.length - 1].toFixed(1) + ' ms over ' + ms.length + ' keys; at most ' + most +
              ' of 625 cells redrawn by one key');
  assert.ok(touched.some((n) => n > 0), 'the keys changed the board');
  assert.ok(most < 625, 'one keystroke redrew all 625 cells');
  await page.finish();
});
