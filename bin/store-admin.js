#!/usr/bin/env node
// Node 22.1+ caches compiled code between runs; older versions simply skip it.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
