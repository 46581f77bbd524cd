// The operation table against the facts it must match. Those facts live in the repository
// (test/fixtures/spec-operations.json), so the check runs on any clone; the fixture itself is checked
// against the spec whenever the spec sits beside the repository, and is reported as skipped otherwise.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAllOperations, loadOperation, REFERENCE_VERSIONS, type Operation, type OperationId } from '../../src/api/operations.js';

type Fact = Pick<Operation, 'method' | 'path' | 'version' | 'versions' | 'scopes' | 'allScopes' | 'params'> & {
  /** `spec`: a section of the spec; `ref`: the platform's published reference alone. */
  source: 'spec' | 'ref';
  section?: string;
};

const fixture = JSON.parse(readFileSync(new URL('../fixtures/spec-operations.json', import.meta.url), 'utf8')) as {
  operations: Record<string, Fact>;
  differences: Record<string, string[]>;
};
const facts = Object.entries(fixture.operations) as [OperationId, Fact][];
const specFacts = facts.filter(([, fact]) => fact.source === 'spec');
const table = await loadAllOperations();

/** Where the reference says more than the spec, or otherwise, for one of the spec's operations. */
function differencesOf(fact: Fact): string[] {
  const found: string[] = [];
  const more = fact.versions.filter((version) => version !== fact.version);
  if (more.length > 0) found.push(`versions: the spec accepts ${fact.version} only; the reference also has ${more.join(', ')}`);
  if (fact.scopes.length > 1) {
    found.push(
      `scopes: the spec lists ${fact.scopes.length} and does not say whether one is enough; the reference says any one grants; the table asks for ${fact.allScopes ? 'every one' : 'any one'}`,
    );
  }
  return found;
}

describe('operation table against test/fixtures/spec-operations.json', () => {
  it("has every operation of the fixture, and a spec section exactly for the fixture's spec operations", () => {
    const ids = new Set(table.map((op) => op.id));
    expect(facts.filter(([id]) => !ids.has(id)).map(([id]) => id)).toEqual([]);
    const sections = table.filter((op) => op.section !== undefined).map((op) => [op.id, op.section]);
    expect(Object.fromEntries(sections)).toEqual(Object.fromEntries(specFacts.map(([id, fact]) => [id, fact.section])));
  });

  it.each(facts)('%s has the section, method, path, versions, scopes and path parameters of the fixture', async (id, fact) => {
    const { section, method, path, version, versions, scopes, allScopes, params } = await loadOperation(id);
    // Object.entries keeps the order of params, which must follow the path.
    expect({ section, method, path, version, versions: [...versions], scopes: [...scopes], allScopes, params: Object.entries(params) }).toEqual({
      ...{ section: fact.section, method: fact.method, path: fact.path, version: fact.version, versions: fact.versions },
      ...{ scopes: fact.scopes, allScopes: fact.allScopes, params: Object.entries(fact.params) },
    });
  });

  it.each(facts)('%s has a spec section exactly when its source is the spec, and its default version among its versions', (_id, fact) => {
    expect(fact.source === 'spec').toBe(fact.section !== undefined);
    if (fact.source === 'spec') expect(fact.section).toMatch(/^4\.\d+$/);
    expect(fact.versions).toContain(fact.version);
    // An operation only the reference describes is sent at the newest stable version that has it.
    if (fact.source === 'ref') expect(fact.version).toBe(fact.versions.find((v) => v !== 'unstable'));
  });

  it('lists every difference between the reference and the spec', () => {
    const found = Object.fromEntries(specFacts.map(([id, fact]) => [id, differencesOf(fact)]).filter(([, list]) => list!.length > 0));
    expect(found).toEqual(fixture.differences);
  });
});

