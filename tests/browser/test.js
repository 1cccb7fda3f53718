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
const OPTIONAL = ['/validate', '/hint', '/grade', '/generate'];

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

const grid = (page) => page.$$eval('#board input', (els) => els.map((e) => e.value || '.').join(''));
const cellsWith = (page, cls) =>
  page.$$eval('#board .cell.' + cls + ' input', (els) => els.map((e) => e.id).sort());
const focusedId = (page) => page.evaluate(() => document.activeElement && document.activeElement.id);
const statusOf = async (page) => ({
  cls: await page.getAttribute('#status', 'class'),
  text: (await page.textContent('#status')).trim(),
});

async function waitStatus(page, kind) {
  await page.waitForSelector('#status.status--' + kind);
  return statusOf(page);
}

async function shot(page, name, fullPage) {
  const file = path.join(OUT, name);
  await page.screenshot({ path: file, fullPage: fullPage !== false });
  return file;
}

async function serverHas(p) {
  const res = await fetch(base + p, { method: 'OPTIONS' });
  return res.status !== 404;
}

/* ------------------------------------------------------------------------
 * Cases
 * ------------------------------------------------------------------------ */

const cases = [];
const test = (name, fn) => cases.push({ name, fn });

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
  for (const [p, type] of [['/app.js', /^text\/javascript/], ['/app.css', /^text\/css/]]) {
    const r = await fetch(base + p);
    assert.equal(r.status, 200, p);
    assert.match(r.headers.get('content-type'), type, p);
    assert.equal(r.headers.get('content-security-policy'), CSP, p);
  }
  // After the script ran: still nothing inline for the CSP to forbid.
  const inline = await page.evaluate(() =>
    document.querySelectorAll('script:not([src]), style, [style]').length);
  assert.equal(inline, 0, 'inline script, <style> or style attributes');
  assert.equal(await page.title(), 'sudokud: Sudoku solver');
  await page.finish();
});

test('types the example with the keyboard, Solve shows the known solution', async () => {
  const page = await openPage();
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
  // Solved digits differ from the givens in colour and in weight.
  const look = (id) => page.$eval('#' + id, (e) => {
    const s = getComputedStyle(e);
    return { color: s.color, weight: s.fontWeight };
  });
  const g = await look(givens[0]);
  const s = await look(solved[0]);
  assert.notEqual(g.color, s.color, 'solved digits have their own colour');
  assert.notEqual(g.weight, s.weight, 'and their own weight');
  assert.match(await page.getAttribute('#' + solved[0], 'aria-label'), /solved$/);
  await page.focus('#solve'); // no focus ring in the picture
  await shot(page, 'solved.png');
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
  assert.equal(await page.inputValue('#c12'), '5');
  assert.equal(await focusedId(page), 'c13', 'a digit moves on');
  await page.keyboard.press('x');
  assert.equal(await page.inputValue('#c13'), '', 'letters are ignored');
  await page.keyboard.press('Backspace');
  assert.equal(await focusedId(page), 'c12', 'Backspace on a blank goes back');
  assert.equal(await page.inputValue('#c12'), '', 'and erases');
  await page.keyboard.press('7');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  assert.equal(await page.inputValue('#c12'), '', 'Backspace on a digit erases it');
  assert.equal(await focusedId(page), 'c12', 'and stays');
  await page.keyboard.press('End');
  assert.equal(await focusedId(page), 'c18');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedId(page), 'c18', 'the edge stops');
  await page.keyboard.press('Home');
  assert.equal(await focusedId(page), 'c10');
  await page.keyboard.press('Control+End');
  assert.equal(await focusedId(page), 'c88');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedId(page), 'c88');
  const tabbable = await page.$$eval('#board input', (els) => els.filter((e) => e.tabIndex === 0).map((e) => e.id));
  assert.deepEqual(tabbable, ['c88'], 'one tab stop in the grid (roving tabindex)');
  await page.keyboard.press('Tab');
  assert.equal(await focusedId(page), 'solve', 'Tab leaves the grid for Solve');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focusedId(page), 'c88', 'and Shift+Tab comes back to the same cell');
  // The grid is described for assistive technology.
  assert.equal(await page.getAttribute('#board', 'role'), 'grid');
  assert.equal(await page.$$eval('#board [role=row]', (e) => e.length), 9);
  assert.equal(await page.$$eval('#board [role=gridcell]', (e) => e.length), 81);
  assert.equal(await page.getAttribute('#c34', 'aria-label'), 'Row 4, column 5');
  await page.finish();
});

