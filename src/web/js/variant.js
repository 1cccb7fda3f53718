  // variant.js - the size and rule picker, and what the rules mean for the
  // board: its regions, the shaded cells and the members a request carries.
  // Jigsaw and windoku are 9x9 rules; the other rules go with every size.

  // Box shapes: rows x columns, the wider side horizontal (as the API has it).
  const BOX_ROWS = { 4: 2, 6: 2, 8: 2, 9: 3, 12: 3, 16: 4, 25: 5 };
  const SIZES = [4, 6, 8, 9, 12, 16, 25];
  const JIGSAW = 'AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEEFFDDDEEFFFFDDDEEEFFF' +
    'GGGHHHIIIGGGHHHIIIGGGHHHIII';
  const RULES = {
    diagonals: 'diagonals', jigsaw: 'jigsaw regions', windoku: 'windoku windows',
    anti_knight: 'anti-knight', anti_king: 'anti-king',
  };
  const NINE_ONLY = ['jigsaw', 'windoku'];
  // Whether a grid of size n can obey the rule at all: jigsaw and windoku
  // are drawn for 9x9; no 4x4 grid is anti-king (an exhaustive count finds
  // none, and the service answers 422 no_solution), so it is offered from 6x6.
  function ruleFits(n, rule) {
    if (NINE_ONLY.includes(rule)) return n === 9;
    return !(rule === 'anti_king' && n === 4);
  }
  // The levels /generate offers for a size with any rules (the table of
  // teach_variant_levels, src/engine/teach/teach_variant.c; another is
  // 422 level_not_offered), and for killer: the levels its generator
  // meets within the service's 2 s (docs/api.md, Killer puzzles).
  const VARIANT_LEVELS = {
    4: ['easy'], 6: ['easy', 'medium', 'hard', 'expert'], 8: ['easy', 'medium', 'hard', 'expert', 'extreme'],
    9: ['easy', 'medium', 'hard', 'expert', 'extreme'], 12: ['easy', 'medium', 'hard', 'expert', 'extreme'],
    16: ['easy', 'medium', 'hard', 'expert', 'extreme'], 25: ['easy', 'medium', 'hard', 'expert'],
  };
  const KILLER_LEVELS = ['easy', 'medium', 'hard', 'expert', 'extreme'];
  const CLASSIC_ONLY = 'Killer cages and rating ranges are for classic 9x9 boxes only; the ' +
    'levels of this size are offered, and Hint, Grade and Solution path work on every board ' +
    '(rated on the service\'s own scale for variants, not Sudoku Explainer\'s).';

  // The four windoku windows: 3x3 squares one cell in from each corner.
  function windows() {
    const groups = [];
    for (let g = 0; g < 4; g++) {
      const cells = [];
      for (let k = 0; k < 9; k++) cells.push([1 + Math.floor(g / 2) * 4 + Math.floor(k / 3), 1 + (g % 2) * 4 + (k % 3)]);
      groups.push(cells);
    }
    return groups;
  }

  // Sets the geometry the rest of the page reads (core.js) for a size and rule.
  function useGeometry(n, rule) {
    SIZE = n;
    CELLS = n * n;
    RULE = rule;
    const br = BOX_ROWS[n];
    const bc = n / br;
    regionOf = [];
    extraOf = new Array(CELLS).fill(-1);
    for (let i = 0; i < CELLS; i++) {
      regionOf.push(rule === 'jigsaw' ? JIGSAW.charCodeAt(i) - 65
        : Math.floor(rowOf(i) / br) * br + Math.floor(colOf(i) / bc));
    }
    if (rule === 'windoku') {
      windows().forEach((g, k) => g.forEach(([r, c]) => { extraOf[r * n + c] = k; }));
    }
    // Each cell's peers, listed once per shape: conflicts are looked up on
    // every keystroke, and on 25x25 a scan of all pairs would cost 390,000 calls.
    peerList = [];
    for (let i = 0; i < CELLS; i++) {
      const list = [];
      for (let k = 0; k < CELLS; k++) if (peers(i, k)) list.push(k);
      peerList.push(list);
    }
  }

  // What each rule means, in one sentence, shown where it is chosen.
  const RULE_HELP = {
    '': 'Classic: every row, column and box holds each digit once.',
    diagonals: 'Diagonals: as classic, and the two long diagonals (shaded) also hold each digit once.',
    jigsaw: 'Jigsaw: the boxes are irregular regions, drawn with thick edges; each holds every digit once.',
    windoku: 'Windoku: as classic, and the four shaded 3x3 windows also hold each digit once.',
    anti_knight: 'Anti-knight: as classic, and two cells a chess knight\'s move apart never hold the same digit.',
    anti_king: 'Anti-king: as classic, and two cells that touch at a corner never hold the same digit ' +
      '(no 4x4 grid can obey it).',
  };
  function ruleHelp() {
    const digits = SIZE > 9 ? ' Digits 1-9 then A-' + lastDigit() + '.' : SIZE < 9 ? ' Digits 1-' + SIZE + '.' : '';
    return SIZE + 'x' + SIZE + '. ' + RULE_HELP[RULE] + digits;
  }

  // The rule members of a request, as the API takes them (none for boxes).
  function members() {
    const m = {};
    if (RULE === 'diagonals' || RULE === 'anti_knight' || RULE === 'anti_king') m[RULE] = true;
    if (RULE === 'jigsaw') m.regions = JIGSAW;
    if (RULE === 'windoku') m.extra_regions = windows();
    return m;
  }

  // "16x16, anti-knight": the board's kind in words.
  function variantName(n, rule) {
    return n + 'x' + n + (rule ? ', ' + RULES[rule] : '');
  }

  // The picker shows the board's size and rules; the classic-only buttons
  // are disabled, with the reason next to them, on any other board.
  function syncPicker() {
    $('size').value = String(SIZE);
    $('rules').value = RULE;
    const classic = isClassic();
    for (const id of ['cage-mode', 'clear-cages']) $(id).disabled = !classic;
    for (const id of ['min-rating', 'max-rating']) $(id).disabled = !classic;
    // The difficulty: the levels this size offers (and Any level).
    const offered = VARIANT_LEVELS[SIZE] || [];
    for (const o of $('difficulty').options) o.disabled = !classic && o.value !== '' && !offered.includes(o.value);
    if ($('difficulty').selectedOptions[0] && $('difficulty').selectedOptions[0].disabled) {
      $('difficulty').value = offered.includes('medium') ? 'medium' : offered[0] || '';
    }
    $('variant-note').hidden = classic;
    $('rule-help').textContent = ruleHelp();
    $('zoom').hidden = SIZE < 12;
    if (SIZE < 12) setZoom(false);
    $('variant-note').textContent = classic ? '' : CLASSIC_ONLY;
    boardEl.setAttribute('aria-label', 'Sudoku board, ' + SIZE + ' rows by ' + SIZE + ' columns' +
      (RULE ? ', ' + RULES[RULE] : ''));
  }

  // A new size or rule from the picker: an empty board of that shape (the
  // givens are kept when only the rule changed). Jigsaw and windoku set 9x9.
  function pickVariant(changed) {
    // Only the rule changed while a puzzle is typed: its givens stay, nothing is lost.
    const asked = Number($('size').value);
    const to = changed === 'size' || ruleFits(asked, $('rules').value) ? asked
      : NINE_ONLY.includes($('rules').value) ? 9 : 6;
    const sameSize = to === S.size;
    if (hasProgress() && (S.playing || !sameSize)) {
      const back = [S.size, S.rule];
      ask('Change the board?', 'A new size or rule starts a new board: your game in progress ' +
          progressText() + ' will be lost.', 'Change the board', () => pickVariantNow(changed),
      () => { $('size').value = String(back[0]); $('rules').value = back[1]; });
      return;
    }
    pickVariantNow(changed);
  }

  function pickVariantNow(changed) {
    abandonGame();
    let n = Number($('size').value);
    let rule = $('rules').value;
    if (NINE_ONLY.includes(rule)) {
      if (changed === 'size' && n !== 9) rule = '';
      else n = 9;
    } else if (!ruleFits(n, rule)) {
      if (changed === 'size') rule = '';
      else n = 6;
    }
    const keep = n === S.size ? givensLine() : '';
    if (cageMode) setCageMode(false);
    loadPuzzle(keep, [], n, rule);
    history.replaceState(null, '', location.pathname);
    setStatus('info', 'A ' + variantName(n, rule) + ' board: press New game for a puzzle, or type one and ' +
      'press Play this puzzle.' + (n > 9 ? ' Digits above 9 are the letters A-' + lastDigit() + '.' : ''));
  }

  function buildPicker() {
    $('size').replaceChildren(...SIZES.map((n) => new Option(n + 'x' + n, String(n))));
    $('rules').replaceChildren(new Option('Boxes', ''),
      ...Object.keys(RULES).map((k) => new Option(RULES[k].charAt(0).toUpperCase() + RULES[k].slice(1) +
        (NINE_ONLY.includes(k) ? ' (9x9)' : k === 'anti_king' ? ' (6x6 and up)' : ''), k)));
    $('size').addEventListener('change', () => pickVariant('size'));
    $('rules').addEventListener('change', () => pickVariant('rules'));
  }
