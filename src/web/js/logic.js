  // logic.js - the routes of the service's logic engine, which knows classic
  // 9x9 only: Hint (drawn on the grid), Grade and the solution path. On any
  // other board their buttons are disabled (variant.js says why) and the
  // service would answer 422 unsupported_variant.

  const TECHNIQUES = {
    locked_candidates_pointing: 'locked candidates, pointing',
    locked_candidates_claiming: 'locked candidates, claiming',
    x_wing: 'X-wing', xy_wing: 'XY-wing', xyz_wing: 'XYZ-wing',
    from_solution: 'taken from the solution',
  };
  function techniqueName(t) {
    return TECHNIQUES[t] || String(t || 'a step').replace(/_/g, ' ');
  }

  // POST /hint answers one step of the logic engine: `placements`, the
  // `cells` and `units` of its pattern, `eliminations`, an `explanation`,
  // and for a step that only rules candidates out, `next_placement`. The
  // page places the digit (a hint must move the board on), draws the rest
  // on the grid and keeps the explanation in the message next to it.
  function hint() {
    run(async () => {
      clearMarks();
      if (!isClassic()) { setStatus('info', CLASSIC_ONLY); return; }
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
        if (S.playing) clearPeerNotes(i, digit);
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

  // What /grade and /explain start with: a classic board, not empty, sent
  // as it stands. Resolves to the answer's data, or to null when there was
  // no request or it failed (the status line then says why).
  async function askAboutBoard(path, busy) {
    clearMarks();
    if (!isClassic()) { setStatus('info', CLASSIC_ONLY); return null; }
    render();
    if (isEmpty()) { setStatus('error', EMPTY_BOARD); return null; }
    setStatus('info', busy);
    const res = await call('POST', path, body(false));
    if (!res.ok) { showProblem(res, path); return null; }
    return res.data || {};
  }

  // POST /grade answers {level, hardest, needs_guessing, steps, blanks_left}.
  function grade() {
    run(async () => {
      const d = await askAboutBoard('/grade', 'Grading…');
      if (!d) return;
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
