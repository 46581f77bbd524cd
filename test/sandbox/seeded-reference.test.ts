// THE reference check of the seeded store: every record an operation of the reference can reach,
// rendered as that operation answers it (its response schema at each version it has, through the
// views), validates against the reference's own schema for that operation and version; and every
// webhook event's `data`, for every record of its kind, against the event's payload at each
// version. A failure names the operation (or event), the version, the record and the field.
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { tableOf, type GroupName } from '../../src/api/generated/index.js';
import type { VersionedSchemas, VersionSchemas } from '../../src/api/schema-facts.js';
import { SEED_MOMENT } from '../../src/sandbox/clock.js';
import { KINDS, landingOf, type KindName, type Landing, type Rec } from '../../src/sandbox/kinds.js';
import { renderer } from '../../src/sandbox/render.js';
import { buildRecords } from '../../src/sandbox/seed/index.js';
import { derivations, EVENT_DATA, type ViewContext } from '../../src/sandbox/views.js';
import { complaints, readReference, REFERENCE_PRESENT, referenceValidators, VERSIONS } from './reference-answers.js';

interface TableEntry {
  method: string;
  path: string;
  versions: readonly string[];
  answer: 'one' | 'page' | 'none';
}

const GROUPS = Object.keys(tableOf) as GroupName[];
const table: Record<string, TableEntry> = Object.assign({}, ...(await Promise.all(GROUPS.map((group) => tableOf[group]()))).map((part) => part.operations));
const versioned: Record<string, VersionedSchemas> = Object.assign(
  {},
  ...(await Promise.all(GROUPS.map((group) => import(`../../src/api/generated/${group}/schemas.ts`) as Promise<{ schemas: Record<string, VersionedSchemas> }>))).map((part) => part.schemas),
);

/** GET operations whose answer is not a stored record, and why. */
const NOT_RECORDS: Record<string, string> = {
  exportsTypesRetrieve: 'the export types: a fixed list',
  exportsDownloadRetrieve: 'a signed link to the file, made when asked',
  availableLocationsRetrieve: 'worked out from the locations when asked',
  appsSettingsRetrieve: "an app's free-form settings object",
  themesTemplatesRetrieve: "a theme's template, kept on the theme (rules/service.ts)",
};
/** GET operations that answer a record of a kind from a path that is not the kind's. */
const ANSWERS_A: Record<string, KindName> = { ticketsCommentsRetrieve: 'tickets' };

const schemaCache = new Map<string, z.ZodMiniType>();
function responseOf(id: string, version: string): z.ZodMiniType {
  const key = `${id}@${version}`;
  let schema = schemaCache.get(key);
  if (!schema) {
    const entry = versioned[id]![version]!;
    const build = (typeof entry === 'string' ? versioned[id]![entry] : entry) as () => VersionSchemas;
    schemaCache.set(key, (schema = build().response));
  }
  return schema;
}

const isArray = (schema: z.ZodMiniType) => (schema as unknown as { def: { type: string; element: z.ZodMiniType } }).def.type === 'array';
const elementOf = (schema: z.ZodMiniType) => (schema as unknown as { def: { element: z.ZodMiniType } }).def.element;

const { records } = buildRecords({ now: SEED_MOMENT });
const render = renderer(derivations);
const contexts = new Map(VERSIONS.map((version) => [version, { records, version, origin: 'http://127.0.0.1:4010' } satisfies ViewContext]));

/** Where a GET operation finds its records: a kind and the parents its path names. */
function reachOf(id: string): Landing | undefined {
  if (ANSWERS_A[id]) return { kind: ANSWERS_A[id], item: true, parents: [] };
  return landingOf(table[id]!.path);
}

const reads = Object.entries(table).filter(([, op]) => op.method === 'GET');
const recordReads = reads.filter(([id]) => !NOT_RECORDS[id]);

/** Every record an answer of the operation can show: those with the parents its path names. */
function reachable(landing: Landing): [key: string, record: Rec][] {
  return Object.entries(records[landing.kind]).filter(([, record]) => landing.parents.every((p) => record[p.field] !== null && record[p.field] !== undefined));
}

