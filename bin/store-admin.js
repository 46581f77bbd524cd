#!/usr/bin/env node
// CommonJS (see bin/package.json), as is the bundled CLI: Node loads CommonJS faster than ES modules.
'use strict';

const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Written straight to the file descriptor: setting up process.stdout costs more than the rest.
  // Nothing else is set up: stderr is never touched, and a closed pipe has nothing to lose.
  const version = `${require('../package.json').version}\n`;
  try {
    require('node:fs').writeSync(1, version);
  } catch (error) {
    // A full non-blocking pipe: the stream waits for it. A closed one has nothing to lose.
    if (error.code === 'EAGAIN') process.stdout.on('error', () => {}).write(version);
  }
} else {
  // A reader that stops early (`| head`, `| grep -q`) closes the pipe: that ends the run, quietly.
  // Each stream is given this when first used: making one costs a command ~1.5 ms it may not need.
  for (const name of ['stdout', 'stderr']) {
    const made = Object.getOwnPropertyDescriptor(process, name);
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: made.enumerable,
      get() {
        const stream = made.get.call(process);
        Object.defineProperty(process, name, made);
        stream.on('error', (error) => {
          // A run listening for interrupts (a bulk run) ends itself on EPIPE, recording what it did.
          if (error.code === 'EPIPE' && stream.listenerCount('error') > 1) return;
          if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
          throw error;
        });
        return stream;
      },
    });
  }
  // Node 22.1+ caches compiled code between runs; older versions simply skip it.
  require('node:module').enableCompileCache?.();
  if (args.some((arg) => arg === '--each' || arg.startsWith('--each='))) tuneForBulk();
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
 * V8 settings for a bulk run, made here so that neither the library nor a test worker inherits
 * them. Other commands keep V8's defaults, which start them faster.
 */
function tuneForBulk() {
  const major = Number(process.versions.node.split('.')[0]);
  const v8 = require('node:v8');
  // A young generation that does not grow keeps thousands of requests near 65 MB at the same
  // speed. Known to V8 in Node 20 to 26; a later V8 might not know it and would say so on stderr.
  if (major <= 26) v8.setFlagsFromString('--semi-space-growth-factor=1');
  // A bulk run is a short, hot loop, and Node 20's V8 (no Maglev) waits long before it compiles
  // hot code: a quarter of its default budget makes 2,000 requests take ~25 % less time. Later
  // V8s tier up sooner by themselves and no longer have the flag.
  if (major === 20) v8.setFlagsFromString('--interrupt-budget=16384');
}
