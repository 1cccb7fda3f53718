// app.js - the demo page's script: a Sudoku game on top of the public JSON
// API, called with fetch as any other client would.
// The method: one state object (S) holds the puzzle, the player's digits,
// notes and cages; every change goes through commit(), which snapshots the
// state for undo, re-renders all 81 cells from S and saves S in localStorage.
// The DOM is never the source of truth. The page is served under a CSP
// without 'unsafe-inline', so behaviour is wired with addEventListener and
// looks are CSS classes (no style attributes). Optional endpoints (/validate,
// /hint, /grade, /generate) are probed with OPTIONS; a 404 hides their buttons.
'use strict';

(function () {
  const SIZE = 9;
  const CELLS = SIZE * SIZE;
  const EXAMPLE =
    '9.7.....6824.3......1..9..2.9...2.18...4....5' +
    '1325.8......687.........8.9.4.9...5.';
  const BOX_NAMES = ['top left', 'top middle', 'top right', 'middle left',
    'centre', 'middle right', 'bottom left', 'bottom middle', 'bottom right'];
  const TIMEOUT_MS = 15000;
  const STORE_KEY = 'sudokud.game.v1';
  const THEME_KEY = 'sudokud.theme';
  const HISTORY_MAX = 300;
  const EMPTY_BOARD = 'The board is empty: type a puzzle, paste one, or press Example.';

  const $ = (id) => document.getElementById(id);
  const boardEl = $('board');
  const statusEl = $('status');
  const lineEl = $('line');

  const rowOf = (i) => Math.floor(i / SIZE);
  const colOf = (i) => i % SIZE;
  const boxOf = (i) => Math.floor(rowOf(i) / 3) * 3 + Math.floor(colOf(i) / 3);
  const peers = (i, k) => i !== k &&
    (rowOf(i) === rowOf(k) || colOf(i) === colOf(k) || boxOf(i) === boxOf(k));

  /* ----------------------------------------------------------------------
   * State
   * ---------------------------------------------------------------------- */

  // givens: the puzzle ('' or '1'-'9'), locked while playing; values: the
  // player's digits, with kinds 'player', 'hint' (placed by /hint) or
  // 'solved' (from Solve); notes: a bit per pencil mark (bit d for digit d);
  // cages: [{sum, cells: [index...]}] for a killer puzzle.
  function emptyState() {
    return {
      givens: new Array(CELLS).fill(''),
      values: new Array(CELLS).fill(''),
      kinds: new Array(CELLS).fill(''),
      notes: new Array(CELLS).fill(0),
      cages: [],
      playing: false,   // givens locked, timer running
      solution: '',     // 81 digits once the service gave them
      elapsed: 0,       // ms played, without the time the tab was hidden
      done: false,
    };
  }
  let S = emptyState();
  let undoStack = [];
  let redoStack = [];
  let active = 0;          // the selected cell (holds tabindex=0)
  let notesMode = false;
  let autoCheck = false;
  let showMistakes = false; // Check pressed: mistakes shown until the next change
  let overlay = null;      // the hint drawn on the grid
  let conflicts = new Set();
  let invalidCell = -1;
  let cageMode = false;
  let cageSel = [];         // the cells of the cage being drawn
  let dragging = false;
  let busy = false;
  const cellEls = [];
  const SVG = 'http://www.w3.org/2000/svg';
  let linksEl = null;        // the <svg> a hint's chain is drawn on

  // What undo restores: the puzzle and everything the player wrote.
  function snapshot() {
    return JSON.stringify([S.givens, S.values, S.kinds, S.notes, S.cages, S.playing, S.solution, S.done]);
  }
  function restore(snap, into) {
    const t = into || S;
    [t.givens, t.values, t.kinds, t.notes, t.cages, t.playing, t.solution, t.done] = JSON.parse(snap);
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

  function undo() {
    if (!undoStack.length) { setStatus('info', 'Nothing to undo.'); return; }
    redoStack.push(snapshot());
    restore(undoStack.pop());
    clearMarks();
    afterChange();
    setStatus('info', 'Undone.');
  }

  function redo() {
    if (!redoStack.length) { setStatus('info', 'Nothing to redo.'); return; }
    undoStack.push(snapshot());
    restore(redoStack.pop());
    clearMarks();
    afterChange();
    setStatus('info', 'Redone.');
  }

  function clearMarks() {
    overlay = null;
    conflicts = new Set();
    invalidCell = -1;
    showMistakes = false;
    lineEl.removeAttribute('aria-invalid');
  }

  function afterChange() {
    if (S.playing && !S.done && isFull() && S.solution &&
        digitsLine() === S.solution) {
      S.done = true;
      stopClock();
      setStatus('ok', 'Solved, well done! Time ' + clockText(S.elapsed) + '.');
    }
    render();
    syncLine();
    save();
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

  /* ----------------------------------------------------------------------
   * The grid
   * ---------------------------------------------------------------------- */

  function buildGrid() {
    for (let r = 0; r < SIZE; r++) {
      const row = document.createElement('div');
      row.className = 'row';
      row.setAttribute('role', 'row');
      row.setAttribute('aria-rowindex', String(r + 1));
      for (let c = 0; c < SIZE; c++) {
        const i = r * SIZE + c;
        const cell = document.createElement('div');
        cell.className = 'cell';
        cell.setAttribute('role', 'gridcell');
        cell.setAttribute('aria-colindex', String(c + 1));
        cell.tabIndex = i === 0 ? 0 : -1;
        cell.id = 'c' + r + c;
        cell.dataset.index = String(i);
        const digit = document.createElement('span');
        digit.className = 'digit';
        digit.setAttribute('aria-hidden', 'true');
        const notes = document.createElement('span');
        notes.className = 'notes';
        notes.setAttribute('aria-hidden', 'true');
        // Spaces between the marks and the parts, so that the cell's text
        // reads "1 3 8" as its name does (a grid drops whitespace text).
        for (let d = 1; d <= 9; d++) notes.append(document.createElement('span'), ' ');
        const sum = document.createElement('span');
        sum.className = 'cage-sum';
        sum.setAttribute('aria-hidden', 'true');
        cell.append(digit, ' ', notes, ' ', sum);
        row.appendChild(cell);
        cellEls.push(cell);
      }
      boardEl.appendChild(row);
    }
    // The layer a hint's chain is drawn on: 9x9 units, one per cell.
    linksEl = document.createElementNS(SVG, 'svg');
    linksEl.setAttribute('class', 'links');
    linksEl.setAttribute('viewBox', '0 0 9 9');
    linksEl.setAttribute('preserveAspectRatio', 'none');
    linksEl.setAttribute('aria-hidden', 'true');
    linksEl.setAttribute('focusable', 'false');
    boardEl.parentNode.appendChild(linksEl);
  }

  // Where candidate d of cell i sits: its place in the 3x3 of the notes.
  function candidatePoint(i, d) {
    return [colOf(i) + ((d - 1) % 3 + 0.5) / 3, rowOf(i) + (Math.floor((d - 1) / 3) + 0.5) / 3];
  }

  // A chain from /hint's `links`: a ring on each node's candidate (the
  // middle of a grouped node's cells) and a line to the next node, solid
  // for a strong link, dashed for a weak one, thin for a forcing trail.
  function drawLinks() {
    while (linksEl.firstChild) linksEl.removeChild(linksEl.firstChild);
    if (!overlay || !overlay.links.length) return;
    const pts = overlay.links.map((n) => {
      const ps = n.cells.map((i) => candidatePoint(i, n.digit));
      return [ps.reduce((a, p) => a + p[0], 0) / ps.length, ps.reduce((a, p) => a + p[1], 0) / ps.length];
    });
    const el = (name, attrs) => {
      const e = document.createElementNS(SVG, name);
      Object.keys(attrs).forEach((k) => e.setAttribute(k, String(attrs[k])));
      linksEl.appendChild(e);
      return e;
    };
    const R = 0.15;
    overlay.links.forEach((n, k) => {
      if (k + 1 < pts.length && n.link !== 'end') {
        const [x1, y1] = pts[k];
        const [x2, y2] = pts[k + 1];
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const ux = (x2 - x1) / len;
        const uy = (y2 - y1) / len;
        el('line', {
          class: 'link link-' + n.link, x1: x1 + ux * R, y1: y1 + uy * R,
          x2: x2 - ux * R, y2: y2 - uy * R,
        });
        // An arrowhead: two short strokes back from the end.
        const hx = x2 - ux * R;
        const hy = y2 - uy * R;
        for (const side of [1, -1]) {
          el('line', {
            class: 'link-head', x1: hx, y1: hy,
            x2: hx - ux * 0.18 + side * uy * 0.1, y2: hy - uy * 0.18 - side * ux * 0.1,
          });
        }
      }
      el('circle', { class: 'link-node', cx: pts[k][0], cy: pts[k][1], r: R });
    });
  }

  function noteDigits(mask) {
    const out = [];
    for (let d = 1; d <= 9; d++) if (mask & (1 << d)) out.push(d);
    return out;
  }

  // The cage of each cell (index into S.cages, or -1).
  function cageMap() {
    const map = new Array(CELLS).fill(-1);
    S.cages.forEach((cage, n) => cage.cells.forEach((i) => { map[i] = n; }));
    return map;
  }

  function render() {
    const cmap = cageMap();
    const sel = digitAt(active);
    const unitCells = new Set();
    const patternCells = new Set();
    const elims = new Map();
    const chainDigits = new Map(); // cell -> digits of the hint's chain there
    if (overlay) {
      overlay.units.forEach((u) => {
        for (let k = 0; k < CELLS; k++) {
          const idx = u.unit === 'row' ? rowOf(k) : u.unit === 'column' ? colOf(k) : boxOf(k);
          if (idx === u.index) unitCells.add(k);
        }
      });
      overlay.cells.forEach((k) => patternCells.add(k));
      overlay.links.forEach((n) => n.cells.forEach((k) => {
        patternCells.add(k);
        if (!chainDigits.has(k)) chainDigits.set(k, []);
        if (!chainDigits.get(k).includes(n.digit)) chainDigits.get(k).push(n.digit);
      }));
      overlay.elims.forEach((e) => {
        if (!elims.has(e.i)) elims.set(e.i, []);
        elims.get(e.i).push(e.d);
      });
    }
    const cageSet = new Set(cageSel);
    for (let i = 0; i < CELLS; i++) {
      const el = cellEls[i];
      const given = S.givens[i];
      const value = given || S.values[i];
      const kind = given ? 'given' : S.values[i] ? S.kinds[i] : '';
      const mistake = (autoCheck || showMistakes) && isMistake(i);
      const cl = el.classList;
      el.children[0].textContent = value;
      cl.toggle('is-given', !!given);
      cl.toggle('is-locked', !!given && S.playing);
      cl.toggle('is-player', kind === 'player');
      cl.toggle('is-solved', kind === 'solved');
      cl.toggle('is-hint', kind === 'hint');
      cl.toggle('is-selected', i === active);
      cl.toggle('is-peer', !overlay && peers(active, i));
      cl.toggle('is-same', !!sel && i !== active && value === sel);
      cl.toggle('is-mistake', mistake);
      cl.toggle('is-conflict', conflicts.has(i));
      cl.toggle('is-error', invalidCell === i);
      cl.toggle('is-unit', unitCells.has(i));
      cl.toggle('is-pattern', patternCells.has(i));
      cl.toggle('is-target', !!overlay && overlay.target === i);
      cl.toggle('is-caging', cageSet.has(i));
      if (mistake || conflicts.has(i) || invalidCell === i) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');

      // Notes, and a hint's eliminations drawn struck through in their place.
      const mask = value ? 0 : S.notes[i];
      // An elimination is drawn where the candidate is: in a cell without
      // notes (the candidates are implied) or on the player's own note.
      const el2 = value ? [] : (elims.get(i) || [])
        .filter((d) => !mask || (mask & (1 << d))).sort((x, y) => x - y);
      const spans = el.children[1].children;
      for (let d = 1; d <= 9; d++) {
        const struck = el2.includes(d);
        spans[d - 1].textContent = (mask & (1 << d)) || struck ? String(d) : '';
        spans[d - 1].className = struck ? 'elim' : '';
      }

      // Cage outline: a dashed side wherever the neighbour is in another cage.
      const n = cmap[i];
      const r = rowOf(i);
      const c = colOf(i);
      cl.toggle('in-cage', n >= 0);
      cl.toggle('cage-t', n >= 0 && (r === 0 || cmap[i - SIZE] !== n));
      cl.toggle('cage-b', n >= 0 && (r === SIZE - 1 || cmap[i + SIZE] !== n));
      cl.toggle('cage-l', n >= 0 && (c === 0 || cmap[i - 1] !== n));
      cl.toggle('cage-r', n >= 0 && (c === SIZE - 1 || cmap[i + 1] !== n));
      const head = n >= 0 && Math.min.apply(null, S.cages[n].cells) === i;
      // The sum is drawn by CSS (content: attr(data-sum)), not written as
      // text: the cell's text stays its digit or notes, which its name
      // (where the sum is said too) contains word for word.
      if (head) el.children[2].dataset.sum = String(S.cages[n].sum);
      else delete el.children[2].dataset.sum;
      cl.toggle('cage-head', head);

      el.setAttribute('aria-label', cellLabel(i, value, kind, mistake, n, el2, chainDigits.get(i)));
    }
    document.querySelectorAll('#pad-digits button').forEach((b) => {
      const d = b.dataset.digit;
      let count = 0;
      for (let i = 0; i < CELLS; i++) if (digitAt(i) === d) count++;
      b.classList.toggle('is-complete', count >= 9);
    });
    drawLinks();
    $('undo').disabled = !undoStack.length;
    $('redo').disabled = !redoStack.length;
    $('play').hidden = S.playing;
    $('mode').textContent = S.done ? 'Solved' : S.playing
      ? (S.cages.length ? 'Playing a killer puzzle' : 'Playing') : 'Entering a puzzle';
    boardEl.classList.toggle('is-done', S.done);
    updateShare();
  }

  // "Row 1, column 2, box 1, given 5" / "Row 4, column 4, box 5, empty, notes 1 3 8".
  function cellLabel(i, value, kind, mistake, cage, elims, chain) {
    const parts = ['Row ' + (rowOf(i) + 1), 'column ' + (colOf(i) + 1), 'box ' + (boxOf(i) + 1)];
    if (!value) {
      parts.push('empty');
      const marks = noteDigits(S.notes[i]);
      if (marks.length) parts.push('notes ' + marks.join(' '));
    } else if (kind === 'given') {
      parts.push('given ' + value);
    } else {
      parts.push(value + (kind === 'solved' ? ', solved' : kind === 'hint' ? ', hint' : ''));
    }
    if (mistake) parts.push('mistake');
    if (conflicts.has(i)) parts.push('conflict');
    if (elims.length && !value) parts.push('hint rules out ' + elims.join(' '));
    if (chain) parts.push('in the hint\'s chain on ' + chain.join(' and '));
    if (cage >= 0) parts.push('cage sum ' + S.cages[cage].sum);
    return parts.join(', ');
  }

  /* ----------------------------------------------------------------------
   * Moves
   * ---------------------------------------------------------------------- */

  function lockedMessage(i) {
    setStatus('info', 'Row ' + (rowOf(i) + 1) + ', column ' + (colOf(i) + 1) +
              ' holds a given ' + S.givens[i] + ': it cannot change while you play.');
  }

  // A digit for cell i from the keyboard or the pad: a pencil mark when
  // asNote, else the cell's digit (a given while the puzzle is being entered).
  function enterDigit(i, d, asNote) {
    if (S.done) { setStatus('info', 'This puzzle is solved. Start a new one to play again.'); return; }
    if (S.playing && S.givens[i]) { lockedMessage(i); return; }
    if (asNote) {
      if (digitAt(i)) { setStatus('info', 'Notes go in empty cells: erase the digit first.'); return; }
      commit(() => { S.notes[i] ^= 1 << Number(d); });
      return;
    }
    const changed = commit(() => {
      if (!S.playing) {
        S.givens[i] = d;
        S.values[i] = '';
        S.kinds[i] = '';
        S.solution = '';
      } else {
        S.values[i] = d;
        S.kinds[i] = 'player';
      }
      S.notes[i] = 0;
      if (S.playing) {
        for (let k = 0; k < CELLS; k++) if (peers(i, k)) S.notes[k] &= ~(1 << Number(d));
      }
    });
    if (changed && !S.done) {
      if (autoCheck && isMistake(i)) {
        setStatus('error', d + ' does not belong in row ' + (rowOf(i) + 1) + ', column ' +
                  (colOf(i) + 1) + ': it is marked as a mistake.');
      } else if (!S.done) {
        setStatus('', '');
      }
    }
  }

  function erase(i) {
    if (S.playing && S.givens[i]) { lockedMessage(i); return; }
    commit(() => {
      if (!S.playing) S.givens[i] = '';
      S.values[i] = '';
      S.kinds[i] = '';
      S.notes[i] = 0;
      if (!S.playing) S.solution = '';
      S.done = false;
    });
    setStatus('', '');
  }

  // Fill in notes: every empty cell gets the digits no peer holds.
  function autofill() {
    commit(() => {
      for (let i = 0; i < CELLS; i++) {
        if (digitAt(i)) continue;
        let mask = 0;
        for (let d = 1; d <= 9; d++) mask |= 1 << d;
        for (let k = 0; k < CELLS; k++) {
          if (peers(i, k) && digitAt(k)) mask &= ~(1 << Number(digitAt(k)));
        }
        S.notes[i] = mask;
      }
    });
    setStatus('info', 'Notes filled in: each empty cell lists the digits its row, column and box allow.');
  }

  function setNotesMode(on) {
    notesMode = on;
    $('notes').setAttribute('aria-pressed', String(on));
  }

  /* ----------------------------------------------------------------------
   * Keyboard, pointer and focus
   * ---------------------------------------------------------------------- */

  function select(i, focus) {
    i = Math.max(0, Math.min(CELLS - 1, i));
    cellEls[active].tabIndex = -1;
    active = i;
    cellEls[i].tabIndex = 0;
    if (focus !== false) cellEls[i].focus();
    if (overlay && overlay.target !== i) overlay = null; // looking elsewhere: the hint has been read
    render();
  }

  function onKeyDown(ev) {
    const i = Number(ev.target.dataset.index);
    if (Number.isNaN(i) || ev.altKey || ev.metaKey) return;
    const r = rowOf(i);
    const c = colOf(i);
    const key = ev.key;
    const code = /^(?:Digit|Numpad)([0-9])$/.exec(ev.code || '');
    const digit = code ? code[1] : (key >= '0' && key <= '9' && key.length === 1 ? key : '');
    let handled = true;

    if (ev.ctrlKey) {
      if (key === 'Home') select(0);
      else if (key === 'End') select(CELLS - 1);
      else if (key === 'Enter') solve();
      else handled = false; // undo/redo are on the document; Ctrl+C and the like stay
    } else if (cageMode && (key === ' ' || key === 'Enter')) {
      toggleCageCell(i);
    } else if (digit >= '1' && digit <= '9') {
      enterDigit(i, digit, ev.shiftKey || notesMode);
      if (!S.playing && !ev.shiftKey && !notesMode && i < CELLS - 1) select(i + 1);
    } else if (digit === '0' || key === '.' || key === ' ') {
      if (digitAt(i)) erase(i);
      if (!S.playing && i < CELLS - 1) select(i + 1);
    } else if (key === 'Backspace') {
      if (digitAt(i) || S.notes[i]) {
        erase(i);
      } else if (!S.playing && i > 0) {
        select(i - 1);
        if (digitAt(i - 1)) erase(i - 1);
      }
    } else if (key === 'Delete') {
      if (digitAt(i) || S.notes[i]) erase(i);
    } else if (key === 'ArrowLeft') {
      select(c > 0 ? i - 1 : i);
    } else if (key === 'ArrowRight') {
      select(c < SIZE - 1 ? i + 1 : i);
    } else if (key === 'ArrowUp') {
      select(r > 0 ? i - SIZE : i);
    } else if (key === 'ArrowDown') {
      select(r < SIZE - 1 ? i + SIZE : i);
    } else if (key === 'Home') {
      select(r * SIZE);
    } else if (key === 'End') {
      select(r * SIZE + SIZE - 1);
    } else if (key === 'n' || key === 'N') {
      setNotesMode(!notesMode);
    } else if (key === 'Enter') {
      if (!S.playing) solve();
    } else if (key.length === 1) {
      // Any other printable key: ignored, the cell keeps its digit.
    } else {
      handled = false; // Tab, Escape, function keys...
    }
    if (handled) ev.preventDefault();
  }

  // Ctrl+Z / Ctrl+Y (and Ctrl+Shift+Z) anywhere but in a text field.
  function onDocKeyDown(ev) {
    if (!ev.ctrlKey && !ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const k = ev.key.toLowerCase();
    if (k === 'z' && !ev.shiftKey) { ev.preventDefault(); undo(); }
    else if (k === 'y' || (k === 'z' && ev.shiftKey)) { ev.preventDefault(); redo(); }
  }

  function onFocusIn(ev) {
    const i = Number(ev.target.dataset.index);
    if (!Number.isNaN(i) && i !== active) select(i, false);
  }

  function cellFromPoint(x, y) {
    const el = document.elementFromPoint(x, y);
    const cell = el && el.closest ? el.closest('.cell') : null;
    return cell && boardEl.contains(cell) ? Number(cell.dataset.index) : -1;
  }

  // Drawing a cage: press on a cell and drag over the others.
  function onPointerDown(ev) {
    const i = cellFromPoint(ev.clientX, ev.clientY);
    if (i < 0) return;
    if (!cageMode) { select(i); return; }
    ev.preventDefault();
    dragging = true;
    cageSel = [i];
    select(i);
    showCageForm();
  }
  function onPointerMove(ev) {
    if (!dragging) return;
    const i = cellFromPoint(ev.clientX, ev.clientY);
    if (i >= 0 && !cageSel.includes(i)) {
      cageSel.push(i);
      render();
      showCageForm();
    }
  }
  function onPointerUp() {
    if (!dragging) return;
    dragging = false;
    showCageForm();
    if (cageSel.length) $('cage-sum').focus();
  }

  /* ----------------------------------------------------------------------
   * Killer cages
   * ---------------------------------------------------------------------- */

  function setCageMode(on) {
    cageMode = on;
    $('cage-mode').setAttribute('aria-pressed', String(on));
    boardEl.classList.toggle('is-caging', on);
    if (!on) { cageSel = []; showCageForm(); render(); }
    if (on) setStatus('info', 'Drag over the cells of a cage (or press Space on each), then type its sum.');
  }

  function toggleCageCell(i) {
    const at = cageSel.indexOf(i);
    if (at >= 0) cageSel.splice(at, 1); else cageSel.push(i);
    render();
    showCageForm();
  }

  function showCageForm() {
    $('cage-form').hidden = !cageMode || !cageSel.length;
    $('cage-count').textContent = String(cageSel.length);
  }

  function addCage() {
    const text = $('cage-sum').value.trim();
    const sum = Number(text);
    if (!/^\d{1,2}$/.test(text) || sum < 1 || sum > 45) {
      setStatus('error', 'A cage sum is a whole number from 1 to 45.');
      $('cage-sum').setAttribute('aria-invalid', 'true');
      return;
    }
    const taken = new Set();
    S.cages.forEach((cg) => cg.cells.forEach((k) => taken.add(k)));
    const clash = cageSel.find((k) => taken.has(k));
    if (clash !== undefined) {
      setStatus('error', 'Row ' + (rowOf(clash) + 1) + ', column ' + (colOf(clash) + 1) +
                ' is in a cage already: a cell belongs to one cage at most.');
      return;
    }
    const cells = cageSel.slice().sort((a, b) => a - b);
    commit(() => { S.cages.push({ sum: sum, cells: cells }); S.solution = ''; });
    cageSel = [];
    $('cage-sum').value = '';
    $('cage-sum').removeAttribute('aria-invalid');
    showCageForm();
    render();
    setStatus('ok', 'Cage added: ' + plural(cells.length, 'cell', 'cells') + ', sum ' + sum +
              '. ' + plural(S.cages.length, 'cage', 'cages') + ' so far.');
    if (S.playing) fetchSolution(true); // quietly: the message above stays
  }

  // The command line's killer format: board|sum:rc,rc;sum:rc... counting from 1.
  function cagesText() {
    return S.cages.map((cg) => cg.sum + ':' +
      cg.cells.map((i) => String(rowOf(i) + 1) + String(colOf(i) + 1)).join(',')).join(';');
  }
  function puzzleText() {
    return givensLine() + (S.cages.length ? '|' + cagesText() : '');
  }

  // Returns {cages} or {error}.
  function parseCages(text) {
    const cages = [];
    const parts = text.split(';').map((p) => p.trim()).filter((p) => p);
    for (let n = 0; n < parts.length; n++) {
      const m = /^(\d{1,2}):([1-9]{2}(?:,[1-9]{2})*)$/.exec(parts[n].replace(/\s+/g, ''));
      if (!m) {
        return { error: 'Cage ' + (n + 1) + ', “' + parts[n] + '”, is not a sum, “:” and cells ' +
                 'such as 11,12 (row then column, from 1).' };
      }
      cages.push({ sum: Number(m[1]), cells: m[2].split(',').map((rc) => (Number(rc[0]) - 1) * SIZE + Number(rc[1]) - 1) });
    }
    return { cages: cages };
  }

  /* ----------------------------------------------------------------------
   * Messages
   * ---------------------------------------------------------------------- */

  // kind: 'ok', 'error', 'info' or '' (none). The CSS adds a symbol as well
  // as a colour, so the kind does not rest on colour alone.
  function setStatus(kind, text) {
    statusEl.className = 'status' + (kind ? ' status--' + kind : '');
    statusEl.textContent = text;
  }

  // The message sits next to the grid; on a phone it is below the pad, so
  // bring it into view when something is said after a button far below.
  function revealStatus() {
    const r = statusEl.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) statusEl.scrollIntoView({ block: 'nearest' });
  }

  // The API's `detail` is a sentence fragment in lower case: make it a sentence.
  function sentence(text) {
    const s = String(text).trim();
    if (!s) return s;
    const first = s.charAt(0).toUpperCase() + s.slice(1);
    return /[.!?]$/.test(first) ? first : first + '.';
  }

  function unitName(unit, index) {
    if (unit === 'box') return 'the ' + (BOX_NAMES[index] || 'box ' + (index + 1)) + ' box';
    return unit + ' ' + (index + 1);
  }

  function times(n) {
    return n === 2 ? 'twice' : n === 3 ? 'three times' : n + ' times';
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  function showConflicts(list) {
    const said = [];
    list.forEach((cf) => {
      (cf.cells || []).forEach((rc) => conflicts.add(rc[0] * SIZE + rc[1]));
      said.push(cf.digit + ' appears ' + times((cf.cells || []).length) +
                ' in ' + unitName(cf.unit, cf.index));
    });
    const shown = said.slice(0, 4);
    let text = 'The board breaks the rules: ' + shown.join('; ');
    if (said.length > shown.length) text += '; and ' + (said.length - shown.length) + ' more';
    render();
    setStatus('error', text + '. The clashing cells are striped in red.');
  }

  // Shows a problem+json answer (or whatever came back) in plain words.
  function showProblem(res, endpoint) {
    const p = res.data || {};
    if (p.code === 'conflict' && Array.isArray(p.conflicts) && p.conflicts.length) {
      showConflicts(p.conflicts);
      return;
    }
    if (p.code === 'invalid_board' && Number.isInteger(p.row) && Number.isInteger(p.column)) {
      invalidCell = p.row * SIZE + p.column;
    }
    if (Array.isArray(p.cells) && /^cage_/.test(p.code || '')) {
      p.cells.forEach((rc) => conflicts.add(rc[0] * SIZE + rc[1]));
    }
    render();
    if (res.status === 404 && endpoint) {
      hideEndpoint(endpoint);
      setStatus('error', 'This server does not offer ' + endpoint + ' yet.');
      return;
    }
    if (p.detail) {
      setStatus('error', humanText(p.detail));
    } else {
      setStatus('error', 'The server answered with status ' + res.status +
                ' and no explanation. Try again in a moment.');
    }
  }

  /* ----------------------------------------------------------------------
   * The API
   * ---------------------------------------------------------------------- */

  // fetch with a timeout; resolves to {status, ok, data} where data is the
  // parsed JSON body or null. Rejects only when the server could not be reached.
  async function call(method, path, body) {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
    try {
      const init = {
        method: method,
        headers: { Accept: 'application/json, application/problem+json' },
        cache: 'no-store',
        signal: ctrl.signal,
      };
      if (body !== undefined) {
        init.headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      const resp = await fetch(path, init);
      const text = await resp.text();
      let data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      return { status: resp.status, ok: resp.ok, data: data };
    } finally {
      clearTimeout(timer);
    }
  }

  // Runs one request at a time; the board says it is busy meanwhile.
  async function run(task) {
    if (busy) return;
    busy = true;
    boardEl.setAttribute('aria-busy', 'true');
    document.body.classList.add('is-busy');
    try {
      await task();
    } catch (e) {
      const why = e && e.name === 'AbortError' ? 'it did not answer in time' : 'the connection failed';
      setStatus('error', 'Could not reach the server: ' + why + '. Check that sudokud is running and try again.');
    } finally {
      busy = false;
      boardEl.removeAttribute('aria-busy');
      document.body.classList.remove('is-busy');
      revealStatus();
    }
  }

  // The body of a request: the givens (and, with player, the player's
  // digits that are not known to be wrong), and the cages of a killer puzzle.
  function body(withPlayer) {
    const line = S.givens.map((g, i) => {
      if (g) return g;
      if (withPlayer && S.values[i] && S.kinds[i] !== 'solved' && !isMistake(i)) return S.values[i];
      return '.';
    }).join('');
    const b = { board: line };
    if (S.cages.length) {
      b.cages = S.cages.map((cg) => ({ sum: cg.sum, cells: cg.cells.map((i) => [rowOf(i), colOf(i)]) }));
    }
    return b;
  }

  function toLine(board) {
    if (Array.isArray(board)) return board.join('');
    return typeof board === 'string' ? board : '';
  }

  // Asks POST /solve for the solution mistakes are checked against. quiet:
  // say nothing on success. Resolves to true when the solution is known.
  async function fetchSolution(quiet) {
    const want = puzzleText();
    const res = await call('POST', '/solve', body(false));
    if (puzzleText() !== want) return false; // the puzzle changed meanwhile
    if (!res.ok) { showProblem(res); return false; }
    const line = toLine(res.data && res.data.solution);
    if (line.length !== CELLS) return false;
    S.solution = line;
    afterChange();
    if (!quiet) setStatus('ok', 'The service knows this puzzle\'s solution: Check and “Show mistakes” use it.');
    return true;
  }

  // Locks the givens and starts the clock. The solution comes from the
  // service (given by /generate, else asked of /solve).
  async function startGame(message, solution) {
    if (isEmpty()) { setStatus('error', EMPTY_BOARD); return false; }
    if (!solution) {
      clearMarks();
      const res = await call('POST', '/solve', body(false));
      if (!res.ok) { showProblem(res); return false; }
      solution = toLine(res.data && res.data.solution);
      if (solution.length !== CELLS) {
        setStatus('error', 'The server sent an answer this page does not understand.');
        return false;
      }
    }
    commit(() => {
      S.playing = true;
      S.done = false;
      S.solution = solution;
      for (let i = 0; i < CELLS; i++) {
        if (S.givens[i]) { S.values[i] = ''; S.kinds[i] = ''; S.notes[i] = 0; }
      }
    }, true);
    S.elapsed = 0;
    undoStack = [];
    redoStack = [];
    startClock();
    render();
    save();
    history.replaceState(null, '', '#p=' + puzzleText());
    setStatus('ok', message);
    select(Math.max(0, S.givens.findIndex((g, i) => !g && !S.values[i])));
    return true;
  }

  // Loads a puzzle (givens line, cages) as a new game or new entry.
  function loadPuzzle(line, cages) {
    stopClock();
    S = emptyState();
    for (let i = 0; i < CELLS; i++) {
      const ch = line.charAt(i);
      S.givens[i] = ch >= '1' && ch <= '9' ? ch : '';
    }
    S.cages = cages || [];
    $('path-view').hidden = true;
    undoStack = [];
    redoStack = [];
    clearMarks();
    setNotesMode(false);
    render();
    syncLine();
    save();
  }

  function solve() {
    run(async () => {
      clearMarks();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Solving…');
      const res = await call('POST', '/solve', body(false));
      if (!res.ok) { showProblem(res); return; }
      const line = toLine(res.data && res.data.solution);
      if (line.length !== CELLS) {
        setStatus('error', 'The server sent an answer this page does not understand.');
        return;
      }
      commit(() => {
        for (let i = 0; i < CELLS; i++) {
          if (S.givens[i] || (S.values[i] === line[i] && S.kinds[i] !== 'solved')) continue;
          S.values[i] = line[i];
          S.kinds[i] = 'solved';
          S.notes[i] = 0;
        }
        S.solution = line;
        if (S.playing) S.done = true;
      });
      stopClock();
      const st = (res.data && res.data.stats) || {};
      let text = 'Solved.';
      if (Number.isFinite(st.solve_us)) {
        text = 'Solved in ' + st.solve_us + ' µs';
        const bits = [];
        if (Number.isFinite(st.nodes)) bits.push(plural(st.nodes, 'search node', 'search nodes'));
        if (Number.isFinite(st.guesses)) bits.push(st.guesses ? plural(st.guesses, 'guess', 'guesses') : 'no guesses');
        text += (bits.length ? ': ' + bits.join(', ') : '') + '.';
      }
      setStatus('ok', text);
    });
  }

  // Check: marks the player's wrong digits now (until the next change).
  function check() {
    run(async () => {
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      if (S.solution.length !== CELLS && !(await fetchSolution(true))) return;
      const wrong = [];
      for (let i = 0; i < CELLS; i++) if (isMistake(i)) wrong.push(i);
      showMistakes = true;
      render();
      if (wrong.length) {
        setStatus('error', plural(wrong.length, 'mistake', 'mistakes') + ', striped in red: ' +
                  wrong.slice(0, 6).map((i) => 'r' + (rowOf(i) + 1) + 'c' + (colOf(i) + 1)).join(', ') +
                  (wrong.length > 6 ? ' and more' : '') + '. Undo or type over them.');
      } else {
        const left = S.givens.filter((g, i) => !g && !S.values[i]).length;
        setStatus('ok', 'No mistakes so far' + (left ? '; ' + plural(left, 'cell', 'cells') + ' to go.' : '.'));
      }
    });
  }

  // The API counts rows, columns, boxes and cells from 0 ("row 0", "[0,1]");
  // people count from 1, and so does everything this page says.
  function humanText(text) {
    return sentence(String(text)
      .replace(/\[(\d),(\d)\]/g, (m, r, c) => 'r' + (Number(r) + 1) + 'c' + (Number(c) + 1))
      .replace(/\b(row|column|box|cages?) (\d)\b/g, (m, u, i) => u + ' ' + (Number(i) + 1))
      .replace(/\bcages (\d) and (\d)\b/g, (m, a, b) => 'cages ' + a + ' and ' + (Number(b) + 1)));
  }

  const TECHNIQUES = {
    locked_candidates_pointing: 'locked candidates, pointing',
    locked_candidates_claiming: 'locked candidates, claiming',
    x_wing: 'X-wing', xy_wing: 'XY-wing', xyz_wing: 'XYZ-wing',
    from_solution: 'taken from the solution',
  };
  function techniqueName(t) {
    return TECHNIQUES[t] || String(t || 'a step').replace(/_/g, ' ');
  }

  // POST /validate answers 200 {valid, solutions, complete, conflicts}.
  function validate() {
    run(async () => {
      clearMarks();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Checking…');
      const res = await call('POST', '/validate', body(true));
      if (!res.ok) { showProblem(res, '/validate'); return; }
      const d = res.data || {};
      if (Array.isArray(d.conflicts) && d.conflicts.length) { showConflicts(d.conflicts); return; }
      render();
      if (d.valid && d.complete) {
        setStatus('ok', 'The board is complete and correct.');
      } else if (d.valid) {
        setStatus('ok', 'Valid: no digit repeats, and the puzzle has exactly one solution.');
      } else if (d.solutions === 0) {
        setStatus('error', 'No digit repeats, but the puzzle has no solution: some digit is wrong.' +
                  (S.playing ? ' Check marks the wrong ones.' : ''));
      } else if (d.solutions > 1) {
        setStatus('error', 'No digit repeats, but the puzzle has more than one solution: add givens ' +
                  'until exactly one is left.');
      } else {
        setStatus('error', 'The board is not a valid puzzle.');
      }
    });
  }

  // POST /hint answers one step of the logic engine: `placements`, the
  // `cells` and `units` of its pattern, `eliminations`, an `explanation`,
  // and for a step that only rules candidates out, `next_placement`. The
  // page places the digit (a hint must move the board on), draws the rest
  // on the grid and keeps the explanation in the message next to it.
  function hint() {
    run(async () => {
      clearMarks();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      if (S.done) { setStatus('info', 'This puzzle is solved already.'); return; }
      setStatus('info', 'Looking for a hint…');
      const res = await call('POST', '/hint', body(true));
      if (!res.ok) { showProblem(res, '/hint'); return; }
      const d = res.data || {};
      const move = (Array.isArray(d.placements) && d.placements[0]) || d.next_placement;
      const rc = move && Array.isArray(move.cell) ? move.cell : null;
      const digit = move ? String(move.digit) : '';
      if (!rc || !/^[1-9]$/.test(digit)) {
        setStatus('error', 'The server sent a hint this page does not understand.');
        return;
      }
      const i = rc[0] * SIZE + rc[1];
      commit(() => {
        S.values[i] = digit;
        S.kinds[i] = 'hint';
        S.notes[i] = 0;
        if (S.playing) {
          for (let k = 0; k < CELLS; k++) if (peers(i, k)) S.notes[k] &= ~(1 << Number(digit));
        }
      });
      const inRange = (x) => Array.isArray(x) && x[0] >= 0 && x[0] < SIZE && x[1] >= 0 && x[1] < SIZE;
      overlay = {
        target: i,
        cells: (Array.isArray(d.cells) ? d.cells : []).filter(inRange).map((x) => x[0] * SIZE + x[1]),
        units: (Array.isArray(d.units) ? d.units : []).filter((u) => u && Number.isInteger(u.index)),
        elims: (Array.isArray(d.eliminations) ? d.eliminations : [])
          .filter((e) => e && inRange(e.cell)).map((e) => ({ i: e.cell[0] * SIZE + e.cell[1], d: Number(e.digit) })),
        // A chain's nodes: {cells, digit, link}; a grouped node has `cells`.
        links: (Array.isArray(d.links) ? d.links : []).map((n) => ({
          cells: (Array.isArray(n.cells) ? n.cells : [n.cell]).filter(inRange).map((x) => x[0] * SIZE + x[1]),
          digit: Number(n.digit),
          link: String(n.link || 'end'),
        })).filter((n) => n.cells.length && n.digit >= 1 && n.digit <= 9),
      };
      const where = digit + ' goes in row ' + (rc[0] + 1) + ', column ' + (rc[1] + 1) + '.';
      let text;
      if (d.stuck) {
        text = 'Hint: ' + where + ' ' + humanText(d.explanation || '');
      } else if (move === d.next_placement) {
        const more = (move.steps || 1) - 1;
        text = 'Hint (' + techniqueName(d.technique) + '; see the outlined cells): ' +
               humanText(d.explanation || '') + ' After that' +
               (more > 0 ? ' and ' + plural(more, 'more step', 'more steps') : '') + ', ' +
               where.replace(/\.$/, '') + ' (' + techniqueName(move.technique) + ').';
      } else {
        text = 'Hint (' + techniqueName(d.technique) + '): ' + where + ' ' + humanText(d.explanation || '');
      }
      if (overlay.elims.length) text += ' Ruled-out candidates are struck through.';
      if (overlay.links.length) {
        text += ' The chain is drawn on the grid: solid lines are strong links, dashed lines weak ones.';
      }
      select(i, false);
      setStatus('ok', text.trim());
    });
  }

  // POST /grade answers {level, hardest, needs_guessing, steps, blanks_left}.
  function grade() {
    run(async () => {
      clearMarks();
      render();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Grading…');
      const res = await call('POST', '/grade', body(false));
      if (!res.ok) { showProblem(res, '/grade'); return; }
      const d = res.data || {};
      let text = 'This puzzle is ' + (d.level || 'graded') +
        (Number.isFinite(d.rating) ? ' (rating ' + d.rating.toFixed(1) + ')' : '') + '.';
      if (d.needs_guessing) {
        text += ' Logic alone gets stuck with ' + plural(d.blanks_left, 'blank', 'blanks') +
                ' left, so it needs guessing.';
      } else if (d.hardest) {
        text += ' Its hardest technique is ' + techniqueName(d.hardest) + ', in ' +
                plural(d.steps, 'step', 'steps') + '.';
      }
      setStatus('ok', text);
    });
  }

  // POST /explain answers {steps: [hint step...], complete, stopped, level,
  // rating}: every step from the puzzle's givens to the solution, listed
  // next to the grid in the words of the hints.
  function explain() {
    run(async () => {
      clearMarks();
      render();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Working out the solution path…');
      const res = await call('POST', '/explain', body(false));
      if (!res.ok) { showProblem(res, '/explain'); return; }
      const d = res.data || {};
      const steps = Array.isArray(d.steps) ? d.steps : [];
      const list = $('path');
      list.textContent = '';
      steps.forEach((st) => {
        const li = document.createElement('li');
        const name = document.createElement('strong');
        name.textContent = techniqueName(st.technique) + ': ';
        li.append(name, humanText(st.explanation || ''));
        list.appendChild(li);
      });
      const rating = Number.isFinite(d.rating) ? ', rating ' + d.rating.toFixed(1) : '';
      $('path-summary').textContent = plural(steps.length, 'step', 'steps') + ' by logic alone, level ' +
        (d.level || '?') + rating + (d.complete === false ? '; stopped before the end (' +
        String(d.stopped || 'limit').replace(/_/g, ' ') + ').' : ', to the solution.');
      $('path-view').hidden = false;
      setStatus('ok', 'The solution path, ' + $('path-summary').textContent + ' It is listed below the buttons.');
    });
  }

  // POST /generate {difficulty} answers {puzzle, solution, difficulty, givens, ...}.
  function generate() {
    run(async () => {
      const level = $('difficulty').value;
      const req = {};
      if (level) req.difficulty = level;
      const range = [['min-rating', 'min_rating'], ['max-rating', 'max_rating']];
      for (const [id, key] of range) {
        const v = $(id).value.trim();
        if (!v) continue;
        const x = Number(v);
        if (!Number.isFinite(x) || x < 1 || x > 12) {
          setStatus('error', 'A rating is a number from 1.0 to 12.0.');
          $(id).setAttribute('aria-invalid', 'true');
          return;
        }
        $(id).removeAttribute('aria-invalid');
        req[key] = x;
      }
      setStatus('info', 'Generating a ' + (level || 'new') + ' puzzle…');
      const res = await call('POST', '/generate', req);
      if (!res.ok) { showProblem(res, '/generate'); return; }
      const d = res.data || {};
      const line = toLine(d.puzzle);
      const sol = toLine(d.solution);
      if (line.length !== CELLS) {
        setStatus('error', 'The server sent a puzzle this page does not understand.');
        return;
      }
      loadPuzzle(line, []);
      const givens = S.givens.filter((g) => g).length;
      const rating = d.grade && Number.isFinite(d.grade.rating) ? ' (rating ' + d.grade.rating.toFixed(1) + ')' : '';
      await startGame('A new ' + (d.difficulty || (d.grade && d.grade.level) || level) + ' puzzle' + rating +
                      ' with ' + givens + ' givens. Good luck!', sol.length === CELLS ? sol : '');
    });
  }

  function hideEndpoint(path) {
    document.querySelectorAll('[data-endpoint="' + path + '"]').forEach((el) => {
      const group = el.id === 'generate' ? $('generate-group') : el;
      group.hidden = true;
    });
  }

  function showEndpoint(path) {
    document.querySelectorAll('[data-endpoint="' + path + '"]').forEach((el) => {
      el.hidden = false;
      if (el.id === 'generate') $('generate-group').hidden = false;
    });
  }

  // OPTIONS answers 204 on a route that exists and 404 on one that does not.
  function probeEndpoints() {
    const paths = new Set();
    document.querySelectorAll('[data-endpoint]').forEach((el) => paths.add(el.dataset.endpoint));
    return Promise.all(Array.from(paths).map(async (path) => {
      try {
        const res = await call('OPTIONS', path);
        if (res.status === 404) hideEndpoint(path);
        else if (res.status < 500) showEndpoint(path);
      } catch (e) { /* leave it */ }
    })).then(() => { document.body.dataset.probed = 'true'; });
  }

  /* ----------------------------------------------------------------------
   * The clock
   * ---------------------------------------------------------------------- */

  let since = 0;     // when the clock last started, or 0 when stopped
  let ticker = 0;

  function clockText(ms) {
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const m = Math.floor(s / 60) % 60;
    const ss = String(s % 60).padStart(2, '0');
    return h ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
  }
  function elapsed() { return S.elapsed + (since ? Date.now() - since : 0); }
  function showClock() { $('timer').textContent = clockText(elapsed()); }

  // Runs only while a game is on and the tab is visible.
  function startClock() {
    if (!S.playing || S.done || document.visibilityState === 'hidden' || since) { showClock(); return; }
    since = Date.now();
    ticker = setInterval(showClock, 1000);
    showClock();
  }
  function stopClock() {
    if (since) { S.elapsed += Date.now() - since; since = 0; }
    clearInterval(ticker);
    ticker = 0;
    showClock();
    save();
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') stopClock(); else startClock();
  });
  window.addEventListener('pagehide', stopClock);
  window.addEventListener('pageshow', startClock); // back from the page cache

  /* ----------------------------------------------------------------------
   * Saving, resuming and sharing
   * ---------------------------------------------------------------------- */

  function save() {
    try {
      const data = JSON.parse(snapshot());
      localStorage.setItem(STORE_KEY, JSON.stringify({
        state: data, elapsed: elapsed(), active: active, autoCheck: autoCheck,
        undo: undoStack.slice(-50), redo: redoStack.slice(-50),
      }));
    } catch (e) { /* private mode or full: the game just is not kept */ }
  }

  // What localStorage gives back is checked before it is drawn: another
  // version of the page, or a person, may have written something else.
  function wellFormed(st) {
    const digits = (a) => Array.isArray(a) && a.length === CELLS &&
      a.every((x) => x === '' || /^[1-9]$/.test(x));
    return digits(st.givens) && digits(st.values) &&
      Array.isArray(st.kinds) && st.kinds.length === CELLS &&
      Array.isArray(st.notes) && st.notes.length === CELLS && st.notes.every(Number.isInteger) &&
      Array.isArray(st.cages) && st.cages.every((cg) => cg && Number.isInteger(cg.sum) &&
        Array.isArray(cg.cells) && cg.cells.every((i) => Number.isInteger(i) && i >= 0 && i < CELLS)) &&
      typeof st.solution === 'string';
  }

  function resume() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null'); } catch (e) { saved = null; }
    if (!saved || !Array.isArray(saved.state)) return false;
    restore(JSON.stringify(saved.state));
    if (!wellFormed(S)) { S = emptyState(); return false; }
    S.elapsed = Number(saved.elapsed) || 0;
    const snaps = (a) => (Array.isArray(a) ? a : []).filter((x) => {
      const st = emptyState();
      try { restore(x, st); } catch (e) { return false; }
      return wellFormed(st);
    });
    undoStack = snaps(saved.undo);
    redoStack = snaps(saved.redo);
    autoCheck = !!saved.autoCheck;
    $('auto-check').checked = autoCheck;
    active = Number.isInteger(saved.active) ? saved.active : 0;
    cellEls[0].tabIndex = -1;
    cellEls[active].tabIndex = 0;
    return true;
  }

  function shareUrl() {
    return location.origin + location.pathname + '#p=' + puzzleText();
  }
  function updateShare() {
    const a = $('share');
    a.hidden = !S.playing;
    if (S.playing) a.href = shareUrl();
  }

  // #p=<81 characters>[|<cages>]: the puzzle of a shared link.
  function puzzleFromHash() {
    const m = /^#p=(.+)$/.exec(location.hash);
    if (!m) return '';
    try { return decodeURIComponent(m[1]); } catch (e) { return m[1]; }
  }

  /* ----------------------------------------------------------------------
   * The line box
   * ---------------------------------------------------------------------- */

  // The line box mirrors the puzzle (so it can be copied) unless being edited.
  function syncLine() {
    if (document.activeElement === lineEl) return;
    lineEl.value = isEmpty() ? '' : puzzleText();
  }

  // Checks a line before it touches the grid: whitespace is dropped, then
  // 81 characters of 1-9, '.' or '0', optionally followed by |cages (and a
  // second | with anything: the data files keep the solution there).
  // Returns {line, cages} or null after saying what is wrong.
  function parseLine(text) {
    const pieces = String(text).split('|');
    const chars = Array.from(pieces[0].replace(/\s+/g, ''));
    const bad = chars.findIndex((ch) => !/^[0-9.]$/.test(ch));
    let why = '';
    if (chars.length === 0) {
      why = 'The line is empty: paste 81 characters, one per cell, row by row.';
    } else if (chars.length !== CELLS) {
      why = 'That line has ' + plural(chars.length, 'character', 'characters') +
            ' (not counting spaces); a puzzle needs exactly 81, one per cell, row by ' +
            'row, with “.” or “0” for a blank. Nothing was loaded.';
    } else if (bad >= 0) {
      why = 'Character ' + (bad + 1) + ' of the line, “' + chars[bad] +
            '” (row ' + (Math.floor(bad / SIZE) + 1) + ', column ' + (bad % SIZE + 1) +
            '), is not allowed: use 1-9 for a digit and “.” or “0” for a blank. Nothing was loaded.';
    }
    let cages = [];
    if (!why && pieces.length > 1) {
      const p = parseCages(pieces[1]);
      if (p.error) why = p.error + ' Nothing was loaded.';
      else cages = p.cages;
    }
    if (why) {
      clearMarks();
      render();
      setStatus('error', why);
      lineEl.setAttribute('aria-invalid', 'true');
      return null;
    }
    return { line: chars.join(''), cages: cages };
  }

  // Loads a line and starts playing it.
  function loadLine(text) {
    const p = parseLine(text);
    if (!p) return;
    run(async () => {
      loadPuzzle(p.line, p.cages);
      const givens = S.givens.filter((g) => g).length;
      const started = await startGame('Loaded a ' + (p.cages.length ? 'killer puzzle with ' +
        plural(p.cages.length, 'cage', 'cages') + ' and ' : 'puzzle with ') + givens + ' givens.');
      if (!started) syncLine();
    });
  }

  /* ----------------------------------------------------------------------
   * The theme
   * ---------------------------------------------------------------------- */

  function applyTheme(dark) {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    $('theme').setAttribute('aria-pressed', String(dark));
  }
  function initTheme() {
    let pref = null;
    try { pref = localStorage.getItem(THEME_KEY); } catch (e) { pref = null; }
    const system = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    applyTheme(pref ? pref === 'dark' : system);
  }

  /* ----------------------------------------------------------------------
   * Start
   * ---------------------------------------------------------------------- */

  function buildPad() {
    const pad = $('pad-digits');
    for (let d = 1; d <= 9; d++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = String(d);
      b.dataset.digit = String(d);
      pad.appendChild(b);
    }
    pad.addEventListener('click', (ev) => {
      const b = ev.target.closest('button');
      if (b) enterDigit(active, b.dataset.digit, notesMode);
    });
  }

  buildGrid();
  buildPad();
  initTheme();
  boardEl.addEventListener('keydown', onKeyDown);
  boardEl.addEventListener('focusin', onFocusIn);
  boardEl.addEventListener('pointerdown', onPointerDown);
  document.addEventListener('pointermove', onPointerMove);
  document.addEventListener('pointerup', onPointerUp);
  document.addEventListener('keydown', onDocKeyDown);
  // A paste while a cell has the focus: a line loads a puzzle, a digit
  // fills the cell. Cells are not editable, so the event may be sent to
  // the body rather than the cell: listen on the document.
  document.addEventListener('paste', (ev) => {
    if (!boardEl.contains(document.activeElement)) return;
    const text = (ev.clipboardData && ev.clipboardData.getData('text')) || '';
    ev.preventDefault();
    if (text.replace(/\s/g, '').length > 1) loadLine(text);
    else if (/^[1-9]$/.test(text.trim())) enterDigit(active, text.trim(), false);
  });

  $('solve').addEventListener('click', solve);
  $('check').addEventListener('click', check);
  $('validate').addEventListener('click', validate);
  $('hint').addEventListener('click', hint);
  $('grade').addEventListener('click', grade);
  $('explain').addEventListener('click', explain);
  $('path-close').addEventListener('click', () => { $('path-view').hidden = true; $('explain').focus(); });
  $('generate').addEventListener('click', generate);
  $('play').addEventListener('click', () => run(() => startGame('The puzzle is locked: its givens cannot change now. Good luck!')));
  $('erase').addEventListener('click', () => erase(active));
  $('notes').addEventListener('click', () => setNotesMode(!notesMode));
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('autofill').addEventListener('click', autofill);
  $('auto-check').addEventListener('change', (ev) => {
    autoCheck = ev.target.checked;
    render();
    save();
    if (autoCheck && S.playing && S.solution.length !== CELLS) run(() => fetchSolution(true));
  });
  $('theme').addEventListener('click', () => {
    const dark = document.documentElement.dataset.theme !== 'dark';
    applyTheme(dark);
    try { localStorage.setItem(THEME_KEY, dark ? 'dark' : 'light'); } catch (e) { /* not kept */ }
  });
  $('example').addEventListener('click', () => {
    run(async () => {
      loadPuzzle(EXAMPLE, []);
      await startGame('Example puzzle loaded. Type digits, or press Solve to see the answer.');
    });
  });
  $('clear').addEventListener('click', () => {
    loadPuzzle('', []);
    history.replaceState(null, '', location.pathname);
    showClock();
    setStatus('info', 'Board cleared: type a puzzle, or draw cages, then press Play this puzzle.');
  });
  $('cage-mode').addEventListener('click', () => setCageMode(!cageMode));
  $('cage-add').addEventListener('click', addCage);
  $('cage-sum').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); addCage(); }
  });
  $('cage-cancel').addEventListener('click', () => { cageSel = []; showCageForm(); render(); });
  $('clear-cages').addEventListener('click', () => {
    if (!S.cages.length) { setStatus('info', 'There are no cages to remove.'); return; }
    commit(() => { S.cages = []; S.solution = ''; });
    setStatus('info', 'Cages removed.');
  });
  $('load').addEventListener('click', () => loadLine(lineEl.value));
  lineEl.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); loadLine(lineEl.value); }
  });
  lineEl.addEventListener('paste', (ev) => {
    const text = ev.clipboardData && ev.clipboardData.getData('text');
    if (text === undefined || text === null) return; // let it paste; Load reads it
    ev.preventDefault();
    lineEl.value = text.trim();
    loadLine(text);
  });
  lineEl.addEventListener('input', () => lineEl.removeAttribute('aria-invalid'));
  window.addEventListener('hashchange', () => {
    const text = puzzleFromHash();
    if (text && text !== puzzleText()) loadLine(text);
  });

  // A shared link wins over the saved game, unless they are the same puzzle.
  const linked = puzzleFromHash();
  const resumed = resume();
  render();
  syncLine();
  showClock();
  boardEl.dataset.ready = 'true'; // for the browser test: the grid is built
  probeEndpoints().then(() => {
    if (linked && (!resumed || linked !== puzzleText())) {
      loadLine(linked);
    } else if (resumed && !isEmpty()) {
      startClock();
      setStatus('info', S.done ? 'Your last game is shown: it is solved.'
        : 'Welcome back: your game is resumed where you left it.');
    }
  });
})();

