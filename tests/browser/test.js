// test.js - the demo page in a real browser: Debian's chromium driven by
// playwright-core. Starts build/sudokud on a free port of 127.0.0.1, runs
// each case in a fresh browser context, fails a case on any Content-Security-
// Policy violation, script error or request to another origin, saves
// screenshots under build/browser/, always stops the daemon, and ends with
// "N passed, N failed". Run it with `make test-browser`.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const assert = require('node:assert/strict');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.resolve(ROOT, process.env.SUDOKUD_BIN || 'build/sudokud');
const OUT = path.resolve(ROOT, process.env.BROWSER_OUT || 'build/browser');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ONLY = process.argv[2] || ''; // run the cases whose name contains this

const EXAMPLE =
  '9.7.....6824.3......1..9..2.9...2.18...4....5' +
  '1325.8......687.........8.9.4.9...5.';
const SOLUTION =
  '957214386824736591361859742495372618786491235' +
  '132568974519687423273145869648923157';
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
  "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const OPTIONAL = ['/validate', '/hint', '/grade', '/generate', '/explain'];

/* ------------------------------------------------------------------------
 * The daemon
 * ------------------------------------------------------------------------ */

let server = null;

// Starts sudokud on port 0 and resolves to the port from its `listening`
// log line. Its stdout keeps being read (into build/browser/sudokud.log) so
// the access log can never fill the pipe and stall it.
function startServer() {
  return new Promise((resolve, reject) => {
    const log = fs.createWriteStream(path.join(OUT, 'sudokud.log'));
    const child = spawn(BIN, ['--port', '0', '--bind', '127.0.0.1',
      '--drain-timeout', '2', '--threads', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    const timer = setTimeout(() => reject(new Error('sudokud did not log "listening" within 10 s')), 10000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error('sudokud exited early: ' + (sig || code)));
    });
    child.stderr.pipe(log);
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      log.write(line + '\n');
      if (!line.includes('"listening"')) return;
      try {
        const port = JSON.parse(line).port;
        clearTimeout(timer);
        resolve(port);
      } catch (e) { reject(e); }
    });
  });
}

// SIGTERM, then SIGKILL if it has not exited within 5 s.
function stopServer() {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => { clearTimeout(kill); resolve(); });
    child.kill('SIGTERM');
  });
}

// Backstops: whatever happens, the daemon does not outlive this process.
process.on('exit', () => { if (server) server.kill('SIGKILL'); });
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => { if (server) server.kill('SIGKILL'); process.exit(130); });
}

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

let browser = null;
let base = '';

// A fresh context and page that records every CSP violation (the DOM event,
// and chromium's console report of it), script error and foreign request.
async function openPage(opts) {
  const context = await browser.newContext(Object.assign({ viewport: { width: 760, height: 900 } }, opts));
  const page = await context.newPage();
  const trouble = [];
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(e.violatedDirective + ' ' + e.blockedURI);
    });
  });
  page.on('console', (msg) => {
    const text = msg.text();
    if (/Content.Security.Policy|Refused to/i.test(text)) trouble.push('CSP (console): ' + text);
    // 4xx answers of the API are logged by chromium as "Failed to load
    // resource"; they are expected. Any other console error is not.
    else if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) {
      trouble.push('console error: ' + text);
    }
  });
  page.on('pageerror', (e) => trouble.push('script error: ' + e.message));
  page.on('request', (req) => {
    if (!req.url().startsWith(base + '/')) trouble.push('request to another origin: ' + req.url());
  });
  page.on('requestfailed', (req) => trouble.push('request failed: ' + req.url() + ' ' + (req.failure() || {}).errorText));
  page.finish = async () => {
    const csp = await page.evaluate(() => window.__csp).catch(() => []);
    csp.forEach((v) => trouble.push('CSP violation: ' + v));
    await context.close();
    assert.deepEqual(trouble, [], 'the page had trouble');
  };
  return page;
}

async function load(page) {
  const resp = await page.goto(base + '/');
  await page.waitForSelector('#board[data-ready="true"]');
  await page.waitForSelector('body[data-probed="true"]');
  return resp;
}

const grid = (page) => page.$$eval('#board .cell', (els) => els.map((e) => e.querySelector('.digit').textContent || '.').join(''));
const cellsWith = (page, cls) =>
  page.$$eval('#board .cell.' + cls, (els) => els.map((e) => e.id).sort());
const focusedId = (page) => page.evaluate(() => document.activeElement && document.activeElement.id);
const label = (page, id) => page.getAttribute('#' + id, 'aria-label');
const idOf = (i) => 'c' + Math.floor(i / 9) + (i % 9);
const statusOf = async (page) => ({
  cls: await page.getAttribute('#status', 'class'),
  text: (await page.textContent('#status')).trim(),
});

async function waitStatus(page, kind, re) {
  if (re) {
    await page.waitForFunction(([k, src]) => {
      const el = document.getElementById('status');
      return el.classList.contains('status--' + k) && new RegExp(src).test(el.textContent);
    }, [kind, re.source]);
  } else {
    await page.waitForSelector('#status.status--' + kind);
  }
  return statusOf(page);
}

async function shot(page, name, fullPage) {
  const file = path.join(OUT, name);
  await page.screenshot({ path: file, fullPage: fullPage !== false });
  shots.add(name);
  return file;
}
const shots = new Set();

async function serverHas(p) {
  const res = await fetch(base + p, { method: 'OPTIONS' });
  return res.status !== 404;
}

async function solutionOf(board, cages) {
  const res = await fetch(base + '/solve', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(cages ? { board, cages } : { board }),
  });
  assert.equal(res.status, 200);
  const s = (await res.json()).solution;
  return Array.isArray(s) ? s.join('') : s;
}

// axe-core, injected through the debugging protocol (the page's CSP would
// refuse a script tag), must find no violation in the page as it is now.
let axeSource = null;
let axeRuns = 0;
async function axe(page, what) {
  if (!axeSource) axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => v.id + ': ' + v.help + ' [' +
      v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ') + ']');
  });
  axeRuns++;
  assert.deepEqual(found, [], 'axe-core violations (' + what + ')');
}

