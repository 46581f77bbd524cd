// The output layer owns the process's streams: one module (src/output/stream.ts) reaches for
// process.stdout and process.stderr, so a closed pipe has one rule and every write one owner.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the process streams', () => {
  it('are reached for by src/output/stream.ts alone', () => {
    const reaching = sourceFiles(SRC)
      .filter((file) => file !== join(SRC, 'output', 'stream.ts'))
      .filter((file) => /\bprocess\.(stdout|stderr)\b/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')))
      .map((file) => relative(SRC, file));
    expect(reaching).toEqual([]);
  });
});
