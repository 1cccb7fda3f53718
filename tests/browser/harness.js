// harness.js - what every browser case shares: starts build/sudokud on a free
// port of 127.0.0.1 and chromium (playwright-core), and always stops the
// daemon; opens each case's page in a fresh browser context that fails the
// case on any Content-Security-Policy violation, script error or request to
// another origin; the helpers that read and drive the grid, screenshots under
// build/browser/, axe-core checks and contrast ratios; and the list of cases
// (test(), needs(), Skip) that the cases_*.js files fill and test.js runs.
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

const EXAMPLE =
  '9.7.....6824.3......1..9..2.9...2.18...4....5' +
  '1325.8......687.........8.9.4.9...5.';
const SOLUTION =
  '957214386824736591361859742495372618786491235' +
  '132568974519687423273145869648923157';

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
let origin = ''; // http://127.0.0.1:<port>, once the daemon listens
const base = () => origin;

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
    if (!req.url().startsWith(origin + '/')) trouble.push('request to another origin: ' + req.url());
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

// The older cases test the page as a tool: they start from an empty board
// being entered (a saved game of that, written once, before the first
// load) with the tools section open. A player's arrival, with a puzzle
// waiting, is arrive() below.
const EMPTY_SAVE = JSON.stringify({
  state: [Array(81).fill(''), Array(81).fill(''), Array(81).fill(''), Array(81).fill(0), [], false, '', false, 9, ''],
  elapsed: 0, active: 0, autoCheck: false, undo: [], redo: [],
});
async function load(page) {
  await page.addInitScript((save) => {
    if (!localStorage.getItem('sudokud.game.v1')) localStorage.setItem('sudokud.game.v1', save);
  }, EMPTY_SAVE);
  const resp = await page.goto(origin + '/');
  await page.waitForSelector('#board[data-ready="true"]');
  await page.waitForSelector('body[data-probed="true"]');
  await openTools(page);
  return resp;
}

// Opens the tools section (closed on arrival) by its summary.
async function openTools(page) {
  const tools = page.getByRole('group').filter({ has: page.locator('summary') });
  if (!(await page.evaluate(() => document.querySelector('details').open))) {
    await page.locator('summary').click();
  }
  void tools;
}

// A first visit as a player makes it: nothing saved, a puzzle generated.
async function arrive(page) {
  const resp = await page.goto(origin + '/');
  await page.waitForSelector('#board[data-ready="true"]');
  await page.waitForFunction(() => /^Playing/.test(document.getElementById('mode').textContent));
  return resp;
}

// Answers the page's confirm dialog with the button named `name`.
async function confirmWith(page, name) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: name }).click();
  await dialog.waitFor({ state: 'hidden' });
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
  const res = await fetch(origin + p, { method: 'OPTIONS' });
  return res.status !== 404;
}

// POSTs body as JSON to the daemon; resolves to the response.
const post = (p, body) => fetch(origin + p, {
  method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});

// The daemon's /solve answer to body, as one string of digits.
async function solveBody(body) {
  const res = await post('/solve', body);
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
  // The shading is deliberately light (issue 31: the old 3:1 mid-blue was
  // heavy): told apart from a plain cell, never as dark as the digits.
  assert.ok(r.highlight >= 1.1 && r.highlight <= 1.6, 'highlight contrast ' + r.highlight.toFixed(2) + ':1 is not light');
  for (const [k, v] of Object.entries(r)) if (k !== 'highlight') assert.ok(v >= 3, k + ' contrast ' + v.toFixed(2) + ':1 is under 3:1');
  return r;
}

async function inView(page, sel) {
  const box = await page.locator(sel).boundingBox();
  const vp = page.viewportSize();
  return box && box.y >= 0 && box.y + box.height <= vp.height && box.x >= 0 && box.x + box.width <= vp.width;
}

/* ------------------------------------------------------------------------
 * The cases
 * ------------------------------------------------------------------------ */

// The cases in the order they are registered; test.js runs them.
const cases = [];
const test = (name, fn) => cases.push({ name, fn });
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

// A case that needs an endpoint the daemon answers 404 for is skipped.
class Skip extends Error {}
async function needs(p) {
  if (!(await serverHas(p))) throw new Skip(p + ' answers 404');
}

/* ------------------------------------------------------------------------
 * Start and stop
 * ------------------------------------------------------------------------ */

// Starts the daemon on a free port and launches chromium.
async function start() {
  fs.mkdirSync(OUT, { recursive: true });
  if (!fs.existsSync(BIN)) throw new Error(BIN + ' is missing: run make build/sudokud');
  if (!fs.existsSync(CHROMIUM)) throw new Error(CHROMIUM + ' is missing: apt-get install -y --no-install-recommends chromium');
  const port = await startServer();
  origin = 'http://127.0.0.1:' + port;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// Closes the browser, if it started, and stops the daemon.
async function stop() {
  if (browser) await browser.close().catch(() => {});
  await stopServer();
}

// The lines printed before the summary: the screenshots taken and the axe runs.
function report() {
  return ['screenshots: ' + path.relative(ROOT, OUT) + '/{' + Array.from(shots).join(',') + '}',
    'axe-core runs: ' + axeRuns + ', each with zero violations'];
}

module.exports = {
  ROOT, EXAMPLE, SOLUTION, DESKTOP, PHONE,
  cases, test, Skip, needs, start, stop, report,
  base, post, solveBody, serverHas, openPage, load, arrive, openTools, confirmWith, shot, axe,
  grid, cellsWith, focusedId, label, idOf, waitStatus,
  ratio, bg, contrasts, inView,
};
