// cases_killer.js - killer sudoku: a puzzle entered by paste and by dragging
// cages, drawn and solved.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');
const {
  ROOT, DESKTOP, test, needs, base, post, openPage, load, arrive, shot, axe, grid, cellsWith, label,
  waitStatus, confirmWith,
} = require('./harness');

// The first killer puzzle of tests/data/killer_puzzles: board, cages, solution.
function killerPuzzle() {
  const line = fs.readFileSync(path.join(ROOT, 'tests/data/killer_puzzles'), 'utf8')
    .split('\n').find((l) => l && !l.startsWith('#'));
  const [board, cages, solution] = line.split('|');
  return { board, cages: cages.split(';'), solution };
}

// Drags the mouse over the cells of a cage, from the first to the last.
async function dragCage(page, ids) {
  // The tools (where Draw a cage is) sit below: bring the grid back into view.
  await page.evaluate(() => document.querySelector('[role=grid]').scrollIntoView({ block: 'center' }));
  const centre = async (id) => {
    const b = await page.locator('#' + id).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const [x0, y0] = await centre(ids[0]);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (const id of ids.slice(1)) {
    const [x, y] = await centre(id);
    await page.mouse.move(x, y, { steps: 4 });
  }
  await page.mouse.up();
}

test('a killer puzzle entered by paste and by drag, drawn and solved', async () => {
  const page = await openPage(DESKTOP);
  await load(page);
  const k = killerPuzzle();
  const dragged = ['13:74,75', '7:98,99'];
  const pasted = k.cages.filter((c) => !dragged.includes(c));
  assert.equal(pasted.length, k.cages.length - 2);
  // The service's cage problems are shown counting from 1, cells marked.
  await page.fill('#line', '.'.repeat(81) + '|3:11,12;12:12,22');
  await page.click('#load');
  let st = await waitStatus(page, 'error', /share a cell/);
  assert.equal(st.text, 'Cages 1 and 2 share a cell: r1c2.');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c01']);
  assert.equal(await page.textContent('#mode'), 'Entering a puzzle', 'a bad puzzle is not played');

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  await page.focus('#line');
  await page.evaluate((t) => navigator.clipboard.writeText(t), k.board + '|' + pasted.join(';') + '|ignored');
  await page.keyboard.press('Control+V');
  // The refused puzzle's cages are still on the board: the page asks first.
  await confirmWith(page, 'Load it');
  st = await waitStatus(page, 'ok', /^Loaded a killer puzzle/);
  assert.match(st.text, new RegExp('with ' + pasted.length + ' cages'));
  assert.equal((await cellsWith(page, 'cage-head')).length, pasted.length, 'one sum per cage');
  const sumOf = (id) => page.getAttribute('#' + id + ' .cage-sum', 'data-sum');
  assert.equal(await sumOf('c00'), '5');
  assert.equal(await page.$eval('#c00 .cage-sum', (e) => getComputedStyle(e, '::before').content), '"5"',
    'the sum is drawn');
  assert.match(await label(page, 'c00'), /, cage sum 5$/);
  const dash = await page.$eval('#c00', (e) => {
    const s = getComputedStyle(e, '::before');
    return [s.borderTopStyle, s.borderTopWidth, s.borderLeftWidth, s.borderBottomWidth];
  });
  assert.equal(dash[0], 'dashed', 'cages are dashed');
  assert.notEqual(dash[1], '0px', 'r1c1 has a top side');
  assert.equal(dash[3], '0px', 'and none below: r2c1 is in its cage');

  await page.click('#cage-mode');
  assert.equal(await page.getAttribute('#cage-mode', 'aria-pressed'), 'true');
  for (const c of dragged) {
    const [sum, cells] = c.split(':');
    await dragCage(page, cells.split(',').map((rc) => 'c' + (rc[0] - 1) + (rc[1] - 1)));
    await page.waitForSelector('#cage-form:not([hidden])');
    assert.equal(await page.textContent('#cage-count'), String(cells.split(',').length));
    await page.fill('#cage-sum', sum);
    await page.keyboard.press('Enter');
    await waitStatus(page, 'ok', new RegExp('^Cage added: .*sum ' + sum));
  }
  // By keyboard too: undo the last cage, then Space on each cell and the sum.
  await page.click('#undo');
  assert.equal((await cellsWith(page, 'cage-head')).length, k.cages.length - 1);
  await page.focus('#c87');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  assert.deepEqual(await cellsWith(page, 'is-caging'), ['c87', 'c88']);
  await page.fill('#cage-sum', '7');
  await page.click('#cage-add');
  await waitStatus(page, 'ok', /^Cage added: 2 cells, sum 7/);
  await page.click('#cage-mode');
  assert.equal((await cellsWith(page, 'cage-head')).length, k.cages.length);
  assert.equal(await sumOf('c63'), '13');
  await page.focus('#solve');
  await shot(page, 'killer.png', false);
  await axe(page, 'killer cages');
  await page.click('#validate');
  st = await waitStatus(page, 'ok', /Valid/);
  await page.click('#solve');
  await confirmWith(page, 'Reveal the solution');
  await waitStatus(page, 'ok', /^Solved/);
  assert.equal(await grid(page), k.solution, 'the solution of the data file');
  await axe(page, 'killer solved');
  await page.finish();
});

// New game: a killer puzzle at a level (cages drawn, the level in the bar),
// then a variant at a level its size offers (a level it does not offer is
// no button, so no 422 reaches the player); each answer's level is asked
// of /grade again, as a client would.
test('New game makes a killer puzzle and a 6x6 puzzle at a level', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await arrive(page);
  const newGame = async (name) => {
    await page.getByRole('button', { name: 'New game', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New game' });
    return dialog.getByRole('button', { name: name, exact: true });
  };
  const bodies = [];
  page.on('request', (r) => { if (r.url().endsWith('/generate')) bodies.push(JSON.parse(r.postData())); });
  await (await newGame('Killer easy')).click();
  await waitStatus(page, 'ok', /^A new killer easy puzzle/);
  assert.deepEqual(bodies.pop(), { killer: true, difficulty: 'easy' });
  assert.ok((await page.locator('.cage-sum').count()) > 0, 'the cages are drawn with their sums');
  assert.equal(await page.textContent('#level'), 'Killer, easy');

  await page.getByRole('combobox', { name: 'Size' }).selectOption('6');
  if (await page.getByRole('dialog').isVisible()) await confirmWith(page, 'Change the board');
  await page.waitForFunction(() => document.querySelectorAll('[role=gridcell]').length === 36);
  const medium = await newGame('Medium');
  const levels = await page.getByRole('dialog', { name: 'New game' }).getByRole('button').allTextContents();
  assert.deepEqual(levels.slice(0, 5), ['Easy', 'Medium', 'Hard', 'Expert', 'A new 6x6 puzzle'], '6x6 offers no extreme level');
  await medium.click();
  await waitStatus(page, 'ok', /^A new medium 6x6 puzzle/);
  assert.deepEqual(bodies.pop(), { size: 6, difficulty: 'medium' });
  assert.equal(await page.textContent('#level'), '6x6, medium');
  const board = await page.evaluate(() => Array.from(document.querySelectorAll('[role=gridcell]'))
    .map((e) => e.firstChild.textContent || '.').join(''));
  const res = await post('/grade', { board: board });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).level, 'medium');
  await page.finish();
});