// WCAG contrast ratio of two CSS colours as getComputedStyle writes them.
function ratio(a, b) {
  const lum = (css) => {
    const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(css);
    assert.ok(m, 'a colour: ' + css);
    const v = [m[1], m[2], m[3]].map((x) => {
      const c = Number(x) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const x = lum(a);
  const y = lum(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
const bg = (page, sel) => page.$eval(sel, (e) => getComputedStyle(e).backgroundColor);
const ringColour = (page, sel) => page.$eval(sel, (e) => {
  const s = getComputedStyle(e);
  const m = /(rgba?\([^)]*\))/.exec(s.boxShadow);
  return s.outlineStyle !== 'none' && s.outlineWidth !== '0px' ? s.outlineColor : (m ? m[1] : '');
});

// The highlight of the selected cell's row, column and box, and the focus
// ring, measured against their surroundings. Returns the ratios.
async function contrasts(page) {
  await page.focus('#c44');
  await page.waitForSelector('#c44.is-selected');
  const plain = await bg(page, '#c00');           // not a peer of r5c5
  const peer = await bg(page, '#c40');
  const selected = await bg(page, '#c44');
  const ring = await ringColour(page, '#c44');
  const r = {
    highlight: ratio(plain, peer),
    ringOnCell: ratio(ring, selected),
    ringOnPeer: ratio(ring, peer),
  };
  await page.focus('#undo');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  r.ringOnPage = ratio(await ringColour(page, '#undo'), await bg(page, 'html'));
  for (const [k, v] of Object.entries(r)) assert.ok(v >= 3, k + ' contrast ' + v.toFixed(2) + ':1 is under 3:1');
  return r;
}

async function inView(page, sel) {
  const box = await page.locator(sel).boundingBox();
  const vp = page.viewportSize();
  return box && box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width;
}

// The first killer puzzle of tests/data/killer_puzzles: board, cages, solution.
function killerPuzzle() {
  const line = fs.readFileSync(path.join(ROOT, 'tests/data/killer_puzzles'), 'utf8')
    .split('\n').find((l) => l && !l.startsWith('#'));
  const [board, cages, solution] = line.split('|');
  return { board, cages: cages.split(';'), solution };
}

// Drags the mouse over the cells of a cage, from the first to the last.
async function dragCage(page, ids) {
  const centre = async (id) => {
    const b = await page.locator('#' + id).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const [x0, y0] = await centre(ids[0]);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (const id of ids.slice(1)) {
    const [x, y] = await centre(id);
    await page.mouse.move(x, y, { steps: 4 });
  }
  await page.mouse.up();
}

const cases = [];
const test = (name, fn) => cases.push({ name, fn });
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

test('GET / carries the CSP and the security headers; no inline script or style', async () => {
  const page = await openPage();
  const resp = await load(page);
  const h = resp.headers();
  assert.equal(resp.status(), 200);
  assert.equal(h['content-security-policy'], CSP);
  assert.equal(h['x-content-type-options'], 'nosniff');
  assert.equal(h['x-frame-options'], 'DENY');
  assert.equal(h['referrer-policy'], 'no-referrer');
  assert.equal(h['cross-origin-opener-policy'], 'same-origin');
  assert.match(h['content-type'], /^text\/html/);
  for (const [p, type] of [['/app.js', /^text\/javascript/], ['/app.css', /^text\/css/],
    ['/favicon.ico', /^image\/x-icon$/]]) {
    const r = await fetch(base + p);
    assert.equal(r.status, 200, p);
    assert.match(r.headers.get('content-type'), type, p);
    assert.equal(r.headers.get('content-security-policy'), CSP, p);
  }
  const inline = await page.evaluate(() =>
    document.querySelectorAll('script:not([src]), style, [style]').length);
  assert.equal(inline, 0, 'inline script, <style> or style attributes');
  assert.equal(await page.title(), 'sudokud: Sudoku solver');
  assert.equal(await page.getAttribute('link[rel=icon]', 'href'), '/favicon.ico');
  const icon = await page.evaluate(async () => {
    const img = new Image();
    img.src = '/favicon.ico';
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  });
  assert.deepEqual(icon, [32, 32], 'the favicon decodes as a 32x32 image');
  await axe(page, 'empty board');
  await page.finish();
});

test('types the example with the keyboard, Solve shows the known solution', async () => {
  const page = await openPage(DESKTOP);
  await load(page);
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE);
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.inputValue('#line'), EXAMPLE, 'the line box mirrors the grid');
  await page.click('#solve');
  const st = await waitStatus(page, 'ok');
  assert.match(st.text, /^Solved in \d+ µs: \d+ search nodes?, (no guesses|\d+ guess(es)?)\.$/);
  assert.equal(await grid(page), SOLUTION);
  const givens = await cellsWith(page, 'is-given');
  const solved = await cellsWith(page, 'is-solved');
  assert.equal(givens.length, EXAMPLE.replace(/\./g, '').length);
  assert.equal(givens.length + solved.length, 81);
  const look = (id) => page.$eval('#' + id, (e) => {
    const s = getComputedStyle(e);
    return { color: s.color, weight: s.fontWeight };
  });
  const g = await look(givens[0]);
  const s = await look(solved[solved.length - 1]);
  assert.notEqual(g.weight, s.weight, 'solved digits have their own weight');
  assert.match(await label(page, solved[0]), /, solved$/);
  assert.match(await label(page, givens[0]), /^Row \d, column \d, box \d, given \d$/);
  await page.focus('#solve');
  await shot(page, 'solved.png');
  await axe(page, 'solved');
  await page.finish();
});

test('arrows, Home/End, digits and Backspace move and edit; Tab leaves the grid', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#c00');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedId(page), 'c12');
  await page.keyboard.press('5');
  assert.equal((await grid(page))[11], '5');
  assert.equal(await focusedId(page), 'c13', 'while entering a puzzle a digit moves on');
  await page.keyboard.press('x');
  assert.equal((await grid(page))[12], '.', 'letters are ignored');
  await page.keyboard.press('Backspace');
  assert.equal(await focusedId(page), 'c12', 'Backspace on a blank goes back');
  assert.equal((await grid(page))[11], '.', 'and erases');
  await page.keyboard.press('7');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  assert.equal((await grid(page))[11], '.', 'Backspace on a digit erases it');
  assert.equal(await focusedId(page), 'c12', 'and stays');
  await page.keyboard.press('End');
  assert.equal(await focusedId(page), 'c18');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedId(page), 'c18', 'the edge stops');
  await page.keyboard.press('Home');
  assert.equal(await focusedId(page), 'c10');
  await page.keyboard.press('Control+End');
  assert.equal(await focusedId(page), 'c88');
  const tabbable = await page.$$eval('#board .cell', (els) => els.filter((e) => e.tabIndex === 0).map((e) => e.id));
  assert.deepEqual(tabbable, ['c88'], 'one tab stop in the grid (roving tabindex)');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), '1',
    'Tab leaves the grid for the number pad');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focusedId(page), 'c88', 'and Shift+Tab comes back to the same cell');
  assert.equal(await page.getAttribute('#board', 'role'), 'grid');
  assert.equal(await page.$$eval('#board [role=row]', (e) => e.length), 9);
  assert.equal(await page.$$eval('#board [role=gridcell]', (e) => e.length), 81);
  assert.equal(await label(page, 'c34'), 'Row 4, column 5, box 5, empty');
  await page.finish();
});

test('a conflicting digit: Solve gets 422 conflict and the cells are marked', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE.slice(0, 1) + '9');
  await page.click('#solve');
  const st = await waitStatus(page, 'error');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c00', 'c01']);
  for (const id of ['c00', 'c01']) {
    assert.equal(await page.getAttribute('#' + id, 'aria-invalid'), 'true', id);
    assert.match(await label(page, id), /conflict$/, id);
  }
  assert.match(st.text, /9 appears twice in row 1/);
  assert.match(st.text, /9 appears twice in the top left box/);
  const look = await page.$eval('#c01', (e) => {
    const s = getComputedStyle(e);
    return s.backgroundImage + ' | ' + s.boxShadow;
  });
  assert.match(look, /repeating-linear-gradient/);
  assert.match(look, /inset/);
  await page.focus('#solve');
  await shot(page, 'conflict.png');
  await page.click('#c01');
  await page.keyboard.press('Backspace');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), []);
  await page.finish();
});