test('a conflicting digit: Solve gets 422 conflict and the cells are marked', async () => {
  const page = await openPage();
  await load(page);
  await page.click('#example');
  assert.equal(await grid(page), EXAMPLE);
  await page.click('#c01');
  await page.keyboard.press('9'); // 9 is at [0,0] and [3,1] already
  await page.click('#solve');
  const st = await waitStatus(page, 'error');
  assert.deepEqual(await cellsWith(page, 'is-conflict'), ['c00', 'c01', 'c31']);
  for (const id of ['c00', 'c01', 'c31']) {
    assert.equal(await page.getAttribute('#' + id, 'aria-invalid'), 'true', id);
    assert.match(await page.getAttribute('#' + id, 'aria-label'), /conflict$/, id);
  }
  assert.match(st.text, /9 appears twice in row 1/);
  assert.match(st.text, /9 appears twice in column 2/);
  assert.match(st.text, /9 appears twice in the top left box/);
  // Not by colour alone: the marked cells have a pattern and an outline.
  const look = await page.$eval('#c01', (e) => {
    const s = getComputedStyle(e.parentElement);
    return s.backgroundImage + ' | ' + s.boxShadow;
  });
  assert.match(look, /repeating-linear-gradient/);
  assert.match(look, /inset/);
  await page.focus('#solve');
  await shot(page, 'conflict.png');
  // Fixing the cell clears the marks.
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
  await paste('9' + EXAMPLE); // 82 characters
  let st = await waitStatus(page, 'error');
  assert.match(st.text, /That line has 82 characters .*exactly 81/);
  assert.equal(await page.getAttribute('#line', 'aria-invalid'), 'true');
  assert.equal(await grid(page), '.'.repeat(81), 'nothing was loaded');
  await shot(page, 'error.png');

  await paste(EXAMPLE.slice(0, 40) + 'x' + EXAMPLE.slice(41));
  st = await waitStatus(page, 'error');
  assert.match(st.text, /Character 41 of the line, “x” \(row 5, column 5\), is not allowed/);

  // Spaces between the rows are fine; a good line is loaded.
  await paste(EXAMPLE.match(/.{9}/g).join(' '));
  st = await waitStatus(page, 'ok');
  assert.equal(st.text, 'Loaded a puzzle with ' + EXAMPLE.replace(/\./g, '').length + ' givens.');
  assert.equal(await grid(page), EXAMPLE);
  assert.equal(await page.getAttribute('#line', 'aria-invalid'), null);

  // Typing a line and pressing Load works as well.
  await page.click('#clear');
  await page.fill('#line', '12345678');
  await page.click('#load');
  st = await waitStatus(page, 'error');
  assert.match(st.text, /has 8 characters/);
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
  st = await waitStatus(page, 'error');
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
  assert.equal(await grid(page), EXAMPLE);
  await page.click('#solve');
  await waitStatus(page, 'ok');
  await page.click('#clear');
  assert.equal(await grid(page), '.'.repeat(81));
  assert.equal(await page.inputValue('#line'), '');
  assert.deepEqual(await cellsWith(page, 'is-solved'), []);
  await page.finish();
});

test('Validate, Hint, Grade, Generate: shown when the server has them, hidden on 404', async () => {
  const page = await openPage();
  await load(page);
  for (const p of OPTIONAL) {
    const has = await serverHas(p);
    const sel = p === '/generate' ? '#generate-group' : '#' + p.slice(1);
    assert.equal(await page.isVisible(sel), has, p + (has ? ' exists: its button shows' : ' is 404: its button is hidden'));
  }
  await page.finish();
});

// Thrown by a case whose endpoint the server does not have (yet).
class Skip extends Error {}
async function needs(p) {
  if (!(await serverHas(p))) throw new Skip(p + ' answers 404');
}

// A puzzle whose first logical step only rules candidates out (a claiming
// in row 1 / box 2, 0-based): the page must place the digit it leads to.
const ELIMINATION_FIRST =
  '1........6.392...1.....13..478.159..5.9......3.289...4834572619..61834..751..9238';

