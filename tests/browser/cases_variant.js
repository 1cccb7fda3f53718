// cases_variant.js - other sizes and variants in the one game grid: a 16x16
// game, a jigsaw 9x9, and the diagonal, window, knight and king rules.
'use strict';

const assert = require('node:assert/strict');
const {
  DESKTOP, test, needs, base, post, solveBody, openPage, load, shot, axe, grid,
  cellsWith, label, waitStatus, confirmWith, openTools,
} = require('./harness');

const DIGITS = '123456789ABCDEFGHIJKLMNOP';
const BOX_ROWS = { 4: 2, 6: 2, 8: 2, 9: 3, 12: 3, 16: 4, 25: 5 };
const JIGSAW9 = 'AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEEFFDDDEEFFFFDDDEEEFFF' +
  'GGGHHHIIIGGGHHHIIIGGGHHHIII';

// The box of cell i on an n x n board (boxes r x c, the wider side across).
const boxOfN = (n) => (i) => {
  const br = BOX_ROWS[n];
  const bc = n / br;
  return Math.floor(Math.floor(i / n) / br) * br + Math.floor((i % n) / bc);
};
// The page's cell id: c<row><column>, with a dash between them above 9x9.
const idN = (n, i) => 'c' + Math.floor(i / n) + (n > 9 ? '-' : '') + (i % n);

// Fails unless sol (n*n characters) fills every row, column and region of
// `regionOf` with n different digits and keeps the givens of puzzle.
function verifyVariant(n, puzzle, sol, regionOf) {
  const digits = DIGITS.slice(0, n);
  assert.equal(sol.length, n * n);
  for (let i = 0; i < n * n; i++) {
    assert.ok(digits.includes(sol[i]), 'cell ' + i + ' holds ' + sol[i]);
    if (puzzle[i] !== '.' && puzzle[i] !== '0') assert.equal(sol[i], puzzle[i].toUpperCase(), 'given ' + i + ' kept');
    for (let k = 0; k < i; k++) {
      const same = Math.floor(i / n) === Math.floor(k / n) || i % n === k % n || regionOf(i) === regionOf(k);
      if (same) assert.notEqual(sol[i], sol[k], 'cells ' + k + ' and ' + i);
    }
  }
}

async function pick(page, size, rules) {
  if (size) await page.selectOption('#size', size);
  if (rules !== undefined) await page.selectOption('#rules', rules);
  // A change that would lose typed givens asks first.
  if (await page.getByRole('dialog').isVisible()) await confirmWith(page, 'Change the board');
  const n = Number(await page.inputValue('#size'));
  await page.waitForFunction((k) => document.querySelectorAll('#board .cell').length === k, n * n);
  return n;
}

test('a 16x16 game: generated, a letter typed, a wrong digit\'s conflicts, solved by the API', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await load(page);
  const n = await pick(page, '16');
  assert.equal(n, 16);
  assert.equal(await page.$$eval('#board [role=row]', (e) => e.length), 16);
  assert.equal(await page.$$eval('#pad-digits button', (bs) => bs.map((b) => b.textContent).join('')),
    DIGITS.slice(0, 16), 'the pad has a button per digit, A-G above 9');
  // The tools' Difficulty (Medium) holds for a variant too: 16x16 offers it.
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new medium 16x16 puzzle \(rating \d\.\d\) with \d+ givens/);
  assert.equal(await page.textContent('#mode'), 'Playing 16x16');
  const puzzle = await grid(page);
  assert.equal(puzzle.length, 256);
  const box = boxOfN(16);
  const sol = await solveBody({ board: puzzle });
  verifyVariant(16, puzzle, sol, box);
  assert.equal(new URL(page.url()).hash, '#p=' + puzzle, 'the link carries the 256 characters');

  // A letter, typed in lower case, where the solution has one.
  const i = [...puzzle].findIndex((ch, k) => ch === '.' && sol[k] >= 'A');
  assert.ok(i >= 0);
  await page.click('#' + idN(16, i));
  await page.keyboard.press(sol[i].toLowerCase());
  assert.equal((await grid(page))[i], sol[i]);
  assert.deepEqual(await cellsWith(page, 'is-player'), [idN(16, i)]);
  assert.match(await label(page, idN(16, i)), new RegExp(', ' + sol[i] + '$'));
  await page.keyboard.press('x'); // not a digit of 16x16: ignored
  assert.equal((await grid(page))[i], sol[i]);

  // A wrong digit: one a given in its row already holds. The cells that
  // clash with it are those of its row, column and box holding the same.
  const j = [...puzzle].findIndex((ch, k) => ch === '.' && k !== i &&
    [...puzzle.slice(Math.floor(k / 16) * 16, Math.floor(k / 16) * 16 + 16)].some((g) => g !== '.'));
  const row = Math.floor(j / 16);
  const d = [...puzzle.slice(row * 16, row * 16 + 16)].find((g) => g !== '.');
  await page.click('#' + idN(16, j));
  await page.keyboard.press(d.toLowerCase());
  const board = [...(await grid(page))];
  assert.equal(board[j], d);
  const want = [idN(16, j)];
  for (let k = 0; k < 256; k++) {
    if (k !== j && board[k] === d && (Math.floor(k / 16) === row || k % 16 === j % 16 || box(k) === box(j))) {
      want.push(idN(16, k));
    }
  }
  await page.click('#validate');
  const st = await waitStatus(page, 'error', /breaks the rules/);
  assert.match(st.text, new RegExp(d + ' appears twice in row ' + (row + 1)));
  assert.deepEqual(await cellsWith(page, 'is-conflict'), want.sort());
  assert.equal(await page.getAttribute('#' + idN(16, j), 'aria-invalid'), 'true');
  await shot(page, 'variant-16.png');
  await axe(page, '16x16 conflict');

  await page.click('#solve');
  await confirmWith(page, 'Reveal the solution');
  await waitStatus(page, 'ok', /^Solved/);
  assert.equal(await grid(page), sol, 'the solution the API gives, checked by the rules');
  assert.match(sol, /[A-G]/, 'letters for 10 and up');
  // A reload resumes the 16x16 game, size and all.
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.inputValue('#size'), '16');
  assert.equal(await grid(page), sol);
  assert.equal(await page.textContent('#mode'), 'Solved');
  await openTools(page);

  // 25x25: the digits run to P, on the pad and in the puzzle.
  await pick(page, '25');
  assert.equal(await page.$$eval('#pad-digits button', (bs) => bs.length), 25);
  // 25x25 offers every level but extreme (docs/logic.md, Generation at a
  // level): extreme is disabled in the tools' Difficulty.
  const offered = await page.$$eval('#difficulty option', (os) =>
    os.filter((o) => o.value !== '' && !o.disabled).map((o) => o.value));
  assert.deepEqual(offered, ['easy', 'medium', 'hard', 'expert']);
  await page.selectOption('#difficulty', 'hard');
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new hard 25x25 puzzle/);
  const big = await grid(page);
  assert.equal(big.length, 625);
  assert.match(big, /^[1-9A-P.]+$/);
  await page.finish();
});