// Other sizes and variants: a panel of its own below the game. It draws an
// N x N board from classes (no style attributes under the CSP), regions
// with thick edges where the region changes, the diagonals and windoku
// windows shaded, and calls POST /generate and POST /solve with the rule
// members; the answers come back in upper case, letters for 10 and up.
(function () {
  const $ = (id) => document.getElementById(id);
  const boardEl = $('v-board');
  const statusEl = $('v-status');
  const lineEl = $('v-line');
  const sizeEl = $('v-size');
  const rulesEl = $('v-rules');
  const JIGSAW = 'AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEEFFDDDEEFFFFDDDEEEFFF' +
    'GGGHHHIIIGGGHHHIIIGGGHHHIII';
  const BOX_ROWS = { 4: 2, 6: 2, 8: 2, 9: 3, 12: 3, 16: 4, 25: 5 };
  let givens = '';   // the puzzle shown, N*N characters
  let solution = ''; // its solution once known

  // Jigsaw and windoku are 9x9 rules: the size follows them.
  function size() {
    const rule = rulesEl.value;
    if (rule === 'jigsaw' || rule === 'windoku') sizeEl.value = '9';
    return Number(sizeEl.value);
  }

  function windows() {
    const groups = [];
    for (let g = 0; g < 4; g++) {
      const cells = [];
      for (let k = 0; k < 9; k++) cells.push([1 + Math.floor(g / 2) * 4 + Math.floor(k / 3), 1 + (g % 2) * 4 + (k % 3)]);
      groups.push(cells);
    }
    return groups;
  }

  // The rule members of a request for the picked rules.
  function members() {
    const m = {};
    const rule = rulesEl.value;
    if (rule === 'diagonals' || rule === 'anti_knight' || rule === 'anti_king') m[rule] = true;
    if (rule === 'jigsaw') m.regions = JIGSAW;
    if (rule === 'windoku') m.extra_regions = windows();
    return m;
  }

  function regionOf(n, i) {
    if (rulesEl.value === 'jigsaw') return JIGSAW.charCodeAt(i) - 65;
    const br = BOX_ROWS[n];
    const bc = n / br;
    return Math.floor(Math.floor(i / n) / br) * br + Math.floor((i % n) / bc);
  }

  function inWindow(n, i) {
    const r = Math.floor(i / n);
    const c = i % n;
    return rulesEl.value === 'windoku' && r % 4 !== 0 && c % 4 !== 0;
  }

  function render() {
    const n = size();
    const cells = [];
    boardEl.className = 'vboard n' + n;
    for (let i = 0; i < n * n; i++) {
      const el = document.createElement('span');
      const r = Math.floor(i / n);
      const c = i % n;
      const given = givens[i] && givens[i] !== '.' && givens[i] !== '0';
      el.className = 'vcell' + (given ? ' given' : '') +
        (r > 0 && regionOf(n, i) !== regionOf(n, i - n) ? ' rt' : '') +
        (c > 0 && regionOf(n, i) !== regionOf(n, i - 1) ? ' rl' : '') +
        (rulesEl.value === 'diagonals' && (r === c || r + c === n - 1) ? ' diag' : '') +
        (inWindow(n, i) ? ' extra' : '');
      el.textContent = given ? givens[i].toUpperCase() : (solution[i] || '');
      cells.push(el);
    }
    boardEl.replaceChildren(...cells);
    boardEl.dataset.size = String(n);
    boardEl.setAttribute('aria-label', 'Variant board, ' + n + ' by ' + n +
      (solution ? ', solved' : givens ? ', puzzle' : ', empty'));
  }

  function say(kind, text) {
    statusEl.className = 'status' + (kind ? ' status--' + kind : '');
    statusEl.textContent = text;
  }

  async function post(path, body) {
    const resp = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await resp.json().catch(() => ({}));
    return { ok: resp.ok, json };
  }

  function problem(json) {
    const d = json.detail || 'the service refused the request';
    return d.charAt(0).toUpperCase() + d.slice(1) + (/[.!?]$/.test(d) ? '' : '.');
  }

  async function generate() {
    const n = size();
    say('info', 'Generating a ' + n + 'x' + n + ' puzzle...');
    const seed = Number(boardEl.dataset.seed || '1');
    boardEl.dataset.seed = String(seed + 1);
    const r = await post('/generate', Object.assign({ size: n, seed }, members()));
    if (!r.ok) { say('error', problem(r.json)); return; }
    givens = r.json.puzzle;
    solution = '';
    lineEl.value = givens;
    render();
    say('ok', 'A ' + n + 'x' + n + ' puzzle with ' + r.json.givens + ' givens (seed ' + r.json.seed + ').');
  }

  async function solve() {
    const text = lineEl.value.trim();
    if (!text) { say('info', 'Generate a puzzle or type one first.'); return; }
    say('info', 'Solving...');
    const r = await post('/solve', Object.assign({ board: text }, members()));
    if (!r.ok) { say('error', problem(r.json)); return; }
    givens = text;
    solution = r.json.solution;
    render();
    say('ok', 'Solved: the solution is unique.');
  }

  function show() {
    const text = lineEl.value.trim();
    const n = Math.round(Math.sqrt(text.length));
    if (!BOX_ROWS[n] || n * n !== text.length) {
      say('error', 'A puzzle line has N*N characters for N of 4, 6, 8, 9, 12, 16 or 25; this one has ' + text.length + '.');
      return;
    }
    sizeEl.value = String(n);
    if ((rulesEl.value === 'jigsaw' || rulesEl.value === 'windoku') && n !== 9) rulesEl.value = '';
    givens = text;
    solution = '';
    render();
    say('', '');
  }

  const busy = (fn) => async () => {
    for (const id of ['v-generate', 'v-solve']) $(id).disabled = true;
    try { await fn(); } catch (e) { say('error', 'The service could not be reached: ' + e.message); }
    for (const id of ['v-generate', 'v-solve']) $(id).disabled = false;
  };
  $('v-generate').addEventListener('click', busy(generate));
  $('v-solve').addEventListener('click', busy(solve));
  $('v-load').addEventListener('click', show);
  lineEl.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') show(); });
  for (const el of [sizeEl, rulesEl]) {
    el.addEventListener('change', () => { givens = ''; solution = ''; lineEl.value = ''; render(); say('', ''); });
  }
  render();
  boardEl.dataset.ready = 'true';
})();
