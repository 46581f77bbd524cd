// The table against the spec itself: the spec is parsed here, so no second list is written down.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';

const specPath = new URL('../../../shared/spec/store-admin-api.md', import.meta.url);

interface SpecEntry {
  method: string;
  path: string;
  version: string;
  scopes: string[];
}

function parseSpec(text: string): Map<string, SpecEntry> {
  const entries = new Map<string, SpecEntry>();
  for (const block of text.split(/^### /m)) {
    const section = /^(4\.\d+) /.exec(block)?.[1];
    const route = /- `(GET|POST|PATCH|DELETE) ([^`]+)`/.exec(block);
    if (!section || !route) continue;
    const version = /version value `([^`]+)`/.exec(block)?.[1] ?? '';
    const scopeLine = /^- (?:Scopes? listed: |Scope )(.*)$/m.exec(block)?.[1] ?? '';
    const scopes = [...scopeLine.split(';')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    entries.set(section, { method: route[1]!, path: route[2]!, version, scopes });
  }
  return entries;
}

// Entries marked `ref` come from the platform's published reference, not the spec
// (test/sandbox/exports.test.ts checks them against it).
const fromSpec = Object.entries(operations).filter(([, op]) => op.section !== 'ref');

describe.runIf(existsSync(specPath))('operation table', () => {
  const spec = parseSpec(readFileSync(specPath, 'utf8'));

  it('has one entry per operation of the spec', () => {
    expect(spec.size).toBe(16);
    expect(fromSpec.map(([, op]) => op.section).sort()).toEqual([...spec.keys()].sort());
  });

  it.each(fromSpec)('%s matches its section of the spec', (_id, op) => {
    const entry = spec.get(op.section)!;
    expect(op.method).toBe(entry.method);
    expect(op.path).toBe(entry.path);
    expect(op.version).toBe(entry.version);
    expect([...op.scopes]).toEqual(entry.scopes);
  });
});

describe('operation entries', () => {
  it.each(Object.entries(operations))('%s declares exactly the parameters of its path', (_id, op) => {
    const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(Object.keys(op.params)).toEqual(inPath);
  });

  it.each(Object.entries(operations))('%s loads its schemas', async (_id, op) => {
    const schemas = await op.schemas();
    expect(schemas.response.safeParse({}).success || schemas.response.safeParse([]).success).toBe(true);
  });
});
