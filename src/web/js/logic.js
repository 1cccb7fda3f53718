  // logic.js - the routes of the service's logic engine, which knows classic
  // 9x9 only: Hint (drawn on the grid), Grade and the solution path. On any
  // other board their buttons are disabled (variant.js says why) and the
  // service would answer 422 unsupported_variant.

  // Every technique id of /hint, /grade and /explain (docs/api.md): the
  // plain name a player reads first, the expert name beside it, and the
  // idea in one sentence (the first stage of a hint).
  const TECHNIQUES = {
    naked_single: ['Last digit left', 'naked single',
      'one cell has a single digit left that its row, column and box do not already hold.'],
    hidden_single: ['Only place left', 'hidden single',
      'in one row, column or box, a digit has just one cell it can still go in.'],
    locked_candidates_pointing: ['Pointing digits', 'locked candidates, pointing',
      'inside one box a digit can only go in one line, so the rest of that line cannot hold it.'],
    locked_candidates_claiming: ['Box claim', 'locked candidates, claiming',
      'in one row or column a digit can only go inside one box, so the rest of that box cannot hold it.'],
    naked_pair: ['Two cells, two digits', 'naked pair',
      'two cells of a unit can hold only the same two digits, so no other cell of the unit can have them.'],
    hidden_pair: ['Two digits, two cells', 'hidden pair',
      'two digits can go only in the same two cells of a unit, so those cells hold nothing else.'],
    naked_triple: ['Three cells, three digits', 'naked triple',
      'three cells of a unit share only three digits, so no other cell of the unit can have them.'],
    hidden_triple: ['Three digits, three cells', 'hidden triple',
      'three digits fit only in the same three cells of a unit, so those cells hold nothing else.'],
    naked_quad: ['Four cells, four digits', 'naked quad',
      'four cells of a unit share only four digits, so no other cell of the unit can have them.'],
    hidden_quad: ['Four digits, four cells', 'hidden quad',
      'four digits fit only in the same four cells of a unit, so those cells hold nothing else.'],
    x_wing: ['Rectangle', 'X-wing',
      'a digit fits in just two places in each of two lines, in the same two crossing lines, so those crossing lines lose it elsewhere.'],
    swordfish: ['Three-line lock', 'swordfish',
      'a digit fits in three lines only within the same three crossing lines, so those crossing lines lose it elsewhere.'],
    jellyfish: ['Four-line lock', 'jellyfish',
      'a digit fits in four lines only within the same four crossing lines, so those crossing lines lose it elsewhere.'],
    xy_wing: ['Pivot and pincers', 'XY-wing',
      'whichever of its two digits a pivot cell takes, one of two partner cells gets a shared digit, so a cell seeing both partners cannot have it.'],
    xyz_wing: ['Three-digit pivot', 'XYZ-wing',
      'a three-digit pivot and two partners: one of the three holds the shared digit, so a cell seeing all three cannot.'],
    unique_rectangle_1: ['Avoid two solutions', 'unique rectangle, type 1',
      'four cells in two rows, columns and boxes must not be left with the same two digits, or the puzzle would have two solutions.'],
    unique_rectangle_2: ['Avoid two solutions', 'unique rectangle, type 2',
      'four cells must not be left with the same two digits, so the extra digit of two of them must be in one of those.'],
    unique_rectangle_3: ['Avoid two solutions', 'unique rectangle, type 3',
      'four cells must not be left with the same two digits, so the extra digits act as one cell of a set.'],
    unique_rectangle_4: ['Avoid two solutions', 'unique rectangle, type 4',
      'four cells must not be left with the same two digits, and one of them is forced, so the other goes.'],
    bug_plus_1: ['The odd cell out', 'BUG+1',
      'every unsolved cell but one has two digits left; the odd one must take the digit that avoids two solutions.'],
    skyscraper: ['Two towers', 'skyscraper',
      'a digit has two places in each of two lines that share one end, so one of the other ends holds it.'],
    two_string_kite: ['Kite', 'two-string kite',
      'a digit\'s two places in a row and two in a column are tied through a box, so one of the far ends holds it.'],
    empty_rectangle: ['Box corner', 'empty rectangle',
      'a digit confined to a cross in one box, with a pair of places in a line, pins it to one of two cells.'],
    finned_x_wing: ['Rectangle with a fin', 'finned X-wing',
      'a rectangle of a digit with an extra place (the fin) beside it: cells that see the fin and the rectangle lose the digit.'],
    finned_swordfish: ['Three-line lock with a fin', 'finned swordfish',
      'a three-line lock of a digit with an extra place: cells that see the fin and the lock lose the digit.'],
    finned_jellyfish: ['Four-line lock with a fin', 'finned jellyfish',
      'a four-line lock of a digit with an extra place: cells that see the fin and the lock lose the digit.'],
    w_wing: ['Linked pairs', 'W-wing',
      'two cells with the same two digits, joined by a digit that must sit beside one of them, so one of them holds the other digit.'],
    remote_pairs: ['Chain of pairs', 'remote pairs',
      'a chain of cells holding the same two digits alternates them, so a cell seeing both ends cannot have either.'],
    xy_chain: ['Chain of two-digit cells', 'XY-chain',
      'follow a chain of cells with two digits each: one of its two ends holds the digit, so a cell seeing both cannot.'],
    x_chain: ['Chain of one digit', 'X-chain',
      'follow a digit along a chain of either-or places: one of the two ends holds it, so a cell seeing both cannot.'],
    als_xz: ['Two nearly full groups', 'ALS-XZ',
      'two groups of cells with one digit more than cells share a digit that only one of them can take, so another shared digit is in one of them.'],
    als_xy_wing: ['Three nearly full groups', 'ALS-XY-wing',
      'three groups of cells with one digit more than cells are linked like a pivot and pincers.'],
    aic: ['Chain of either-or links', 'alternating inference chain',
      'follow the chain: each solid link says one of two is true, each dashed link that two cannot both be, so one of the two ends is true.'],
    forcing_chain: ['Try and see', 'forcing chain',
      'assuming a digit and following the singles it forces ends in a contradiction, so that digit is wrong.'],
    cell_forcing_chain: ['Every option agrees', 'cell forcing chain',
      'whatever digit one cell takes, the same conclusion follows.'],
    unit_forcing_chain: ['Every place agrees', 'unit forcing chain',
      'wherever a digit goes in one unit, the same conclusion follows.'],
    forcing_net: ['Deep try and see', 'forcing net',
      'assuming a digit leads, through nested tries, to a contradiction, so that digit is wrong.'],
    from_solution: ['From the solution', 'no deduction found in time',
      'the engine found no step by logic within its time budget, so this move is taken from the solution.'],
  };
  const techniqueOf = (t) => TECHNIQUES[t] || [String(t || 'a step').replace(/_/g, ' '), '', ''];
  // "Pointing digits (locked candidates, pointing)": the plain name first.
  function techniqueName(t) {
    const [plain, expert] = techniqueOf(t);
    return plain + (expert ? ' (' + expert + ')' : '');
  }

  // A chain in words, from /hint's links: a solid (strong) link means "if
  // not this, then that", a dashed (weak) one "if this, then not that".
  function chainWords(links) {
    const at = (n) => n.digit + ' in ' + n.cells.map((k) => 'r' + (rowOf(k) + 1) + 'c' + (colOf(k) + 1)).join('/');
    let text = 'Follow the line drawn on the board: if ' + at(links[0]) + ' is false';
    let truth = false;
    for (let k = 0; k + 1 < links.length; k++) {
      const strong = links[k].link === 'strong';
      truth = strong ? true : false;
      text += (k ? (strong ? ', so ' : ', then ') : ', then ') + at(links[k + 1]) + ' is ' + (truth ? 'true' : 'false');
    }
    return text + '. So one of the two ends is true.';
  }

  // The engine's explanation for a player: cells counted from 1, and a
  // chain's notation ("7r1c4 = 7r1c2 - ...") told as words.
  function explainStep(d, links) {
    let text = humanText(d.explanation || '');
    if (links.length >= 2 && /\d\[\d,\d\] [=-] /.test(d.explanation || '')) {
      const m = /: (remove [^:]*|place [^:]*)$/i.exec(text);
      text = chainWords(links) + (m ? ' ' + sentence(m[1]) : '');
    }
    return text;
  }

  function whereToLook(o) {
    if (o.units.length) return o.units.map((u) => unitName(u.unit, u.index)).join(' and ');
    const cells = o.cells.length ? o.cells : o.links.flatMap((n) => n.cells);
    return 'the outlined cells ' + Array.from(new Set(cells)).map((k) => 'r' + (rowOf(k) + 1) + 'c' +
      (colOf(k) + 1)).join(', ');
  }

  // The Hint button names the next stage: Hint, Show why, Show the move.
  function syncHintButton() {
    const b = $('hint');
    b.textContent = !hintStep ? 'Hint' : hintStep.stage === 1 ? 'Show why' : 'Show the move';
  }

  // Hints come in three stages, as in Good Sudoku: where to look and the
  // idea (the step's units shaded), then the reasoning drawn on the board
  // (pattern outlined, eliminations struck, the chain), then the move. A
  // change to the board drops a hint half read. When the player has wrong
  // digits, the first press says so and marks them; a second asks anyway.
  let warnedAt = '';
  function hint() {
    if (hintStep) { advanceHint(); return; }
    run(async () => {
      clearMarks();
      if (isEmpty()) { setStatus('error', EMPTY_BOARD); return; }
      if (S.done) { setStatus('info', 'This puzzle is solved already.'); return; }
      const wrong = [];
      for (let i = 0; i < CELLS; i++) if (isMistake(i)) wrong.push(i);
      if (wrong.length && warnedAt !== digitsLine()) {
        warnedAt = digitsLine();
        showMistakes = true;
        render();
        setStatus('error', 'First: ' + (wrong.length === 1 ? 'one of your digits is' : wrong.length + ' of your digits are') +
          ' wrong, marked in red (' + wrong.slice(0, 4).map((i) => 'r' + (rowOf(i) + 1) + 'c' + (colOf(i) + 1)).join(', ') +
          (wrong.length > 4 ? ' and more' : '') + '). Erase ' + (wrong.length === 1 ? 'it' : 'them') +
          ', or press Hint again for a hint that leaves them out.');
        return;
      }
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
      const inRange = (x) => Array.isArray(x) && x[0] >= 0 && x[0] < SIZE && x[1] >= 0 && x[1] < SIZE;
      overlay = {
        stage: 1,
        target: rc[0] * SIZE + rc[1],
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
      hintStep = { d: d, move: move, digit: digit, stage: 1 };
      S.hints++;
      scheduleSave();
      syncHintButton();
      render();
      const [plain, expert, idea] = techniqueOf(d.technique);
      if (d.stuck) {
        setStatus('info', 'Hint 1 of 3: ' + plain + '. ' + sentence(idea) + ' Press Show why, then Show the move.');
        return;
      }
      setStatus('info', 'Hint 1 of 3: look at ' + whereToLook(overlay) + ' (shaded). ' + plain +
        (expert ? ' (' + expert + ')' : '') + ': ' + idea + ' Press Show why for the reasoning.');
    });
  }

  function advanceHint() {
    const h = hintStep;
    const d = h.d;
    const o = overlay;
    if (!o) { hintStep = null; syncHintButton(); return; }
    if (h.stage === 1) {
      h.stage = 2;
      o.stage = 2;
      syncHintButton();
      render();
      let text = 'Hint 2 of 3, why: ' + explainStep(d, o.links);
      const shown = o.elims.filter((e) => !digitAt(e.i) && (!S.notes[e.i] || (S.notes[e.i] & (1 << e.d))));
      if (shown.length) text += ' The candidates it rules out are struck through in red.';
      else if (o.elims.length) text += ' (None of the candidates it rules out is in your notes, so nothing is struck.)';
      if (o.links.length) text += ' Solid lines are strong links, dashed lines weak ones.';
      setStatus('info', text + ' Press Show the move to see it played.');
      return;
    }
    // Stage 3: the move. A step that only rules candidates out takes them
    // off the player's notes, and places the digit it leads to.
    const i = o.target;
    const digit = h.digit;
    const move = h.move;
    commit(() => {
      o.elims.forEach((e) => { S.notes[e.i] &= ~(1 << e.d); });
      S.values[i] = digit;
      S.kinds[i] = 'hint';
      S.notes[i] = 0;
      if (S.playing) clearPeerNotes(i, digit);
    }, true);
    hintStep = null;
    o.stage = 3;
    syncHintButton();
    const where = digit + ' goes in row ' + (rowOf(i) + 1) + ', column ' + (colOf(i) + 1);
    let text;
    if (move === d.next_placement && !d.stuck) {
      const more = (move.steps || 1) - 1;
      text = 'Hint 3 of 3, the move: the step rules out ' + plural(o.elims.length, 'candidate', 'candidates') +
        ' (taken off your notes), and then ' + where + ' (' + techniqueName(move.technique) + ')' +
        (more > 0 ? ', which the engine reaches ' + plural(more, 'step', 'steps') + ' later; the tools\' Solution path lists them' : '') + '.';
    } else {
      text = 'Hint 3 of 3, the move: ' + where + '.';
    }
    select(i, false);
    setStatus('ok', text);
  }

  // What /grade and /explain start with: a classic board, not empty, sent
  // as it stands. Resolves to the answer's data, or to null when there was
  // no request or it failed (the status line then says why).
  async function askAboutBoard(path, busy) {
    clearMarks();
    render();
    if (isEmpty()) { setStatus('error', EMPTY_BOARD); return null; }
    setStatus('info', busy);
    const res = await call('POST', path, body(false));
    if (!res.ok) { showProblem(res, path); return null; }
    return res.data || {};
  }

  // POST /grade answers {level, rating, pearl, diamond, rating_lower_bound,
  // hardest, needs_guessing, steps, blanks_left, ...}: the rating, pearl and
  // diamond are Sudoku Explainer's (ER/EP/ED), the technique counts our
  // logic engine's.
  function grade() {
    run(async () => {
      const d = await askAboutBoard('/grade', 'Grading…');
      if (!d) return;
      const num = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
      let text = 'This puzzle is ' + (d.level || 'graded') +
        (Number.isFinite(d.rating) ? ' (rating ' + d.rating.toFixed(1) + ')' : '') + '.';
      if (Number.isFinite(d.rating)) {
        text += ' Sudoku Explainer 1.2.1.3 rates it ER ' + num(d.rating) + ', EP ' + num(d.pearl) +
                ', ED ' + num(d.diamond) +
                (d.rating_lower_bound ? ' (at least: the time budget ran out first)' : '') + '.';
      }
      if (d.needs_guessing) {
        text += ' Our logic engine gets stuck with ' + plural(d.blanks_left, 'blank', 'blanks') +
                ' left, so it needs guessing.';
      } else if (d.hardest) {
        text += ' The hardest technique our hints use on it is ' + techniqueName(d.hardest) + ', in ' +
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
      const d = await askAboutBoard('/explain', 'Working out the solution path…');
      if (!d) return;
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
