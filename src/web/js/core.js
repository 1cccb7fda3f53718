// core.js - the first part of the demo page's script (served as /app.js):
// the shared scope, the board's geometry and the game state with undo.
// The parts in src/web/js/ are concatenated by src/api/assets.S in a fixed
// order (core, variant, grid, game, api, logic, main) into one script: this
// part opens one function scope and main.js closes it, so every part sees
// the others' functions (hoisted) and its top-level names stay private.
// The method: one state object (S) holds the puzzle, the player's digits,
// notes, cages and the size and rules; every change goes through commit(),
// which snapshots the state for undo, re-renders every cell from S and
// saves S in localStorage. The DOM is never the source of truth. The page is
// served under a CSP without 'unsafe-inline', so behaviour is wired with
// addEventListener and looks are CSS classes (no style attributes).
'use strict';

(function () {
  const EXAMPLE =
    '9.7.....6824.3......1..9..2.9...2.18...4....5' +
    '1325.8......687.........8.9.4.9...5.';
  const BOX_NAMES = ['top left', 'top middle', 'top right', 'middle left',
    'centre', 'middle right', 'bottom left', 'bottom middle', 'bottom right'];
  // The digits of an N x N board, in order: 1-9, then A-P for 10 to 25.
  const DIGITS = '123456789ABCDEFGHIJKLMNOP';
  const TIMEOUT_MS = 15000;
  const STORE_KEY = 'sudokud.game.v1';
  const THEME_KEY = 'sudokud.theme';
  const HISTORY_MAX = 300;
  const EMPTY_BOARD = 'The board is empty: type a puzzle, paste one, or press Example.';

  const $ = (id) => document.getElementById(id);
  const boardEl = $('board');
  const statusEl = $('status');
  const lineEl = $('line');

  /* ----------------------------------------------------------------------
   * Geometry: the board's size and rules, set by useGeometry (variant.js
   * knows the rules). Everything below reads these, never a literal 9.
   * ---------------------------------------------------------------------- */

  let SIZE = 9;
  let CELLS = 81;
  let RULE = '';           // '' (boxes), or a key of RULES in variant.js
  let regionOf = [];       // cell -> its box or jigsaw region
  let extraOf = [];        // cell -> its extra region (windoku window), or -1

  const rowOf = (i) => Math.floor(i / SIZE);
  const colOf = (i) => i % SIZE;
  const boxOf = (i) => regionOf[i];
  const onDiagonal = (i) => rowOf(i) === colOf(i) || rowOf(i) + colOf(i) === SIZE - 1;
  const isClassic = () => SIZE === 9 && RULE === '';
  const digitValue = (ch) => DIGITS.indexOf(ch) + 1; // '1' -> 1, 'A' -> 10
  const isDigit = (ch) => typeof ch === 'string' && ch.length === 1 &&
    DIGITS.indexOf(ch) >= 0 && DIGITS.indexOf(ch) < SIZE;
  const lastDigit = () => DIGITS[SIZE - 1];

  // Cells seen from cell i: its row, column and box (or region). These are
  // what the selection shades.
  function sameUnit(i, k) {
    return i !== k && (rowOf(i) === rowOf(k) || colOf(i) === colOf(k) || boxOf(i) === boxOf(k));
  }

  // Cells that may not hold cell i's digit under the rules in play: the
  // units above, and the diagonals, extra regions, knight or king moves.
  function peers(i, k) {
    if (i === k) return false;
    if (sameUnit(i, k)) return true;
    const dr = Math.abs(rowOf(i) - rowOf(k));
    const dc = Math.abs(colOf(i) - colOf(k));
    switch (RULE) {
      case 'diagonals':
        return (rowOf(i) === colOf(i) && rowOf(k) === colOf(k)) ||
          (rowOf(i) + colOf(i) === SIZE - 1 && rowOf(k) + colOf(k) === SIZE - 1);
      case 'windoku': return extraOf[i] >= 0 && extraOf[i] === extraOf[k];
      case 'anti_knight': return (dr === 1 && dc === 2) || (dr === 2 && dc === 1);
      case 'anti_king': return dr === 1 && dc === 1;
      default: return false;
    }
  }

  /* ----------------------------------------------------------------------
   * State
   * ---------------------------------------------------------------------- */

  // size and rule: the board's shape and rules; givens: the puzzle ('' or a
  // digit character), locked while playing; values: the player's digits,
  // with kinds 'player', 'hint' (placed by /hint) or 'solved' (from Solve);
  // notes: a bit per pencil mark (bit d for digit value d, up to 25);
  // cages: [{sum, cells: [index...]}] for a killer puzzle (classic only).
  function emptyState(size, rule) {
    const n = (size || 9) * (size || 9);
    return {
      size: size || 9,
      rule: rule || '',
      givens: new Array(n).fill(''),
      values: new Array(n).fill(''),
      kinds: new Array(n).fill(''),
      notes: new Array(n).fill(0),
      cages: [],
      playing: false,   // givens locked, timer running
      solution: '',     // N*N digits once the service gave them
      elapsed: 0,       // ms played, without the time the tab was hidden
      done: false,
      // About the game, not the board: kept through undo and redo.
      level: '',        // easy ... extreme, '' for a puzzle typed, loaded or of a variant
      graded: '',       // the level a killer or variant puzzle was generated at (not in the statistics)
      daily: '',        // the date (YYYY-MM-DD) of a daily puzzle
      mistakes: 0,      // wrong digits typed, against the solution
      hints: 0,         // hints asked for
      revealed: false,  // Solve was used: the game does not count
      counted: false,   // the finish is in the statistics
    };
  }
  let S = emptyState();
  let undoStack = [];
  let redoStack = [];
  let active = 0;          // the selected cell (holds tabindex=0)
  let notesMode = false;
  let autoCheck = true;     // "Show mistakes as I go": on for a new player
  let showMistakes = false; // Check pressed: mistakes shown until the next change
  let overlay = null;      // the hint drawn on the grid
  let conflicts = new Set();
  let invalidCell = -1;
  let cageMode = false;
  let cageSel = [];         // the cells of the cage being drawn
  let dragging = false;
  let busy = false;
  let cellEls = [];
  let peerList = [];       // cell -> the cells the rules say differ from it
  let paused = false;
  let hintStep = null;     // the staged hint: {data, stage 1..3}

  // What undo restores: the puzzle and everything the player wrote. The
  // size and rules come first: an old save without them is 9x9 classic.
  function snapshot() {
    return JSON.stringify([S.givens, S.values, S.kinds, S.notes, S.cages, S.playing, S.solution, S.done,
      S.size, S.rule]);
  }
  function restore(snap, into) {
    const t = into || S;
    [t.givens, t.values, t.kinds, t.notes, t.cages, t.playing, t.solution, t.done, t.size, t.rule] =
      JSON.parse(snap);
    t.size = t.size || 9;
    t.rule = t.rule || '';
  }

  // Every change to the board goes through here: fn mutates S; if anything
  // changed, the old state is pushed for undo and marks of the last answer go.
  function commit(fn, keepMarks) {
    const before = snapshot();
    fn();
    if (snapshot() === before) { render(); return false; }
    undoStack.push(before);
    if (undoStack.length > HISTORY_MAX) undoStack.shift();
    redoStack = [];
    if (!keepMarks) clearMarks();
    afterChange();
    return true;
  }

  // Undo and redo are mirror images: the state on top of `from` comes
  // back, and the present goes onto `to`.
  function travel(from, to, none, done) {
    if (!from.length) { setStatus('info', none); return; }
    to.push(snapshot());
    restore(from.pop());
    clearMarks();
    afterChange();
    setStatus('info', done);
  }

  function undo() { travel(undoStack, redoStack, 'Nothing to undo.', 'Undone.'); }
  function redo() { travel(redoStack, undoStack, 'Nothing to redo.', 'Redone.'); }

  function clearMarks() {
    overlay = null;
    if (hintStep) { hintStep = null; syncHintButton(); }
    conflicts = new Set();
    invalidCell = -1;
    showMistakes = false;
    lineEl.removeAttribute('aria-invalid');
  }

  // After every change: a full, right board is the finish; the clock runs
  // exactly while a game is on (so undoing Solve, or erasing a cell of a
  // finished board, starts it again), and the game is saved.
  function afterChange() {
    if (S.playing && !S.done && isFull() && S.solution &&
        digitsLine() === S.solution) {
      S.done = true;
      syncClock();
      finishGame();
    }
    syncClock();
    render();
    syncLine();
    scheduleSave();
  }

  const digitAt = (i) => S.givens[i] || S.values[i];
  const isFull = () => S.givens.every((g, i) => g || S.values[i]);
  const digitsLine = () => S.givens.map((g, i) => g || S.values[i] || '.').join('');
  const givensLine = () => S.givens.map((g) => g || '.').join('');
  const isEmpty = () => S.givens.every((g) => !g) && !S.cages.length;

  function isMistake(i) {
    return S.solution.length === CELLS && !S.givens[i] && S.values[i] &&
      S.kinds[i] !== 'solved' && S.values[i] !== S.solution[i];
  }

  function noteDigits(mask) {
    const out = [];
    for (let d = 1; d <= SIZE; d++) if (mask & (1 << d)) out.push(DIGITS[d - 1]);
    return out;
  }
