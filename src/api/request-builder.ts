// Turns an operation and its input (or a raw request by path) into the request that will leave:
// URL, headers, JSON body. Nothing here sends anything; --dry-run shows exactly this.
import { NetworkError } from './errors.js';
import { operations, type OperationId } from './operations.js';
import type { OperationInput } from './types.js';
import { API_PREFIX, fillPath } from './url.js';
import { validateInput } from './validate.js';

export interface PreparedRequest {
  /** Absent for raw requests (`store-admin api`). */
  operation?: OperationId;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A request by path, for the parts of the API the table does not describe. */
export interface RawRequest {
  method: string;
  /** Relative to `/api/admin` (a query string may follow), or an absolute URL on the store's own origin. */
  path: string;
  version: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

export const REDACTED = '***';

/** A copy of the headers that is safe to print. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const safe = { ...headers };
  if (safe.authorization) safe.authorization = `Bearer ${REDACTED}`;
  return safe;
}

/** A request ready to send: what may be shown (`prepared`, token redacted) and the headers to send (no token yet). */
export interface Built {
  prepared: PreparedRequest;
  headers: Record<string, string>;
}

export function requestBuilder(settings: { baseUrl: string; userAgent: string; apiVersion?: string }) {
  const { baseUrl, userAgent } = settings;
  const origin = new URL(baseUrl).origin;

  const build = (method: string, url: string, headers: Record<string, string>, body: unknown, operation?: OperationId): Built => {
    if (body !== undefined) headers['content-type'] = 'application/json';
    const prepared: PreparedRequest = {
      ...(operation ? { operation } : {}),
      method,
      url,
      headers: redactHeaders({ ...headers, authorization: 'Bearer' }),
      ...(body !== undefined ? { body } : {}),
    };
    return { prepared, headers };
  };

  /** An absolute URL must be on the store's own origin: the token goes with it. */
  function rawUrl(path: string): string {
    if (/^https?:\/\//i.test(path)) {
      if (new URL(path).origin !== origin) {
        throw new NetworkError('redirect', `Refusing to follow ${path}: it is not on ${origin}, and the token would go with it`);
      }
      return path;
    }
    const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
    return `${baseUrl}${API_PREFIX}${relative.startsWith('/') ? '' : '/'}${relative}`;
  }

  return {
    userAgent,
    /** Validates the input against the operation's schemas and builds its request. */
    async operation<Id extends OperationId>(id: Id, input: OperationInput<Id>) {
      const op = operations[id];
      const schemas = await op.schemas();
      const { params, body } = validateInput(op, schemas, input) as { params: Record<string, unknown>; body: unknown };
      const headers = { accept: 'application/json', 'user-agent': userAgent, 'x-store-api-version': settings.apiVersion ?? op.version };
      return { ...build(op.method, `${baseUrl}${API_PREFIX}${fillPath(op.path, params)}`, headers, body, id), schemas };
    },
    raw(request: RawRequest): Built {
      const url = new URL(rawUrl(request.path));
      for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.append(key, value);
      const headers = { accept: 'application/json', 'user-agent': userAgent, ...request.headers, 'x-store-api-version': request.version };
      return build(request.method.toUpperCase(), url.toString(), headers, request.body);
    },
  };
}
