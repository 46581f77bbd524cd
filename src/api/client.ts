// The typed client: one generic `call(id, input)` driven by the operation table, and the same
// calls grouped as methods (`client.subscriptions.cancel(...)`). No per-operation code lives here.
import { Agent, request, type Dispatcher } from 'undici';
import { ApiError, AuthError, NetworkError, describeErrorBody, statusLine, type NetworkFailure } from './errors.js';
import { operations, type OperationId } from './operations.js';
import type { OperationInput, OperationOutput } from './types.js';
import { API_PREFIX, assertSafeTransport, fillPath, normalizeStoreUrl } from './url.js';
import { validateInput } from './validate.js';

declare const __STORE_ADMIN_VERSION__: string;
export const CLIENT_VERSION = typeof __STORE_ADMIN_VERSION__ === 'string' ? __STORE_ADMIN_VERSION__ : '0.0.0-dev';

export interface ClientOptions {
  /** The store URL in any usual form (`shop.example.com`, `https://…/api/admin/`). */
  baseUrl: string;
  token?: string;
  /** Transport; defaults to one keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher;
  /** Send the token over plain http to a non-loopback host. */
  allowHttp?: boolean;
  /** Overrides every operation's X-Store-API-Version value. */
  apiVersion?: string;
  userAgent?: string;
  /** Whole-request timeout in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Called with each request just before it is sent (tokens already redacted). */
  onRequest?: (request: PreparedRequest) => void;
  /** Called with each response status and headers. */
  onResponse?: (response: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown }) => void;
  /** Called when a response does not match its schema; the raw data is returned anyway. */
  onWarning?: (message: string) => void;
}

export interface PreparedRequest {
  operation: OperationId;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export const REDACTED = '***';

/** A copy of the headers that is safe to print. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const safe = { ...headers };
  if (safe.authorization) safe.authorization = `Bearer ${REDACTED}`;
  return safe;
}

type GroupOf<Id> = Id extends `${infer Group}.${string}` ? Group : never;
type MethodOf<Id> = Id extends `${string}.${infer Method}` ? Method : never;
type Groups = {
  [G in GroupOf<OperationId>]: {
    [Id in OperationId as GroupOf<Id> extends G ? MethodOf<Id> : never]: (
      input: OperationInput<Id>,
      options?: CallOptions,
    ) => Promise<OperationOutput<Id>>;
  };
};

export type StoreClient = Groups & {
  readonly baseUrl: string;
  /** Validates the input and builds the request without sending it. */
  prepare<Id extends OperationId>(id: Id, input: OperationInput<Id>): Promise<PreparedRequest>;
  call<Id extends OperationId>(id: Id, input: OperationInput<Id>, options?: CallOptions): Promise<OperationOutput<Id>>;
  /** Closes the client's own connections. */
  close(): Promise<void>;
};

