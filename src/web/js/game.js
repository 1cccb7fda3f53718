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
    // A mistake counts once, when typed; undo does not take it back.
    if (changed && S.playing && S.solution.length === CELLS && d !== S.solution[i]) S.mistakes++;
    if (changed && clash.has(i)) {
      const k = clash.get(i);
      setStatus('error', d + ' is already in row ' + (rowOf(k) + 1) + ', column ' + (colOf(k) + 1) +
                ', which shares a ' + sharedUnit(i, k) + ' with it: both are marked.');
      render();
      return;
    }
    if (changed && !S.done) {
      if (autoCheck && isMistake(i)) {
        setStatus('error', d + ' does not belong in row ' + (rowOf(i) + 1) + ', column ' +
                  (colOf(i) + 1) + ': it is marked as a mistake.');
      } else if (!S.done) {
        setStatus('', '');
      }
    }
  }

  // The unit two clashing cells share, in a word.
  function sharedUnit(i, k) {
    if (rowOf(i) === rowOf(k)) return 'row';
    if (colOf(i) === colOf(k)) return 'column';
    if (boxOf(i) === boxOf(k)) return RULE === 'jigsaw' ? 'region' : 'box';
    if (S.cages.some((cg) => cg.cells.includes(i) && cg.cells.includes(k))) return 'cage';
    return { diagonals: 'diagonal', windoku: 'window', anti_knight: 'knight\'s move',
      anti_king: 'diagonal step' }[RULE] || 'unit';
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

  // The clock runs exactly while a game is on, not paused, in a visible tab.
  const clockShouldRun = () => S.playing && !S.done && !paused && document.visibilityState !== 'hidden';
  function startClock() {
    if (!clockShouldRun() || since) { showClock(); return; }
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
  function syncClock() {
    if (clockShouldRun()) startClock();
    else if (since) stopClock();
    else showClock();
  }

  // Pause: the clock stops and the board is hidden (so it cannot be
  // studied for free) until Resume.
  function setPaused(on, quiet) {
    if (on && (!S.playing || S.done)) return;
    paused = on;
    $('pause').setAttribute('aria-pressed', String(on));
    $('pause').textContent = on ? 'Paused' : 'Pause';
    $('paused').hidden = !on;
    boardEl.classList.toggle('is-paused', on);
    boardEl.inert = on;
    $('pad').inert = on;
    if (on) boardEl.setAttribute('aria-hidden', 'true'); else boardEl.removeAttribute('aria-hidden');
    syncClock();
    if (quiet) return;
    if (on) $('resume').focus();
    else if (cellEls[active]) cellEls[active].focus();
    setStatus('info', on ? 'Paused at ' + clockText(elapsed()) + '.' : 'Resumed.');
  }

  /* ----------------------------------------------------------------------
   * Asking first, the finish, statistics, the daily puzzle
   * ---------------------------------------------------------------------- */

  // A game would lose something if replaced: digits or notes of the player
  // in a game not finished, or givens typed while entering a puzzle.
  function hasProgress() {
    if (S.done) return false;
    if (!S.playing) return S.givens.some((g) => g) || S.cages.length > 0;
    return S.values.some((v, i) => v && S.kinds[i] !== 'solved') || S.notes.some((m) => m);
  }
  function progressText() {
    if (!S.playing) return '(the puzzle you typed)';
    const n = S.values.filter((v, i) => v && S.kinds[i] !== 'solved').length;
    return '(' + plural(n, 'digit', 'digits') + ', ' + clockText(elapsed()) + ')';
  }

  // The page's one question: a modal <dialog> with a title, the words and
  // two buttons; Escape or the second button is no. The focus goes back
  // where it was.
  let asked = null;
  function ask(title, text, yes, onYes, onNo) {
    const d = $('confirm');
    $('confirm-title').textContent = title;
    $('confirm-text').textContent = text;
    $('confirm-yes').textContent = yes;
    asked = { onYes: onYes, onNo: onNo, back: document.activeElement };
    d.showModal();
    $('confirm-no').focus();
  }
  function answer(yes) {
    const a = asked;
    asked = null;
    if ($('confirm').open) $('confirm').close();
    if (!a) return;
    if (a.back && a.back.focus && document.contains(a.back)) a.back.focus();
    if (yes) a.onYes(); else if (a.onNo) a.onNo();
  }
  // Runs fn now when nothing would be lost, else after the player says yes.
  function guard(title, text, yes, fn) {
    if (!hasProgress()) { fn(); return; }
    ask(title, text + ' Your game in progress ' + progressText() + ' will be lost.', yes, fn);
  }

  const STATS_KEY = 'sudokud.stats.v1';
  const LEVEL_KEY = 'sudokud.level';
  const LEVELS = ['easy', 'medium', 'hard', 'expert', 'extreme'];
  function loadStats() {
    let st = null;
    try { st = JSON.parse(localStorage.getItem(STATS_KEY) || 'null'); } catch (e) { st = null; }
    return st && typeof st === 'object' ? st : {};
  }
  function statsFor(st, key) {
    const x = st[key] && typeof st[key] === 'object' ? st[key] : {};
    const num = (v) => (Number.isFinite(v) && v >= 0 ? v : 0);
    return { played: num(x.played), won: num(x.won), total: num(x.total), best: num(x.best),
      streak: num(x.streak), bestStreak: num(x.bestStreak) };
  }
  function saveStats(st) {
    try { localStorage.setItem(STATS_KEY, JSON.stringify(st)); } catch (e) { /* not kept */ }
    showStats();
  }
  // The key a game's statistics go under: its level, or 'daily'.
  const statsKey = () => (S.daily ? 'daily' : S.level);

  // A game left unfinished (a new one replaces it) or revealed ends its
  // level's streak.
  function abandonGame() {
    if (!S.playing || S.done || S.counted || !statsKey()) return;
    const st = loadStats();
    const x = statsFor(st, statsKey());
    x.streak = 0;
    st[statsKey()] = x;
    S.counted = true;
    saveStats(st);
  }
  function countStart() {
    if (!statsKey()) return;
    const st = loadStats();
    const x = statsFor(st, statsKey());
    x.played++;
    st[statsKey()] = x;
    saveStats(st);
  }

  // The finish: a game the player completed (or one Solve revealed), with
  // its time, mistakes and hints, the level's statistics and a result to share.
  function finishGame() {
    const ms = elapsed();
    let record = '';
    const key = statsKey();
    if (!S.counted && key) {
      S.counted = true;
      const st = loadStats();
      const x = statsFor(st, key);
      if (S.revealed) {
        x.streak = 0;
      } else {
        x.won++;
        x.total += ms;
        if (!x.best || ms < x.best) { record = 'A new best time for ' + levelWord(key) + '!'; x.best = ms; }
        x.streak++;
        x.bestStreak = Math.max(x.bestStreak, x.streak);
      }
      st[key] = x;
      saveStats(st);
    }
    if (S.revealed) {
      setStatus('info', 'The solution is shown. Undo takes it back; New game starts another.');
      return;
    }
    setStatus('ok', 'Solved, well done! Time ' + clockText(ms) + '.');
    const facts = [['Time', clockText(ms)], ['Mistakes', String(S.mistakes)], ['Hints', String(S.hints)],
      ['Level', levelName()]];
    if (key) {
      const x = statsFor(loadStats(), key);
      facts.push(['Best', clockText(x.best)], ['Average', clockText(x.won ? x.total / x.won : 0)],
        ['Streak', String(x.streak)]);
    }
    $('finish-facts').replaceChildren(...facts.flatMap(([k, v]) => {
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = k;
      dd.textContent = v;
      return [dt, dd];
    }));
    $('finish-record').textContent = record;
    $('result').textContent = resultText(ms);
    $('copy-status').textContent = '';
    if (!$('finish').open) $('finish').showModal();
    $('copy-result').focus();
  }

  function levelWord(key) {
    return key === 'daily' ? 'the daily puzzle' : key;
  }

  // The result to share: what was played, how it went, and the link that
  // opens the same puzzle.
  function resultText(ms) {
    return 'sudokud ' + (S.daily ? 'daily puzzle ' + S.daily : levelName() + ' Sudoku') + ': solved in ' +
      clockText(ms) + ', ' + plural(S.mistakes, 'mistake', 'mistakes') + ', ' + plural(S.hints, 'hint', 'hints') +
      '.\n' + shareUrl();
  }

  async function copyResult() {
    const text = $('result').textContent;
    let ok = false;
    try { await navigator.clipboard.writeText(text); ok = true; } catch (e) { ok = false; }
    if (!ok) {
      const range = document.createRange();
      range.selectNodeContents($('result'));
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
    $('copy-status').textContent = ok ? 'Copied: paste it anywhere.'
      : 'This browser would not copy it: the text is selected, copy it with Ctrl+C.';
  }

  // The statistics table: a row per level, and the daily puzzle.
  function showStats() {
    const st = loadStats();
    const rows = LEVELS.concat(['daily']).map((key) => {
      const x = statsFor(st, key);
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = key === 'daily' ? 'Daily' : key.charAt(0).toUpperCase() + key.slice(1);
      tr.appendChild(th);
      [x.won + ' of ' + x.played, x.best ? clockText(x.best) : '-', x.won ? clockText(x.total / x.won) : '-',
        String(x.streak)].forEach((v) => {
        const td = document.createElement('td');
        td.textContent = v;
        tr.appendChild(td);
      });
      return tr;
    });
    $('stats').tBodies[0].replaceChildren(...rows);
  }

  // The daily puzzle: the same for everyone on a date, because its seed is
  // the date (20250105 on 5 January 2025, the player's local date).
  function today() {
    const d = new Date();
    return d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0');
  }
  const dailySeed = (date) => Number(date.replace(/-/g, ''));

  // Zoom: boards of 12x12 and up at twice the width, scrolled inside their
  // frame, so that notes are legible on a phone.
  let zoomed = false;
  function setZoom(on) {
    zoomed = on;
    $('zoom').setAttribute('aria-pressed', String(on));
    $('board-wrap').classList.toggle('is-zoomed', on);
    if (on && cellEls[active]) cellEls[active].scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  /* ----------------------------------------------------------------------
   * Saving, resuming and sharing
   * ---------------------------------------------------------------------- */

  // Saving is put off a moment after a change (a 25x25 game with its undo
  // history is 0.5 MB of JSON), and done at once when the tab hides.
  let saveTimer = 0;
  function scheduleSave() {
    if (!saveTimer) saveTimer = setTimeout(save, 250);
  }
  function save() {
    clearTimeout(saveTimer);
    saveTimer = 0;
    try {
      const data = JSON.parse(snapshot());
      localStorage.setItem(STORE_KEY, JSON.stringify({
        state: data, elapsed: elapsed(), active: active, autoCheck: autoCheck,
        undo: undoStack.slice(-50), redo: redoStack.slice(-50),
        meta: { level: S.level, daily: S.daily, mistakes: S.mistakes, hints: S.hints,
          revealed: S.revealed, counted: S.counted },
      }));
    } catch (e) { /* private mode or full: the game just is not kept */ }
  }

  // What localStorage gives back is checked before it is drawn: another
  // version of the page, or a person, may have written something else.
  function wellFormed(st) {
    if (!BOX_ROWS[st.size] || !(st.rule === '' || RULES[st.rule]) ||
        !ruleFits(st.size, st.rule)) return false;
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
    const m = saved.meta && typeof saved.meta === 'object' ? saved.meta : {};
    S.level = LEVELS.includes(m.level) ? m.level : '';
    S.daily = typeof m.daily === 'string' && /^\d{4}-\d\d-\d\d$/.test(m.daily) ? m.daily : '';
    S.mistakes = Number.isInteger(m.mistakes) && m.mistakes >= 0 ? m.mistakes : 0;
    S.hints = Number.isInteger(m.hints) && m.hints >= 0 ? m.hints : 0;
    S.revealed = !!m.revealed;
    S.counted = !!m.counted;
    const snaps = (a) => (Array.isArray(a) ? a : []).filter((x) => {
      const st = emptyState();
      try { restore(x, st); } catch (e) { return false; }
      return wellFormed(st) && st.size === S.size && st.rule === S.rule;
    });
    undoStack = snaps(saved.undo);
    redoStack = snaps(saved.redo);
    autoCheck = saved.autoCheck === undefined ? true : !!saved.autoCheck;
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