/** The answer to one record, in the operation's shape: a page of it, a bare list of it (as `[record]`), or the record. */
function answerFor(id: string, version: string, record: Rec): unknown {
  const schema = responseOf(id, version);
  const ctx = contexts.get(version as (typeof VERSIONS)[number])!;
  if (table[id]!.answer === 'page') return render(schema, { next: null, previous: null, results: [record] }, ctx);
  if (isArray(schema)) return render(schema, [record], ctx);
  return render(schema, record, ctx);
}

describe.skipIf(!REFERENCE_PRESENT)("the seeded store against the platform's reference", () => {
  let validators: Map<string, ReturnType<typeof referenceValidators>>;
  beforeAll(() => {
    validators = new Map(VERSIONS.map((version) => [version, referenceValidators(version)]));
  });

  it('reaches a kind of record through every GET operation but those answering something else', () => {
    expect(reads.filter(([id]) => !NOT_RECORDS[id] && !reachOf(id)).map(([id]) => id)).toEqual([]);
    expect(Object.keys(NOT_RECORDS).filter((id) => !table[id])).toEqual([]);
  });

  it('holds records of every kind an answer reaches', () => {
    const kinds = new Set(recordReads.map(([id]) => reachOf(id)!.kind));
    expect([...kinds].filter((kind) => reachable({ kind, item: true, parents: [] }).length === 0)).toEqual([]);
  });

  const cases = recordReads.flatMap(([id, op]) => op.versions.map((version) => [id, version] as const));
  it.each(cases)('%s at %s: every record it reaches', (id, version) => {
    const landing = reachOf(id)!;
    const reference = validators.get(version)!.answer(id);
    expect(reference, `the reference has no answer for ${id} at ${version}`).toBeDefined();
    const shown = reachable(landing);
    expect(shown.length, `${id} reaches no ${landing.kind}`).toBeGreaterThan(0);
    const problems = shown.flatMap(([key, record]) => complaints(reference!.validate, answerFor(id, version, record)).map((c) => `${landing.kind} ${key} ${c}`));
    expect(problems.slice(0, 25), `${problems.length} problems in ${id} at ${version}`).toEqual([]);
  });

  it('names a record kind and an answer for each of the reference\'s events', () => {
    expect(Object.keys(EVENT_DATA).sort()).toEqual(Object.keys(readReference('2024-04-01').webhooks).sort());
  });

  const events = Object.keys(EVENT_DATA).flatMap((name) => VERSIONS.map((version) => [name, version] as const));
  it.each(events)('%s at %s: its data for every record of its kind', (name, version) => {
    const { kind, operation, keyOnly } = EVENT_DATA[name]!;
    const validate = validators.get(version)!.event(name)!;
    const schema = responseOf(operation, version);
    const ctx = contexts.get(version)!;
    const problems = Object.entries(records[kind]).flatMap(([key, record]) => {
      const data = keyOnly ? { [KINDS[kind].key]: record[KINDS[kind].key] } : render(isArray(schema) ? elementOf(schema) : schema, record, ctx);
      return complaints(validate, data).map((c) => `${kind} ${key} ${c}`);
    });
    expect(problems.slice(0, 25), `${problems.length} problems in ${name} at ${version}`).toEqual([]);
  });
});

