  // game.js - the play loop: moves and notes, killer cages (classic 9x9),
  // the clock, and saving, resuming and sharing the game.

  /* ----------------------------------------------------------------------
   * Moves
   * ---------------------------------------------------------------------- */

  function lockedMessage(i) {
    setStatus('info', 'Row ' + (rowOf(i) + 1) + ', column ' + (colOf(i) + 1) +
              ' holds a given ' + S.givens[i] + ': it cannot change while you play.');
  }

  // Clears digit d from the notes of every cell the rules say cannot hold
  // it next to cell i.
  function clearPeerNotes(i, d) {
    const bit = 1 << digitValue(d);
    for (let k = 0; k < CELLS; k++) if (peers(i, k)) S.notes[k] &= ~bit;
  }

  // A digit for cell i from the keyboard or the pad: a pencil mark when
  // asNote, else the cell's digit (a given while the puzzle is being entered).
  function enterDigit(i, d, asNote) {
    if (S.done) { setStatus('info', 'This puzzle is solved. Start a new one to play again.'); return; }
    if (S.playing && S.givens[i]) { lockedMessage(i); return; }
    if (asNote) {
      if (digitAt(i)) { setStatus('info', 'Notes go in empty cells: erase the digit first.'); return; }
      commit(() => { S.notes[i] ^= 1 << digitValue(d); });
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
      if (S.playing) clearPeerNotes(i, d);
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
        for (let d = 1; d <= SIZE; d++) mask |= 1 << d;
        for (let k = 0; k < CELLS; k++) {
          if (peers(i, k) && digitAt(k)) mask &= ~(1 << digitValue(digitAt(k)));
        }
        S.notes[i] = mask;
      }
    });
    setStatus('info', 'Notes filled in: each empty cell lists the digits its row, column and ' +
      (isClassic() ? 'box' : 'the other rules') + ' allow.');
  }

  function setNotesMode(on) {
    notesMode = on;
    $('notes').setAttribute('aria-pressed', String(on));
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
      cages.push({ sum: Number(m[1]), cells: m[2].split(',').map((rc) => (Number(rc[0]) - 1) * 9 + Number(rc[1]) - 1) });
    }
    return { cages: cages };
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
    if (!BOX_ROWS[st.size] || !(st.rule === '' || RULES[st.rule]) ||
        (NINE_ONLY.includes(st.rule) && st.size !== 9)) return false;
    const n = st.size * st.size;
    const ok = DIGITS.slice(0, st.size);
    const digits = (a) => Array.isArray(a) && a.length === n &&
      a.every((x) => x === '' || (typeof x === 'string' && x.length === 1 && ok.includes(x)));
    return digits(st.givens) && digits(st.values) &&
      Array.isArray(st.kinds) && st.kinds.length === n &&
      Array.isArray(st.notes) && st.notes.length === n && st.notes.every(Number.isInteger) &&
      Array.isArray(st.cages) && st.cages.every((cg) => cg && Number.isInteger(cg.sum) &&
        Array.isArray(cg.cells) && cg.cells.every((i) => Number.isInteger(i) && i >= 0 && i < n)) &&
      (!st.cages.length || (st.size === 9 && st.rule === '')) &&
      typeof st.solution === 'string';
  }

  function resume() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null'); } catch (e) { saved = null; }
    if (!saved || !Array.isArray(saved.state)) return false;
    try { restore(JSON.stringify(saved.state)); } catch (e) { S = emptyState(); return false; }
    if (!wellFormed(S)) { S = emptyState(); return false; }
    S.elapsed = Number(saved.elapsed) || 0;
    const snaps = (a) => (Array.isArray(a) ? a : []).filter((x) => {
      const st = emptyState();
      try { restore(x, st); } catch (e) { return false; }
      return wellFormed(st) && st.size === S.size && st.rule === S.rule;
    });
    undoStack = snaps(saved.undo);
    redoStack = snaps(saved.redo);
    autoCheck = !!saved.autoCheck;
    $('auto-check').checked = autoCheck;
    const n = S.size * S.size;
    active = Number.isInteger(saved.active) && saved.active >= 0 && saved.active < n ? saved.active : 0;
    ensureGrid();
    cellEls.forEach((el, i) => { el.tabIndex = i === active ? 0 : -1; });
    return true;
  }

  // The text after #p= of a link: the puzzle, and for a variant its rule
  // (the size is the line's length): #p=<line>[|<cages>] or #p=<line>&r=<rule>.
  function linkText() {
    return puzzleText() + (RULE ? '&r=' + RULE : '');
  }
  function shareUrl() {
    return location.origin + location.pathname + '#p=' + linkText();
  }
  function updateShare() {
    const a = $('share');
    a.hidden = !S.playing;
    if (S.playing) a.href = shareUrl();
  }

  function puzzleFromHash() {
    const m = /^#p=(.+)$/.exec(location.hash);
    if (!m) return '';
    try { return decodeURIComponent(m[1]); } catch (e) { return m[1]; }
  }