test('a jigsaw 9x9: region borders from the map, played, hinted; cages disabled with a reason', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await load(page);
  assert.equal(await page.isEnabled('#hint'), true, 'a classic board has hints');
  await pick(page, '16');
  const n = await pick(page, null, 'jigsaw');
  assert.equal(n, 9, 'a jigsaw is 9x9');
  // A thick edge exactly where the region map changes, right and below.
  const look = await page.$$eval('#board .cell', (els) => els.map((e) => {
    const s = getComputedStyle(e);
    return [e.classList.contains('edge-r'), e.classList.contains('edge-b'), s.borderRightWidth, s.borderBottomWidth];
  }));
  for (let i = 0; i < 81; i++) {
    const r = Math.floor(i / 9);
    const c = i % 9;
    const right = c < 8 && JIGSAW9[i] !== JIGSAW9[i + 1];
    const below = r < 8 && JIGSAW9[i] !== JIGSAW9[i + 9];
    assert.deepEqual(look[i].slice(0, 2), [right, below], 'region edges of cell ' + i);
    if (c < 8) assert.equal(look[i][2], right ? '2px' : '1px', 'right border width of cell ' + i);
    if (r < 8) assert.equal(look[i][3], below ? '2px' : '1px', 'bottom border width of cell ' + i);
  }
  assert.match(await label(page, 'c04'), /^Row 1, column 5, region B, empty$/);

  // Hint, Grade and the solution path work on a variant (the service's
  // general engine); killer cages are for classic boxes only: disabled,
  // and the note says why.
  for (const id of ['hint', 'grade', 'explain']) {
    assert.equal(await page.isEnabled('#' + id), true, id + ' is enabled');
  }
  assert.equal(await page.isDisabled('#cage-mode'), true, 'cages are disabled');
  assert.equal(await page.getAttribute('#cage-mode', 'aria-describedby'), 'variant-note');
  assert.match(await page.textContent('#variant-note'), /classic 9x9/);
  assert.equal(await page.isVisible('#variant-note'), true);

  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new medium 9x9, jigsaw regions puzzle \(rating \d\.\d\) with \d+ givens/);
  const puzzle = await grid(page);
  const sol = await solveBody({ board: puzzle, regions: JIGSAW9 });
  verifyVariant(9, puzzle, sol, (i) => JIGSAW9.charCodeAt(i) - 65);
  // A hint on the jigsaw, in its three stages: the move is the solution's.
  await page.click('#hint');
  await waitStatus(page, 'info', /^Hint 1 of 3/);
  await page.click('#hint');
  await waitStatus(page, 'info', /^Hint 2 of 3/);
  await page.click('#hint');
  await waitStatus(page, 'ok', /^Hint 3 of 3/);
  const hinted = await cellsWith(page, 'is-hint');
  assert.equal(hinted.length, 1, 'one cell hinted');
  const h = Number(hinted[0][1]) * 9 + Number(hinted[0][2]);
  assert.equal((await grid(page))[h], sol[h], 'the hint is the solution\'s digit');

  const link = new URL(page.url()).hash;
  assert.equal(link, '#p=' + puzzle + '&r=jigsaw', 'the link names the rule');
  // A correct digit typed, then the rest solved by the service.
  const i = puzzle.indexOf('.');
  await page.click('#c' + Math.floor(i / 9) + (i % 9));
  await page.keyboard.press(sol[i]);
  await page.click('#check');
  await waitStatus(page, 'ok', /^No mistakes so far/);
  await page.click('#solve');
  await confirmWith(page, 'Reveal the solution');
  await waitStatus(page, 'ok', /^Solved/);
  assert.equal(await grid(page), sol);
  await shot(page, 'variant-jigsaw.png');
  await axe(page, 'jigsaw');

  // The shared link opens the same jigsaw elsewhere.
  const other = await openPage();
  await other.goto(base() + '/' + link);
  await other.waitForSelector('#board[data-ready="true"]');
  await waitStatus(other, 'ok', /^Loaded a 9x9, jigsaw regions puzzle/);
  assert.equal(await other.inputValue('#rules'), 'jigsaw');
  assert.equal(await grid(other), puzzle);
  await other.finish();

  // Back to classic boxes: hints again.
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  assert.equal(await page.inputValue('#rules'), '');
  assert.equal(await page.isEnabled('#hint'), true);
  assert.equal(await page.isVisible('#variant-note'), false);
  await page.finish();
});

