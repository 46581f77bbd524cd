// zod issues turned into field issues with messages a person can act on.
import * as z from 'zod/mini';
import { dotted, ValidationError, type FieldIssue } from './errors.js';
import { id, pathText } from './schemas/path-values.js';
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

/** The issues of one part of an input (`prefix`: `body`, `params`, or '' for none), each with its path key by key. */
export function toFieldIssues(prefix: string, issues: readonly Issue[], input: unknown): FieldIssue[] {
  const found = new Map<string, FieldIssue>();
  for (const issue of issues) {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))];
    const message = describe(issue, valueAt(input, issue.path));
    // Two checks of one field may fail in the same words: the field is named once.
    found.set(`${dotted(path)}\n${message}`, { path, message });
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

/** One part of an input (path parameters, query or body), checked: its parsed value, or what is wrong with it. */
export type CheckedPart = { ok: true; data: unknown } | { ok: false; issues: FieldIssue[] };

/** Checks one part against its schema; `prefix` names the part in each issue (`body.reason`). */
export function checkPart(prefix: 'params' | 'query' | 'body', schema: z.ZodMiniType, value: unknown): CheckedPart {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, data: result.data } : { ok: false, issues: toFieldIssues(prefix, result.error.issues, value) };
}

/**
 * Checks path parameters, query and body together, throwing one ValidationError that lists every
 * bad field. An operation that takes no body, or no query, takes none.
 */
export function validateInput(
  op: { params: Readonly<Record<string, ParamKind>> },
  schemas: OperationSchemas,
  input: { params?: unknown; body?: unknown; query?: unknown },
): { params: unknown; body?: unknown; query?: unknown } {
  const params = checkPart('params', paramsSchema(op.params), input.params ?? {});
  // A body the operation requires, not given at all, is an empty one (its fields may all be optional).
  const given = input.body === undefined && schemas.body && !schemas.body.safeParse(undefined).success ? {} : input.body;
  const body = schemas.body ? checkPart('body', schemas.body, given) : given === undefined ? undefined : checkPart('body', noBody, given);
  const query = input.query === undefined ? undefined : checkPart('query', schemas.query ?? noQuery, input.query);
  if (params.ok && (!body || body.ok) && (!query || query.ok)) {
    return { params: params.data, ...(body ? { body: body.data } : {}), ...(query ? { query: query.data } : {}) };
  }
  const issues = [params, query, body].flatMap((part) => (part && !part.ok ? part.issues : []));
  throw new ValidationError(issues);
}

const noQuery = z.strictObject({});
const noBody = z.undefined({ error: 'this operation takes no body' });

const paramSchemas: Record<ParamKind, z.ZodMiniType> = { id, string: pathText };

/** The zod schema of an operation's path parameters. */
export function paramsSchema(decl: Readonly<Record<string, ParamKind>>) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, kind] of Object.entries(decl)) shape[name] = paramSchemas[kind];
  return z.strictObject(shape);
}
