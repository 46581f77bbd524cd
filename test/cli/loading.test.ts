// Start-up does not grow with the table: the built CLI loads only the chunks a command needs, and a
// command of one group only that group's part of the generated table (its facts, fields, summaries
// and schemas). Which source modules a run loaded is read from the source maps of the chunks it
// required, as a require hook lists them on exit.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, useConfigDir } from './run.js';

const dir = useConfigDir();
const hook = join(dir, 'loaded.cjs');
writeFileSync(hook, "process.on('exit', () => process.stderr.write(`LOADED ${JSON.stringify(Object.keys(require.cache))}\\n`));\n");

/** The files of the built CLI a run loaded. */
function filesLoaded(...args: string[]): string[] {
  const r = spawnSync(process.execPath, ['-r', hook, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_BASE_URL: 'https://shop.example.com', STORE_ADMIN_TOKEN: 'loading-token-0123456789' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(/^LOADED (.*)$/m.exec(r.stderr)![1]!) as string[]).filter((file) => /[\\/]dist[\\/].*\.cjs$/.test(file));
}

/** The source modules under src/ a run of the built CLI loaded. */
function sourcesLoaded(...args: string[]): string[] {
  return filesLoaded(...args)
    // The bundler's own runtime has no map: it holds none of the tool's code.
    .filter((file) => existsSync(`${file}.map`))
    .flatMap((file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources)
    .filter((source) => source.includes('src/'))
    .map((source) => source.slice(source.indexOf('src/')));
}

/** The groups of the generated table (and their summaries) among the sources. */
const groupsIn = (sources: string[]) => [...new Set(sources.flatMap((s) => /^src\/api\/(?:generated|summaries)\/([^/]+)\/?(?:[^/]*)$/.exec(s)?.[1] ?? []))].filter((g) => !g.endsWith('.ts')).sort();
const summariesIn = (sources: string[]) => sources.filter((s) => s.startsWith('src/api/summaries/') && !s.endsWith('index.ts'));

describe('what a run loads', () => {
  it('--version loads nothing of the tool', () => {
    expect(sourcesLoaded('--version')).toEqual([]);
  });

  it('--help loads no part of the table', () => {
    const sources = sourcesLoaded('--help');
    expect(sources.filter((s) => s.startsWith('src/api/generated/') || s.startsWith('src/api/summaries/'))).toEqual([]);
  });

  it('a command of the table reads about ten files, not one per module', () => {
    // Node resolves, reads and wraps each file on its own: what building a command and sending its
    // request need is bundled into two chunks (scripts/build.mjs), beside the entry and the group's own.
    for (const args of [['categories', 'get', '1', '--dry-run'], ['orders', 'list', '--status', 'open', '--dry-run']]) {
      expect(filesLoaded(...args).length, args.join(' ')).toBeLessThanOrEqual(14);
    }
  });

  it.each([
    ['orders', ['orders', 'list', '--status', 'open', '--dry-run']],
    ['products', ['products', 'variants', 'get', '7', '--dry-run']],
    ['customers', ['customers', 'notes', 'create', '1', '--message', 'hi', '--dry-run']],
  ])('a command of %s loads only its own group of the table', (group, args) => {
    const sources = sourcesLoaded(...args);
    expect(groupsIn(sources)).toEqual([group]);
    expect(summariesIn(sources)).toEqual([`src/api/summaries/${group}.ts`]);
    expect(sources).toContain(`src/api/generated/${group}/schemas.ts`);
  });
});
