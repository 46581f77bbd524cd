#!/usr/bin/env node
// CommonJS (see bin/package.json), so that `--version` starts without the ES module loader.
'use strict';

const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Node 22.1+ caches compiled code between runs; older versions simply skip it.
  require('node:module').enableCompileCache?.();
  // undici parses HTTP with a WebAssembly build of llhttp. V8 would optimise that module again in
  // the background and hold the process ~150 ms at exit for it; the baseline compiler suffices.
  require('node:v8').setFlagsFromString('--liftoff-only');
  import('../dist/cli.js').then(async ({ main }) => {
    process.exitCode = await main(args);
  });
}
