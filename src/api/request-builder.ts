// Turns a prepared call (or a raw request by path) into the request that will leave on this
// client: URL, headers, JSON body. Nothing here sends anything; --dry-run shows exactly this.
import { NetworkError, UsageError } from './errors.js';
import type { OperationId } from './operations.js';
import type { PreparedCall } from './prepare.js';
import { API_PREFIX, apiRoot, insideApiRoot } from './url.js';
import { redactHeaders } from './redaction.js';

export interface PreparedRequest {
  /** Absent for raw requests (`store-admin api`). */
  operation?: OperationId;
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
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

/**
 * A request ready to send: what may be shown (`prepared`, token redacted), the URL as parsed, the
 * headers to send (no token yet) and the body as JSON text.
 */
export interface Built {
  prepared: PreparedRequest;
  url: URL;
  headers: Readonly<Record<string, string>>;
  json: string | undefined;
}

/** A JSON body is announced as such. */
function jsonHeaders(headers: Record<string, string>, withBody: boolean): Record<string, string> {
  if (withBody) headers['content-type'] = 'application/json';
  return headers;
}

export function requestBuilder(settings: { baseUrl: string; userAgent: string; apiVersion?: string; onApiVersion?: (version: string) => void }) {
  const { baseUrl, userAgent, apiVersion } = settings;
  const origin = new URL(baseUrl).origin;
  const root = apiRoot(baseUrl);

  const build = (method: string, url: URL, headers: Readonly<Record<string, string>>, body: unknown, json: string | undefined, operation?: OperationId): Built => {
    // What may be shown: the token marked as redacted.
    const shown = redactHeaders({ ...headers, authorization: 'Bearer' });
    const prepared: PreparedRequest = { ...(operation ? { operation } : {}), method, url: url.href, headers: shown, ...(body !== undefined ? { body } : {}) };
    return { prepared, url, headers, json };
  };

  let versionTold = false;
  /** A call's headers: the version it was checked for, unless the settings name another (said once). */
  const headersOf = (call: PreparedCall) => {
    if (apiVersion && !versionTold) {
      versionTold = true;
      settings.onApiVersion?.(apiVersion);
    }
    return jsonHeaders({ accept: 'application/json', 'user-agent': userAgent, 'x-store-api-version': apiVersion ?? call.version }, call.json !== undefined);
  };

  /**
   * An absolute URL must be on the store's own origin, and a path must stay under its API root
   * once `..`, `%2e%2e` and backslashes are resolved: the token goes with it.
   */
  function rawUrl(path: string): URL {
    if (/^https?:\/\//i.test(path)) {
      if (new URL(path).origin !== origin) {
        throw new NetworkError('redirect', `Refusing to follow ${path}: it is not on ${origin}, and the token would go with it`);
      }
      return new URL(path);
    }
    const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
    const url = new URL(`${baseUrl}${API_PREFIX}${relative.startsWith('/') ? '' : '/'}${relative}`);
    if (!insideApiRoot(url, root)) {
      throw new UsageError(`Refusing the path ${JSON.stringify(path)}: it leads to ${url.pathname}, outside ${root.pathname}, and the token would go with it`);
    }
    return url;
  }

  return {
    userAgent,
    /** A prepared call's request on this store: checked already, so only joined and parsed here. */
    operation(call: PreparedCall): Built {
      const url = new URL(`${baseUrl}${API_PREFIX}${call.path}${call.search}`);
      return build(call.method, url, headersOf(call), call.body, call.json, call.operation);
    },
    raw(request: RawRequest): Built {
      const url = rawUrl(request.path);
      for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.append(key, value);
      // Names in lower case, as HTTP compares them: a caller's "Authorization" cannot go out beside the token.
      const given = Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
      const headers = jsonHeaders({ accept: 'application/json', 'user-agent': userAgent, ...given, 'x-store-api-version': request.version }, request.body !== undefined);
      return build(request.method.toUpperCase(), url, headers, request.body, request.body === undefined ? undefined : JSON.stringify(request.body));
    },
  };
}
