  // api.js - the service's routes as the page uses them: fetch with a
  // timeout, one request at a time, the request body for the board's size
  // and rules, problems and conflicts put in words, and the game's start,
  // Solve, Check, Validate and Generate. (Hint, Grade and the solution
  // path, classic 9x9 only, are in logic.js.)

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

  // A conflict's unit in words; the API counts from 0 and names a jigsaw
  // region by its letter's number, a diagonal 0 from the top left.
  function unitName(unit, index) {
    if (unit === 'box') {
      return isClassic() ? 'the ' + (BOX_NAMES[index] || 'box ' + (index + 1)) + ' box' : 'box ' + (index + 1);
    }
    if (unit === 'region') return 'region ' + String.fromCharCode(65 + index);
    if (unit === 'diagonal') return 'the diagonal from the top ' + (index ? 'right' : 'left');
    if (unit === 'extra' || unit === 'extra_region') return 'window ' + (index + 1);
    if (unit === 'cage') return 'cage ' + (index + 1);
    return unit + ' ' + (index + 1);
  }

  function times(n) {
    return n === 2 ? 'twice' : n === 3 ? 'three times' : n + ' times';
  }

  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }

  const rcName = (rc) => 'r' + (rc[0] + 1) + 'c' + (rc[1] + 1);

  function showConflicts(list) {
    const said = [];
    list.forEach((cf) => {
      const cells = cf.cells || [];
      cells.forEach((rc) => conflicts.add(rc[0] * SIZE + rc[1]));
      const digit = DIGITS[cf.digit - 1] || cf.digit;
      if (cf.unit === 'knight' || cf.unit === 'king') {
        said.push(digit + ' is a ' + (cf.unit === 'knight' ? 'knight\'s move' : 'diagonal step') +
                  ' from itself at ' + cells.map(rcName).join(' and '));
      } else {
        said.push(digit + ' appears ' + times(cells.length) + ' in ' + unitName(cf.unit, cf.index));
      }
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

  // The API counts rows, columns, boxes and cells from 0 ("row 0", "[0,1]");
  // people count from 1, and so does everything this page says.
  function humanText(text) {
    return sentence(String(text)
      .replace(/\[(\d+),(\d+)\]/g, (m, r, c) => 'r' + (Number(r) + 1) + 'c' + (Number(c) + 1))
      .replace(/\b(row|column|box|cages?) (\d+)\b/g, (m, u, i) => u + ' ' + (Number(i) + 1))
      .replace(/\bcages (\d+) and (\d+)\b/g, (m, a, b) => 'cages ' + a + ' and ' + (Number(b) + 1)));
  }

  /* ----------------------------------------------------------------------
   * Requests
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
  // digits that are not known to be wrong; with 'all', every digit the
  // player wrote, so that Validate names the conflicts of a wrong one), the
  // cages of a killer puzzle, and the rule members of a variant (the size
  // is the line's length).
  function body(withPlayer) {
    const line = S.givens.map((g, i) => {
      if (g) return g;
      if (withPlayer && S.values[i] && S.kinds[i] !== 'solved' &&
          (withPlayer === 'all' || !isMistake(i))) return S.values[i];
      return '.';
    }).join('');
    const b = Object.assign({ board: line }, members());
    if (S.cages.length) {
      b.cages = S.cages.map((cg) => ({ sum: cg.sum, cells: cg.cells.map((i) => [rowOf(i), colOf(i)]) }));
    }
    return b;
  }

  function toLine(board) {
    if (Array.isArray(board)) return board.join('');
    return typeof board === 'string' ? board.toUpperCase() : '';
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

  /* ----------------------------------------------------------------------
   * Starting a game
   * ---------------------------------------------------------------------- */

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
    countStart();
    startClock();
    render();
    save();
    history.replaceState(null, '', '#p=' + linkText());
    setStatus('ok', message);
    select(Math.max(0, S.givens.findIndex((g, i) => !g && !S.values[i])));
    return true;
  }

  // Loads a puzzle (givens line, cages) as a new game or new entry, on a
  // board of size n and rule (by default, the board's own).
  function loadPuzzle(line, cages, n, rule) {
    if (paused) setPaused(false, true);
    if ($('finish').open) $('finish').close();
    stopClock();
    const size = n || S.size;
    S = emptyState(size, rule === undefined ? S.rule : rule);
    const ok = DIGITS.slice(0, size);
    for (let i = 0; i < size * size; i++) {
      const ch = line.charAt(i).toUpperCase();
      S.givens[i] = ok.includes(ch) ? ch : '';
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

  /* ----------------------------------------------------------------------
   * Solve, Check, Validate, Generate
   * ---------------------------------------------------------------------- */

  // Solve while playing reveals the game: asked first, and the game then
  // counts as not won (Undo takes the digits back, not that).
  function solve() {
    if (S.playing && !S.done) {
      ask('Reveal the solution?', 'Every cell is filled in and this game will not count as won ' +
          '(Undo takes the digits back).', 'Reveal the solution', solveNow);
      return;
    }
    solveNow();
  }

  function solveNow() {
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
      const revealing = S.playing && !S.done;
      if (revealing) abandonGame();
      commit(() => {
        if (revealing) S.revealed = true;
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
                  wrong.slice(0, 6).map((i) => rcName([rowOf(i), colOf(i)])).join(', ') +
                  (wrong.length > 6 ? ' and more' : '') + '. Undo or type over them.');
      } else {
        const left = S.givens.filter((g, i) => !g && !S.values[i]).length;
        setStatus('ok', 'No mistakes so far' + (left ? '; ' + plural(left, 'cell', 'cells') + ' to go.' : '.'));
      }
    });
  }

  // POST /validate answers 200 {valid, solutions, complete, conflicts}.
  function validate() {
    run(async () => {
      clearMarks();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      setStatus('info', 'Checking…');
      const res = await call('POST', '/validate', body('all'));
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

  // The body of POST /generate: a level or rating range on classic 9x9;
  // the size, rule members and a level it offers otherwise. Returns null
  // after saying what is wrong.
  function generateRequest() {
    if (!isClassic()) {
      const level = $('difficulty').value;
      return Object.assign({ size: SIZE }, members(),
        (VARIANT_LEVELS[SIZE] || []).includes(level) ? { difficulty: level } : {});
    }
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
        return null;
      }
      $(id).removeAttribute('aria-invalid');
      req[key] = x;
    }
    return req;
  }

  // POST /generate answers {puzzle, solution, difficulty, givens, ...}.
  // opt: {level} from New game (the board's size and rules kept; '' on a
  // variant: not graded), {level, killer: true} (a killer puzzle on a
  // classic board) or {daily: date} (classic 9x9, medium, the date as the
  // seed); none: the tools' level and rating range. A level not met within
  // the service's budget (503 generation_timeout) is drawn twice more from
  // new seeds before the player is told.
  function generate(opt) {
    run(async () => {
      let req;
      const killer = Boolean(opt && opt.killer);
      if (opt && (opt.daily || killer)) {
        if (!isClassic()) loadPuzzle('', [], 9, '');
        req = killer ? { killer: true, difficulty: opt.level } : { difficulty: 'medium', seed: dailySeed(opt.daily) };
      } else if (opt) {
        req = isClassic() ? { difficulty: opt.level }
          : Object.assign({ size: SIZE }, members(), opt.level ? { difficulty: opt.level } : {});
      } else {
        req = generateRequest();
      }
      if (!req) return;
      const level = req.difficulty || '';
      const what = killer ? 'killer ' + level : isClassic() ? (level || 'new')
        : (level ? level + ' ' : '') + variantName(SIZE, RULE);
      setStatus('info', 'Generating a ' + what + ' puzzle…');
      let res = await call('POST', '/generate', req);
      for (let k = 0; k < 2 && req.seed === undefined && res.status === 503 &&
           res.data && res.data.code === 'generation_timeout'; k++) {
        res = await call('POST', '/generate', req);
      }
      if (!res.ok) { showProblem(res, '/generate'); return; }
      const d = res.data || {};
      const line = toLine(d.puzzle);
      const sol = toLine(d.solution);
      if (line.length !== CELLS) {
        setStatus('error', 'The server sent a puzzle this page does not understand.');
        return;
      }
      // A killer answer's cages: [{sum, cells: [[row, column]...]}] as the page keeps them.
      const cages = killer && Array.isArray(d.cages) ? d.cages.map((c) => ({
        sum: c.sum, cells: c.cells.map((rc) => rc[0] * SIZE + rc[1]),
      })) : [];
      abandonGame();
      loadPuzzle(line, cages);
      const givens = S.givens.filter((g) => g).length;
      const rating = d.grade && Number.isFinite(d.grade.rating) ? ' (rating ' + d.grade.rating.toFixed(1) + ')' : '';
      const got = d.difficulty || (d.grade && d.grade.level) || level;
      const name = killer ? 'killer ' + got : isClassic() ? got
        : (d.difficulty ? d.difficulty + ' ' : '') + variantName(SIZE, RULE);
      if (isClassic() && !killer && LEVELS.includes(name)) S.level = name;
      else S.graded = d.difficulty || '';
      if (opt && opt.daily) S.daily = opt.daily;
      else if (S.level) { try { localStorage.setItem(LEVEL_KEY, S.level); } catch (e) { /* not kept */ } }
      await startGame((opt && opt.daily ? 'The daily puzzle of ' + opt.daily + ', the same for everyone today: a '
        : 'A new ') + name + ' puzzle' + rating + ' with ' + givens + ' givens. Good luck!',
                      sol.length === CELLS ? sol : '');
    });
  }

  function hideEndpoint(path) {
    document.querySelectorAll('[data-endpoint="' + path + '"]').forEach((el) => {
      const group = el.id === 'generate' ? $('generate-group') : el;
      group.hidden = true;
      if (path === '/generate') $('new-game').hidden = true;
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
