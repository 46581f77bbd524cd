#!/usr/bin/env node
// CommonJS (see bin/package.json), as is the bundled CLI: Node loads CommonJS faster than ES modules.
'use strict';

const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Written straight to the file descriptor, nothing else loaded: making process.stdout would cost
  // ~2-3 ms of a 59 ms start (row 1 of npm run bench; 60 alternating runs, to a pipe and /dev/null).
  const version = `${require('../package.json').version}\n`;
  try {
    require('node:fs').writeSync(1, version);
  } catch (error) {
    // A full non-blocking pipe: the stream waits for it. A closed one has nothing to lose.
    if (error.code === 'EAGAIN') process.stdout.on('error', () => {}).write(version);
  }
} else {
  // Node 22.1+ caches compiled code between runs; older versions simply skip it.
  require('node:module').enableCompileCache?.();
  // A bulk run and a list followed page by page both pass thousands of records through.
  if (args.some((arg) => /^--(each|all|limit)(=|$)/.test(arg))) tuneForBulk();
  new Promise((resolve) => resolve(require('../dist/cli.cjs').main(args)))
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error) => {
      // Only a broken installation gets here: main() reports everything else itself.
      process.stderr.write(`store-admin: cannot start (${error && error.message}); reinstall the package\n`);
      process.exitCode = 1;
    });
}

/**
 * V8 settings for a bulk run or a long list, made here so that neither the library nor a test
 * worker inherits them. Other commands keep V8's defaults, which start them faster.
 */
function tuneForBulk() {
  const major = Number(process.versions.node.split('.')[0]);
  const v8 = require('node:v8');
  // A young generation that does not grow: 2,000 updates (bench row 4) peak at 62 MB instead of
  // 67-80 MB, and use ~3 % less CPU; 40,000 orders listed with --all at 96 MB instead of 114 MB. Known to V8 in Node 20 to 26; a later V8 might not know it
  // and would say so on stderr.
  if (major <= 26) v8.setFlagsFromString('--semi-space-growth-factor=1');
  // A bulk run is a short, hot loop, and Node 20's V8 (no Maglev) waits long before it compiles
  // hot code: a quarter of its default budget saves ~4 % of the CPU of those 2,000 updates; with the
  // flag above, the run takes ~17 % less time (0.79 against 0.95 s, medians of 10 alternating runs
  // on Node 20.20). Later V8s tier up sooner by themselves and no longer have the flag.
  if (major === 20) v8.setFlagsFromString('--interrupt-budget=16384');
}