test('pasting a malformed line says what is wrong and loads nothing', async () => {
  const page = await openPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await load(page);
  const paste = async (text) => {
    await page.fill('#line', '');
    await page.focus('#line');
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press('Control+V');
  };
  await paste('9' + EXAMPLE);
  let st = await waitStatus(page, 'error');
  assert.match(st.text, /That line has 82 characters .*exactly 81/);
  assert.equal(await page.getAttribute('#line', 'aria-invalid'), 'true');
  assert.equal(await grid(page), '.'.repeat(81), 'nothing was loaded');
  await shot(page, 'error.png');

  await paste(EXAMPLE.slice(0, 40) + 'x' + EXAMPLE.slice(41));
  st = await waitStatus(page, 'error', /Character 41/);
  assert.match(st.text, /Character 41 of the line, “x” \(row 5, column 5\), is not allowed/);

  await paste(EXAMPLE.match(/.{9}/g).join(' '));
  st = await waitStatus(page, 'ok');
  assert.equal(st.text, 'Loaded a puzzle with ' + EXAMPLE.replace(/\./g, '').length + ' givens.');
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.getAttribute('#line', 'aria-invalid'), null);

  // Straight into the grid: a line pasted while a cell has the focus.
  await page.click('#clear');
  await page.click('#c44');
  await page.evaluate((t) => navigator.clipboard.writeText(t), SOLUTION.slice(0, 80) + '.');
  await page.keyboard.press('Control+V');
  st = await waitStatus(page, 'ok', /^Loaded a puzzle with 80 givens/);
  assert.equal(await grid(page), SOLUTION.slice(0, 80) + '.');

  await page.click('#clear');
  await page.fill('#line', '12345678');
  await page.click('#load');
  st = await waitStatus(page, 'error', /has 8 characters/);
  await page.finish();
});

test('other API errors: the server\'s detail is shown in plain words', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#solve');
  let st = await waitStatus(page, 'error');
  assert.match(st.text, /board is empty/, 'an empty board is not sent');
  await page.click('#c44');
  await page.keyboard.press('5');
  await page.click('#solve');
  st = await waitStatus(page, 'error', /.../);
  const res = await fetch(base + '/solve', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ board: '.'.repeat(40) + '5' + '.'.repeat(40) }),
  });
  const detail = (await res.json()).detail;
  assert.equal(res.status, 422);
  assert.equal(st.text, detail.charAt(0).toUpperCase() + detail.slice(1) + '.');
  await page.finish();
});

test('Example and Clear', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  assert.equal(await grid(page), EXAMPLE);
  await page.click('#solve');
  await waitStatus(page, 'ok', /Solved/);
  await page.click('#clear');
  assert.equal(await grid(page), '.'.repeat(81));
  assert.equal(await page.inputValue('#line'), '');
  assert.deepEqual(await cellsWith(page, 'is-solved'), []);
  await page.finish();
});

test('a puzzle typed by hand is locked by Play this puzzle', async () => {
  const page = await openPage();
  await load(page);
  assert.equal(await page.textContent('#mode'), 'Entering a puzzle');
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE);
  await page.click('#play');
  await waitStatus(page, 'ok', /locked/);
  assert.equal(await page.textContent('#mode'), 'Playing');
  assert.equal(await page.isVisible('#play'), false);
  assert.equal(new URL(page.url()).hash, '#p=' + EXAMPLE, 'the address carries the puzzle');
  await page.click('#c00');
  await page.keyboard.press('1');
  await waitStatus(page, 'info', /holds a given 9/);
  assert.equal((await grid(page))[0], '9');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('5');
  assert.equal(await focusedId(page), 'c01', 'while playing, a digit stays in its cell');
  assert.deepEqual(await cellsWith(page, 'is-player'), ['c01']);
  assert.equal(await label(page, 'c01'), 'Row 1, column 2, box 1, 5');
  await page.finish();
});

test('Validate, Hint, Grade, Generate, Solution path: shown when the server has them, hidden on 404', async () => {
  const page = await openPage();
  await load(page);
  for (const p of OPTIONAL) {
    const has = await serverHas(p);
    const sel = p === '/generate' ? '#generate-group' : '#' + p.slice(1);
    assert.equal(await page.isVisible(sel), has, p + (has ? ' exists: its button shows' : ' is 404: its button is hidden'));
  }
  await page.finish();
});

class Skip extends Error {}
async function needs(p) {
  if (!(await serverHas(p))) throw new Skip(p + ' answers 404');
}

const ELIMINATION_FIRST =
  '1........6.392...1.....13..478.159..5.9......3.289...4834572619..61834..751..9238';

test('Validate: a good puzzle, a conflict, and two solutions', async () => {
  await needs('/validate');
  const page = await openPage();
  await load(page);
  await page.click('#c00');
  await page.keyboard.type(EXAMPLE);
  await page.click('#validate');
  let st = await waitStatus(page, 'ok');
  assert.equal(st.text, 'Valid: no digit repeats, and the puzzle has exactly one solution.');
  await page.click('#c01');
  await page.keyboard.press('9');
  await page.click('#validate');
  st = await waitStatus(page, 'error');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c00', 'c01', 'c31']);
  await page.click('#clear');
  await page.click('#c00');
  await page.keyboard.press('1');
  await page.click('#validate');
  st = await waitStatus(page, 'error', /more than one solution/);
  await page.finish();
});

test('Hint at 1366x768: places the digit, draws the step, the words stay in view', async () => {
  await needs('/hint');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  await page.click('#hint');
  let st = await waitStatus(page, 'ok', /^Hint/);
  const hinted = await cellsWith(page, 'is-hint');
  assert.equal(hinted.length, 1);
  const id = hinted[0];
  const i = Number(id[1]) * 9 + Number(id[2]);
  assert.equal((await grid(page))[i], SOLUTION[i], 'the hint is the solution\'s digit');
  assert.match(await label(page, id), /, hint$/);
  assert.match(st.text, new RegExp('^Hint \\([a-z ,-]+\\): ' + SOLUTION[i] + ' goes in row ' +
    (Number(id[1]) + 1) + ', column ' + (Number(id[2]) + 1) + '\\. '));
  assert.doesNotMatch(st.text, /\[\d,\d\]/, 'no 0-based [r,c] left in the words');
  await page.keyboard.press('Control+z');
  assert.deepEqual(await cellsWith(page, 'is-hint'), [], 'a hint is undone like any move');

  // A step that only eliminates: its units are shaded, its cells outlined,
  // the candidates it rules out struck through, the digit it leads to placed.
  await page.fill('#line', ELIMINATION_FIRST);
  await page.click('#load');
  await waitStatus(page, 'ok', /Loaded/);
  await page.click('#autofill');
  await page.click('#hint');
  st = await waitStatus(page, 'ok', /^Hint/);
  assert.equal((await cellsWith(page, 'is-hint')).length, 1);
  assert.deepEqual(await cellsWith(page, 'is-pattern'), ['c16', 'c17'], 'the pattern is outlined');
  assert.equal((await cellsWith(page, 'is-unit')).length, 9 + 9 - 3, 'row 2 and box 3 are shaded');
  const struck = await page.$$eval('#board .notes .elim', (els) => els.map((e) => e.closest('.cell').id + ':' + e.textContent).sort());
  // The step removes 5 from r1c7, r1c8, r1c9, r3c8, r3c9; the 5 it leads to
  // (r8c9) already took the 5 off the notes of column 9, so three are left.
  assert.deepEqual(struck, ['c06:5', 'c07:5', 'c27:5'], 'the eliminations are struck through');
  assert.equal(await page.$eval('#c08', (e) => e.getAttribute('aria-label')).then((l) => /notes [^,]*5/.test(l)), false);
  assert.match(await label(page, 'c06'), /, empty, notes [1-9 ]*5[1-9 ]*, hint rules out 5$/,
    'struck on the player\'s own notes (filled in first)');
  assert.match(st.text, /see the outlined cells\): .* After that(.*)?, \d goes in row \d, column \d \(.+\)\./);
  assert.match(st.text, /In row 2, 5 can only go in r2c7 and r2c8, all of them in box 3/);
  assert.ok(await inView(page, '#status'), 'the explanation is in view at 1366x768');
  assert.ok(await inView(page, '#' + (await cellsWith(page, 'is-hint'))[0]), 'and so is the hinted cell');
  const side = await page.locator('#status').boundingBox();
  const board = await page.locator('#board').boundingBox();
  assert.ok(side.x > board.x + board.width, 'the message is next to the grid');
  await page.focus('#hint');
  await shot(page, 'hint.png', false);
  await axe(page, 'hint drawn');
  await page.finish();
});

