// The committed operation table (src/api/generated/) against the platform's published reference:
// scripts/generate-operations.mjs --check regenerates it in memory and compares file by file, both
// ways. Skipped, saying so, when ../shared/reference is not beside the repository.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_PRESENT } from '../sandbox/reference-answers.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../scripts/generate-operations.mjs', import.meta.url));
const GENERATED = fileURLToPath(new URL('../../src/api/generated/', import.meta.url));

/** The check's exit status and what it said, run against `out` (the committed files by default). */
async function check(out?: string): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [SCRIPT, '--check', ...(out ? ['--out', out] : [])]);
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { code: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

describe.skipIf(!REFERENCE_PRESENT)("the committed operation table against ../shared/reference (skipped without it)", () => {
  const copies: string[] = [];
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  /** A copy of the committed files to spoil. */
  const copy = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'generated-'));
    copies.push(dir);
    cpSync(GENERATED, dir, { recursive: true });
    return dir;
  };

  it('is what the generator writes today', async () => {
    expect(await check()).toEqual({ code: 0, stderr: '' });
  });

  it('is stale when a committed file differs', async () => {
    const dir = copy();
    const file = join(dir, 'orders', 'table.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace("'GET'", "'PUT'"));
    const { code, stderr } = await check(dir);
    expect(code).toBe(1);
    expect(stderr).toContain('orders/table.ts');
  });

  it('is stale when it holds a file the generator no longer writes (a group the reference dropped)', async () => {
    const dir = copy();
    mkdirSync(join(dir, 'gone'));
    writeFileSync(join(dir, 'gone', 'table.ts'), 'export const table = {};\n');
    const { code, stderr } = await check(dir);
    expect(code).toBe(1);
    expect(stderr).toContain('gone/table.ts');
  });
});
