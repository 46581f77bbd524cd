// Bundles the CLI and the library into dist/ as minified ESM with source maps. Lazy `import()`s
// become separate chunks, so each command loads only what it uses.
//   --types           also writes the library's declarations to dist/types (tsc, ~10 s)
//   --types-if-stale  only when a source file is newer than them (what the tests use)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
// dist/types is left alone: declarations are rebuilt only when asked for.
for (const name of ['cli.js', 'cli.js.map', 'index.js', 'index.js.map', 'chunks']) {
  await rm(new URL(`dist/${name}`, root), { recursive: true, force: true });
}

// Commander loads child_process for stand-alone executable subcommands, which this tool never
// has; loading it on first use instead saves about 10 ms on every start.
const deferChildProcess = {
  name: 'defer-child-process',
  setup(build) {
    build.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error('commander changed: revisit the child_process deferral in scripts/build.mjs');
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: process.env.STORE_ADMIN_NO_MINIFY !== "1",
  sourcemap: true,
  // Maps without the sources inlined: the package stays small, and stack traces still name our files.
  sourcesContent: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __STORE_ADMIN_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  plugins: [deferChildProcess],
  // A native module with a prebuilt binary per platform (optional dependencies): installed, never bundled.
  external: ['@napi-rs/keyring'],
  logLevel: 'warning',
});

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
