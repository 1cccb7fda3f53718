// cases_game.js - playing: a generated game to the end (locked givens, notes,
// undo, mistakes, resume), the timer, and a puzzle opened from a link.
'use strict';

const assert = require('node:assert/strict');
const {
  EXAMPLE, DESKTOP, test, needs, base, solveBody, openPage, load, shot, axe,
  grid, cellsWith, label, idOf, waitStatus, contrasts, inView,
} = require('./harness');

test('a generated game played to the end: locked givens, notes, undo, mistakes, resume', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.selectOption('#difficulty', 'easy');
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new easy/);
  const puzzle = await grid(page);
  const sol = await solveBody({ board: puzzle });
  const blanks = [];
  for (let i = 0; i < 81; i++) if (puzzle[i] === '.') blanks.push(i);
  const given = puzzle.search(/[1-9]/);
  assert.equal(await page.textContent('#mode'), 'Playing');

  // A locked given: typing over it changes nothing and says why.
  await page.click('#' + idOf(given));
  const other = String(puzzle[given] % 9 + 1);
  await page.keyboard.press(other);
  assert.equal((await grid(page))[given], puzzle[given], 'the given stays');
  await waitStatus(page, 'info', /holds a given/);
  assert.match(await label(page, idOf(given)), new RegExp(', given ' + puzzle[given] + '$'));
  const gLook = await page.$eval('#' + idOf(given), (e) => getComputedStyle(e).fontWeight);

  // Same-digit highlight: every other cell with that digit.
  const same = [];
  for (let i = 0; i < 81; i++) if (i !== given && puzzle[i] === puzzle[given]) same.push(idOf(i));
  assert.deepEqual(await cellsWith(page, 'is-same'), same.sort());

  // Notes: with the toggle, and with Shift+digit; the label lists them.
  const a = blanks[0];
  const b = blanks[1];
  await page.click('#' + idOf(a));
  await page.click('#notes');
  assert.equal(await page.getAttribute('#notes', 'aria-pressed'), 'true');
  for (const d of ['1', '3', '8']) await page.click('#pad-digits button:text-is("' + d + '")');
  await page.click('#notes');
  assert.equal(await page.getAttribute('#notes', 'aria-pressed'), 'false');
  const rc = (i) => 'Row ' + (Math.floor(i / 9) + 1) + ', column ' + (i % 9 + 1) + ', box ' +
    (Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3) + 1);
  assert.equal(await label(page, idOf(a)), rc(a) + ', empty, notes 1 3 8');
  await page.click('#' + idOf(b));
  await page.keyboard.press('Shift+4');
  await page.keyboard.press('Shift+6');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6');
  await page.keyboard.press('Control+z');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4', 'undo takes back a note');
  await page.click('#redo');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6', 'redo puts it back');
  await page.click('#undo');
  await page.keyboard.press('Control+y');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6', 'and so does Ctrl+Y');
  await axe(page, 'notes');

  // A wrong digit with "show mistakes as I go": marked at once.
  await page.check('#auto-check');
  const wrong = String(sol[b] % 9 + 1);
  await page.click('#' + idOf(b));
  await page.keyboard.press(wrong);
  // (When the wrong digit also repeats one in its row, column or box, the
  // words name that clash instead.)
  await waitStatus(page, 'error', /marked as a mistake|both are marked/);
  assert.deepEqual(await cellsWith(page, 'is-mistake'), [idOf(b)]);
  assert.match(await label(page, idOf(b)), new RegExp(', ' + wrong + ', mistake(, clashes with row \\d, column \\d)?$'));
  assert.equal(await page.getAttribute('#' + idOf(b), 'aria-invalid'), 'true');
  const pLook = await page.$eval('#' + idOf(a), (e) => getComputedStyle(e).fontWeight);
  assert.ok(await inView(page, '#status'), 'the message is in view at 1366x768');
  await page.focus('#check');
  await shot(page, 'mistake.png', false);
  await axe(page, 'a mistake marked');
  await page.click('#undo');
  assert.deepEqual(await cellsWith(page, 'is-mistake'), [], 'the undone move takes its mark along');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6', 'and brings the notes back');
  await page.uncheck('#auto-check');

  // On request: a wrong digit is marked only when Check is pressed.
  await page.click('#' + idOf(b));
  await page.click('#pad-digits button:text-is("' + wrong + '")');
  assert.deepEqual(await cellsWith(page, 'is-mistake'), []);
  await page.click('#check');
  await waitStatus(page, 'error', /^1 mistake/);
  assert.deepEqual(await cellsWith(page, 'is-mistake'), [idOf(b)]);
  await page.click('#erase');
  assert.equal((await grid(page))[b], '.');

  const r = await contrasts(page);
  console.log('     contrast: highlight ' + r.highlight.toFixed(2) + ':1, ring on cell ' + r.ringOnCell.toFixed(2) +
              ':1, on peers ' + r.ringOnPeer.toFixed(2) + ':1, on page ' + r.ringOnPage.toFixed(2) + ':1');

  // Half the blanks by the number pad, then a reload resumes the game.
  const half = blanks.slice(0, Math.floor(blanks.length / 2));
  for (const i of half) {
    await page.click('#' + idOf(i));
    await page.click('#pad-digits button:text-is("' + sol[i] + '")');
  }
  const later = blanks[half.length];
  await page.click('#' + idOf(later));
  await page.keyboard.press('Shift+2');
  await page.keyboard.press('Shift+7');
  const before = await grid(page);
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  await waitStatus(page, 'info', /resumed/);
  assert.equal(await grid(page), before, 'the reload resumed the game');
  assert.equal(await page.textContent('#mode'), 'Playing');
  assert.match(await label(page, idOf(given)), /given/, 'with its givens locked');
  assert.equal(await page.isDisabled('#undo'), false, 'and its undo history');
  assert.equal(await label(page, idOf(later)), rc(later) + ', empty, notes 2 7', 'and its notes');
  await axe(page, 'resumed after a reload');
  assert.match(await page.getAttribute('#share', 'href'), new RegExp('#p=' + puzzle.replace(/\./g, '\\.') + '$'));

  // A malformed save (another version of the page, a person) is dropped,
  // not drawn: a second tab finds one and starts a new game, without an error.
  const tab = await page.context().newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.addInitScript(() => localStorage.setItem('sudokud.game.v1',
    JSON.stringify({ state: [['x'], 1, null], undo: ['{'] })));
  await tab.goto(base() + '/');
  await tab.waitForSelector('body[data-probed="true"]');
  await tab.waitForFunction(() => document.getElementById('mode').textContent === 'Playing');
  assert.notEqual(await grid(tab), before, 'a malformed save is dropped: a new game starts');
  assert.deepEqual(errors, []);
  await tab.close();
  await page.reload(); // this tab saves its game as it unloads
  await waitStatus(page, 'info', /resumed/);
  assert.equal(await grid(page), before);

  // The rest, then the game says it is won.
  for (const i of blanks.slice(half.length)) {
    await page.click('#' + idOf(i));
    await page.keyboard.press(sol[i]);
  }
  const st = await waitStatus(page, 'ok', /^Solved, well done/);
  assert.match(st.text, /Time \d+:\d\d\./);
  assert.equal(await grid(page), sol);
  assert.equal(await page.textContent('#mode'), 'Solved');
  assert.notEqual(gLook, pLook, 'givens and the player\'s digits differ in weight');
  await page.focus('#generate');
  await shot(page, 'game.png', false);
  await axe(page, 'game won');
  await page.finish();
});

test('the timer runs while the tab is visible and pauses while it is hidden', async () => {
  const page = await openPage();
  await page.clock.install();
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  assert.equal(await page.textContent('#timer'), '0:00');
  await page.clock.runFor(65000);
  assert.equal(await page.textContent('#timer'), '1:05');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.runFor(120000);
  assert.equal(await page.textContent('#timer'), '1:05', 'paused while hidden');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.runFor(10000);
  assert.equal(await page.textContent('#timer'), '1:15', 'and runs on when shown');
  await page.finish();
});

test('a link with the puzzle in its fragment opens that puzzle', async () => {
  const page = await openPage();
  await page.goto(base() + '/#p=' + EXAMPLE);
  await page.waitForSelector('#board[data-ready="true"]');
  await waitStatus(page, 'ok', /^Loaded a puzzle/);
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.textContent('#mode'), 'Playing');
  assert.equal(await page.getAttribute('#share', 'href'), base() + '/#p=' + EXAMPLE);
  await page.finish();
});
