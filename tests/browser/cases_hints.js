// cases_hints.js - the optional endpoints: their buttons shown or hidden,
// Validate, Hint (a step drawn, a chain drawn), the solution path (/explain),
// Grade, and Generate by level and by rating.
'use strict';

const assert = require('node:assert/strict');
const {
  EXAMPLE, SOLUTION, DESKTOP, test, needs, Skip, post, serverHas, openPage,
  load, shot, axe, grid, cellsWith, label, idOf, waitStatus, ratio, bg, inView, confirmWith,
} = require('./harness');

const OPTIONAL = ['/validate', '/hint', '/grade', '/generate', '/explain'];

test('Validate, Hint, Grade, Generate, Solution path: shown when the server has them, hidden on 404', async () => {
  const page = await openPage();
  await load(page);
  for (const p of OPTIONAL) {
    const has = await serverHas(p);
    const sel = p === '/generate' ? '#generate-group' : '#' + p.slice(1);
    assert.equal(await page.isVisible(sel), has, p + (has ? ' exists: its button shows' : ' is 404: its button is hidden'));
  }
  await page.finish();
});

const ELIMINATION_FIRST =
  '1........6.392...1.....13..478.159..5.9......3.289...4834572619..61834..751..9238';

test('Validate: a good puzzle, a conflict, and two solutions', async () => {
  await needs('/validate');
  const page = await openPage();
  await load(page);
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE);
  await page.click('#validate');
  let st = await waitStatus(page, 'ok');
  assert.equal(st.text, 'Valid: no digit repeats, and the puzzle has exactly one solution.');
  await page.click('#c01');
  await page.keyboard.press('9');
  await page.click('#validate');
  st = await waitStatus(page, 'error');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c00', 'c01', 'c31']);
  await page.click('#clear');
  await confirmWith(page, 'Clear the board'); // the typed puzzle would be lost
  await page.click('#c00');
  await page.keyboard.press('1');
  await page.click('#validate');
  st = await waitStatus(page, 'error', /more than one solution/);
  await page.finish();
});

