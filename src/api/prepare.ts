// A call checked and built before it is sent, and what passes between the layers: the command
// checks its input by preparing the call, --dry-run shows it, and the client sends it as it is,
// without checking it again. It needs no store URL and no token.
import { operations, type Method, type OperationId, type OperationSchemas } from './operations.js';
import type { OperationInput } from './types.js';
import { fillPath } from './url.js';
import { validateInput } from './validate.js';

/**
 * An operation's input, checked against its schemas and built into the parts of its request.
 * Frozen all the way down, and a copy: the caller's objects are left as they were.
 */
export class PreparedCall<Id extends OperationId = OperationId> {
  readonly operation: Id;
  readonly method: Method;
  /** Under the API root, with the path parameters filled in and encoded: `/orders/A%2F1/notes/`. */
  readonly path: string;
  /** The query string, `?status=open`, or empty. */
  readonly search: string;
  /** The input as checked (defaults applied). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** The body as the JSON text that is sent: serialised once, so a retry sends the very text that was checked and shown. */
  readonly json?: string;
  /** The response schema (and normaliser) that the answer is read with. */
  readonly #schemas: OperationSchemas;

  /** Made by prepareCall and prepareCallWith only: nothing else is known to be checked. */
  private constructor(id: Id, schemas: OperationSchemas, checked: { params: unknown; query?: unknown }, body: FrozenBody | undefined) {
    const op = operations[id];
    this.operation = id;
    this.method = op.method;
    this.#schemas = schemas;
    this.params = frozenCopy(checked.params) as Record<string, unknown>;
    this.path = fillPath(op.path, this.params);
    this.search = '';
    if (checked.query !== undefined) {
      this.query = frozenCopy(checked.query) as Record<string, string>;
      this.search = queryString(this.query);
    }
    if (body) {
      this.body = body.value;
      this.json = body.json;
    }
    Object.freeze(this);
  }

  /** @internal The schemas an answer to this call is read with. */
  static schemasOf(call: PreparedCall): OperationSchemas {
    return call.#schemas;
  }

  /** @internal Checks the input and builds the call. */
  static make<Id extends OperationId>(id: Id, schemas: OperationSchemas, input: OperationInput<Id>) {
    const checked = validateInput(operations[id], schemas, input);
    return new PreparedCall(id, schemas, checked, checked.body === undefined ? undefined : frozenBody(checked.body));
  }
}

interface FrozenBody {
  value: unknown;
  json: string | undefined;
}

/** Checks and builds a call, loading its operation's schemas first (once per process). */
export async function prepareCall<Id extends OperationId>(id: Id, input: OperationInput<Id>): Promise<PreparedCall<Id>> {
  return prepareCallWith(await operations[id].schemas(), id, input);
}

/** The same with the schemas at hand, without a pause: for many inputs in a row. Throws a ValidationError naming every bad field. */
export function prepareCallWith<Id extends OperationId>(schemas: OperationSchemas, id: Id, input: OperationInput<Id>): PreparedCall<Id> {
  return PreparedCall.make(id, schemas, input);
}

/** A body that passed its check, copied, frozen and serialised. */
function frozenBody(data: unknown): FrozenBody {
  const value = frozenCopy(data);
  return { value, json: JSON.stringify(value) };
}

/** `?a=1&b=2` for the values given, or nothing. */
function queryString(query: Readonly<Record<string, string | undefined>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, value);
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
