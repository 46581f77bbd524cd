// Bundles the CLI and the library into dist/, minified, with source maps:
//   dist/cli.cjs (+ dist/cli/*.cjs)   the CLI, as CommonJS: Node loads a CommonJS file several
//                                     times faster than an ES module, and a command loads a few
//                                     dozen of them; each lazy `import()` becomes a chunk, so a
//                                     command loads only what it uses
//   dist/index.js (+ dist/lib/*.js)   the library, as ES modules
//   --types           also writes the library's declarations to dist/types (tsc, ~10 s)
//   --types-if-stale  only when a source file is newer than them (what the tests use)
// Rolldown rather than esbuild: esbuild splits code into chunks only for ES modules.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { rolldown } from 'rolldown';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
// dist/types is left alone: declarations are rebuilt only when asked for.
for (const name of ['cli.cjs', 'cli.cjs.map', 'cli', 'index.js', 'index.js.map', 'lib']) {
  await rm(new URL(`dist/${name}`, root), { recursive: true, force: true });
}

// Commander loads child_process for stand-alone executable subcommands, which this tool never
// has; loading it on first use instead saves about 10 ms on every start.
const deferChildProcess = {
  name: 'defer-child-process',
  load: {
    filter: { id: /commander[\\/]lib[\\/]command\.js$/ },
    async handler(id) {
      const source = await readFile(id, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error('commander changed: revisit the child_process deferral in scripts/build.mjs');
      return source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };");
    },
  },
};

const input = {
  platform: 'node',
  cwd: new URL('.', root).pathname,
  transform: { target: 'node20.19', define: { __STORE_ADMIN_VERSION__: JSON.stringify(pkg.version) } },
  // Installed beside the package, never bundled: a native module with a prebuilt binary per
  // platform (optional dependencies), and undici, which only a proxy or a program's own dispatcher
  // loads (src/api/transport.ts), and which is then the very copy the program uses.
  external: ['@napi-rs/keyring', 'undici'],
  logLevel: 'warn',
};
const output = {
  minify: process.env.STORE_ADMIN_NO_MINIFY !== '1',
  // Maps without the sources inlined: the package stays small, and stack traces still name our files.
  sourcemap: true,
  sourcemapExcludeSources: true,
  comments: { legal: false },
};

// A command of the table needs some thirty small modules after the entry; Node resolves, reads and
// wraps each file on its own, so they are bundled into two chunks (docs/performance.md, row 3):
// - building the command, which the help topics also load, as they list every command;
// - checking and sending its request: zod, the profile, the HTTP core, which help never loads
//   (help loads no network module: test/cli/stdout.test.ts).
// Each group of the generated table stays in its own chunks: a command loads only its own.
const commandModules = /[\\/]src[\\/](?:commands[\\/](?:table-commands|define|nouns|confirm-text)|fields[\\/][^\\/]+|run[\\/](?:body|list-flags|bulk[\\/]flags)|polling|capped-body|output[\\/]redact|api[\\/](?:url|retry|redaction|python-json|json-syntax|operations|refinements|generated[\\/]index|summaries[\\/]index))\.ts$/;
const requestModules =
  /[\\/](?:node_modules[\\/]zod[\\/](?:mini|v4[\\/](?:core|mini))[\\/]|src[\\/](?:connect|api[\\/](?:attempt|client|grouped|http|wire|proxy|json-depth|prepare|request-builder|retry-loop|validate|scopes|schemas[\\/](?:path-values|web-address)|generated[\\/]components)|config[\\/](?:paths|profiles|resolve|token)|run[\\/](?:auth-hint|confirm|operation|prepare-input|record-change|spec))\.ts$)/;

// The entry may hold modules that chunks share: what every command loads at start is then one file.
const cli = await rolldown({ ...input, input: { cli: 'src/cli.ts' }, preserveEntrySignatures: 'allow-extension', plugins: [deferChildProcess] });
await cli.write({
  ...output,
  dir: 'dist',
  format: 'cjs',
  entryFileNames: '[name].cjs',
  chunkFileNames: 'cli/[name]-[hash].cjs',
  // What every command loads at start (Commander, the root command, the error printer) is one
  // file rather than a dozen small ones; so is what a command of the table loads after it.
  codeSplitting: {
    groups: [
      { name: 'cli', tags: ['$initial'], priority: 3 },
      { name: 'command', test: commandModules, priority: 2 },
      { name: 'request', test: requestModules, priority: 1 },
    ],
  },
});
await cli.close();

const library = await rolldown({ ...input, input: { index: 'src/index.ts' } });
await library.write({ ...output, dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'lib/[name]-[hash].js' });
await library.close();

const typesEntry = new URL('dist/types/index.d.ts', root);
const newestSource = (dir) =>
  Math.max(...readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => statSync(`${e.parentPath ?? e.path}/${e.name}`).mtimeMs));
const typesStale = () => {
  try {
    return statSync(typesEntry).mtimeMs < newestSource(new URL('src', root).pathname);
  } catch {
    return true;
  }
};

if (process.argv.includes('--types') || (process.argv.includes('--types-if-stale') && typesStale())) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
