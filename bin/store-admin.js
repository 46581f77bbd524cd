#!/usr/bin/env node
// CommonJS (see bin/package.json), so that `--version` starts without the ES module loader.
'use strict';

const args = process.argv.slice(2);

// A reader that stops early (`| head`, `| grep -q`) closes the pipe: that ends the run, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Node 22.1+ caches compiled code between runs; older versions simply skip it.
  require('node:module').enableCompileCache?.();
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
