// The generic engine: list, get, create, replace, update and delete for every kind of record, by
// the operation table's paths (kinds.ts). The store assigns keys, dates and whatever else a record
// of its kind must have; rules.ts overrides what the platform's guides describe.
import type * as z from 'zod/mini';
import { HttpError } from './http-error.js';
import { KINDS, landingOf, storageKey, type KindName, type Landing, type Rec, type Records } from './kinds.js';
import { isDerived } from './views.js';

type Schema = z.ZodMiniType;
type Def = { type: string; innerType?: Schema; element?: Schema; shape?: Record<string, Schema> };

/** What the engine needs of a request: where it lands, its path parameters and checked body. */
export interface Reach {
  landing: Landing;
  params: Record<string, unknown>;
}

export interface Keys {
  /** The next number of a kind (kept in the state, so it survives a saved sandbox). */
  next(kind: KindName): number;
}

/** Platform's wording for an object that is not there. */
export const NOT_FOUND = (): HttpError => new HttpError(404, { detail: 'Not found.' });

/** The parents a collection's path names, each there (or 404): `/users/{id}/addresses/` needs user `id`. */
export function checkParents(records: Records, path: string, { landing, params }: Reach): void {
  for (const parent of landing.parents) {
    const prefix = path.slice(0, path.indexOf(`{${parent.param}}/`) + parent.param.length + 3);
    const named = landingOf(prefix);
    if (parent.kind) {
      if (!records[parent.kind as KindName][String(params[parent.param])]) throw NOT_FOUND();
    } else if (named) {
      const own = [...prefix.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      itemOf(records, { landing: named, params: Object.fromEntries(own.map((name) => [name, params[name]])) });
    }
  }
}

/** The records of a kind that sit under the parents the path names. */
export function recordsUnder(records: Records, { landing, params }: Reach): Rec[] {
  const all = Object.values(records[landing.kind] ?? {});
  return landing.parents.length === 0 ? all : all.filter((record) => landing.parents.every((p) => sameKey(record[p.field], params[p.param])));
}

/** The item the path names, or 404. */
export function itemOf(records: Records, reach: Reach): Rec {
  const kind = KINDS[reach.landing.kind];
  const own = { [kind.key]: reach.params[itemParam(reach)] ?? '' } as Rec;
  for (const parent of reach.landing.parents) own[parent.field] = reach.params[parent.param];
  const record = records[reach.landing.kind]?.[storageKey(reach.landing.kind, own)];
  if (!record || !reach.landing.parents.every((p) => sameKey(record[p.field], reach.params[p.param]))) throw NOT_FOUND();
  return record;
}

/** The path parameter naming the item: the last one of the operation's path. */
function itemParam({ params }: Reach): string {
  return Object.keys(params).at(-1) ?? 'id';
}

/** A new record from a checked body: its key, the parents' keys, and what the store fills in. */
export function create(records: Records, keys: Keys, reach: Reach, body: Rec, canonical: Schema, now: string): Rec {
  const kind = KINDS[reach.landing.kind];
  const record: Rec = { ...body };
  for (const parent of reach.landing.parents) record[parent.field] = reach.params[parent.param];
  if (kind.numbered) {
    const next = keys.next(reach.landing.kind);
    record[kind.key] = kind.key === 'number' ? String(next) : next;
  } else if (record[kind.key] === undefined || record[kind.key] === null || record[kind.key] === '') {
    throw new HttpError(400, { [kind.key]: ['This field is required.'] });
  }
  const key = storageKey(reach.landing.kind, record);
  if (!kind.numbered && records[reach.landing.kind][key]) throw new HttpError(400, { [kind.key]: [`An object with this ${kind.key} already exists.`] });
  complete(record, canonical, now);
  records[reach.landing.kind][key] = record;
  return record;
}

/** PUT replaces what the body names and resets nothing else the store keeps; PATCH changes only what it names. */
export function change(record: Rec, body: Rec, now: string): Rec {
  for (const [field, value] of Object.entries(body)) record[field] = value;
  for (const field of ['updated_at', 'date_updated']) if (field in record) record[field] = now;
  return record;
}

export function remove(records: Records, reach: Reach): void {
  removeWith(records, reach.landing.kind, itemOf(records, reach));
}

/**
 * What goes with a removed record, as the platform deletes it: a product's variants and images,
 * a variant's prices and stock, a customer's addresses and notes, a dispute's notes.
 */
const DEPENDENTS: Partial<Record<KindName, readonly [kind: KindName, field: string][]>> = {
  products: [
    ['variants', 'product_id'],
    ['productImages', 'product_id'],
  ],
  variants: [
    ['productPrices', 'product_id'],
    ['stockrecords', 'variant_id'],
  ],
  users: [
    ['addresses', 'user_id'],
    ['userNotes', 'user_id'],
  ],
  disputes: [['disputeNotes', 'dispute_id']],
};

/** What a record may not be removed from under: a location that holds stock or has fulfillment orders. */
const PROTECTED_BY: Partial<Record<KindName, readonly [kind: KindName, field: string, what: string][]>> = {
  locations: [
    ['stockrecords', 'location_id', 'stock'],
    ['fulfillmentOrders', 'location_id', 'fulfillment orders'],
  ],
};

function removeWith(records: Records, kind: KindName, record: Rec): void {
  const key = record[KINDS[kind].key];
  for (const [other, field, what] of PROTECTED_BY[kind] ?? []) {
    if (Object.values(records[other]).some((held) => sameKey(held[field], key))) throw new HttpError(400, { detail: `It still has ${what}: move or remove them first.` });
  }
  delete records[kind][storageKey(kind, record)];
  for (const [dependent, field] of DEPENDENTS[kind] ?? []) {
    for (const other of Object.values(records[dependent])) if (sameKey(other[field], key)) removeWith(records, dependent, other);
  }
}

const DATE_FIELDS = new Set(['created_at', 'updated_at', 'date_created', 'date_updated', 'date_joined', 'happened_at']);

/**
 * Fills what the store assigns to a new record of the kind's shape: dates, and a value of the
 * right type for each required field the body did not give (a nullable one stays null), but
 * those its answers derive (views.ts). Nested objects the body gave are completed the same way.
 */
export function complete(record: Rec, schema: Schema, now: string): Rec {
  const object = unwrapped(schema);
  const def = defOf(object);
  if (def.type !== 'object') return record;
  for (const [field, fieldSchema] of Object.entries(def.shape!)) {
    const optional = defOf(fieldSchema).type === 'optional';
    if (record[field] === undefined) {
      if (isDerived(object, field)) continue;
      if (DATE_FIELDS.has(field)) record[field] = now;
      else if (!optional) record[field] = emptyOf(fieldSchema, now);
    } else if (record[field] !== null && typeof record[field] === 'object' && !Array.isArray(record[field])) {
      complete(record[field] as Rec, fieldSchema, now);
    }
  }
  return record;
}

/** The value a new record holds for a field nobody set: null where allowed, else the type's empty value. */
function emptyOf(schema: Schema, now: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return undefined;
    case 'nullable':
      return null;
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'record':
      return {};
    case 'object':
      return complete({}, schema, now);
    default:
      return null;
  }
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { def: Def }).def;
}

function unwrapped(schema: Schema): Schema {
  let at = schema;
  while (defOf(at).type === 'optional' || defOf(at).type === 'nullable') at = defOf(at).innerType!;
  return at;
}

/** A record's link and a path parameter name the same parent, whatever their types. */
export function sameKey(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && String(a) === String(b);
}
