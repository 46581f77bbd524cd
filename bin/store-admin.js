#!/usr/bin/env node
// CommonJS (see bin/package.json), so that `--version` starts without the ES module loader.
'use strict';

const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Nothing else is set up: stderr is never touched, and a closed pipe has nothing to lose.
  process.stdout.on('error', () => {});
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // A reader that stops early (`| head`, `| grep -q`) closes the pipe: that ends the run, quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      // A run listening for interrupts (a bulk run) ends itself on EPIPE, recording what it did.
      if (error.code === 'EPIPE' && stream.listenerCount('error') > 1) return;
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  // Node 22.1+ caches compiled code between runs; older versions simply skip it.
  require('node:module').enableCompileCache?.();
  tuneV8();
  import('../dist/cli.js')
    .then(async ({ main }) => {
      process.exitCode = await main(args);
    })
    .catch((error) => {
      // Only a broken installation gets here: main() reports everything else itself.
      process.stderr.write(`store-admin: cannot start (${error && error.message}); reinstall the package\n`);
      process.exitCode = 1;
    });
}

/**
 * V8 settings for this short-lived process, made here so that neither the library nor a test
 * worker inherits them: a growing young generation buys nothing, since bulk runs peak near 65 MB.
 */
function tuneV8() {
  // Known to V8 in Node 20 to 26; a later V8 might not know it and would say so on stderr.
  if (Number(process.versions.node.split('.')[0]) > 26) return;
  require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}