// A board whose next step is a skyscraper (on 7): found by applying the
// hints' placements to a 17-clue puzzle of tests/data/puzzles2_17_clue.
const CHAIN_NEXT =
  '8.1.26543.46..58125231846792.86.135441..5.268365248197.3.5124861824697356548..921';

test('Hint draws a chain: a line per link, solid strong and dashed weak', async () => {
  await needs('/hint');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.fill('#line', CHAIN_NEXT);
  await page.click('#load');
  await waitStatus(page, 'ok', /Loaded/);
  await page.click('#hint');
  const st = await waitStatus(page, 'ok', /^Hint/);
  const res = await fetch(base + '/hint', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ board: CHAIN_NEXT }),
  });
  const want = await res.json();
  if (!Array.isArray(want.links) || want.links.length < 2) throw new Skip('this engine gives no chain here');
  assert.match(st.text, /The chain is drawn on the grid/);
  const drawn = await page.$$eval('#board + .links .link', (ls) => ls.map((l) => l.getAttribute('class')));
  assert.deepEqual(drawn, want.links.slice(0, -1).map((n) => 'link link-' + n.link), 'one line per link, in order');
  assert.equal(await page.$$eval('.links .link-node', (c) => c.length), want.links.length, 'a ring per node');
  const dash = await page.$$eval('.links .link', (ls) => ls.map((l) => getComputedStyle(l).strokeDasharray));
  want.links.slice(0, -1).forEach((n, k) => assert.equal(dash[k] !== 'none', n.link === 'weak', 'link ' + k + ' dashing'));
  const first = want.links[0];
  assert.match(await label(page, idOf(first.cell[0] * 9 + first.cell[1])),
    new RegExp("in the hint's chain on " + first.digit));
  // The line starts at the node's candidate: its place in the cell's 3x3.
  const ring = await page.$eval('.links .link-node', (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  const d = first.digit;
  assert.deepEqual(ring.map((v) => v.toFixed(3)), [first.cell[1] + ((d - 1) % 3 + 0.5) / 3,
    first.cell[0] + (Math.floor((d - 1) / 3) + 0.5) / 3].map((v) => v.toFixed(3)));
  const colour = await page.$eval('.links .link', (l) => getComputedStyle(l).stroke);
  assert.ok(ratio(colour, await bg(page, '#c88')) >= 3, 'the chain is 3:1 or more against the cells');
  assert.ok(await inView(page, '#status'));
  await page.focus('#hint');
  await shot(page, 'chain.png', false);
  await axe(page, 'a chain drawn');
  await page.click('#c88');
  assert.equal(await page.$$eval('.links *', (e) => e.length), 0, 'looking elsewhere clears the drawing');
  await page.finish();
});

test('Solution path (/explain) and Generate by rating range', async () => {
  await needs('/explain');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  await page.click('#explain');
  const st = await waitStatus(page, 'ok', /^The solution path/);
  const res = await fetch(base + '/explain', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ board: EXAMPLE }),
  });
  const want = await res.json();
  const items = await page.$$eval('#path li', (li) => li.map((e) => e.textContent));
  assert.equal(items.length, want.steps.length, 'one item per step');
  assert.match(st.text, new RegExp(want.steps.length + ' steps by logic alone, level ' + want.level));
  assert.doesNotMatch(items.join(' '), /\[\d,\d\]/, 'cells counted from 1');
  assert.ok(await page.isVisible('#path-view'));
  await axe(page, 'solution path');
  await page.click('#path-close');
  assert.equal(await page.isVisible('#path-view'), false);

  await page.selectOption('#difficulty', '');
  await page.fill('#min-rating', '2.4');
  await page.fill('#max-rating', '3.4');
  await page.click('#generate');
  const g = await waitStatus(page, 'ok', /^A new/);
  const m = /\(rating (\d+\.\d)\)/.exec(g.text);
  assert.ok(m, 'the rating is said: ' + g.text);
  assert.ok(Number(m[1]) >= 2.4 && Number(m[1]) <= 3.4, 'and within the range asked: ' + m[1]);
  await page.fill('#max-rating', '13');
  await page.click('#generate');
  await waitStatus(page, 'error', /rating is a number from 1.0 to 12.0/);
  await page.finish();
});

test('Grade, and Generate at all five levels', async () => {
  await needs('/grade');
  await needs('/generate');
  const page = await openPage();
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  await page.click('#grade');
  let st = await waitStatus(page, 'ok', /^This puzzle/);
  assert.match(st.text, /^This puzzle is (easy|medium|hard|expert|extreme)( \(rating \d+\.\d\))?\./);
  const levels = await page.$$eval('#difficulty option', (o) => o.map((e) => e.value));
  assert.deepEqual(levels, ['easy', 'medium', 'hard', 'expert', 'extreme', '']);
  for (const level of ['extreme', 'easy']) {
    await page.selectOption('#difficulty', level);
    await page.click('#generate');
    st = await waitStatus(page, 'ok', new RegExp('^A new ' + level));
    assert.match(st.text, new RegExp('^A new ' + level + ' puzzle( \\(rating \\d+\\.\\d\\))? with \\d+ givens\\.'));
  }
  assert.ok((await grid(page)).replace(/\./g, '').length >= 17, 'a generated puzzle has givens');
  await page.click('#solve');
  await waitStatus(page, 'ok', /Solved/);
  assert.doesNotMatch(await grid(page), /\./, 'and Solve fills it');
  await page.finish();
});