export function createClient(options: ClientOptions): StoreClient {
  const baseUrl = normalizeStoreUrl(options.baseUrl);
  assertSafeTransport(baseUrl, options.allowHttp ?? false);
  let ownAgent: Agent | undefined;
  const dispatcher = () => options.dispatcher ?? (ownAgent ??= new Agent({ keepAliveTimeout: 10_000 }));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const userAgent = options.userAgent ?? `store-admin/${CLIENT_VERSION} node/${process.versions.node}`;

  async function prepareWithHeaders<Id extends OperationId>(id: Id, input: OperationInput<Id>) {
    const op = operations[id];
    const schemas = await op.schemas();
    const { params, body } = validateInput(op, schemas, input) as { params: Record<string, unknown>; body: unknown };
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': userAgent,
      'x-store-api-version': options.apiVersion ?? op.version,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const prepared: PreparedRequest = {
      operation: id,
      method: op.method,
      url: `${baseUrl}${API_PREFIX}${fillPath(op.path, params)}`,
      headers: redactHeaders({ ...headers, authorization: 'Bearer' }),
      ...(body !== undefined ? { body } : {}),
    };
    return { prepared, headers, schemas };
  }

  async function call<Id extends OperationId>(id: Id, input: OperationInput<Id>, callOptions: CallOptions = {}) {
    const { prepared, headers, schemas } = await prepareWithHeaders(id, input);
    if (!options.token) {
      throw new AuthError(`No API token for ${baseUrl}`, { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
    }
    options.onRequest?.(prepared);
    const response = await send(prepared, { ...headers, authorization: `Bearer ${options.token}` }, callOptions);
    options.onResponse?.(response);
    if (response.status < 200 || response.status >= 300) {
      throw new ApiError(response.status, response.body, describeErrorBody(response.status, response.body), response.headers);
    }
    const parsed = schemas.response.safeParse(response.body);
    if (parsed.success) return parsed.data as OperationOutput<Id>;
    options.onWarning?.(`The response to ${id} does not match the documented shape; showing it as received`);
    return response.body as OperationOutput<Id>;
  }

  async function send(prepared: PreparedRequest, headers: Record<string, string>, callOptions: CallOptions) {
    const signals = [AbortSignal.timeout(timeoutMs), callOptions.signal].filter((s): s is AbortSignal => !!s);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(prepared.url, {
        method: prepared.method as Dispatcher.HttpMethod,
        headers,
        body: prepared.body === undefined ? undefined : JSON.stringify(prepared.body),
        dispatcher: dispatcher(),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      throw toNetworkError(error, prepared.url, timeoutMs, callOptions.signal);
    }
    const { statusCode: status, headers: responseHeaders } = response;
    if (status >= 300 && status < 400) {
      await response.body.dump();
      const location = responseHeaders.location;
      throw new NetworkError(
        'redirect',
        `The store answered ${statusLine(status).replace(/HTTP error$/, 'redirect')} pointing to ${String(location ?? 'nowhere')}; not followed, so the token was not sent there`,
        { hint: 'Check the store URL; use the address the redirect names if you trust it' },
      );
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw toNetworkError(error, prepared.url, timeoutMs, callOptions.signal, 'body');
    }
    const contentType = String(responseHeaders['content-type'] ?? '');
    const body = parseBody(text, contentType, status);
    return { status, headers: responseHeaders, body };
  }

  const client = {
    baseUrl,
    prepare: async <Id extends OperationId>(id: Id, input: OperationInput<Id>) =>
      (await prepareWithHeaders(id, input)).prepared,
    call,
    close: async () => {
      await ownAgent?.close();
      ownAgent = undefined;
    },
  } as Record<string, unknown>;
  for (const id of Object.keys(operations) as OperationId[]) {
    const [group, method] = id.split('.') as [string, string];
    const methods = (client[group] ??= {}) as Record<string, unknown>;
    methods[method] = (input: never, callOptions?: CallOptions) => call(id, input, callOptions);
  }
  return client as StoreClient;
}

function parseBody(text: string, contentType: string, status: number): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (status >= 200 && status < 300) {
      const kind = /html/i.test(contentType) || /^\s*</.test(text) ? 'an HTML page' : 'a body that is not JSON';
      throw new NetworkError('body', `The store answered ${status} with ${kind}; expected JSON`, {
        hint: 'A proxy may stand in front of the store: check the store URL',
      });
    }
    return text;
  }
}

const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function toNetworkError(
  error: unknown,
  url: string,
  timeoutMs: number,
  userSignal: AbortSignal | undefined,
  phase?: 'body',
): Error {
  const code = errorCode(error);
  const host = new URL(url).host;
  let kind: NetworkFailure;
  let message: string;
  if (userSignal?.aborted) return userSignal.reason instanceof Error ? userSignal.reason : new Error('Aborted');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    kind = 'dns';
    message = `Cannot resolve ${new URL(url).hostname}`;
  } else if (code === 'ECONNREFUSED') {
    kind = 'refused';
    message = `Connection refused by ${host}`;
  } else if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || isTimeout(error)) {
    kind = 'timeout';
    message = `No answer from ${host} within ${Math.round(timeoutMs / 1000)} s`;
  } else if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code ?? '')) {
    kind = 'tls';
    message = `TLS failure talking to ${host} (${code})`;
  } else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    kind = 'reset';
    message = phase === 'body' ? `The connection to ${host} broke while reading the answer` : `The connection to ${host} was reset`;
  } else {
    kind = phase === 'body' ? 'body' : 'other';
    message = `Request to ${host} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return new NetworkError(kind, message, { cause: error });
}

/** True when the failure proves the request never reached the store. */
export function neverSent(error: unknown): boolean {
  return error instanceof NetworkError && NEVER_SENT.has(errorCode(error.cause) ?? '');
}

function isTimeout(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return error instanceof Error && (error.name === 'TimeoutError' || (cause instanceof Error && cause.name === 'TimeoutError'));
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
