// The operation-run layer (src/run/) sits beneath the commands: a command declares its flags and
// hands over, and nothing the run does reaches back up for the command's own code, not even a
// type. The output layer (src/output/) sits beneath both and is the one owner of the process's
// streams. Every specifier counts here: static, dynamic and `import type`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/** Where a module's relative specifiers point, as folders of src/ (`commands`, `api`, …). */
function roomsImportedBy(file: string, text = readFileSync(file, 'utf8')): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specifiers = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm)].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)).split('/')[0]!);
}

describe('the run layer', () => {
  const run = sourceFiles(join(SRC, 'run'));

  it('is there, with its --each mode inside it', () => {
    expect(run.map((file) => relative(SRC, file))).toEqual(expect.arrayContaining(['run/operation.ts', 'run/spec.ts', 'run/bulk/run.ts']));
  });

  it('imports nothing from src/commands/, types included', () => {
    const upward = run.filter((file) => roomsImportedBy(file).includes('commands')).map((file) => relative(SRC, file));
    expect(upward).toEqual([]);
  });

  it('is read by this check: type, dynamic and bare imports count, comments do not', () => {
    const file = join(SRC, 'run', 'bulk', 'x.ts');
    expect(roomsImportedBy(file, "import type { T } from '../../commands/define.js';")).toEqual(['commands']);
    expect(roomsImportedBy(file, "const m = await import('../../commands/meta.js');")).toEqual(['commands']);
    expect(roomsImportedBy(file, "import '../../commands/index.js';\nexport { x } from './y.js';")).toEqual(['commands', 'run']);
    expect(roomsImportedBy(file, "// from '../../commands/define.js'\nimport { z } from '../../api/errors.js';")).toEqual(['api']);
  });
});

describe('the output layer', () => {
  const output = sourceFiles(join(SRC, 'output'));

  it('imports nothing above it, types included: only the API\'s errors and redaction, the IO seam and printable text', () => {
    const allowed = new Set(['output', 'api', 'io.js', 'printable.js']);
    const upward = output.flatMap((file) => roomsImportedBy(file).filter((room) => !allowed.has(room)).map((room) => `${relative(SRC, file)} → ${room}`));
    expect(upward).toEqual([]);
  });

  it('is the only place that reaches for process.stdout or process.stderr', () => {
    const reaching = sourceFiles(SRC)
      .filter((file) => file !== join(SRC, 'output', 'stream.ts'))
      .filter((file) => /\bprocess\.(stdout|stderr)\b/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')))
      .map((file) => relative(SRC, file));
    expect(reaching).toEqual([]);
  });
});
