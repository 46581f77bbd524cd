// One request to the sandbox's Admin API, answered as the platform would: routed by the operation
// table, refused for a version the reference does not list for it or a token without its scope,
// its body (JSON or a form) and query checked against the version's schemas with the platform's
// error forms, then answered by its rule or the generic engine (engine.ts) inside one transaction.
import type * as z from 'zod/mini';
import type { Operation, OperationId, OperationSchemas } from '../api/operations.js';
import { missingScopes } from '../api/scopes.js';
import { clockNow, isoSeconds } from './clock.js';
import { drfErrors, isMissing } from './drf-errors.js';
import { ruleContext, generic, type RuleContext } from './engine.js';
import { emitAbout, type EventData } from './events.js';
import { HttpError } from './http-error.js';
import type { Rec } from './kinds.js';
import { parseRequestBody } from './request-body.js';
import { rules } from './rules/index.js';
import type { SandboxState } from './state.js';

type Schema = z.ZodMiniType;

/** What answering needs of the sandbox around it. */
export interface Answering {
  origin: () => string;
  pageSize: number;
  exportDelayMs: number;
  signExportLink(id: number, nowMs: number): string;
  /** Renders records for a schema at a version (render.ts over the store's views), in one view of the store. */
  render(state: SandboxState, version: string, schema: Schema, records: readonly Rec[]): unknown[];
  eventData: EventData;
}

/** The version header, checked against the versions the reference lists for the operation. */
export function checkVersion(op: Operation, header: string | string[] | undefined): string {
  if (typeof header === 'string' && op.versions.includes(header)) return header;
  const got = header === undefined ? 'it is missing' : `got "${String(header)}"`;
  const allowed = op.versions.map((v) => `"${v}"`).join(', ');
  throw new HttpError(400, { detail: `X-Store-API-Version must be one of ${allowed} for this operation (${got}).` });
}

/** The platform's refusal of a token without the operation's scope. */
export function checkScopes(op: Operation, granted: readonly string[] | 'all'): void {
  if (granted === 'all' || missingScopes(granted, op).length === 0) return;
  throw new HttpError(403, { detail: 'You do not have permission to perform this action.' });
}

/**
 * The body as the operation takes it: parsed (JSON or a form), checked, with the fields the
 * platform's framework ignores left out. A partial update (PATCH) may leave out any field, a
 * nested object's too, as the framework's partial serializers allow. Errors in the framework's forms.
 */
export function checkedBody(schemas: OperationSchemas, raw: string, contentType: string | undefined, partial = false): unknown {
  const schema = schemas.body;
  if (!schema) return undefined;
  const given = parseRequestBody(raw, contentType, schema);
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issues = partial ? parsed.error.issues.filter((issue) => !isMissing(issue, given)) : parsed.error.issues;
  const errors = drfErrors(issues, given);
  if (Object.keys(errors).length > 0) throw new HttpError(400, errors);
  if (partial) return withoutUnknown(given, issues);
  // Only fields the operation does not know: dropped, as the framework drops them.
  const known = schema.safeParse(withoutUnknown(given, parsed.error.issues));
  if (known.success) return known.data;
  throw new HttpError(400, drfErrors(known.error.issues, given));
}

function withoutUnknown(value: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    let at: unknown = copy;
    for (const key of issue.path) at = (at as Record<PropertyKey, unknown>)[key];
    for (const key of issue.keys) delete (at as Record<string, unknown>)[key];
  }
  return copy;
}

/** The query parameters the operation knows, read as it types them (a repeated one is a list); others are ignored, as the platform ignores them. */
export function checkedQuery(schemas: OperationSchemas, search: URLSearchParams): Record<string, unknown> {
  const schema = schemas.query;
  if (!schema) return {};
  const shape = (schema as unknown as { def: { shape: Record<string, Schema> } }).def.shape;
  const given: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    if (!search.has(name) || name === 'cursor') continue;
    const values = search.getAll(name);
    given[name] = queryValue(field, values);
  }
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw new HttpError(400, drfErrors(parsed.error.issues, given));
  return parsed.data as Record<string, unknown>;
}

function queryValue(field: Schema, values: string[]): unknown {
  let def = (field as unknown as { def: { type: string; innerType?: Schema; element?: Schema } }).def;
  while (def.type === 'optional' || def.type === 'nullable') def = (def.innerType as unknown as { def: typeof def }).def;
  if (def.type === 'array') {
    // `status=a&status=b`, or `status=a,b` as people also write it.
    const items = values.flatMap((value) => value.split(',')).filter((value) => value !== '');
    return items.map((item) => scalar(def.element!, item));
  }
  return scalar(field, values.at(-1)!);
}

function scalar(field: Schema, text: string): unknown {
  let def = (field as unknown as { def: { type: string; innerType?: Schema } }).def;
  while (def.type === 'optional' || def.type === 'nullable') def = (def.innerType as unknown as { def: typeof def }).def;
  if (def.type === 'number') return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
  if (def.type === 'boolean') return text === 'true' || text === 'True' || text === '1' ? true : text === 'false' || text === 'False' || text === '0' ? false : text;
  return text;
}

/** The answer, made inside the store's transaction: the rule's or the generic engine's. */
export function answer(
  state: SandboxState,
  request: { op: Operation; version: string; schemas: OperationSchemas; params: Record<string, string | number>; query: Record<string, unknown>; body: unknown; url: URL },
  answering: Answering,
  onEvent: (count: number) => void,
): unknown {
  const nowMs = clockNow(state);
  const ctx: RuleContext = ruleContext(
    {
      ...request,
      state,
      origin: answering.origin(),
      now: isoSeconds(nowMs),
      nowMs,
      pageSize: answering.pageSize,
      exportDelayMs: answering.exportDelayMs,
      signExportLink: (id) => answering.signExportLink(id, nowMs),
      emit: (event, record) => onEvent(emitAbout(state, event, record, answering.eventData, nowMs)),
    },
    (schema, records) => answering.render(state, request.version, schema, records),
  );
  const rule = rules[request.op.id as OperationId];
  return rule ? rule(ctx) : generic(ctx);
}