test('a generated game played to the end: locked givens, notes, undo, mistakes, resume', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await load(page);
  await page.selectOption('#difficulty', 'easy');
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new easy/);
  const puzzle = await grid(page);
  const sol = await solutionOf(puzzle);
  const blanks = [];
  for (let i = 0; i < 81; i++) if (puzzle[i] === '.') blanks.push(i);
  const given = puzzle.search(/[1-9]/);
  assert.equal(await page.textContent('#mode'), 'Playing');

  // A locked given: typing over it changes nothing and says why.
  await page.click('#' + idOf(given));
  const other = String(puzzle[given] % 9 + 1);
  await page.keyboard.press(other);
  assert.equal((await grid(page))[given], puzzle[given], 'the given stays');
  await waitStatus(page, 'info', /holds a given/);
  assert.match(await label(page, idOf(given)), new RegExp(', given ' + puzzle[given] + '$'));
  const gLook = await page.$eval('#' + idOf(given), (e) => getComputedStyle(e).fontWeight);

  // Same-digit highlight: every other cell with that digit.
  const same = [];
  for (let i = 0; i < 81; i++) if (i !== given && puzzle[i] === puzzle[given]) same.push(idOf(i));
  assert.deepEqual(await cellsWith(page, 'is-same'), same.sort());

  // Notes: with the toggle, and with Shift+digit; the label lists them.
  const a = blanks[0];
  const b = blanks[1];
  await page.click('#' + idOf(a));
  await page.click('#notes');
  assert.equal(await page.getAttribute('#notes', 'aria-pressed'), 'true');
  for (const d of ['1', '3', '8']) await page.click('#pad-digits button:text-is("' + d + '")');
  await page.click('#notes');
  assert.equal(await page.getAttribute('#notes', 'aria-pressed'), 'false');
  const rc = (i) => 'Row ' + (Math.floor(i / 9) + 1) + ', column ' + (i % 9 + 1) + ', box ' +
    (Math.floor(i / 27) * 3 + Math.floor((i % 9) / 3) + 1);
  assert.equal(await label(page, idOf(a)), rc(a) + ', empty, notes 1 3 8');
  await page.click('#' + idOf(b));
  await page.keyboard.press('Shift+4');
  await page.keyboard.press('Shift+6');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6');
  await page.keyboard.press('Control+z');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4', 'undo takes back a note');
  await page.click('#redo');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6', 'redo puts it back');
  await page.click('#undo');
  await page.keyboard.press('Control+y');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6', 'and so does Ctrl+Y');
  await axe(page, 'notes');

  // A wrong digit with "show mistakes as I go": marked at once.
  await page.check('#auto-check');
  const wrong = String(sol[b] % 9 + 1);
  await page.click('#' + idOf(b));
  await page.keyboard.press(wrong);
  await waitStatus(page, 'error', /marked as a mistake/);
  assert.deepEqual(await cellsWith(page, 'is-mistake'), [idOf(b)]);
  assert.match(await label(page, idOf(b)), new RegExp(', ' + wrong + ', mistake$'));
  assert.equal(await page.getAttribute('#' + idOf(b), 'aria-invalid'), 'true');
  const pLook = await page.$eval('#' + idOf(a), (e) => getComputedStyle(e).fontWeight);
  assert.ok(await inView(page, '#status'), 'the message is in view at 1366x768');
  await page.focus('#check');
  await shot(page, 'mistake.png', false);
  await axe(page, 'a mistake marked');
  await page.click('#undo');
  assert.deepEqual(await cellsWith(page, 'is-mistake'), [], 'the undone move takes its mark along');
  assert.equal(await label(page, idOf(b)), rc(b) + ', empty, notes 4 6', 'and brings the notes back');
  await page.uncheck('#auto-check');

  // On request: a wrong digit is marked only when Check is pressed.
  await page.click('#' + idOf(b));
  await page.click('#pad-digits button:text-is("' + wrong + '")');
  assert.deepEqual(await cellsWith(page, 'is-mistake'), []);
  await page.click('#check');
  await waitStatus(page, 'error', /^1 mistake/);
  assert.deepEqual(await cellsWith(page, 'is-mistake'), [idOf(b)]);
  await page.click('#erase');
  assert.equal((await grid(page))[b], '.');

  const r = await contrasts(page);
  console.log('     contrast: highlight ' + r.highlight.toFixed(2) + ':1, ring on cell ' + r.ringOnCell.toFixed(2) +
              ':1, on peers ' + r.ringOnPeer.toFixed(2) + ':1, on page ' + r.ringOnPage.toFixed(2) + ':1');

  // Half the blanks by the number pad, then a reload resumes the game.
  const half = blanks.slice(0, Math.floor(blanks.length / 2));
  for (const i of half) {
    await page.click('#' + idOf(i));
    await page.click('#pad-digits button:text-is("' + sol[i] + '")');
  }
  const later = blanks[half.length];
  await page.click('#' + idOf(later));
  await page.keyboard.press('Shift+2');
  await page.keyboard.press('Shift+7');
  const before = await grid(page);
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  await waitStatus(page, 'info', /resumed/);
  assert.equal(await grid(page), before, 'the reload resumed the game');
  assert.equal(await page.textContent('#mode'), 'Playing');
  assert.match(await label(page, idOf(given)), /given/, 'with its givens locked');
  assert.equal(await page.isDisabled('#undo'), false, 'and its undo history');
  assert.equal(await label(page, idOf(later)), rc(later) + ', empty, notes 2 7', 'and its notes');
  await axe(page, 'resumed after a reload');
  assert.match(await page.getAttribute('#share', 'href'), new RegExp('#p=' + puzzle.replace(/\./g, '\\.') + '$'));

  // A malformed save (another version of the page, a person) is dropped,
  // not drawn: a second tab finds one and starts empty, without an error.
  const tab = await page.context().newPage();
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.addInitScript(() => localStorage.setItem('sudokud.game.v1',
    JSON.stringify({ state: [['x'], 1, null], undo: ['{'] })));
  await tab.goto(base + '/');
  await tab.waitForSelector('body[data-probed="true"]');
  assert.equal(await grid(tab), '.'.repeat(81), 'a malformed save starts an empty board');
  assert.deepEqual(errors, []);
  await tab.close();
  await page.reload(); // this tab saves its game as it unloads
  await waitStatus(page, 'info', /resumed/);
  assert.equal(await grid(page), before);

  // The rest, then the game says it is won.
  for (const i of blanks.slice(half.length)) {
    await page.click('#' + idOf(i));
    await page.keyboard.press(sol[i]);
  }
  const st = await waitStatus(page, 'ok', /^Solved, well done/);
  assert.match(st.text, /Time \d+:\d\d\./);
  assert.equal(await grid(page), sol);
  assert.equal(await page.textContent('#mode'), 'Solved');
  assert.notEqual(gLook, pLook, 'givens and the player\'s digits differ in weight');
  await page.focus('#generate');
  await shot(page, 'game.png', false);
  await axe(page, 'game won');
  await page.finish();
});

test('the timer runs while the tab is visible and pauses while it is hidden', async () => {
  const page = await openPage();
  await page.clock.install();
  await load(page);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  assert.equal(await page.textContent('#timer'), '0:00');
  await page.clock.runFor(65000);
  assert.equal(await page.textContent('#timer'), '1:05');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.runFor(120000);
  assert.equal(await page.textContent('#timer'), '1:05', 'paused while hidden');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.clock.runFor(10000);
  assert.equal(await page.textContent('#timer'), '1:15', 'and runs on when shown');
  await page.finish();
});

test('a link with the puzzle in its fragment opens that puzzle', async () => {
  const page = await openPage();
  await page.goto(base + '/#p=' + EXAMPLE);
  await page.waitForSelector('#board[data-ready="true"]');
  await waitStatus(page, 'ok', /^Loaded a puzzle/);
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.textContent('#mode'), 'Playing');
  assert.equal(await page.getAttribute('#share', 'href'), base + '/#p=' + EXAMPLE);
  await page.finish();
});

