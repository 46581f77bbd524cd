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

/** The source modules under src/ a run of the built CLI loaded. */
function sourcesLoaded(...args: string[]): string[] {
  const r = spawnSync(process.execPath, ['-r', hook, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_BASE_URL: 'https://shop.example.com', STORE_ADMIN_TOKEN: 'loading-token-0123456789' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const files = JSON.parse(/^LOADED (.*)$/m.exec(r.stderr)![1]!) as string[];
  return files
    // The bundler's own runtime has no map: it holds none of the tool's code.
    .filter((file) => /[\\/]dist[\\/].*\.cjs$/.test(file) && existsSync(`${file}.map`))
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
