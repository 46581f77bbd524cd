// The operation-run layer (src/run/) sits beneath the commands: a command declares its flags and
// hands over, and nothing the run does reaches back up for the command's own code, not even a
// type. Every specifier counts here: static, dynamic and `import type`.
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