test('Hint at 1366x768: places the digit, draws the step, the words stay in view', async () => {
  await needs('/hint');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  // Hints come in three stages: where to look, why, the move.
  await page.click('#hint');
  await waitStatus(page, 'info', /^Hint 1 of 3/);
  await page.click('#hint');
  await waitStatus(page, 'info', /^Hint 2 of 3/);
  await page.click('#hint');
  let st = await waitStatus(page, 'ok', /^Hint 3 of 3/);
  const hinted = await cellsWith(page, 'is-hint');
  assert.equal(hinted.length, 1);
  const id = hinted[0];
  const i = Number(id[1]) * 9 + Number(id[2]);
  assert.equal((await grid(page))[i], SOLUTION[i], 'the hint is the solution\'s digit');
  assert.match(await label(page, id), /, hint$/);
  assert.equal(st.text, 'Hint 3 of 3, the move: ' + SOLUTION[i] + ' goes in row ' +
    (Number(id[1]) + 1) + ', column ' + (Number(id[2]) + 1) + '.');
  assert.doesNotMatch(st.text, /\[\d,\d\]/, 'no 0-based [r,c] left in the words');
  await page.keyboard.press('Control+z');
  assert.deepEqual(await cellsWith(page, 'is-hint'), [], 'a hint is undone like any move');

  // A step that only eliminates: its units are shaded, its cells outlined,
  // the candidates it rules out struck through, the digit it leads to placed.
  await page.fill('#line', ELIMINATION_FIRST);
  await page.click('#load');
  await waitStatus(page, 'ok', /Loaded/);
  await page.click('#autofill');
  await page.click('#hint');
  await waitStatus(page, 'info', /^Hint 1 of 3: look at row 2 and the top right box/);
  assert.equal((await cellsWith(page, 'is-unit')).length, 9 + 9 - 3, 'row 2 and box 3 are shaded');
  assert.equal(await page.$$eval('#board .notes .elim', (e) => e.length), 0, 'nothing struck yet');
  await page.click('#hint');
  const why = await waitStatus(page, 'info', /^Hint 2 of 3/);
  assert.match(why.text, /In row 2, 5 can only go in r2c7 and r2c8, all of them in box 3/);
  assert.match(why.text, /struck through/);
  assert.deepEqual(await cellsWith(page, 'is-pattern'), ['c16', 'c17'], 'the pattern is outlined');
  const struck0 = await page.$$eval('#board .notes .elim', (els) => els.map((e) => e.closest('.cell').id + ':' + e.textContent).sort());
  assert.deepEqual(struck0, ['c06:5', 'c07:5', 'c08:5', 'c27:5', 'c28:5'], 'the eliminations are struck through');
  await page.click('#hint');
  st = await waitStatus(page, 'ok', /^Hint 3 of 3/);
  assert.equal((await cellsWith(page, 'is-hint')).length, 1);
  assert.equal((await cellsWith(page, 'is-unit')).length, 9 + 9 - 3, 'row 2 and box 3 are shaded');
  // The move takes the ruled-out 5s off the notes and places the digit it leads to.
  assert.equal(await page.$$eval('#board .notes .elim', (e) => e.length), 0);
  assert.doesNotMatch(await label(page, 'c06'), /notes [^,]*5/, 'the 5 is gone from the notes');
  assert.match(st.text, /^Hint 3 of 3, the move: the step rules out 5 candidates \(taken off your notes\), and then \d goes in row \d, column \d \(.+\)/);
  assert.ok(await inView(page, '#status'), 'the explanation is in view at 1366x768');
  assert.ok(await inView(page, '#' + (await cellsWith(page, 'is-hint'))[0]), 'and so is the hinted cell');
  const side = await page.locator('#status').boundingBox();
  const board = await page.locator('#board').boundingBox();
  assert.ok(side.x > board.x + board.width, 'the message is next to the grid');
  await page.focus('#hint');
  await shot(page, 'hint.png', false);
  await axe(page, 'hint drawn');
  await page.finish();
});

// A board whose next step is a skyscraper (on 7): found by applying the
// hints' placements to a 17-clue puzzle of tests/data/puzzles2_17_clue.
const CHAIN_NEXT =
  '8.1.26543.46..58125231846792.86.135441..5.268365248197.3.5124861824697356548..921';