test('a killer puzzle entered by paste and by drag, drawn and solved', async () => {
  const page = await openPage(DESKTOP);
  await load(page);
  const k = killerPuzzle();
  const dragged = ['13:74,75', '7:98,99'];
  const pasted = k.cages.filter((c) => !dragged.includes(c));
  assert.equal(pasted.length, k.cages.length - 2);
  // The service's cage problems are shown counting from 1, cells marked.
  await page.fill('#line', '.'.repeat(81) + '|3:11,12;12:12,22');
  await page.click('#load');
  let st = await waitStatus(page, 'error', /share a cell/);
  assert.equal(st.text, 'Cages 1 and 2 share a cell: r1c2.');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c01']);
  assert.equal(await page.textContent('#mode'), 'Entering a puzzle', 'a bad puzzle is not played');

  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await page.focus('#line');
  await page.evaluate((t) => navigator.clipboard.writeText(t), k.board + '|' + pasted.join(';') + '|ignored');
  await page.keyboard.press('Control+V');
  st = await waitStatus(page, 'ok', /^Loaded a killer puzzle/);
  assert.match(st.text, new RegExp('with ' + pasted.length + ' cages'));
  assert.equal((await cellsWith(page, 'cage-head')).length, pasted.length, 'one sum per cage');
  const sumOf = (id) => page.getAttribute('#' + id + ' .cage-sum', 'data-sum');
  assert.equal(await sumOf('c00'), '5');
  assert.equal(await page.$eval('#c00 .cage-sum', (e) => getComputedStyle(e, '::before').content), '"5"',
    'the sum is drawn');
  assert.match(await label(page, 'c00'), /, cage sum 5$/);
  const dash = await page.$eval('#c00', (e) => {
    const s = getComputedStyle(e, '::before');
    return [s.borderTopStyle, s.borderTopWidth, s.borderLeftWidth, s.borderBottomWidth];
  });
  assert.equal(dash[0], 'dashed', 'cages are dashed');
  assert.notEqual(dash[1], '0px', 'r1c1 has a top side');
  assert.equal(dash[3], '0px', 'and none below: r2c1 is in its cage');

  await page.click('#cage-mode');
  assert.equal(await page.getAttribute('#cage-mode', 'aria-pressed'), 'true');
  for (const c of dragged) {
    const [sum, cells] = c.split(':');
    await dragCage(page, cells.split(',').map((rc) => 'c' + (rc[0] - 1) + (rc[1] - 1)));
    await page.waitForSelector('#cage-form:not([hidden])');
    assert.equal(await page.textContent('#cage-count'), String(cells.split(',').length));
    await page.fill('#cage-sum', sum);
    await page.keyboard.press('Enter');
    await waitStatus(page, 'ok', new RegExp('^Cage added: .*sum ' + sum));
  }
  // By keyboard too: undo the last cage, then Space on each cell and the sum.
  await page.click('#undo');
  assert.equal((await cellsWith(page, 'cage-head')).length, k.cages.length - 1);
  await page.focus('#c87');
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  assert.deepEqual(await cellsWith(page, 'is-caging'), ['c87', 'c88']);
  await page.fill('#cage-sum', '7');
  await page.click('#cage-add');
  await waitStatus(page, 'ok', /^Cage added: 2 cells, sum 7/);
  await page.click('#cage-mode');
  assert.equal((await cellsWith(page, 'cage-head')).length, k.cages.length);
  assert.equal(await sumOf('c63'), '13');
  await page.focus('#solve');
  await shot(page, 'killer.png', false);
  await axe(page, 'killer cages');
  await page.click('#validate');
  st = await waitStatus(page, 'ok', /Valid/);
  await page.click('#solve');
  await waitStatus(page, 'ok', /^Solved/);
  assert.equal(await grid(page), k.solution, 'the solution of the data file');
  await axe(page, 'killer solved');
  await page.finish();
});

test('dark mode: by the system setting and by the toggle, contrast kept', async () => {
  const page = await openPage(Object.assign({ colorScheme: 'dark' }, DESKTOP));
  await load(page);
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'true');
  const dark = await bg(page, 'html');
  assert.ok(ratio(dark, 'rgb(0, 0, 0)') < 2, 'the page is dark: ' + dark);
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  await page.click('#hint');
  await waitStatus(page, 'ok', /^Hint/);
  const r = await contrasts(page);
  console.log('     dark contrast: highlight ' + r.highlight.toFixed(2) + ':1, ring on cell ' + r.ringOnCell.toFixed(2) +
              ':1, on peers ' + r.ringOnPeer.toFixed(2) + ':1, on page ' + r.ringOnPage.toFixed(2) + ':1');
  await page.focus('#theme');
  await shot(page, 'dark.png', false);
  await axe(page, 'dark');
  await page.click('#theme');
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'false');
  assert.ok(ratio(await bg(page, 'html'), 'rgb(255, 255, 255)') < 1.2, 'the toggle makes it light');
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.getAttribute('#theme', 'aria-pressed'), 'false', 'and is remembered');
  await page.finish();
});

test('on a 390x844 phone: number pad below the grid, play by touch, hint in view', async () => {
  const page = await openPage(PHONE);
  await load(page);
  await page.tap('#example');
  await waitStatus(page, 'ok', /Example/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, 'no sideways scrolling (scrollWidth ' + width + ')');
  const board = await page.locator('#board').boundingBox();
  const pad = await page.locator('#pad').boundingBox();
  assert.ok(board.x >= 0 && board.x + board.width <= 390, 'the grid fits the width');
  assert.ok(pad.y >= board.y + board.height, 'the pad is below the grid');
  assert.ok(pad.y + pad.height <= 844, 'and in view');
  for (const name of ['1', '9', 'Erase', 'Notes', 'Undo', 'Redo']) {
    const b = page.getByRole('button', { name: name, exact: true });
    const bb = await b.boundingBox();
    assert.ok(bb.height >= 44 && bb.width >= 32, name + ' is big enough to tap (' + bb.width + 'x' + bb.height + ')');
  }
  const cell = await page.locator('#c00').boundingBox();
  assert.ok(cell.width >= 32, 'cells stay big enough to tap (' + cell.width + ' px)');
  const blank = EXAMPLE.indexOf('.');
  await page.tap('#' + idOf(blank));
  await page.tap('#pad-digits button:text-is("' + SOLUTION[blank] + '")');
  assert.equal((await grid(page))[blank], SOLUTION[blank]);
  await page.tap('#undo');
  assert.equal((await grid(page))[blank], '.');
  await page.tap('#autofill');
  assert.match(await label(page, idOf(blank)), /, empty, notes( [1-9])+$/, 'Fill in notes writes candidates');
  assert.match(await label(page, idOf(blank)), new RegExp('notes .*' + SOLUTION[blank]));
  await page.tap('#undo');
  assert.match(await label(page, idOf(blank)), /, empty$/, 'and Undo takes them back');
  await page.tap('#hint');
  await waitStatus(page, 'ok', /^Hint/);
  assert.ok(await inView(page, '#status'), 'the hint\'s words are in view');
  assert.ok(await inView(page, '#' + (await cellsWith(page, 'is-hint'))[0]), 'and so is its cell');
  await shot(page, 'phone.png', false);
  await axe(page, 'phone');
  // A cage drawn with a finger: touch events through the debugging
  // protocol, as the touchscreen sends them (Playwright has only tap).
  await page.tap('#cage-mode');
  await page.evaluate(() => document.getElementById('board').scrollIntoView({ block: 'start' }));
  const scrolled = await page.evaluate(() => window.scrollY);
  const cdp = await page.context().newCDPSession(page);
  const centre = async (id) => {
    const b = await page.locator('#' + id).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const path3 = [await centre('c33'), await centre('c34'), await centre('c44')];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [path3[0]] });
  for (const p of path3.slice(1)) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
  assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'dragging over the grid does not scroll the page');
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.waitForSelector('#cage-form:not([hidden])');
  assert.deepEqual(await cellsWith(page, 'is-caging'), ['c33', 'c34', 'c44']);
  assert.equal(await focusedId(page), 'cage-sum', 'and the sum is asked for');
  await page.tap('#cage-cancel');
  await page.tap('#cage-mode');
  await page.setViewportSize({ width: 360, height: 740 });
  const w360 = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w360 <= 360, 'no sideways scrolling at 360 px (scrollWidth ' + w360 + ')');
  await page.finish();
});

