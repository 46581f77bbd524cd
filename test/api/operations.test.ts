// The operation table against the facts it must match. Those facts live in the repository
// (test/fixtures/spec-operations.json), so the check runs on any clone; the fixture itself is checked
// against the spec whenever the spec sits beside the repository, and is reported as skipped otherwise.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations, type Operation } from '../../src/api/operations.js';
import { strict } from '../../src/api/schemas/common.js';

type Fact = Pick<Operation, 'section' | 'method' | 'path' | 'version' | 'otherVersions' | 'scopes' | 'params'> & {
  /** `spec`: a section of the spec; `ref`: the platform's published reference, absent from the spec. */
  source: 'spec' | 'ref';
};

const fixture = JSON.parse(readFileSync(new URL('../fixtures/spec-operations.json', import.meta.url), 'utf8')) as {
  operations: Record<string, Fact>;
};
const facts = Object.entries(fixture.operations);
const specFacts = facts.filter(([, fact]) => fact.source === 'spec');

describe('operation table against test/fixtures/spec-operations.json', () => {
  it('has exactly the operations of the fixture', () => {
    expect(Object.keys(operations).sort()).toEqual(facts.map(([id]) => id).sort());
  });

  it.each(facts)('%s has the method, path, version, scopes and path parameters of the fixture', (id, fact) => {
    const op = (operations as Record<string, Operation>)[id];
    expect(op, `${id} is missing from src/api/operations.ts`).toBeDefined();
    const { section, method, path, version, otherVersions = [], scopes, params } = op!;
    // Object.entries keeps the order of params, which must follow the path.
    expect({ section, method, path, version, otherVersions, scopes: [...scopes], params: Object.entries(params) }).toEqual({
      ...{ section: fact.section, method: fact.method, path: fact.path, version: fact.version, otherVersions: fact.otherVersions ?? [] },
      scopes: fact.scopes,
      params: Object.entries(fact.params),
    });
  });

  it.each(facts)('%s is marked `ref` exactly when it has no spec section', (_id, fact) => {
    expect(fact.source === 'ref').toBe(fact.section === 'ref');
    if (fact.source === 'spec') expect(fact.section).toMatch(/^4\.\d+$/);
  });
});

describe('operation entries', () => {
  it.each(Object.entries(operations))('%s declares exactly the parameters of its path, in order', (_id, op) => {
    const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(Object.keys(op.params)).toEqual(inPath);
  });

  // Only app settings are free-form (4.14); every other answer has fields the spec lists.
  it.each(Object.entries(operations))('%s loads its schemas, whose strict response refuses {}', async (id, op) => {
    const schemas = await op.schemas();
    expect(strict(schemas.response).safeParse({}).success).toBe(id === 'appsSettingsPartialUpdate');
  });
});

// --- the fixture against the spec ---------------------------------------------------------------

// Beside the repository by default; STORE_ADMIN_SPEC names it when the checkout lives elsewhere.
const SPEC_RELATIVE = '../shared/spec/store-admin-api.md';
const specPath = process.env.STORE_ADMIN_SPEC ?? fileURLToPath(new URL(`../../${SPEC_RELATIVE}`, import.meta.url));
const specShown = process.env.STORE_ADMIN_SPEC ?? SPEC_RELATIVE;
const specPresent = existsSync(specPath);

interface SpecEntry {
  method: string;
  path: string;
  version: string;
  scopes: string[];
  params: [string, string][];
}

const SPEC_KINDS: Record<string, string> = { integer: 'id', string: 'string' };