test('Validate: a good puzzle, a conflict, and two solutions', async () => {
  await needs('/validate');
  const page = await openPage();
  await load(page);
  await page.click('#example');
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
  st = await waitStatus(page, 'error');
  assert.match(st.text, /more than one solution/);
  await page.finish();
});

test('Hint: places the next digit, says why counting from 1', async () => {
  await needs('/hint');
  const page = await openPage();
  await load(page);
  await page.click('#example');
  await page.click('#hint');
  let st = await waitStatus(page, 'ok');
  const hinted = await cellsWith(page, 'is-hint');
  assert.equal(hinted.length, 1);
  const id = hinted[0];
  const i = Number(id[1]) * 9 + Number(id[2]);
  assert.equal(await page.inputValue('#' + id), SOLUTION[i], 'the hint is the solution\'s digit');
  assert.equal(await focusedId(page), id, 'focus goes to the hinted cell');
  assert.match(await page.getAttribute('#' + id, 'aria-label'), /hint$/);
  assert.match(st.text, new RegExp('^Hint \\([a-z ,-]+\\): ' + SOLUTION[i] + ' goes in row ' +
    (Number(id[1]) + 1) + ', column ' + (Number(id[2]) + 1) + '\\. '));
  assert.doesNotMatch(st.text, /\[\d,\d\]/, 'no 0-based [r,c] left in the words');

  // A step that only eliminates: the digit it leads to is placed, and the
  // cells of the pattern are outlined.
  await page.click('#clear');
  await page.fill('#line', ELIMINATION_FIRST);
  await page.click('#load');
  await page.click('#hint');
  st = await waitStatus(page, 'ok');
  assert.equal((await cellsWith(page, 'is-hint')).length, 1);
  assert.ok((await cellsWith(page, 'is-pattern')).length >= 2, 'the pattern is outlined');
  assert.match(st.text, /see the outlined cells\): .* After that(.*)?, \d goes in row \d, column \d \(.+\)\.$/);
  assert.match(st.text, /In row 2, 5 can only go in r2c7 and r2c8, all of them in box 3/);
  await page.focus('#hint');
  await shot(page, 'hint.png');
  await page.finish();
});

test('Grade and Generate', async () => {
  await needs('/grade');
  await needs('/generate');
  const page = await openPage();
  await load(page);
  await page.click('#example');
  await page.click('#grade');
  let st = await waitStatus(page, 'ok');
  assert.match(st.text, /^This puzzle is (easy|medium|hard|expert|extreme)\./);
  assert.ok(await page.isVisible('#difficulty'));
  assert.equal(await page.textContent('label[for=difficulty]'), 'Difficulty');
  await page.selectOption('#difficulty', 'easy');
  await page.click('#generate');
  st = await waitStatus(page, 'ok');
  assert.match(st.text, /^A new easy puzzle with \d+ givens\./);
  const puzzle = await grid(page);
  assert.ok(puzzle.replace(/\./g, '').length >= 17, 'a generated puzzle has givens');
  await page.click('#solve');
  await waitStatus(page, 'ok');
  assert.doesNotMatch(await grid(page), /\./, 'and Solve fills it');
  await page.finish();
});

test('on a 375x667 phone screen the page fits and works', async () => {
  const page = await openPage({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await load(page);
  await page.tap('#example');
  await page.tap('#solve');
  await waitStatus(page, 'ok');
  assert.equal(await grid(page), SOLUTION);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, 'no sideways scrolling (scrollWidth ' + width + ')');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, 'the grid fits the width');
  const cell = await page.locator('#c00').boundingBox();
  assert.ok(cell.width >= 32, 'cells stay big enough to tap (' + cell.width + ' px)');
  for (const b of await page.$$('.actions button:visible')) {
    const bb = await b.boundingBox();
    assert.ok(bb.height >= 44, 'buttons are 44 px tall at least');
    assert.ok(bb.x + bb.width <= 375, 'buttons fit the width');
  }
  await shot(page, 'phone.png');
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
  console.log('screenshots: ' + path.relative(ROOT, OUT) + '/{solved,conflict,error,hint,phone}.png');
  console.log(result.passed + ' passed, ' + result.failed + ' failed' +
              (result.skipped ? ', ' + result.skipped + ' skipped' : ''));
  process.exit(result.failed ? 1 : 0);
})();