/** Each field the reference lets be null, by operation and path, and whether some record answers null there. */
function nullSites(schema: Record<string, unknown>, value: unknown, components: Record<string, Record<string, unknown>>, path: string, sites: Map<string, boolean>, depth = 0): void {
  if (depth > 12) return;
  let s = schema;
  for (;;) {
    if (typeof s.$ref === 'string') s = components[decodeURIComponent(s.$ref.split('/').pop()!)]!;
    else if (Array.isArray(s.allOf) && s.allOf.length === 1) s = s.allOf[0] as Record<string, unknown>;
    else break;
  }
  const branches = (s.oneOf ?? s.anyOf) as Record<string, unknown>[] | undefined;
  const type = s.type;
  const nullable = s.nullable === true || (Array.isArray(type) && type.includes('null')) || (Array.isArray(s.enum) && s.enum.includes(null)) || Boolean(branches?.some((b) => b.type === 'null'));
  if (nullable) sites.set(path, (sites.get(path) ?? false) || value === null);
  if (value === null || value === undefined) return;
  const inner = branches?.find((b) => b.type !== 'null');
  if (inner) return nullSites(inner, value, components, path, sites, depth + 1);
  if (Array.isArray(value) && s.items) for (const item of value) nullSites(s.items as Record<string, unknown>, item, components, `${path}[]`, sites, depth + 1);
  if (typeof value === 'object' && !Array.isArray(value) && s.properties) {
    for (const [name, field] of Object.entries(s.properties as Record<string, Record<string, unknown>>)) {
      if (!field.writeOnly) nullSites(field, (value as Record<string, unknown>)[name], components, `${path}.${name}`, sites, depth + 1);
    }
  }
}

/**
 * Fields the reference lets an answer leave null that the seed keeps filled, and why: a webhook
 * event carries the same object and its payload refuses the null, or the field is the record's key.
 */
const NEVER_NULL: Record<string, string> = {
  'appsRetrieve.client_id': "the app's key",
  'appsRetrieve.settings': 'app.uninstalled refuses a null',
  'cartsRetrieve.metadata': 'cart.abandoned refuses a null',
  'cartsRetrieve.lines[].metadata': 'cart.abandoned refuses a null',
  'disputesRetrieve.metadata': 'dispute.* refuse a null',
  'ordersRetrieve.metadata': 'order.* refuse a null',
  'ordersRetrieve.lines[].metadata': 'order.* refuse a null',
  'ordersRetrieve.billing_address': 'order.* refuse a null',
  'ordersRetrieve.shipping_address': 'order.* refuse a null',
  'ordersRetrieve.refunds[].transactions[].parent_id': "a refund is made on the charge it gives back, outside the store's gateways too (platform guide: a refund's parent is the debit)",
  'productsRetrieve.metadata': 'product.* refuse a null',
  'productsRetrieve.variants[].metadata': 'product.* refuse a null',
  'productsVariantsRetrieve.metadata': 'product.* refuse a null (the variants in their data)',
  'subscriptionsRetrieve.billing_address': 'subscription.* refuse a null',
  'subscriptionsRetrieve.shipping_address': 'subscription.* refuse a null',
  'subscriptionsRetrieve.lines[].metadata': 'subscription.* refuse a null',
  'usersRetrieve.metadata': 'customer.* refuse a null',
  'webhooksRetrieve.name': 'the two seeded webhooks are named in the docs and tests (a third would move the ids the tests create)',
  'webhooksRetrieve.events[]': 'the same: a null event name has no webhook to sit on',
};
/** Every `user.email`: the same user answered alone (User) must have one. */
const neverNull = (path: string) => Boolean(NEVER_NULL[path]) || path.endsWith('.user.email');

describe.skipIf(!REFERENCE_PRESENT)('nulls in the seeded store, wherever the reference allows them', () => {
  const sites = new Map<string, boolean>();
  beforeAll(() => {
    const reference = readReference('2024-04-01');
    const items = recordReads.filter(([id, op]) => op.versions.includes('2024-04-01') && reachOf(id)!.item && op.answer === 'one');
    for (const [id] of items) {
      const schema = Object.values(reference.operations.find((op) => op.id === id)!.responses ?? {}).find((r) => r?.schema)!.schema!;
      for (const [, record] of reachable(reachOf(id)!)) nullSites(schema, answerFor(id, '2024-04-01', record), reference.components.schemas, id, sites);
    }
  });

  it('answers null somewhere in each field that may be null, but those an event or another answer of the same object refuses', () => {
    expect([...sites].filter(([path, seen]) => !seen && !neverNull(path)).map(([path]) => path)).toEqual([]);
  });

  it('keeps filled only fields that may be null and are never null', () => {
    expect(Object.keys(NEVER_NULL).filter((path) => sites.get(path) !== false)).toEqual([]);
  });
});
