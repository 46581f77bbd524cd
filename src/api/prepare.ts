// A call checked and built before it is sent, and what passes between the layers: the command
// checks its input by preparing the call, --dry-run shows it, and the client sends it as it is,
// without checking it again. It needs no store URL and no token.
import { loadOperation, type Method, type Operation, type OperationId, type OperationSchemas } from './operations.js';
import type { OperationInput } from './types.js';
import { fillPath } from './url.js';
import { validateInput } from './validate.js';

/**
 * An operation's input, checked against its schemas at one API version and built into the parts
 * of its request. Frozen all the way down, and a copy: the caller's objects are left as they were.
 */
export class PreparedCall<Id extends OperationId = OperationId> {
  readonly operation: Id;
  readonly method: Method;
  /** The X-Store-API-Version the input was checked for, and is sent with. */
  readonly version: string;
  /** Under the API root, with the path parameters filled in and encoded: `/orders/A%2F1/notes/`. */
  readonly path: string;
  /** The query string, `?status=open&status=canceled`, or empty. */
  readonly search: string;
  /** The input as checked. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  /** The body as the JSON text that is sent: serialised once, so a retry sends the very text that was checked and shown. */
  readonly json?: string;
  /** The response schema (and normaliser) that the answer is read with. */
  readonly #schemas: OperationSchemas;

  /** Made by prepareCallWith only: nothing else is known to be checked. */
  private constructor(op: Operation, version: string, schemas: OperationSchemas, checked: { params: unknown; query?: unknown; body?: unknown }) {
    this.operation = op.id as Id;
    this.method = op.method;
    this.version = version;
    this.#schemas = schemas;
    this.params = frozenCopy(checked.params) as Record<string, unknown>;
    this.path = fillPath(op.path, this.params);
    this.search = '';
    if (checked.query !== undefined) {
      this.query = frozenCopy(checked.query) as Record<string, unknown>;
      this.search = queryString(this.query);
    }
    if (checked.body !== undefined) {
      this.body = frozenCopy(checked.body);
      this.json = JSON.stringify(this.body);
    }
    Object.freeze(this);
  }

  /** @internal The schemas an answer to this call is read with. */
  static schemasOf(call: PreparedCall): OperationSchemas {
    return call.#schemas;
  }

  /** @internal Checks the input and builds the call. */
  static make<Id extends OperationId>(op: Operation, version: string, schemas: OperationSchemas, input: OperationInput<Id>): PreparedCall<Id> {
    return new PreparedCall<Id>(op, version, schemas, validateInput(op, schemas, input));
  }
}

/** Checks and builds a call, loading its part of the table and its schemas first (once per process). */
export async function prepareCall<Id extends OperationId>(id: Id, input: OperationInput<Id>, version?: string): Promise<PreparedCall<Id>> {
  const op = await loadOperation(id);
  const at = version ?? op.version;
  return PreparedCall.make(op, at, await op.schemas(at), input);
}

/** The same with the schemas at hand, without a pause: for many inputs in a row. Throws a ValidationError naming every bad field. */
export function prepareCallWith<Id extends OperationId>(op: Operation, version: string, schemas: OperationSchemas, input: OperationInput<Id>): PreparedCall<Id> {
  return PreparedCall.make(op, version, schemas, input);
}

/** `?a=1&b=2&b=3` for the values given (lists repeat their name), or nothing. */
function queryString(query: Readonly<Record<string, unknown>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item === null ? '' : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A copy of plain data, frozen all the way down; what a schema passed through untouched is copied too. */
function frozenCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = frozenCopy((value as Record<string, unknown>)[key]);
    // A key named __proto__ stays a key: assigned, it would set the copy's prototype instead.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: child, enumerable: true });
    else copy[key] = child;
  }
  return Object.freeze(copy);
}
