// cases_look.js - how the page looks: dark mode (by the system and by the
// toggle, contrast kept) and a 390x844 phone played by touch.
'use strict';

const assert = require('node:assert/strict');
const {
  EXAMPLE, SOLUTION, DESKTOP, PHONE, test, openPage, load, shot, axe, grid,
  cellsWith, focusedId, label, idOf, waitStatus, ratio, bg, contrasts, inView,
} = require('./harness');

test('dark mode: by the system setting and by the toggle, contrast kept', async () => {
  const page = await openPage(Object.assign({ colorScheme: 'dark' }, DESKTOP));
  await load(page);
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'true');
  const dark = await bg(page, 'html');
  assert.ok(ratio(dark, 'rgb(0, 0, 0)') < 2, 'the page is dark: ' + dark);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  for (let k = 0; k < 3; k++) await page.click('#hint');
  await waitStatus(page, 'ok', /^Hint 3/);
  const r = await contrasts(page);
  console.log('     dark contrast: highlight ' + r.highlight.toFixed(2) + ':1, ring on cell ' + r.ringOnCell.toFixed(2) +
              ':1, on peers ' + r.ringOnPeer.toFixed(2) + ':1, on page ' + r.ringOnPage.toFixed(2) + ':1');
  await page.focus('#theme');
  await shot(page, 'dark.png', false);
  await axe(page, 'dark');
  await page.click('#theme');
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'false');
  assert.ok(ratio(await bg(page, 'html'), 'rgb(255, 255, 255)') < 1.2, 'the toggle makes it light');
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'false', 'and is remembered');
  await page.finish();
});

test('on a 390x844 phone: number pad below the grid, play by touch, hint in view', async () => {
  const page = await openPage(PHONE);
  await load(page);
  await page.tap('#example');
  await waitStatus(page, 'ok', /Example/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, 'no sideways scrolling (scrollWidth ' + width + ')');
  const board = await page.locator('#board').boundingBox();
  const pad = await page.locator('#pad').boundingBox();
  assert.ok(board.x >= 0 && board.x + board.width <= 390, 'the grid fits the width');
  assert.ok(pad.y >= board.y + board.height, 'the pad is below the grid');
  assert.ok(pad.y + pad.height <= 844, 'and in view');
  for (const name of ['1', '9', 'Erase', 'Notes', 'Undo', 'Redo']) {
    const b = page.getByRole('button', { name: name, exact: true });
    const bb = await b.boundingBox();
    assert.ok(bb.height >= 44 && bb.width >= 32, name + ' is big enough to tap (' + bb.width + 'x' + bb.height + ')');
  }
  const cell = await page.locator('#c00').boundingBox();
  assert.ok(cell.width >= 32, 'cells stay big enough to tap (' + cell.width + ' px)');
  const blank = EXAMPLE.indexOf('.');
  await page.tap('#' + idOf(blank));
  await page.tap('#pad-digits button:text-is("' + SOLUTION[blank] + '")');
  assert.equal((await grid(page))[blank], SOLUTION[blank]);
  await page.tap('#undo');
  assert.equal((await grid(page))[blank], '.');
  await page.tap('#autofill');
  assert.match(await label(page, idOf(blank)), /, empty, notes( [1-9])+$/, 'Fill in notes writes candidates');
  assert.match(await label(page, idOf(blank)), new RegExp('notes .*' + SOLUTION[blank]));
  await page.tap('#undo');
  assert.match(await label(page, idOf(blank)), /, empty$/, 'and Undo takes them back');
  await page.tap('#hint');
  await waitStatus(page, 'info', /^Hint 1/);
  await page.tap('#hint');
  await page.tap('#hint');
  await waitStatus(page, 'ok', /^Hint 3/);
  assert.ok(await inView(page, '#status'), 'the hint\'s words are in view');
  assert.ok(await inView(page, '#' + (await cellsWith(page, 'is-hint'))[0]), 'and so is its cell');
  await shot(page, 'phone.png', false);
  await axe(page, 'phone');
  // A cage drawn with a finger: touch events through the debugging
  // protocol, as the touchscreen sends them (Playwright has only tap).
  await page.tap('#cage-mode');
  await page.evaluate(() => document.getElementById('board').scrollIntoView({ block: 'start' }));
  const scrolled = await page.evaluate(() => window.scrollY);
  const cdp = await page.context().newCDPSession(page);
  const centre = async (id) => {
    const b = await page.locator('#' + id).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const path3 = [await centre('c33'), await centre('c34'), await centre('c44')];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [path3[0]] });
  for (const p of path3.slice(1)) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'dragging over the grid does not scroll the page');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForSelector('#cage-form:not([hidden])');
  assert.deepEqual(await cellsWith(page, 'is-caging'), ['c33', 'c34', 'c44']);
  assert.equal(await focusedId(page), 'cage-sum', 'and the sum is asked for');
  await page.tap('#cage-cancel');
  await page.tap('#cage-mode');
  await page.setViewportSize({ width: 360, height: 740 });
  const w360 = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w360 <= 360, 'no sideways scrolling at 360 px (scrollWidth ' + w360 + ')');
  await page.finish();
});
