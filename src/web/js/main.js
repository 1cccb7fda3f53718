  // main.js - the last part of the script: the line box, the theme, the
  // number pad, the wiring of every control, and the start (a shared link,
  // else the saved game). It closes the scope core.js opened.

  /* ----------------------------------------------------------------------
   * The line box
   * ---------------------------------------------------------------------- */

  // The line box mirrors the puzzle (so it can be copied) unless being edited.
  function syncLine() {
    if (document.activeElement === lineEl) return;
    lineEl.value = isEmpty() ? '' : puzzleText();
  }

  const SQUARES = SIZES.map((n) => n * n);

  // Checks a line before it touches the grid: whitespace is dropped, then
  // N*N characters of the board's digits, '.' or '0' (the size is read from
  // the length), optionally followed by |cages on a classic board (and a
  // second | with anything: the data files keep the solution there), or by
  // &r=<rule> (a shared link's rule). Without &r= a line of the board's own
  // size keeps its rule; fromLink: the rule is the link's (none: boxes).
  // Returns {line, cages, size, rule} or null after saying what is wrong.
  function parseLine(text, fromLink) {
    let rule = fromLink ? '' : null;
    const r = /&r=([a-z_]*)\s*$/.exec(text);
    if (r) {
      rule = RULES[r[1]] ? r[1] : '';
      text = text.slice(0, r.index);
    }
    const pieces = String(text).split('|');
    const chars = Array.from(pieces[0].replace(/\s+/g, ''));
    const n = SQUARES.includes(chars.length) ? SIZES[SQUARES.indexOf(chars.length)] : SIZE;
    if (rule === null) rule = n === SIZE ? RULE : '';
    if (!ruleFits(n, rule)) rule = '';
    const ok = DIGITS.slice(0, n);
    const bad = chars.findIndex((ch) => ch !== '.' && ch !== '0' && !ok.includes(ch.toUpperCase()));
    let why = '';
    if (chars.length === 0) {
      why = 'The line is empty: paste ' + CELLS + ' characters, one per cell, row by row.';
    } else if (!SQUARES.includes(chars.length)) {
      why = 'That line has ' + plural(chars.length, 'character', 'characters') +
            ' (not counting spaces); a puzzle needs exactly ' + CELLS + ', one per cell, row by ' +
            'row, with “.” or “0” for a blank (or ' + SQUARES.filter((q) => q !== CELLS).join(', ') +
            ' for another size). Nothing was loaded.';
    } else if (bad >= 0) {
      why = 'Character ' + (bad + 1) + ' of the line, “' + chars[bad] +
            '” (row ' + (Math.floor(bad / n) + 1) + ', column ' + (bad % n + 1) +
            '), is not allowed: use 1-' + (n > 9 ? '9 and A-' : '') + DIGITS[n - 1] +
            ' for a digit and “.” or “0” for a blank. Nothing was loaded.';
    }
    let cages = [];
    if (!why && pieces.length > 1 && pieces[1].trim()) {
      const p = parseCages(pieces[1]);
      if (p.error) why = p.error + ' Nothing was loaded.';
      else if (n !== 9 || rule) why = 'Killer cages go with classic 9x9 boards only. Nothing was loaded.';
      else cages = p.cages;
    }
    if (why) {
      clearMarks();
      render();
      setStatus('error', why);
      lineEl.setAttribute('aria-invalid', 'true');
      return null;
    }
    return { line: chars.join('').toUpperCase(), cages: cages, size: n, rule: rule };
  }

  // Loads a line and starts playing it (after asking, if a game would be lost).
  function loadLine(text, fromLink) {
    const p = parseLine(text, fromLink);
    if (!p) return;
    guard('Load this puzzle?', 'The puzzle replaces the board.', 'Load it', () => loadParsed(p));
  }
  function loadParsed(p) {
    run(async () => {
      abandonGame();
      loadPuzzle(p.line, p.cages, p.size, p.rule);
      const givens = S.givens.filter((g) => g).length;
      const kind = isClassic() ? '' : variantName(SIZE, RULE) + ' ';
      const started = await startGame('Loaded a ' + (p.cages.length ? 'killer puzzle with ' +
        plural(p.cages.length, 'cage', 'cages') + ' and ' : kind + 'puzzle with ') + givens + ' givens.');
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

  // The pad's digit buttons, one per digit of the board (called by ensureGrid).
  function buildPadDigits() {
    const pad = $('pad-digits');
    pad.className = 'pad-digits n' + SIZE;
    pad.replaceChildren();
    for (let d = 1; d <= SIZE; d++) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = DIGITS[d - 1];
      b.dataset.digit = DIGITS[d - 1];
      pad.appendChild(b);
    }
  }

  // The New game dialog: the five levels and the killer levels on a
  // classic board; on any other, the levels its size offers and one
  // button for an ungraded puzzle of its size and rules. It says what a
  // game in progress would lose.
  function levelButton(text, opt) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.addEventListener('click', () => { $('new-dialog').close(); generate(opt); });
    return b;
  }
  const titled = (l) => l.charAt(0).toUpperCase() + l.slice(1);
  function openNewGame() {
    const box = document.querySelector('#new-dialog .levels');
    const offered = VARIANT_LEVELS[SIZE] || [];
    const buttons = isClassic() ? LEVELS.map((l) => levelButton(titled(l), { level: l }))
      .concat(KILLER_LEVELS.map((l) => levelButton('Killer ' + l, { level: l, killer: true })))
      : offered.map((l) => levelButton(titled(l), { level: l }))
        .concat([levelButton('A new ' + variantName(SIZE, RULE) + ' puzzle', { level: '' })]);
    box.replaceChildren(...buttons);
    let last = 'medium';
    try { last = localStorage.getItem(LEVEL_KEY) || 'medium'; } catch (e) { last = 'medium'; }
    $('new-text').textContent = (isClassic() ? 'Pick a level; the last you played was ' + last + '.'
      : 'Pick a level this board (' + variantName(SIZE, RULE) + ') offers, or an ungraded puzzle.') +
      (hasProgress() ? ' Your game in progress ' + progressText() + ' will be lost.' : '');
    $('new-dialog').showModal();
    const focus = isClassic() ? buttons[Math.max(0, LEVELS.indexOf(last))]
      : buttons[Math.max(0, offered.indexOf(last))];
    focus.focus();
  }

  function daily() {
    const date = today();
    if (S.daily === date && S.playing) { setStatus('info', 'This is the daily puzzle of ' + date + '.'); return; }
    guard('Play the daily puzzle?', 'The daily puzzle replaces the board.', 'Play the daily puzzle',
      () => generate({ daily: date }));
  }

  // Arrival: a shared link, else the saved game, else a new puzzle of the
  // last level played (Medium the first time).
  function arrive(linked, resumed) {
    if (linked && (!resumed || linked !== linkText())) {
      loadLine(linked, true);
    } else if (resumed) {
      startClock();
      setStatus('info', S.done ? 'Your last game is shown: it is solved. New game starts another.'
        : isEmpty() ? 'Type a puzzle, or press New game.' : 'Welcome back: your game is resumed where you left it.');
    } else if (!$('new-game').hidden) {
      let last = 'medium';
      try { last = localStorage.getItem(LEVEL_KEY) || 'medium'; } catch (e) { last = 'medium'; }
      generate({ level: LEVELS.includes(last) ? last : 'medium' });
    }
  }

  buildPicker();
  ensureGrid();
  initTheme();
  showStats();
  $('pad-digits').addEventListener('click', (ev) => {
    const b = ev.target.closest('button');
    if (b) enterDigit(active, b.dataset.digit, notesMode);
  });
  boardEl.addEventListener('keydown', onKeyDown);
  boardEl.addEventListener('focusin', onFocusIn);
  boardEl.addEventListener('pointerdown', onPointerDown);
  document.addEventListener('pointermove', onPointerMove);
  document.addEventListener('pointerup', onPointerUp);
  document.addEventListener('keydown', onDocKeyDown);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') stopClock(); else startClock();
  });
  window.addEventListener('pagehide', () => { stopClock(); save(); });
  window.addEventListener('pageshow', startClock); // back from the page cache
  // A paste while a cell has the focus: a line loads a puzzle, a digit
  // fills the cell. Cells are not editable, so the event may be sent to
  // the body rather than the cell: listen on the document.
  document.addEventListener('paste', (ev) => {
    if (!boardEl.contains(document.activeElement)) return;
    const text = (ev.clipboardData && ev.clipboardData.getData('text')) || '';
    ev.preventDefault();
    if (text.replace(/\s/g, '').length > 1) loadLine(text);
    else if (isDigit(text.trim().toUpperCase())) enterDigit(active, text.trim().toUpperCase(), false);
  });

  $('solve').addEventListener('click', solve);
  $('new-game').addEventListener('click', openNewGame);
  $('new-daily').addEventListener('click', () => { $('new-dialog').close(); daily(); });
  $('new-cancel').addEventListener('click', () => $('new-dialog').close());
  $('daily').addEventListener('click', daily);
  $('pause').addEventListener('click', () => setPaused(!paused));
  $('resume').addEventListener('click', () => setPaused(false));
  $('zoom').addEventListener('click', () => setZoom(!zoomed));
  $('confirm-yes').addEventListener('click', () => answer(true));
  $('confirm-no').addEventListener('click', () => answer(false));
  $('confirm').addEventListener('cancel', (ev) => { ev.preventDefault(); answer(false); });
  $('copy-result').addEventListener('click', copyResult);
  $('finish-close').addEventListener('click', () => $('finish').close());
  $('finish-new').addEventListener('click', () => { $('finish').close(); openNewGame(); });
  $('check').addEventListener('click', check);
  $('validate').addEventListener('click', validate);
  $('hint').addEventListener('click', () => hint());
  $('grade').addEventListener('click', grade);
  $('explain').addEventListener('click', explain);
  $('path-close').addEventListener('click', () => { $('path-view').hidden = true; $('explain').focus(); });
  $('generate').addEventListener('click', () => generate());
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
  $('example').addEventListener('click', () => guard('Load the example?', 'The example replaces the board.',
    'Load the example', () => run(async () => {
      abandonGame();
      loadPuzzle(EXAMPLE, [], 9, '');
      await startGame('Example puzzle loaded. Type digits, or press Solve to see the answer.');
    })));
  $('clear').addEventListener('click', () => guard('Clear the board?', 'Clear empties the board to type a puzzle.',
    'Clear the board', () => {
      abandonGame();
      loadPuzzle('', []);
      history.replaceState(null, '', location.pathname);
      showClock();
      setStatus('info', 'Board cleared: type a puzzle, or draw cages, then press Play this puzzle.');
    }));
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
    if (text && text !== linkText()) loadLine(text, true);
  });

  // A shared link wins over the saved game, unless they are the same puzzle.
  const linked = puzzleFromHash();
  const resumed = resume();
  render();
  syncLine();
  showClock();
  boardEl.dataset.ready = 'true'; // for the browser test: the grid is built
  probeEndpoints().then(() => arrive(linked, resumed));
})();
