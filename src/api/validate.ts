// zod issues turned into field issues with messages a person can act on.
import * as z from 'zod/mini';
import { ValidationError, type FieldIssue } from './errors.js';
import { id, pathText } from './schemas/common.js';
import type { OperationSchemas, ParamKind } from './operations.js';

const DEFAULT_MESSAGE = 'Invalid input';

type Issue = z.core.$ZodIssue;

function describe(issue: Issue, value: unknown): string {
  if (issue.code === 'invalid_type' && value === undefined) return 'is required';
  if (issue.message && issue.message !== DEFAULT_MESSAGE) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => (v === '' ? '""' : String(v))).join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${unit(issue.origin)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${unit(issue.origin)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return 'is not valid';
  }
}

function article(type: string): string {
  const names: Record<string, string> = {
    int: 'a whole number',
    number: 'a number',
    string: 'text',
    boolean: 'true or false',
    object: 'an object',
    array: 'a list',
    record: 'an object',
  };
  return names[type] ?? `a ${type}`;
}

function unit(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array' || origin === 'set') return ' items';
  return '';
}

export function toFieldIssues(prefix: string, issues: readonly Issue[], input: unknown): FieldIssue[] {
  const found = new Map<string, FieldIssue>();
  for (const issue of issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    const message = describe(issue, valueAt(input, issue.path));
    // Two checks of one field may fail in the same words: the field is named once.
    found.set(`${path}\n${message}`, { path, message });
  }
  return [...found.values()];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Checks path parameters, query and body together, throwing one ValidationError that lists every bad field. */
export function validateInput(
  op: { params: Readonly<Record<string, ParamKind>> },
  schemas: OperationSchemas,
  input: { params?: unknown; body?: unknown; query?: unknown },
): { params: unknown; body: unknown; query?: unknown } {
  const known = passed.get(input);
  if (known?.schemas === schemas && known.params === op.params) return known.result;
  const params = check(paramsSchema(op.params), input.params ?? {});
  const body = schemas.body && check(schemas.body, input.body ?? {});
  // An operation without query parameters takes none.
  const query = schemas.query ? check(schemas.query, input.query ?? {}) : input.query === undefined ? undefined : check(noQuery, input.query);
  if (params.success && (!body || body.success) && (!query || query.success)) {
    const result = query ? { params: params.data, body: body?.data, query: query.data } : { params: params.data, body: body?.data };
    if (sealed.has(input)) passed.set(input, { schemas, params: op.params, result });
    return result;
  }
  const issues = [
    ...(params.success ? [] : toFieldIssues('params', params.error.issues, input.params ?? {})),
    ...(query && !query.success ? toFieldIssues('query', query.error.issues, input.query ?? {}) : []),
    ...(body && !body.success ? toFieldIssues('body', body.error.issues, input.body ?? {}) : []),
  ];
  throw new ValidationError(issues);
}

const noQuery = z.strictObject({});

type Checked = ReturnType<z.ZodMiniType['safeParse']>;

/** Inputs and their parts deep-frozen by `sealInput`: nothing in them can change once checked. */
const sealed = new WeakSet<object>();
/** What each sealed part of an input checked out as, by schema. */
const checked = new WeakMap<z.ZodMiniType, WeakMap<object, Checked>>();
/** Sealed inputs that passed, with the schemas and parameters they passed: a bulk line's request finds it in one look. */
const passed = new WeakMap<object, { schemas: OperationSchemas; params: object; result: { params: unknown; body: unknown; query?: unknown } }>();

/**
 * Freezes an input, parts and all, so that checking it again costs nothing: the client does not
 * repeat what the command has checked, and a bulk run checks its one body once, not once per line.
 */
export function sealInput<T extends { params?: unknown; body?: unknown; query?: unknown }>(input: T): T {
  for (const part of [input.params, input.body, input.query]) if (isObject(part) && !sealed.has(part)) sealed.add(deepFreeze(part));
  sealed.add(Object.freeze(input));
  return input;
}

function check(schema: z.ZodMiniType, value: unknown): Checked {
  if (!isObject(value) || !sealed.has(value)) return schema.safeParse(value);
  let results = checked.get(schema);
  if (!results) checked.set(schema, (results = new WeakMap()));
  let result = results.get(value);
  if (!result) results.set(value, (result = schema.safeParse(value)));
  return result;
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Freezes all the way down, into parts frozen only at the top; a part sealed before (a bulk run's
 * one body) is frozen through already and not walked again.
 */
function deepFreeze<T extends object>(value: T, seen = new Set<object>()): T {
  seen.add(value);
  for (const child of Object.values(value)) if (isObject(child) && !seen.has(child) && !sealed.has(child)) deepFreeze(child, seen);
  return Object.freeze(value);
}

const paramSchemas: Record<ParamKind, z.ZodMiniType> = { id, string: pathText };

const built = new WeakMap<object, z.ZodMiniType>();

/** The zod schema of an operation's path parameters, built from the table's declaration once. */
export function paramsSchema(decl: Readonly<Record<string, ParamKind>>) {
  let schema = built.get(decl);
  if (!schema) {
    const shape: Record<string, z.ZodMiniType> = {};
    for (const [name, kind] of Object.entries(decl)) shape[name] = paramSchemas[kind];
    schema = z.strictObject(shape);
    built.set(decl, schema);
  }
  return schema;
}
