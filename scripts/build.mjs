// Bundles the CLI and the library into dist/ as minified ESM with source maps. Lazy `import()`s
// become separate chunks, so each command loads only what it uses.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  // Error classes report their names in JSON errors.
  keepNames: true,
  sourcemap: true,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __STORE_ADMIN_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  logLevel: 'warning',
});
