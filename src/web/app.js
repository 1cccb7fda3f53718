// app.js - the demo page's script: builds the 9x9 grid, handles the keyboard
// and calls the public JSON API with fetch, as any other client would.
// The page is served under a CSP without 'unsafe-inline', so all behaviour is
// wired here with addEventListener and all looks are CSS classes (no style
// attributes). Optional endpoints (/validate, /hint, /grade, /generate) are
// probed with OPTIONS at start; a 404 hides their buttons.
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
  const EMPTY_BOARD = 'The board is empty: type a puzzle, paste one, or press Example.';

  const $ = (id) => document.getElementById(id);
  const boardEl = $('board');
  const statusEl = $('status');
  const lineEl = $('line');

  // Each cell is {input, wrap, kind}: kind is '' (blank), 'given' (typed,
  // pasted or generated), 'hint' (placed by /hint) or 'solved' (from /solve).
  // Solved digits are never sent back: a request carries givens and hints.
  const cells = [];
  let active = 0;   // the cell that holds tabindex=0 (roving tabindex)
  let busy = false; // one request at a time

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
        const wrap = document.createElement('div');
        wrap.className = 'cell';
        wrap.setAttribute('role', 'gridcell');
        wrap.setAttribute('aria-colindex', String(c + 1));
        const input = document.createElement('input');
        input.type = 'text';
        input.inputMode = 'numeric';
        input.autocomplete = 'off';
        input.maxLength = 2; // lets a mobile keyboard's second digit replace the first
        input.spellcheck = false;
        input.tabIndex = i === 0 ? 0 : -1;
        input.dataset.index = String(i);
        input.id = 'c' + r + c;
        wrap.appendChild(input);
        row.appendChild(wrap);
        cells.push({ input: input, wrap: wrap, kind: '' });
        updateLabel(i);
      }
      boardEl.appendChild(row);
    }
  }

  function updateLabel(i) {
    const cell = cells[i];
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const parts = ['Row ' + (r + 1) + ', column ' + (c + 1)];
    if (cell.kind === 'solved') parts.push('solved');
    if (cell.kind === 'hint') parts.push('hint');
    if (cell.wrap.classList.contains('is-conflict')) parts.push('conflict');
    cell.input.setAttribute('aria-label', parts.join(', '));
  }

  function setCell(i, digit, kind) {
    const cell = cells[i];
    cell.kind = digit ? kind : '';
    cell.input.value = digit || '';
    cell.wrap.classList.toggle('is-given', cell.kind === 'given');
    cell.wrap.classList.toggle('is-solved', cell.kind === 'solved');
    cell.wrap.classList.toggle('is-hint', cell.kind === 'hint');
    updateLabel(i);
  }

  // The board the API is asked about: 9 rows of 9, '.' for a blank.
  function requestRows() {
    const rows = [];
    for (let r = 0; r < SIZE; r++) {
      let s = '';
      for (let c = 0; c < SIZE; c++) {
        const cell = cells[r * SIZE + c];
        s += cell.kind === 'given' || cell.kind === 'hint' ? cell.input.value : '.';
      }
      rows.push(s);
    }
    return rows;
  }

  function isEmpty() {
    return cells.every((cell) => cell.kind === '' || cell.kind === 'solved');
  }

  function clearMarks() {
    clearChain();
    cells.forEach((cell) => cell.wrap.classList.remove('is-pattern'));
    cells.forEach((cell, i) => {
      if (cell.wrap.classList.contains('is-conflict') ||
          cell.wrap.classList.contains('is-error')) {
        cell.wrap.classList.remove('is-conflict', 'is-error');
        cell.input.removeAttribute('aria-invalid');
        updateLabel(i);
      }
    });
    lineEl.removeAttribute('aria-invalid');
  }

  function clearSolution() {
    cells.forEach((cell, i) => { if (cell.kind === 'solved') setCell(i, '', ''); });
  }

  function markCell(r, c, cls) {
    if (r < 0 || r >= SIZE || c < 0 || c >= SIZE) return;
    const i = r * SIZE + c;
    cells[i].wrap.classList.add(cls);
    cells[i].input.setAttribute('aria-invalid', 'true');
    updateLabel(i);
  }

  // The line box mirrors the grid (so it can be copied) unless being edited.
  function syncLine() {
    if (document.activeElement === lineEl) return;
    lineEl.value = cells.every((c) => c.kind === '')
      ? '' : cells.map((c) => c.input.value || '.').join('');
  }

  // Called after every change a person makes to the board.
  function edited() {
    clearMarks();
    clearSolution();
    syncLine();
    setStatus('', '');
  }

  function loadDigits(text, kind) {
    clearMarks();
    for (let i = 0; i < CELLS; i++) {
      const ch = text.charAt(i);
      setCell(i, ch >= '1' && ch <= '9' ? ch : '', kind);
    }
    syncLine();
  }

  /* ----------------------------------------------------------------------
   * Keyboard and focus
   * ---------------------------------------------------------------------- */

  function focusCell(i) {
    i = Math.max(0, Math.min(CELLS - 1, i));
    cells[active].input.tabIndex = -1;
    active = i;
    cells[i].input.tabIndex = 0;
    cells[i].input.focus();
  }

  // A person's change: the digit becomes a given and old answers go.
  function typeDigit(i, digit) {
    setCell(i, digit, 'given');
    edited();
  }

  function onKeyDown(ev) {
    const i = Number(ev.target.dataset.index);
    if (Number.isNaN(i) || ev.altKey || ev.metaKey) return;
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const key = ev.key;
    let handled = true;

    if (ev.ctrlKey) {
      if (key === 'Home') focusCell(0);
      else if (key === 'End') focusCell(CELLS - 1);
      else if (key === 'Enter') solve();
      else handled = false; // keep Ctrl+C, Ctrl+V and the like
    } else if (key >= '1' && key <= '9' && key.length === 1) {
      typeDigit(i, key);
      if (i < CELLS - 1) focusCell(i + 1);
    } else if (key === '0' || key === '.' || key === ' ') {
      if (cells[i].input.value) typeDigit(i, '');
      if (i < CELLS - 1) focusCell(i + 1);
    } else if (key === 'Backspace') {
      if (cells[i].input.value) {
        typeDigit(i, '');
      } else if (i > 0) {
        focusCell(i - 1);
        if (cells[i - 1].input.value) typeDigit(i - 1, '');
      }
    } else if (key === 'Delete') {
      if (cells[i].input.value) typeDigit(i, '');
    } else if (key === 'ArrowLeft') {
      focusCell(c > 0 ? i - 1 : i);
    } else if (key === 'ArrowRight') {
      focusCell(c < SIZE - 1 ? i + 1 : i);
    } else if (key === 'ArrowUp') {
      focusCell(r > 0 ? i - SIZE : i);
    } else if (key === 'ArrowDown') {
      focusCell(r < SIZE - 1 ? i + SIZE : i);
    } else if (key === 'Home') {
      focusCell(r * SIZE);
    } else if (key === 'End') {
      focusCell(r * SIZE + SIZE - 1);
    } else if (key === 'Enter') {
      solve();
    } else if (key.length === 1) {
      // Any other printable key: ignored, the cell keeps its digit.
    } else {
      handled = false; // Tab, Escape, function keys...
    }
    if (handled) ev.preventDefault();
  }

  // Phones' on-screen keyboards often send no usable keydown: take the
  // digit from the input event instead and put the value back in order.
  function onInput(ev) {
    const i = Number(ev.target.dataset.index);
    if (Number.isNaN(i)) return;
    const typed = (ev.data || ev.target.value || '').replace(/[^0-9.]/g, '');
    const ch = typed.charAt(typed.length - 1);
    if (ch >= '1' && ch <= '9') {
      typeDigit(i, ch);
      if (i < CELLS - 1) focusCell(i + 1);
    } else {
      typeDigit(i, '');
    }
  }

  function onFocusIn(ev) {
    const i = Number(ev.target.dataset.index);
    if (Number.isNaN(i)) return;
    if (i !== active) {
      cells[active].input.tabIndex = -1;
      active = i;
      cells[i].input.tabIndex = 0;
    }
    const r = Math.floor(i / SIZE);
    const c = i % SIZE;
    const b = Math.floor(r / 3) * 3 + Math.floor(c / 3);
    cells.forEach((cell, k) => {
      const kr = Math.floor(k / SIZE);
      const kc = k % SIZE;
      const kb = Math.floor(kr / 3) * 3 + Math.floor(kc / 3);
      cell.wrap.classList.toggle('is-peer', k !== i && (kr === r || kc === c || kb === b));
    });
    // Select the digit so that a phone keyboard replaces it.
    ev.target.select();
  }

  function onFocusOut(ev) {
    if (!boardEl.contains(ev.relatedTarget)) {
      cells.forEach((cell) => cell.wrap.classList.remove('is-peer'));
    }
  }

  // A paste of more than one character into a cell loads it as a line.
  function onPaste(ev) {
    const text = (ev.clipboardData && ev.clipboardData.getData('text')) || '';
    ev.preventDefault();
    if (text.replace(/\s/g, '').length > 1) {
      loadLine(text);
    } else {
      const i = Number(ev.target.dataset.index);
      const ch = text.trim();
      if (!Number.isNaN(i)) typeDigit(i, ch >= '1' && ch <= '9' ? ch : '');
    }
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

  // Marks the cells of a `conflicts` list and says, counting from 1 as a
  // person does, which digit repeats where.
  function showConflicts(conflicts) {
    const said = [];
    conflicts.forEach((cf) => {
      (cf.cells || []).forEach((rc) => markCell(rc[0], rc[1], 'is-conflict'));
      said.push(cf.digit + ' appears ' + times((cf.cells || []).length) +
                ' in ' + unitName(cf.unit, cf.index));
    });
    const shown = said.slice(0, 4);
    let text = 'The board breaks the rules: ' + shown.join('; ');
    if (said.length > shown.length) text += '; and ' + (said.length - shown.length) + ' more';
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
      markCell(p.row, p.column, 'is-error');
    }
    if (res.status === 404 && endpoint) {
      hideEndpoint(endpoint);
      setStatus('error', 'This server does not offer ' + endpoint + ' yet.');
      return;
    }
    if (p.detail) {
      setStatus('error', sentence(p.detail));
    } else {
      setStatus('error', 'The server answered with status ' + res.status +
                ' and no explanation. Try again in a moment.');
    }
  }

  /* ----------------------------------------------------------------------
   * The API
   * ---------------------------------------------------------------------- */

  // fetch with a timeout; resolves to {status, data} where data is the parsed
  // JSON body or null. Rejects only when the server could not be reached.
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
    }
  }

  function toLine(board) {
    if (Array.isArray(board)) return board.join('');
    return typeof board === 'string' ? board : '';
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  function solve() {
    run(async () => {
      clearMarks();
      clearSolution();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Solving…');
      const res = await call('POST', '/solve', { board: requestRows() });
      if (!res.ok) { showProblem(res); return; }
      const line = toLine(res.data && res.data.solution);
      if (line.length !== CELLS) {
        setStatus('error', 'The server sent an answer this page does not understand.');
        return;
      }
      for (let i = 0; i < CELLS; i++) {
        if (cells[i].kind === '') setCell(i, line.charAt(i), 'solved');
      }
      syncLine();
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

  // The API counts rows, columns, boxes and cells from 0 ("row 0", "[0,1]");
  // people count from 1, and so does everything this page says. These are
  // the only two ways logic_explain writes a position.
  function humanText(text) {
    return sentence(String(text)
      .replace(/\[(\d),(\d)\]/g, (m, r, c) => 'r' + (Number(r) + 1) + 'c' + (Number(c) + 1))
      .replace(/\b(row|column|box) (\d)\b/g, (m, u, i) => u + ' ' + (Number(i) + 1)));
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
      clearSolution();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Checking…');
      const res = await call('POST', '/validate', { board: requestRows() });
      if (!res.ok) { showProblem(res, '/validate'); return; }
      const d = res.data || {};
      if (Array.isArray(d.conflicts) && d.conflicts.length) { showConflicts(d.conflicts); return; }
      if (d.valid && d.complete) {
        setStatus('ok', 'The board is complete and correct.');
      } else if (d.valid) {
        setStatus('ok', 'Valid: no digit repeats, and the puzzle has exactly one solution.');
      } else if (d.solutions === 0) {
        setStatus('error', 'No digit repeats, but the puzzle has no solution: some digit is wrong.');
      } else if (d.solutions > 1) {
        setStatus('error', 'No digit repeats, but the puzzle has more than one solution: add givens ' +
                  'until exactly one is left.');
      } else {
        setStatus('error', 'The board is not a valid puzzle.');
      }
    });
  }

  // A chain step's `links` drawn over the board: a line from each node to
  // the next (a grouped node from the middle of its cells), solid for a
  // strong link, dashed for a weak one. A forcing chain's trail ("then")
  // is long and not a chain of links: the text tells it. SVG attributes and
  // CSSOM styles only, which the page's CSP allows.
  const SVG_NS = 'http://www.w3.org/2000/svg';
  let chainEl = null;
  function clearChain() {
    if (chainEl) chainEl.remove();
    chainEl = null;
  }
  function drawChain(links) {
    clearChain();
    if (!Array.isArray(links) || links.length < 2 ||
        links.some((l) => !l || l.link === 'then')) return;
    const box = boardEl.getBoundingClientRect();
    const centre = (l) => {
      const list = Array.isArray(l.cells) && l.cells.length ? l.cells : [l.cell];
      let x = 0, y = 0, n = 0;
      list.forEach((rc) => {
        const k = Array.isArray(rc) ? rc[0] * SIZE + rc[1] : -1;
        if (k < 0 || k >= CELLS) return;
        const r = cells[k].wrap.getBoundingClientRect();
        x += r.left + r.width / 2 - box.left;
        y += r.top + r.height / 2 - box.top;
        n++;
      });
      return n ? [x / n, y / n] : null;
    };
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('width', String(box.width));
    svg.setAttribute('height', String(box.height));
    svg.setAttribute('aria-hidden', 'true');
    svg.style.position = 'absolute';
    svg.style.left = '0';
    svg.style.top = '0';
    svg.style.pointerEvents = 'none';
    for (let i = 0; i + 1 < links.length; i++) {
      const a = centre(links[i]), b = centre(links[i + 1]);
      if (!a || !b) continue;
      const line = document.createElementNS(SVG_NS, 'line');
      line.setAttribute('x1', String(a[0]));
      line.setAttribute('y1', String(a[1]));
      line.setAttribute('x2', String(b[0]));
      line.setAttribute('y2', String(b[1]));
      line.setAttribute('stroke', links[i].link === 'strong' ? '#1d4ed8' : '#b45309');
      line.setAttribute('stroke-width', '2.5');
      line.setAttribute('stroke-linecap', 'round');
      if (links[i].link !== 'strong') line.setAttribute('stroke-dasharray', '5 4');
      svg.appendChild(line);
    }
    boardEl.style.position = 'relative';
    boardEl.appendChild(svg);
    chainEl = svg;
  }

  // POST /hint answers one step of the logic engine: `placements` (zero or
  // one [{cell, digit}]), `cells` of its pattern, an `explanation`, and for a
  // step that only rules candidates out, `next_placement`: the digit those
  // eliminations lead to. The page places that digit (a hint must move the
  // board on, or the next press would give the same step), outlines the
  // pattern and says why.
  function hint() {
    run(async () => {
      clearMarks();
      clearSolution();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Looking for a hint…');
      const res = await call('POST', '/hint', { board: requestRows() });
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
      setCell(i, digit, 'hint');
      (Array.isArray(d.cells) ? d.cells : []).forEach((x) => {
        const k = x[0] * SIZE + x[1];
        if (k !== i && k >= 0 && k < CELLS) cells[k].wrap.classList.add('is-pattern');
      });
      syncLine();
      drawChain(d.links);
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
      setStatus('ok', text.trim());
      focusCell(i);
    });
  }

  // POST /grade answers {level, hardest, needs_guessing, steps, blanks_left}.
  function grade() {
    run(async () => {
      clearMarks();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Grading…');
      const res = await call('POST', '/grade', { board: requestRows() });
      if (!res.ok) { showProblem(res, '/grade'); return; }
      const d = res.data || {};
      let text = 'This puzzle is ' + (d.level || 'graded') + '.';
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

  // POST /generate {difficulty} answers {puzzle, solution, difficulty, givens, ...}.
  // The solution is not shown: Solve asks for it like for any puzzle.
  function generate() {
    run(async () => {
      const level = $('difficulty').value;
      setStatus('info', 'Generating a ' + level + ' puzzle…');
      const res = await call('POST', '/generate', { difficulty: level });
      if (!res.ok) { showProblem(res, '/generate'); return; }
      const d = res.data || {};
      const line = toLine(d.puzzle);
      if (line.length !== CELLS) {
        setStatus('error', 'The server sent a puzzle this page does not understand.');
        return;
      }
      loadDigits(line, 'given');
      const givens = cells.filter((c) => c.kind === 'given').length;
      setStatus('ok', 'A new ' + (d.difficulty || level) + ' puzzle with ' + givens +
                ' givens. Hint shows a next step; Solve shows the answer.');
      focusCell(cells.findIndex((c) => c.kind === ''));
    });
  }

  // Hides the control(s) of an endpoint the server does not have.
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

  // OPTIONS answers 204 on a route that exists and 404 on one that does not,
  // without running anything. A failed probe leaves the page as it is.
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
   * The line box
   * ---------------------------------------------------------------------- */

  // Checks a pasted line before it touches the grid: whitespace is dropped,
  // then it must be 81 characters of 1-9, '.' or '0'. Characters are
  // counted as a person sees them (Array.from walks code points).
  function loadLine(text) {
    const chars = Array.from(String(text).replace(/\s+/g, ''));
    clearMarks();
    if (chars.length === 0) {
      setStatus('error', 'The line is empty: paste 81 characters, one per cell, row by row.');
      lineEl.setAttribute('aria-invalid', 'true');
      return false;
    }
    const bad = chars.findIndex((ch) => !/^[0-9.]$/.test(ch));
    if (chars.length !== CELLS) {
      setStatus('error', 'That line has ' + plural(chars.length, 'character', 'characters') +
                ' (not counting spaces); a puzzle needs exactly 81, one per cell, row by ' +
                'row, with “.” or “0” for a blank. Nothing was loaded.');
      lineEl.setAttribute('aria-invalid', 'true');
      return false;
    }
    if (bad >= 0) {
      setStatus('error', 'Character ' + (bad + 1) + ' of the line, “' + chars[bad] +
                '” (row ' + (Math.floor(bad / SIZE) + 1) + ', column ' + (bad % SIZE + 1) +
                '), is not allowed: use 1-9 for a digit and “.” or “0” for a blank. Nothing was loaded.');
      lineEl.setAttribute('aria-invalid', 'true');
      return false;
    }
    loadDigits(chars.join(''), 'given');
    const givens = cells.filter((c) => c.kind === 'given').length;
    setStatus('ok', 'Loaded a puzzle with ' + givens + ' givens.');
    return true;
  }

  /* ----------------------------------------------------------------------
   * Start
   * ---------------------------------------------------------------------- */

  buildGrid();
  boardEl.addEventListener('keydown', onKeyDown);
  boardEl.addEventListener('input', onInput);
  boardEl.addEventListener('focusin', onFocusIn);
  boardEl.addEventListener('focusout', onFocusOut);
  boardEl.addEventListener('paste', onPaste);

  $('solve').addEventListener('click', solve);
  $('validate').addEventListener('click', validate);
  $('hint').addEventListener('click', hint);
  $('grade').addEventListener('click', grade);
  $('generate').addEventListener('click', generate);
  $('example').addEventListener('click', () => {
    loadDigits(EXAMPLE, 'given');
    setStatus('info', 'Example puzzle loaded. Press Solve.');
  });
  $('clear').addEventListener('click', () => {
    loadDigits('', '');
    setStatus('info', 'Board cleared.');
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

  boardEl.dataset.ready = 'true'; // for the browser test: the grid is built
  probeEndpoints();
})();
