// test.js - the demo page in a real browser: Debian's chromium driven by
// playwright-core. Loads the cases in order (cases_page.js, cases_hints.js,
// cases_game.js, cases_killer.js, cases_look.js, cases_variant.js,
// cases_player.js; harness.js
// holds what they share), starts build/sudokud on a free port of 127.0.0.1,
// runs each case in a fresh browser context, saves screenshots under
// build/browser/, always stops the daemon, and ends with "N passed, N failed".
// Run it with `make test-browser`; `make test-browser CASE=text` runs the
// cases whose name contains text.
'use strict';

const { cases, Skip, start, stop, report } = require('./harness');

const ONLY = process.argv[2] || ''; // run the cases whose name contains this

for (const file of ['cases_page', 'cases_hints', 'cases_game', 'cases_killer', 'cases_look', 'cases_variant', 'cases_player']) {
  require('./' + file);
}

async function main() {
  await start();
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
    await stop();
  }
  report().forEach((line) => console.log(line));
  console.log(result.passed + ' passed, ' + result.failed + ' failed' +
              (result.skipped ? ', ' + result.skipped + ' skipped' : ''));
  process.exit(result.failed ? 1 : 0);
})();
