// cases_page.js - the page itself: the CSP and security headers, typing and
// solving, moving around the grid, conflicts, pasted lines, the server's
// errors in words, Example and Clear, and locking a puzzle typed by hand.
'use strict';

const assert = require('node:assert/strict');
const {
  EXAMPLE, SOLUTION, DESKTOP, test, base, post, openPage, load, shot, axe,
  grid, cellsWith, focusedId, label, waitStatus, confirmWith,
} = require('./harness');

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
  "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

test('GET / carries the CSP and the security headers; no inline script or style', async () => {
  const page = await openPage();
  const resp = await load(page);
  const h = resp.headers();
  assert.equal(resp.status(), 200);
  assert.equal(h['content-security-policy'], CSP);
  assert.equal(h['x-content-type-options'], 'nosniff');
  assert.equal(h['x-frame-options'], 'DENY');
  assert.equal(h['referrer-policy'], 'no-referrer');
  assert.equal(h['cross-origin-opener-policy'], 'same-origin');
  assert.match(h['content-type'], /^text\/html/);
  for (const [p, type] of [['/app.js', /^text\/javascript/], ['/app.css', /^text\/css/],
    ['/favicon.ico', /^image\/x-icon$/]]) {
    const r = await fetch(base() + p);
    assert.equal(r.status, 200, p);
    assert.match(r.headers.get('content-type'), type, p);
    assert.equal(r.headers.get('content-security-policy'), CSP, p);
  }
  const inline = await page.evaluate(() =>
    document.querySelectorAll('script:not([src]), style, [style]').length);
  assert.equal(inline, 0, 'inline script, <style> or style attributes');
  assert.equal(await page.title(), 'sudokud: Sudoku solver');
  assert.equal(await page.getAttribute('link[rel=icon]', 'href'), '/favicon.ico');
  const icon = await page.evaluate(async () => {
    const img = new Image();
    img.src = '/favicon.ico';
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  assert.deepEqual(icon, [32, 32], 'the favicon decodes as a 32x32 image');
  await axe(page, 'empty board');
  await page.finish();
});

test('types the example with the keyboard, Solve shows the known solution', async () => {
  const page = await openPage(DESKTOP);
  await load(page);
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE);
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.inputValue('#line'), EXAMPLE, 'the line box mirrors the grid');
  await page.click('#solve');
  const st = await waitStatus(page, 'ok');
  assert.match(st.text, /^Solved in \d+ µs: \d+ search nodes?, (no guesses|\d+ guess(es)?)\.$/);
  assert.equal(await grid(page), SOLUTION);
  const givens = await cellsWith(page, 'is-given');
  const solved = await cellsWith(page, 'is-solved');
  assert.equal(givens.length, EXAMPLE.replace(/\./g, '').length);
  assert.equal(givens.length + solved.length, 81);
  const look = (id) => page.$eval('#' + id, (e) => {
    const s = getComputedStyle(e);
    return { color: s.color, weight: s.fontWeight };
  });
  const g = await look(givens[0]);
  const s = await look(solved[solved.length - 1]);
  assert.notEqual(g.weight, s.weight, 'solved digits have their own weight');
  assert.match(await label(page, solved[0]), /, solved$/);
  assert.match(await label(page, givens[0]), /^Row \d, column \d, box \d, given \d$/);
  await page.focus('#solve');
  await shot(page, 'solved.png');
  await axe(page, 'solved');
  await page.finish();
});

test('arrows, Home/End, digits and Backspace move and edit; Tab leaves the grid', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#c00');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedId(page), 'c12');
  await page.keyboard.press('5');
  assert.equal((await grid(page))[11], '5');
  assert.equal(await focusedId(page), 'c13', 'while entering a puzzle a digit moves on');
  await page.keyboard.press('x');
  assert.equal((await grid(page))[12], '.', 'letters are ignored');
  await page.keyboard.press('Backspace');
  assert.equal(await focusedId(page), 'c12', 'Backspace on a blank goes back');
  assert.equal((await grid(page))[11], '.', 'and erases');
  await page.keyboard.press('7');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  assert.equal((await grid(page))[11], '.', 'Backspace on a digit erases it');
  assert.equal(await focusedId(page), 'c12', 'and stays');
  await page.keyboard.press('End');
  assert.equal(await focusedId(page), 'c18');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedId(page), 'c18', 'the edge stops');
  await page.keyboard.press('Home');
  assert.equal(await focusedId(page), 'c10');
  await page.keyboard.press('Control+End');
  assert.equal(await focusedId(page), 'c88');
  const tabbable = await page.$$eval('#board .cell', (els) => els.filter((e) => e.tabIndex === 0).map((e) => e.id));
  assert.deepEqual(tabbable, ['c88'], 'one tab stop in the grid (roving tabindex)');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), '1',
    'Tab leaves the grid for the number pad');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focusedId(page), 'c88', 'and Shift+Tab comes back to the same cell');
  assert.equal(await page.getAttribute('#board', 'role'), 'grid');
  assert.equal(await page.$$eval('#board [role=row]', (e) => e.length), 9);
  assert.equal(await page.$$eval('#board [role=gridcell]', (e) => e.length), 81);
  assert.equal(await label(page, 'c34'), 'Row 4, column 5, box 5, empty');
  await page.finish();
});