describe('operation entries', () => {
  it.each(table.map((op) => [op.id, op] as const))('%s declares exactly the parameters of its path, in order', (_id, op) => {
    const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    expect(Object.keys(op.params)).toEqual(inPath);
  });

  it.each(table.map((op) => [op.id, op] as const))('%s has a default version among its versions, newest stable first', (_id, op) => {
    expect(op.versions).toContain(op.version);
    expect(op.versions).toEqual(REFERENCE_VERSIONS.filter((version) => op.versions.includes(version)));
  });

  // The reference declares fields that every answer has: only an answer with no body and an
  // app's settings (free-form) take {}.
  it.each(table.map((op) => [op.id, op] as const))('%s loads its schemas at each of its versions, whose response refuses {}', async (_id, op) => {
    const freeForm = op.answer === 'none' || op.path.startsWith('/apps/{clientId}/settings/');
    for (const version of op.versions) {
      const schemas = await op.schemas(version);
      expect(schemas.response.safeParse(schemas.normalize ? schemas.normalize({}) : {}).success, version).toBe(freeForm);
    }
  });

  // 4.7: the reference declares one fulfillment order, and a store may answer one or a list.
  it('reads an answer that lists several as a list, whichever form the store sends', async () => {
    const op = await loadOperation('ordersFulfillmentOrdersRetrieve');
    expect(op.answer).toBe('many');
    const schemas = await op.schemas();
    const one = { id: 402 };
    for (const sent of [one, [one], { results: [one] }]) expect(schemas.normalize!(sent)).toEqual([one]);
    expect(schemas.response.safeParse(schemas.normalize!([])).success).toBe(true);
    expect(schemas.response.safeParse({}).success).toBe(false);
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

    it('names every operation of the spec once, and nothing the spec lacks unless its source is `ref`', () => {
      expect(spec.size).toBe(16);
      expect(specFacts.map(([, fact]) => fact.section!).sort()).toEqual([...spec.keys()].sort());
    });

    it.each(specFacts)('%s matches its section of the spec', (_id, fact) => {
      const entry = spec.get(fact.section!);
      expect(entry, `section ${fact.section} not found in the spec`).toBeDefined();
      // The spec's version is the default one; which others the store accepts is the reference's word.
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

// --- the fixture against the platform's reference -----------------------------------------------

const REFERENCE_RELATIVE = '../shared/reference';
const referenceDir = fileURLToPath(new URL(`../../${REFERENCE_RELATIVE}/`, import.meta.url));
const referencePresent = REFERENCE_VERSIONS.every((version) => existsSync(`${referenceDir}admin-api-${version}.json`));

interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  scopes: string[];
}

describe.skipIf(!referencePresent)(
  referencePresent
    ? `test/fixtures/spec-operations.json against ${REFERENCE_RELATIVE}`
    : `SKIPPED: ${REFERENCE_RELATIVE} not present (a clone of the repository alone)`,
  () => {
    const references = REFERENCE_VERSIONS.map((version) => {
      const text = referencePresent ? readFileSync(`${referenceDir}admin-api-${version}.json`, 'utf8') : '{"operations":[]}';
      return [version, (JSON.parse(text) as { operations: ReferenceOperation[] }).operations] as const;
    });

    it.each(facts)('%s has the versions, method, path and scopes of the reference', (id, fact) => {
      const found = references.flatMap(([version, operations]) => operations.filter((op) => op.id === id).map((op) => ({ version, op })));
      expect(found.map(({ version }) => version)).toEqual(fact.versions);
      for (const { op } of found) expect({ method: op.method, path: op.path, scopes: op.scopes }).toEqual({ method: fact.method, path: fact.path, scopes: fact.scopes });
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
    it('list, update and delete match the published method, path, scope, version and status', async () => {
      const rows = webhookManagement(factsPresent ? readFileSync(factsPath, 'utf8') : '');
      const ours = await Promise.all((['webhooksList', 'webhooksPartialUpdate', 'webhooksDestroy'] as const).map(loadOperation));
      expect(rows).toEqual(ours.map((op) => ({ method: op.method, path: op.path, scope: op.scopes.join(' '), success: op.success })));
      for (const op of ours) expect([op.section, op.version]).toEqual([undefined, '2024-04-01']);
    });
  },
);
