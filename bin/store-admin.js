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
 * A V8 setting for a bulk run or a long list, made here so that neither the library nor a test
 * worker inherits it. Other commands keep V8's defaults, which start them faster.
 */
function tuneForBulk() {
  const major = Number(process.versions.node.split('.')[0]);
  // A young generation that does not grow: 2,000 updates at --rate 0 (bench row 4) peak at 72 MB
  // instead of 90 MB, 8,000 at 87 instead of 123 MB (Node 20.20, 2026-11-26); 40,000 orders listed
  // with --all at 96 MB instead of 114 MB. Known to V8 in Node 20 to 26; a later V8 might not know
  // it and would say so on stderr.
  if (major <= 26) require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}
