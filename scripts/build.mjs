// Bundles the CLI and the library into dist/ as minified ESM with source maps. Lazy `import()`s
// become separate chunks, so each command loads only what it uses.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });

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
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __STORE_ADMIN_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  plugins: [deferChildProcess],
  logLevel: 'warning',
});