test('variant rules: diagonals and windows shaded, conflicts on a diagonal, a knight and a king', async () => {
  await needs('/validate');
  const page = await openPage();
  await load(page);
  // A digit clashing by each rule, typed while entering a puzzle; the
  // expected cells and words follow from the rule.
  const rounds = [
    { rules: 'diagonals', cells: [[0, 0], [8, 8]], re: /1 appears twice in the diagonal from the top left/ },
    { rules: 'anti_knight', cells: [[0, 0], [1, 2]], re: /1 is a knight's move from itself at r1c1 and r2c3/ },
    { rules: 'anti_king', cells: [[3, 3], [4, 4]], re: /1 is a diagonal step from itself at r4c4 and r5c5/ },
  ];
  for (const r of rounds) {
    await pick(page, '9', r.rules);
    await page.click('#clear');
    if (await page.getByRole('dialog').isVisible()) await confirmWith(page, 'Clear the board');
    for (const [row, col] of r.cells) {
      await page.click('#c' + row + col);
      await page.keyboard.press('1');
    }
    await page.click('#validate');
    const st = await waitStatus(page, 'error', /breaks the rules/);
    assert.match(st.text, r.re, r.rules);
    assert.deepEqual(await cellsWith(page, 'is-conflict'), r.cells.map(([row, col]) => 'c' + row + col).sort(), r.rules);
  }
  await pick(page, '9', 'diagonals');
  const diag = [];
  for (let i = 0; i < 81; i++) if (Math.floor(i / 9) === i % 9 || Math.floor(i / 9) + i % 9 === 8) diag.push('c' + Math.floor(i / 9) + (i % 9));
  assert.deepEqual(await cellsWith(page, 'is-diag'), diag.sort(), 'the diagonals shaded');
  await pick(page, '9', 'windoku');
  const windows = [];
  for (let i = 0; i < 81; i++) if (Math.floor(i / 9) % 4 && (i % 9) % 4) windows.push('c' + Math.floor(i / 9) + (i % 9));
  assert.deepEqual(await cellsWith(page, 'is-extra'), windows.sort(), 'the four windows tinted');
  // 4x4: only 1-4 are digits.
  await pick(page, '4', '');
  await page.click('#c00');
  for (const k of ['5', 'a', '4']) await page.keyboard.press(k);
  assert.equal(await grid(page), '4' + '.'.repeat(15), '5 and A are not digits of 4x4');
  await axe(page, 'windoku and 4x4');
  await page.finish();
});

test('anti-king is not offered on 4x4, where no grid obeys it: the page moves to 6x6 or drops the rule', async () => {
  await needs('/generate');
  // The fact from the rules, checked by the service's own exhaustive search
  // of the empty board: no 4x4 grid is anti-king, so no puzzle can be made.
  const none = await post('/generate', { size: 4, anti_king: true, difficulty: 'easy' });
  assert.equal(none.status, 422);
  assert.equal((await none.json()).code, 'no_solution');
  const page = await openPage(DESKTOP);
  await load(page);
  assert.equal(await pick(page, '4', 'anti_king'), 6, 'anti-king chosen on 4x4 gives a 6x6 board');
  assert.equal(await page.inputValue('#rules'), 'anti_king');
  assert.equal(await pick(page, '4'), 4);
  assert.equal(await page.inputValue('#rules'), '', '4x4 chosen on anti-king drops the rule');
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new easy 4x4 puzzle/);
  assert.equal((await grid(page)).length, 16);
  await page.finish();
});