/* ------------------------------------------------------------------------
 * Other sizes and variants, played in the one game grid
 * ------------------------------------------------------------------------ */

const DIGITS = '123456789ABCDEFGHIJKLMNOP';
const BOX_ROWS = { 4: 2, 6: 2, 8: 2, 9: 3, 12: 3, 16: 4, 25: 5 };
const JIGSAW9 = 'AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEEFFDDDEEFFFFDDDEEEFFF' +
  'GGGHHHIIIGGGHHHIIIGGGHHHIII';

// The box of cell i on an n x n board (boxes r x c, the wider side across).
const boxOfN = (n) => (i) => {
  const br = BOX_ROWS[n];
  const bc = n / br;
  return Math.floor(Math.floor(i / n) / br) * br + Math.floor((i % n) / bc);
};
// The page's cell id: c<row><column>, with a dash between them above 9x9.
const idN = (n, i) => 'c' + Math.floor(i / n) + (n > 9 ? '-' : '') + (i % n);

// Fails unless sol (n*n characters) fills every row, column and region of
// `regionOf` with n different digits and keeps the givens of puzzle.
function verifyVariant(n, puzzle, sol, regionOf) {
  const digits = DIGITS.slice(0, n);
  assert.equal(sol.length, n * n);
  for (let i = 0; i < n * n; i++) {
    assert.ok(digits.includes(sol[i]), 'cell ' + i + ' holds ' + sol[i]);
    if (puzzle[i] !== '.' && puzzle[i] !== '0') assert.equal(sol[i], puzzle[i].toUpperCase(), 'given ' + i + ' kept');
    for (let k = 0; k < i; k++) {
      const same = Math.floor(i / n) === Math.floor(k / n) || i % n === k % n || regionOf(i) === regionOf(k);
      if (same) assert.notEqual(sol[i], sol[k], 'cells ' + k + ' and ' + i);
    }
  }
}

async function solveBody(body) {
  const res = await fetch(base + '/solve', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  const s = (await res.json()).solution;
  return Array.isArray(s) ? s.join('') : s;
}

async function pick(page, size, rules) {
  if (size) await page.selectOption('#size', size);
  if (rules !== undefined) await page.selectOption('#rules', rules);
  const n = Number(await page.inputValue('#size'));
  await page.waitForFunction((k) => document.querySelectorAll('#board .cell').length === k, n * n);
  return n;
}

test('a 16x16 game: generated, a letter typed, a wrong digit\'s conflicts, solved by the API', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await load(page);
  const n = await pick(page, '16');
  assert.equal(n, 16);
  assert.equal(await page.$$eval('#board [role=row]', (e) => e.length), 16);
  assert.equal(await page.$$eval('#pad-digits button', (bs) => bs.map((b) => b.textContent).join('')),
    DIGITS.slice(0, 16), 'the pad has a button per digit, A-G above 9');
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new 16x16 puzzle with \d+ givens/);
  assert.equal(await page.textContent('#mode'), 'Playing 16x16');
  const puzzle = await grid(page);
  assert.equal(puzzle.length, 256);
  const box = boxOfN(16);
  const sol = await solveBody({ board: puzzle });
  verifyVariant(16, puzzle, sol, box);
  assert.equal(new URL(page.url()).hash, '#p=' + puzzle, 'the link carries the 256 characters');

  // A letter, typed in lower case, where the solution has one.
  const i = [...puzzle].findIndex((ch, k) => ch === '.' && sol[k] >= 'A');
  assert.ok(i >= 0);
  await page.click('#' + idN(16, i));
  await page.keyboard.press(sol[i].toLowerCase());
  assert.equal((await grid(page))[i], sol[i]);
  assert.deepEqual(await cellsWith(page, 'is-player'), [idN(16, i)]);
  assert.match(await label(page, idN(16, i)), new RegExp(', ' + sol[i] + '$'));
  await page.keyboard.press('x'); // not a digit of 16x16: ignored
  assert.equal((await grid(page))[i], sol[i]);

  // A wrong digit: one a given in its row already holds. The cells that
  // clash with it are those of its row, column and box holding the same.
  const j = [...puzzle].findIndex((ch, k) => ch === '.' && k !== i &&
    [...puzzle.slice(Math.floor(k / 16) * 16, Math.floor(k / 16) * 16 + 16)].some((g) => g !== '.'));
  const row = Math.floor(j / 16);
  const d = [...puzzle.slice(row * 16, row * 16 + 16)].find((g) => g !== '.');
  await page.click('#' + idN(16, j));
  await page.keyboard.press(d.toLowerCase());
  const board = [...(await grid(page))];
  assert.equal(board[j], d);
  const want = [idN(16, j)];
  for (let k = 0; k < 256; k++) {
    if (k !== j && board[k] === d && (Math.floor(k / 16) === row || k % 16 === j % 16 || box(k) === box(j))) {
      want.push(idN(16, k));
    }
  }
  await page.click('#validate');
  const st = await waitStatus(page, 'error', /breaks the rules/);
  assert.match(st.text, new RegExp(d + ' appears twice in row ' + (row + 1)));
  assert.deepEqual(await cellsWith(page, 'is-conflict'), want.sort());
  assert.equal(await page.getAttribute('#' + idN(16, j), 'aria-invalid'), 'true');
  await shot(page, 'variant-16.png');
  await axe(page, '16x16 conflict');

  await page.click('#solve');
  await waitStatus(page, 'ok', /^Solved/);
  assert.equal(await grid(page), sol, 'the solution the API gives, checked by the rules');
  assert.match(sol, /[A-G]/, 'letters for 10 and up');
  // A reload resumes the 16x16 game, size and all.
  await page.reload();
  await page.waitForSelector('#board[data-ready="true"]');
  assert.equal(await page.inputValue('#size'), '16');
  assert.equal(await grid(page), sol);
  assert.equal(await page.textContent('#mode'), 'Solved');

  // 25x25: the digits run to P, on the pad and in the puzzle.
  await pick(page, '25');
  assert.equal(await page.$$eval('#pad-digits button', (bs) => bs.length), 25);
  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new 25x25 puzzle/);
  const big = await grid(page);
  assert.equal(big.length, 625);
  assert.match(big, /^[1-9A-P.]+$/);
  await page.finish();
});

