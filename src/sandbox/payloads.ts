// What a webhook delivery carries in `data`: the changed object as the Admin API answers it at the
// webhook's API version. The shape comes from the operation table: among the operations that
// answer that kind of object, the one served at the version (native to it first), and the
// object is cut down to that operation's response schema. A kind no operation answers (a
// customer, a transaction, a fulfillment) is sent as the sandbox keeps it.
import * as z from 'zod/mini';
import { loadOperation, type OperationId } from '../api/operations.js';

/** Shapes `data` of an event about a `kind` object for a webhook at `version`. */
export type PayloadShaper = (kind: string, version: string, data: unknown) => unknown;

/** The operation that answers each kind of object a webhook event carries. */
const ANSWERED_BY: Record<string, OperationId> = {
  order: 'ordersRetrieve',
  subscription: 'subscriptionsRetrieve',
  export: 'exportsRetrieve',
  dispute: 'disputesRetrieve',
};

/** Loads the response schemas of the operations that answer an object, once per sandbox. */
export async function payloadShaper(): Promise<PayloadShaper> {
  const chosen = new Map<string, z.ZodMiniType | undefined>();
  for (const [kind, id] of Object.entries(ANSWERED_BY)) {
    const op = await loadOperation(id);
    for (const version of op.versions) chosen.set(`${kind}@${version}`, itemOf((await op.schemas(version)).response));
  }
  return (kind, version, data) => {
    const schema = chosen.get(`${kind}@${version}`);
    return schema ? project(schema, data) : data;
  };
}

/** A list answer (4.7) is shaped by its item. */
function itemOf(schema: z.ZodMiniType): z.ZodMiniType {
  return schema instanceof z.ZodMiniArray ? (schema.def.element as z.ZodMiniType) : schema;
}

/** `value` with only the fields `schema` declares, at every depth; free-form objects are kept whole. */
export function project(schema: z.ZodMiniType, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (schema instanceof z.ZodMiniOptional || schema instanceof z.ZodMiniNullable) return project(schema.def.innerType as z.ZodMiniType, value);
  if (schema instanceof z.ZodMiniObject && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const shape = schema.shape as Record<string, z.ZodMiniType>;
    return Object.fromEntries(Object.keys(shape).filter((key) => key in record).map((key) => [key, project(shape[key]!, record[key])]));
  }
  if (schema instanceof z.ZodMiniArray && Array.isArray(value)) return value.map((item) => project(schema.def.element as z.ZodMiniType, item));
  return value;
}
