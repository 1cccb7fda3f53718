  // grid.js - the N x N grid: building it for the board's size and rules,
  // drawing the state on it (render), and the keyboard, pointer and focus.
  // Region edges, diagonals and extra regions are classes set when the grid
  // is built; everything that changes with play is set by render().

  const SVG = 'http://www.w3.org/2000/svg';
  let linksEl = null;        // the <svg> a hint's chain is drawn on
  let built = '';            // the size and rule the grid was built for
  let baseCls = [];          // cell -> its classes that come with the shape
  let padButtons = [];
  let clash = new Map();     // cell -> a cell it clashes with (see clashMap)

  // "c34" on boards up to 9x9 (as it always was); "c3-14" above, where two
  // numbers side by side could be read two ways.
  const cellId = (r, c) => 'c' + r + (SIZE > 9 ? '-' : '') + c;

  // (Re)builds the cells and the number pad when S's size or rule differs
  // from what is on the page, and sets the geometry to match.
  function ensureGrid() {
    const want = S.size + ':' + S.rule;
    if (built === want) return;
    built = want;
    useGeometry(S.size, S.rule);
    if (active >= CELLS) active = 0;
    buildGrid();
    buildPadDigits();
    padButtons = Array.from(document.querySelectorAll('#pad-digits button'));
    drawn = [];
    syncPicker();
  }

  function buildGrid() {
    boardEl.replaceChildren();
    cellEls = [];
    baseCls = [];
    boardEl.className = 'board n' + SIZE + (RULE ? ' rule-' + RULE : '');
    for (let r = 0; r < SIZE; r++) {
      const row = document.createElement('div');
      row.className = 'row';
      row.setAttribute('role', 'row');
      row.setAttribute('aria-rowindex', String(r + 1));
      for (let c = 0; c < SIZE; c++) {
        const i = r * SIZE + c;
        const cell = document.createElement('div');
        const cl = cell.classList;
        cl.add('cell');
        // A thick edge wherever the next cell is in another box or region.
        if (c < SIZE - 1 && regionOf[i] !== regionOf[i + 1]) cl.add('edge-r');
        if (r < SIZE - 1 && regionOf[i] !== regionOf[i + SIZE]) cl.add('edge-b');
        if (RULE === 'diagonals' && onDiagonal(i)) cl.add('is-diag');
        if (extraOf[i] >= 0) cl.add('is-extra');
        baseCls.push(cell.className);
        cell.setAttribute('role', 'gridcell');
        cell.setAttribute('aria-colindex', String(c + 1));
        cell.tabIndex = i === active ? 0 : -1;
        cell.id = cellId(r, c);
        cell.dataset.index = String(i);
        const digit = document.createElement('span');
        digit.className = 'digit';
        digit.setAttribute('aria-hidden', 'true');
        const notes = document.createElement('span');
        notes.className = 'notes';
        notes.setAttribute('aria-hidden', 'true');
        // Spaces between the marks and the parts, so that the cell's text
        // reads "1 3 8" as its name does (a grid drops whitespace text).
        for (let d = 1; d <= SIZE; d++) notes.append(document.createElement('span'), ' ');
        const sum = document.createElement('span');
        sum.className = 'cage-sum';
        sum.setAttribute('aria-hidden', 'true');
        cell.append(digit, ' ', notes, ' ', sum);
        row.appendChild(cell);
        cellEls.push(cell);
      }
      boardEl.appendChild(row);
    }
    if (linksEl) return;
    // The layer a hint's chain is drawn on: 9x9 units, one per cell (hints
    // are for classic boards only).
    linksEl = document.createElementNS(SVG, 'svg');
    linksEl.setAttribute('class', 'links');
    linksEl.setAttribute('viewBox', '0 0 9 9');
    linksEl.setAttribute('preserveAspectRatio', 'none');
    linksEl.setAttribute('aria-hidden', 'true');
    linksEl.setAttribute('focusable', 'false');
    boardEl.after(linksEl);
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
    if (!overlay || !overlay.links.length || (overlay.stage || 3) < 2) return;
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

  // The cage of each cell (index into S.cages, or -1).
  // Is cell k in a hint's unit? Rows, columns, boxes (a jigsaw's regions),
  // the two diagonals, the extra regions (windoku's windows) and cages.
  function inUnit(u, k) {
    switch (u.unit) {
      case 'row': return rowOf(k) === u.index;
      case 'column': return colOf(k) === u.index;
      case 'box': case 'region': return boxOf(k) === u.index;
      case 'diagonal': return u.index ? rowOf(k) + colOf(k) === SIZE - 1 : rowOf(k) === colOf(k);
      case 'extra_region': return extraOf[k] === u.index;
      case 'cage': return !!S.cages[u.index] && S.cages[u.index].cells.includes(k);
      default: return false;
    }
  }

  function cageMap() {
    const map = new Array(CELLS).fill(-1);
    S.cages.forEach((cage, n) => cage.cells.forEach((i) => { map[i] = n; }));
    return map;
  }

  // The clashes on the board as it stands: cell -> the first cell that
  // holds the same digit in one of its units (row, column, box or region,
  // diagonal, window, a knight's or king's move, or its killer cage).
  function clashMap(cmap) {
    const out = new Map();
    for (let i = 0; i < CELLS; i++) {
      const d = digitAt(i);
      if (!d) continue;
      const list = peerList[i];
      for (let n = 0; n < list.length; n++) {
        if (digitAt(list[n]) === d) { out.set(i, list[n]); break; }
      }
    }
    S.cages.forEach((cage) => {
      const seen = new Map();
      cage.cells.forEach((k) => {
        const d = digitAt(k);
        if (!d) return;
        if (seen.has(d)) {
          if (!out.has(k)) out.set(k, seen.get(d));
          if (!out.has(seen.get(d))) out.set(seen.get(d), k);
        } else seen.set(d, k);
      });
    });
    void cmap;
    return out;
  }

  // Draws S on the grid. Every cell's look is worked out, but the DOM is
  // touched only where it changed (the last class, label, digit and notes
  // of each cell are kept): on 25x25 a keystroke changes a few dozen cells
  // of 625, and rewriting all of them cost 140-240 ms.
  let drawn = [];
  function render() {
    ensureGrid();
    if (drawn.length !== CELLS) drawn = cellEls.map(() => ({}));
    const cmap = cageMap();
    const sel = digitAt(active);
    const unitCells = new Set();
    const patternCells = new Set();
    const elims = new Map();
    const chainDigits = new Map(); // cell -> digits of the hint's chain there
    const stage = overlay ? overlay.stage || 3 : 0;
    if (overlay) {
      overlay.units.forEach((u) => {
        for (let k = 0; k < CELLS; k++) if (inUnit(u, k)) unitCells.add(k);
      });
      // Where to look, first: the units, or the pattern's cells when the
      // step names no unit (a chain).
      if (stage >= 2 || !overlay.units.length) overlay.cells.forEach((k) => patternCells.add(k));
      if (stage >= 2) {
        overlay.links.forEach((n) => n.cells.forEach((k) => {
          patternCells.add(k);
          if (!chainDigits.has(k)) chainDigits.set(k, []);
          if (!chainDigits.get(k).includes(n.digit)) chainDigits.get(k).push(n.digit);
        }));
        overlay.elims.forEach((e) => {
          if (!elims.has(e.i)) elims.set(e.i, []);
          elims.get(e.i).push(e.d);
        });
      } else if (!overlay.units.length) {
        overlay.links.forEach((n) => n.cells.forEach((k) => patternCells.add(k)));
      }
    }
    clash = clashMap(cmap);
    const cageSet = new Set(cageSel);
    const counts = {};
    for (let i = 0; i < CELLS; i++) {
      const el = cellEls[i];
      const was = drawn[i];
      const given = S.givens[i];
      const value = given || S.values[i];
      if (value) counts[value] = (counts[value] || 0) + 1;
      const kind = given ? 'given' : S.values[i] ? S.kinds[i] : '';
      const mistake = (autoCheck || showMistakes) && isMistake(i);
      const n = cmap[i];
      const r = rowOf(i);
      const c = colOf(i);
      const head = n >= 0 && Math.min.apply(null, S.cages[n].cells) === i;
      const cls = [baseCls[i]];
      if (given) cls.push('is-given');
      if (given && S.playing) cls.push('is-locked');
      if (kind === 'player') cls.push('is-player');
      if (kind === 'solved') cls.push('is-solved');
      if (kind === 'hint') cls.push('is-hint');
      if (i === active) cls.push('is-selected');
      if (!overlay && sameUnit(active, i)) cls.push('is-peer');
      if (sel && i !== active && value === sel) cls.push('is-same');
      if (mistake) cls.push('is-mistake');
      if (clash.has(i)) cls.push('is-clash');
      if (conflicts.has(i)) cls.push('is-conflict');
      if (invalidCell === i) cls.push('is-error');
      if (unitCells.has(i)) cls.push('is-unit');
      if (patternCells.has(i)) cls.push('is-pattern');
      if (stage >= 3 && overlay.target === i) cls.push('is-target');
      if (cageSet.has(i)) cls.push('is-caging');
      if (n >= 0) {
        // Cage outline: a dashed side wherever the neighbour is in another cage.
        cls.push('in-cage');
        if (r === 0 || cmap[i - SIZE] !== n) cls.push('cage-t');
        if (r === SIZE - 1 || cmap[i + SIZE] !== n) cls.push('cage-b');
        if (c === 0 || cmap[i - 1] !== n) cls.push('cage-l');
        if (c === SIZE - 1 || cmap[i + 1] !== n) cls.push('cage-r');
        if (head) cls.push('cage-head');
      }
      const className = cls.join(' ');
      if (was.cls !== className) { el.className = className; was.cls = className; }
      if (was.value !== value) { el.children[0].textContent = value; was.value = value; }
      const invalid = mistake || clash.has(i) || conflicts.has(i) || invalidCell === i;
      if (was.invalid !== invalid) {
        if (invalid) el.setAttribute('aria-invalid', 'true');
        else el.removeAttribute('aria-invalid');
        was.invalid = invalid;
      }

      // Notes, and a hint's eliminations drawn struck through in their place.
      const mask = value ? 0 : S.notes[i];
      // An elimination is drawn where the candidate is: in a cell without
      // notes (the candidates are implied) or on the player's own note.
      const el2 = value ? [] : (elims.get(i) || [])
        .filter((d) => !mask || (mask & (1 << d))).sort((x, y) => x - y);
      const notesKey = mask + ':' + el2.join('');
      if (was.notes !== notesKey) {
        const spans = el.children[1].children;
        for (let d = 1; d <= SIZE; d++) {
          const struck = el2.includes(d);
          spans[d - 1].textContent = (mask & (1 << d)) || struck ? DIGITS[d - 1] : '';
          spans[d - 1].className = struck ? 'elim' : '';
        }
        was.notes = notesKey;
      }

      // The sum is drawn by CSS (content: attr(data-sum)), not written as
      // text: the cell's text stays its digit or notes, which its name
      // (where the sum is said too) contains word for word.
      const sum = head ? String(S.cages[n].sum) : '';
      if (was.sum !== sum) {
        if (sum) el.children[2].dataset.sum = sum;
        else delete el.children[2].dataset.sum;
        was.sum = sum;
      }

      const text = cellLabel(i, value, kind, mistake, n, el2, chainDigits.get(i));
      if (was.label !== text) { el.setAttribute('aria-label', text); was.label = text; }
    }
    padButtons.forEach((b) => b.classList.toggle('is-complete', (counts[b.dataset.digit] || 0) >= SIZE));
    drawLinks();
    $('undo').disabled = !undoStack.length;
    $('redo').disabled = !redoStack.length;
    $('play').hidden = S.playing;
    $('solve').textContent = S.playing ? 'Reveal solution' : 'Solve';
    $('mode').textContent = S.done ? 'Solved' : S.playing
      ? (S.cages.length ? 'Playing a killer puzzle' : isClassic() ? 'Playing'
        : 'Playing ' + variantName(SIZE, RULE)) : 'Entering a puzzle';
    $('level').textContent = levelName();
    $('mistakes').textContent = String(S.mistakes);
    $('pause').disabled = !S.playing || S.done;
    boardEl.classList.toggle('is-done', S.done);
    updateShare();
  }

  // The level in play, in words: "Medium", "Daily, 5 May", "16x16".
  function levelName() {
    if (!S.playing) return 'None';
    if (S.daily) return 'Daily ' + S.daily;
    if (S.level) return S.level.charAt(0).toUpperCase() + S.level.slice(1);
    const graded = S.graded ? ', ' + S.graded : '';
    return (isClassic() ? (S.cages.length ? 'Killer' : 'Your own') : variantName(SIZE, RULE)) + graded;
  }

  // "Row 1, column 2, box 1, given 5" / "Row 4, column 4, box 5, empty, notes 1 3 8";
  // a jigsaw cell names its region by letter, a shaded cell its diagonal or window.
  function cellLabel(i, value, kind, mistake, cage, elims, chain) {
    const parts = ['Row ' + (rowOf(i) + 1), 'column ' + (colOf(i) + 1),
      RULE === 'jigsaw' ? 'region ' + String.fromCharCode(65 + boxOf(i)) : 'box ' + (boxOf(i) + 1)];
    if (RULE === 'diagonals' && onDiagonal(i)) parts.push('on a diagonal');
    if (extraOf[i] >= 0) parts.push('window ' + (extraOf[i] + 1));
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
    if (clash.has(i)) {
      const k = clash.get(i);
      parts.push('clashes with row ' + (rowOf(k) + 1) + ', column ' + (colOf(k) + 1));
    }
    if (conflicts.has(i)) parts.push('conflict');
    if (elims.length && !value) parts.push('hint rules out ' + elims.join(' '));
    if (chain) parts.push('in the hint\'s chain on ' + chain.join(' and '));
    if (cage >= 0) parts.push('cage sum ' + S.cages[cage].sum);
    return parts.join(', ');
  }

  /* ----------------------------------------------------------------------
   * Keyboard, pointer and focus
   * ---------------------------------------------------------------------- */

  function select(i, focus) {
    i = Math.max(0, Math.min(CELLS - 1, i));
    if (cellEls[active]) cellEls[active].tabIndex = -1;
    active = i;
    cellEls[i].tabIndex = 0;
    if (focus !== false) cellEls[i].focus();
    // Looking elsewhere once the move is shown: the hint has been read.
    // While it only says where to look, or why, the player looks around.
    if (overlay && (overlay.stage || 3) >= 3 && overlay.target !== i) {
      overlay = null;
      if (hintStep) { hintStep = null; syncHintButton(); }
    }
    if (zoomed) cellEls[i].scrollIntoView({ block: 'nearest', inline: 'nearest' });
    render();
  }

  // The digit a key stands for on this board ('' if none): 1-9 by the key
  // or its position (so Shift+1 is still 1), then A-P as letters allow.
  function keyDigit(ev) {
    const code = /^(?:Digit|Numpad)([0-9])$/.exec(ev.code || '');
    const key = ev.key;
    if (code) return code[1] === '0' || isDigit(code[1]) ? code[1] : '';
    if (key.length !== 1) return '';
    const up = key.toUpperCase();
    if (up >= 'A' && up <= 'Z') return isDigit(up) ? up : '';
    return key >= '0' && key <= '9' && (key === '0' || isDigit(key)) ? key : '';
  }

  function onKeyDown(ev) {
    const i = Number(ev.target.dataset.index);
    if (Number.isNaN(i)) return;
    handleKey(i, ev);
  }

  // A key for cell i, from the grid or from anywhere else on the page
  // (onDocKeyDown). Returns whether it was the board's.
  function handleKey(i, ev) {
    if (ev.altKey || ev.metaKey) return false;
    if (paused) return false;
    const r = rowOf(i);
    const c = colOf(i);
    const key = ev.key;
    const digit = ev.ctrlKey ? '' : keyDigit(ev);
    let handled = true;

    if (ev.ctrlKey) {
      if (key === 'Home') select(0);
      else if (key === 'End') select(CELLS - 1);
      else handled = false; // undo/redo are on the document; Ctrl+C and the like stay
    } else if (cageMode && (key === ' ' || key === 'Enter')) {
      toggleCageCell(i);
    } else if (digit && digit !== '0') {
      // Shift makes a note of 1-9; a letter typed with Shift is a capital, not a note.
      const asNote = (ev.shiftKey && /^(?:Digit|Numpad)/.test(ev.code || '')) || notesMode;
      enterDigit(i, digit, asNote);
      if (!S.playing && !asNote && i < CELLS - 1) select(i + 1);
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
      setNotesMode(!notesMode); // on 25x25, N is a digit and comes first
    } else if (key.length === 1) {
      // Any other printable key: ignored, the cell keeps its digit.
    } else {
      handled = false; // Tab, Escape, function keys...
    }
    if (handled) ev.preventDefault();
    return handled;
  }

  // Keys anywhere on the page but in a text field or a dialog: Ctrl+Z /
  // Ctrl+Y (and Ctrl+Shift+Z) undo and redo; digits, arrows and erasing go
  // to the selected cell, and the focus goes back to the board, so a press
  // on the number pad or a button never leaves the keyboard dead. Space,
  // Enter and Tab keep their meaning for the control that has the focus.
  function onDocKeyDown(ev) {
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' ||
        t.closest('dialog') || t.tagName === 'SUMMARY')) return;
    if (ev.ctrlKey || ev.metaKey) {
      const k = ev.key.toLowerCase();
      if (k === 'z' && !ev.shiftKey) { ev.preventDefault(); undo(); }
      else if (k === 'y' || (k === 'z' && ev.shiftKey)) { ev.preventDefault(); redo(); }
      return;
    }
    if (boardEl.contains(t) || paused || !cellEls[active]) return;
    if (ev.key === ' ' || ev.key === 'Enter' || ev.key === 'Tab' || ev.key === 'Escape') return;
    if (ev.key.length !== 1 && !/^(?:Arrow|Home|End|Backspace|Delete)/.test(ev.key)) return;
    if (t && t.tagName === 'A' && ev.key.length !== 1) return;
    const moves = /^(?:Arrow|Home|End)/.test(ev.key);
    if (handleKey(active, ev) && !moves) cellEls[active].focus();
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