test('a jigsaw 9x9: region borders from the map, played; Hint and Grade disabled with a reason', async () => {
  await needs('/generate');
  const page = await openPage(DESKTOP);
  await load(page);
  assert.equal(await page.isEnabled('#hint'), true, 'a classic board has hints');
  await pick(page, '16');
  const n = await pick(page, null, 'jigsaw');
  assert.equal(n, 9, 'a jigsaw is 9x9');
  // A thick edge exactly where the region map changes, right and below.
  const look = await page.$$eval('#board .cell', (els) => els.map((e) => {
    const s = getComputedStyle(e);
    return [e.classList.contains('edge-r'), e.classList.contains('edge-b'), s.borderRightWidth, s.borderBottomWidth];
  }));
  for (let i = 0; i < 81; i++) {
    const r = Math.floor(i / 9);
    const c = i % 9;
    const right = c < 8 && JIGSAW9[i] !== JIGSAW9[i + 1];
    const below = r < 8 && JIGSAW9[i] !== JIGSAW9[i + 9];
    assert.deepEqual(look[i].slice(0, 2), [right, below], 'region edges of cell ' + i);
    if (c < 8) assert.equal(look[i][2], right ? '2px' : '1px', 'right border width of cell ' + i);
    if (r < 8) assert.equal(look[i][3], below ? '2px' : '1px', 'bottom border width of cell ' + i);
  }
  assert.match(await label(page, 'c04'), /^Row 1, column 5, region B, empty$/);

  // Hint, Grade, the solution path and cages: the service answers 422
  // unsupported_variant for them, so the page disables them and says why.
  const res = await fetch(base + '/hint', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ board: '.'.repeat(81), regions: JIGSAW9 }),
  });
  assert.equal(res.status, 422);
  assert.equal((await res.json()).code, 'unsupported_variant');
  for (const id of ['hint', 'grade', 'explain', 'cage-mode']) {
    assert.equal(await page.isDisabled('#' + id), true, id + ' is disabled');
  }
  assert.equal(await page.getAttribute('#hint', 'aria-describedby'), 'variant-note');
  assert.match(await page.textContent('#variant-note'), /classic 9x9/);
  assert.equal(await page.isVisible('#variant-note'), true);

  await page.click('#generate');
  await waitStatus(page, 'ok', /^A new 9x9, jigsaw regions puzzle with \d+ givens/);
  const puzzle = await grid(page);
  const sol = await solveBody({ board: puzzle, regions: JIGSAW9 });
  verifyVariant(9, puzzle, sol, (i) => JIGSAW9.charCodeAt(i) - 65);
  const link = new URL(page.url()).hash;
  assert.equal(link, '#p=' + puzzle + '&r=jigsaw', 'the link names the rule');
  // A correct digit typed, then the rest solved by the service.
  const i = puzzle.indexOf('.');
  await page.click('#c' + Math.floor(i / 9) + (i % 9));
  await page.keyboard.press(sol[i]);
  await page.click('#check');
  await waitStatus(page, 'ok', /^No mistakes so far/);
  await page.click('#solve');
  await waitStatus(page, 'ok', /^Solved/);
  assert.equal(await grid(page), sol);
  await shot(page, 'variant-jigsaw.png');
  await axe(page, 'jigsaw');

  // The shared link opens the same jigsaw elsewhere.
  const other = await openPage();
  await other.goto(base + '/' + link);
  await other.waitForSelector('#board[data-ready="true"]');
  await waitStatus(other, 'ok', /^Loaded a 9x9, jigsaw regions puzzle/);
  assert.equal(await other.inputValue('#rules'), 'jigsaw');
  assert.equal(await grid(other), puzzle);
  await other.finish();

  // Back to classic boxes: hints again.
  await page.click('#example');
  await waitStatus(page, 'ok', /Example/);
  assert.equal(await page.inputValue('#rules'), '');
  assert.equal(await page.isEnabled('#hint'), true);
  assert.equal(await page.isVisible('#variant-note'), false);
  await page.finish();
});

test('variant rules: diagonals and windows shaded, conflicts on a diagonal, a knight and a king', async () => {
  await needs('/validate');
  const page = await openPage();
  await load(page);
  // A digit clashing by each rule, typed while entering a puzzle; the
  // expected cells and words follow from the rule.
  const rounds = [
    { rules: 'diagonals', cells: [[0, 0], [8, 8]], re: /1 appears twice in the diagonal from the top left/ },
    { rules: 'anti_knight', cells: [[0, 0], [1, 2]], re: /1 is a knight's move from itself at r1c1 and r2c3/ },
    { rules: 'anti_king', cells: [[3, 3], [4, 4]], re: /1 is a diagonal step from itself at r4c4 and r5c5/ },
  ];
  for (const r of rounds) {
    await pick(page, '9', r.rules);
    await page.click('#clear');
    for (const [row, col] of r.cells) {
      await page.click('#c' + row + col);
      await page.keyboard.press('1');
    }
    await page.click('#validate');
    const st = await waitStatus(page, 'error', /breaks the rules/);
    assert.match(st.text, r.re, r.rules);
    assert.deepEqual(await cellsWith(page, 'is-conflict'), r.cells.map(([row, col]) => 'c' + row + col).sort(), r.rules);
  }
  await pick(page, '9', 'diagonals');
  const diag = [];
  for (let i = 0; i < 81; i++) if (Math.floor(i / 9) === i % 9 || Math.floor(i / 9) + i % 9 === 8) diag.push('c' + Math.floor(i / 9) + (i % 9));
  assert.deepEqual(await cellsWith(page, 'is-diag'), diag.sort(), 'the diagonals shaded');
  await pick(page, '9', 'windoku');
  const windows = [];
  for (let i = 0; i < 81; i++) if (Math.floor(i / 9) % 4 && (i % 9) % 4) windows.push('c' + Math.floor(i / 9) + (i % 9));
  assert.deepEqual(await cellsWith(page, 'is-extra'), windows.sort(), 'the four windows tinted');
  // 4x4: only 1-4 are digits.
  await pick(page, '4', '');
  await page.click('#c00');
  for (const k of ['5', 'a', '4']) await page.keyboard.press(k);
  assert.equal(await grid(page), '4' + '.'.repeat(15), '5 and A are not digits of 4x4');
  await axe(page, 'windoku and 4x4');
  await page.finish();
});

/* ------------------------------------------------------------------------
 * Runner
 * ------------------------------------------------------------------------ */

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  if (!fs.existsSync(BIN)) throw new Error(BIN + ' is missing: run make build/sudokud');
  if (!fs.existsSync(CHROMIUM)) throw new Error(CHROMIUM + ' is missing: apt-get install -y --no-install-recommends chromium');
  const port = await startServer();
  base = 'http://127.0.0.1:' + port;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const c of cases) {
    if (ONLY && !c.name.includes(ONLY)) continue;
    const t0 = Date.now();
    try {
      await c.fn();
      passed++;
      console.log('ok   ' + c.name + ' (' + (Date.now() - t0) + ' ms)');
    } catch (e) {
      if (e instanceof Skip) {
        skipped++;
        console.log('skip ' + c.name + ': ' + e.message);
        continue;
      }
      failed++;
      console.log('FAIL ' + c.name + '\n     ' + String(e && e.stack || e).split('\n').join('\n     '));
    }
  }
  return { passed, failed, skipped };
}

(async () => {
  let result = { passed: 0, failed: 1, skipped: 0 };
  try {
    result = await main();
  } catch (e) {
    console.log('FAIL setup: ' + (e && e.stack || e));
  } finally {
    if (browser) await browser.close().catch(() => {});
    await stopServer();
  }
  console.log('screenshots: ' + path.relative(ROOT, OUT) + '/{' + Array.from(shots).join(',') + '}');
  console.log('axe-core runs: ' + axeRuns + ', each with zero violations');
  console.log(result.passed + ' passed, ' + result.failed + ' failed' +
              (result.skipped ? ', ' + result.skipped + ' skipped' : ''));
  process.exit(result.failed ? 1 : 0);
})();