test('Hint draws a chain: a line per link, solid strong and dashed weak', async () => {
  await needs('/hint');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.fill('#line', CHAIN_NEXT);
  await page.click('#load');
  await waitStatus(page, 'ok', /Loaded/);
  await page.click('#hint');
  await waitStatus(page, 'info', /^Hint 1 of 3/);
  assert.equal(await page.$$eval('.links *', (e) => e.length), 0, 'where to look first, no chain yet');
  await page.click('#hint');
  const st = await waitStatus(page, 'info', /^Hint 2 of 3/);
  const res = await post('/hint', { board: CHAIN_NEXT });
  const want = await res.json();
  if (!Array.isArray(want.links) || want.links.length < 2) throw new Skip('this engine gives no chain here');
  assert.match(st.text, /Follow the line drawn on the board: if 7 in r1c4 is false, then 7 in r1c2 is true/);
  assert.doesNotMatch(st.text, /\d ?r\dc\d = /, 'no chain notation left');
  assert.match(st.text, /Solid lines are strong links, dashed lines weak ones/);
  const drawn = await page.$$eval('#board + .links .link', (ls) => ls.map((l) => l.getAttribute('class')));
  assert.deepEqual(drawn, want.links.slice(0, -1).map((n) => 'link link-' + n.link), 'one line per link, in order');
  assert.equal(await page.$$eval('.links .link-node', (c) => c.length), want.links.length, 'a ring per node');
  const dash = await page.$$eval('.links .link', (ls) => ls.map((l) => getComputedStyle(l).strokeDasharray));
  want.links.slice(0, -1).forEach((n, k) => assert.equal(dash[k] !== 'none', n.link === 'weak', 'link ' + k + ' dashing'));
  const first = want.links[0];
  assert.match(await label(page, idOf(first.cell[0] * 9 + first.cell[1])),
    new RegExp("in the hint's chain on " + first.digit));
  // The line starts at the node's candidate: its place in the cell's 3x3.
  const ring = await page.$eval('.links .link-node', (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  const d = first.digit;
  assert.deepEqual(ring.map((v) => v.toFixed(3)), [first.cell[1] + ((d - 1) % 3 + 0.5) / 3,
    first.cell[0] + (Math.floor((d - 1) / 3) + 0.5) / 3].map((v) => v.toFixed(3)));
  const colour = await page.$eval('.links .link', (l) => getComputedStyle(l).stroke);
  assert.ok(ratio(colour, await bg(page, '#c88')) >= 3, 'the chain is 3:1 or more against the cells');
  assert.ok(await inView(page, '#status'));
  await page.focus('#hint');
  await shot(page, 'chain.png', false);
  await axe(page, 'a chain drawn');
  await page.click('#hint');
  await waitStatus(page, 'ok', /^Hint 3 of 3/);
  await page.click('#c88');
  assert.equal(await page.$$eval('.links *', (e) => e.length), 0, 'looking elsewhere after the move clears the drawing');
  await page.finish();
});

test('Solution path (/explain) and Generate by rating range', async () => {
  await needs('/explain');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  await page.click('#explain');
  const st = await waitStatus(page, 'ok', /^The solution path/);
  const res = await post('/explain', { board: EXAMPLE });
  const want = await res.json();
  const items = await page.$$eval('#path li', (li) => li.map((e) => e.textContent));
  assert.equal(items.length, want.steps.length, 'one item per step');
  assert.match(st.text, new RegExp(want.steps.length + ' steps by logic alone, level ' + want.level));
  assert.doesNotMatch(items.join(' '), /\[\d,\d\]/, 'cells counted from 1');
  assert.ok(await page.isVisible('#path-view'));
  await axe(page, 'solution path');
  await page.click('#path-close');
  assert.equal(await page.isVisible('#path-view'), false);

  await page.selectOption('#difficulty', '');
  await page.fill('#min-rating', '2.4');
  await page.fill('#max-rating', '3.4');
  await page.click('#generate');
  const g = await waitStatus(page, 'ok', /^A new/);
  const m = /\(rating (\d+\.\d)\)/.exec(g.text);
  assert.ok(m, 'the rating is said: ' + g.text);
  assert.ok(Number(m[1]) >= 2.4 && Number(m[1]) <= 3.4, 'and within the range asked: ' + m[1]);
  await page.fill('#max-rating', '13');
  await page.click('#generate');
  await waitStatus(page, 'error', /rating is a number from 1.0 to 12.0/);
  await page.finish();
});

test('Grade, and Generate at all five levels', async () => {
  await needs('/grade');
  await needs('/generate');
  const page = await openPage();
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  await page.click('#grade');
  let st = await waitStatus(page, 'ok', /^This puzzle/);
  assert.match(st.text, /^This puzzle is (easy|medium|hard|expert|extreme)( \(rating \d+\.\d\))?\./);
  const levels = await page.$$eval('#difficulty option', (o) => o.map((e) => e.value));
  assert.deepEqual(levels, ['easy', 'medium', 'hard', 'expert', 'extreme', '']);
  for (const level of ['extreme', 'easy']) {
    await page.selectOption('#difficulty', level);
    await page.click('#generate');
    st = await waitStatus(page, 'ok', new RegExp('^A new ' + level));
    assert.match(st.text, new RegExp('^A new ' + level + ' puzzle( \\(rating \\d+\\.\\d\\))? with \\d+ givens\\.'));
  }
  assert.ok((await grid(page)).replace(/\./g, '').length >= 17, 'a generated puzzle has givens');
  await page.click('#solve');
  await confirmWith(page, 'Reveal the solution');
  await waitStatus(page, 'ok', /Solved/);
  assert.doesNotMatch(await grid(page), /\./, 'and Solve fills it');
  await page.finish();
});