/** Section 4's operations, by section number, as the spec writes them. */
function parseOperations(text: string): Map<string, SpecEntry> {
  const entries = new Map<string, SpecEntry>();
  for (const block of text.split(/^### /m)) {
    const section = /^(4\.\d+) /.exec(block)?.[1];
    const route = /- `(GET|POST|PATCH|DELETE) ([^`]+)`/.exec(block);
    if (!section || !route) continue;
    const version = /version value `([^`]+)`/.exec(block)?.[1] ?? '';
    const scopeLine = /^- (?:Scopes? listed: |Scope )(.*)$/m.exec(block)?.[1] ?? '';
    const scopes = [...scopeLine.split(';')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    // "Path: `number` string*, `lineId` integer*." (the sentence may go on with the body)
    const pathLine = /Path: ([^.]*)/.exec(block)?.[1] ?? '';
    const params = [...pathLine.matchAll(/`(\w+)` (integer|string)\*/g)].map((m): [string, string] => [m[1]!, SPEC_KINDS[m[2]!]!]);
    entries.set(section, { method: route[1]!, path: route[2]!, version, scopes, params });
  }
  return entries;
}

/** A two-column table whose second column lists sections, e.g. part 9's versions: value → sections. */
function sectionsByRow(text: string, heading: RegExp): Map<string, string[]> {
  const part = text.split(/^## /m).find((p) => heading.test(p)) ?? '';
  const rows = new Map<string, string[]>();
  for (const [, first, second] of part.matchAll(/^\| ([^|]+) \| ([\d., ]+) \|$/gm)) {
    rows.set(first!.trim(), second!.split(',').map((s) => s.trim()));
  }
  return rows;
}

describe.skipIf(!specPresent)(
  specPresent
    ? `test/fixtures/spec-operations.json against ${specShown}`
    : `SKIPPED: spec file ${specShown} not present (a clone of the repository alone; set STORE_ADMIN_SPEC to check it)`,
  () => {
    const text = specPresent ? readFileSync(specPath, 'utf8') : '';
    const spec = parseOperations(text);

    it('names every operation of the spec once, and nothing the spec lacks unless marked `ref`', () => {
      expect(spec.size).toBe(16);
      expect(specFacts.map(([, fact]) => fact.section).sort()).toEqual([...spec.keys()].sort());
    });

    it.each(specFacts)('%s matches its section of the spec', (_id, fact) => {
      const entry = spec.get(fact.section);
      expect(entry, `section ${fact.section} not found in the spec`).toBeDefined();
      expect({ ...fact, params: Object.entries(fact.params), scopes: [...fact.scopes] }).toMatchObject(entry!);
    });

    it('agrees with the version table of part 9', () => {
      const versions = sectionsByRow(text, /^9\. Versioning/);
      expect(versions.size).toBe(3);
      for (const [value, sections] of versions) {
        const named = specFacts.filter(([, f]) => f.version === value.replaceAll('`', '')).map(([, f]) => f.section);
        expect(named.sort(), `version ${value}`).toEqual([...sections].sort());
      }
    });

    it('agrees with the scope table of part 5', () => {
      const scopes = sectionsByRow(text, /^5\. Authentication/);
      expect(scopes.size).toBeGreaterThanOrEqual(11);
      for (const [cell, sections] of scopes) {
        const listed = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
        for (const section of sections) {
          const fact = specFacts.find(([, f]) => f.section === section)?.[1];
          expect(fact?.scopes, `scopes of ${section}`).toEqual(listed);
        }
      }
    });
  },
);

// --- the `ref` entries against the platform's published facts -----------------------------------

const FACTS_RELATIVE = '../shared/platform-facts.md';
const factsPath = fileURLToPath(new URL(`../../${FACTS_RELATIVE}`, import.meta.url));
const factsPresent = existsSync(factsPath);

/** Rows of the facts' "Webhook management beyond the spec" table: method, path, scope, success status. */
function webhookManagement(text: string): { method: string; path: string; scope: string; success: number }[] {
  const part = text.split(/^## /m).find((p) => p.startsWith('Webhook management beyond the spec')) ?? '';
  const version = /version `([^`]+)`/.exec(part)?.[1];
  expect(version).toBe('2024-04-01');
  return [...part.matchAll(/^\| [^|]+ \| `(GET|POST|PATCH|DELETE) ([^`]+)`[^|]* \| `([^`]+)` \| (\d{3})/gm)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
    scope: m[3]!,
    success: Number(m[4]),
  }));
}

describe.skipIf(!factsPresent)(
  factsPresent
    ? `the published-reference webhook operations against ${FACTS_RELATIVE}`
    : `SKIPPED: ${FACTS_RELATIVE} not present (a clone of the repository alone)`,
  () => {
    it('list, update and delete match the published method, path, scope, version and status', () => {
      const rows = webhookManagement(factsPresent ? readFileSync(factsPath, 'utf8') : '');
      const ours = (['webhooksList', 'webhooksPartialUpdate', 'webhooksDestroy'] as const).map((id) => operations[id]);
      expect(rows).toEqual(ours.map((op) => ({ method: op.method, path: op.path, scope: op.scopes.join(' '), success: op.success })));
      for (const op of ours) expect([op.section, op.version]).toEqual(['ref', '2024-04-01']);
    });
  },
);