test('a conflicting digit: Solve gets 422 conflict and the cells are marked', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE.slice(0, 1) + '9');
  await page.click('#solve');
  const st = await waitStatus(page, 'error');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c00', 'c01']);
  for (const id of ['c00', 'c01']) {
    assert.equal(await page.getAttribute('#' + id, 'aria-invalid'), 'true', id);
    assert.match(await label(page, id), /conflict$/, id);
  }
  assert.match(st.text, /9 appears twice in row 1/);
  assert.match(st.text, /9 appears twice in the top left box/);
  const look = await page.$eval('#c01', (e) => {
    const s = getComputedStyle(e);
    return s.backgroundImage + ' | ' + s.boxShadow;
  });
  assert.match(look, /repeating-linear-gradient/);
  assert.match(look, /inset/);
  await page.focus('#solve');
  await shot(page, 'conflict.png');
  await page.click('#c01');
  await page.keyboard.press('Backspace');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), []);
  await page.finish();
});

test('pasting a malformed line says what is wrong and loads nothing', async () => {
  const page = await openPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  await load(page);
  const paste = async (text) => {
    await page.fill('#line', '');
    await page.focus('#line');
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press('Control+V');
  };
  await paste('9' + EXAMPLE);
  let st = await waitStatus(page, 'error');
  assert.match(st.text, /That line has 82 characters .*exactly 81/);
  assert.equal(await page.getAttribute('#line', 'aria-invalid'), 'true');
  assert.equal(await grid(page), '.'.repeat(81), 'nothing was loaded');
  await shot(page, 'error.png');

  await paste(EXAMPLE.slice(0, 40) + 'x' + EXAMPLE.slice(41));
  st = await waitStatus(page, 'error', /Character 41/);
  assert.match(st.text, /Character 41 of the line, “x” \(row 5, column 5\), is not allowed/);

  await paste(EXAMPLE.match(/.{9}/g).join(' '));
  st = await waitStatus(page, 'ok');
  assert.equal(st.text, 'Loaded a puzzle with ' + EXAMPLE.replace(/\./g, '').length + ' givens.');
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.getAttribute('#line', 'aria-invalid'), null);

  // Straight into the grid: a line pasted while a cell has the focus.
  await page.click('#clear');
  await page.click('#c44');
  await page.evaluate((t) => navigator.clipboard.writeText(t), SOLUTION.slice(0, 80) + '.');
  await page.keyboard.press('Control+V');
  st = await waitStatus(page, 'ok', /^Loaded a puzzle with 80 givens/);
  assert.equal(await grid(page), SOLUTION.slice(0, 80) + '.');

  await page.click('#clear');
  await page.fill('#line', '12345678');
  await page.click('#load');
  st = await waitStatus(page, 'error', /has 8 characters/);
  await page.finish();
});

test('other API errors: the server\'s detail is shown in plain words', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#solve');
  let st = await waitStatus(page, 'error');
  assert.match(st.text, /board is empty/, 'an empty board is not sent');
  await page.click('#c44');
  await page.keyboard.press('5');
  await page.click('#solve');
  st = await waitStatus(page, 'error', /.../);
  const res = await post('/solve', { board: '.'.repeat(40) + '5' + '.'.repeat(40) });
  const detail = (await res.json()).detail;
  assert.equal(res.status, 422);
  assert.equal(st.text, detail.charAt(0).toUpperCase() + detail.slice(1) + '.');
  await page.finish();
});

test('Example and Clear', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  assert.equal(await grid(page), EXAMPLE);
  await page.click('#solve');
  await confirmWith(page, 'Reveal the solution'); // Solve during a game asks first
  await waitStatus(page, 'ok', /Solved/);
  await page.click('#clear');
  assert.equal(await grid(page), '.'.repeat(81));
  assert.equal(await page.inputValue('#line'), '');
  assert.deepEqual(await cellsWith(page, 'is-solved'), []);
  await page.finish();
});

test('a puzzle typed by hand is locked by Play this puzzle', async () => {
  const page = await openPage();
  await load(page);
  assert.equal(await page.textContent('#mode'), 'Entering a puzzle');
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE);
  await page.click('#play');
  await waitStatus(page, 'ok', /locked/);
  assert.equal(await page.textContent('#mode'), 'Playing');
  assert.equal(await page.isVisible('#play'), false);
  assert.equal(new URL(page.url()).hash, '#p=' + EXAMPLE, 'the address carries the puzzle');
  await page.click('#c00');
  await page.keyboard.press('1');
  await waitStatus(page, 'info', /holds a given 9/);
  assert.equal((await grid(page))[0], '9');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('5');
  assert.equal(await focusedId(page), 'c01', 'while playing, a digit stays in its cell');
  assert.deepEqual(await cellsWith(page, 'is-player'), ['c01']);
  assert.equal(await label(page, 'c01'), 'Row 1, column 2, box 1, 5');
  await page.finish();
});
