// The typed client: one generic `call(id, input)` driven by the operation table, and the same
// calls grouped as methods (`client.subscriptions.cancel(...)`). No per-operation code lives here.
import type { Dispatcher } from 'undici';
import { Agent, request } from './transport.js';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ApiError,
  AuthError,
  InterruptedError,
  NetworkError,
  NotStartedError,
  UnknownOutcomeError,
  describeErrorBody,
  statusLine,
  type NetworkFailure,
} from './errors.js';
import { backoffMs, retryableFailure, retryableStatus, retryAfterMs, type RetryInfo, type RetryOptions } from './retry.js';
import { operations, type OperationId } from './operations.js';
import type { OperationInput, OperationOutput } from './types.js';
import { API_PREFIX, assertSafeTransport, fillPath, normalizeStoreUrl } from './url.js';
import { validateInput } from './validate.js';
import { DEFAULTS } from '../defaults.js';

declare const __STORE_ADMIN_VERSION__: string;
export const CLIENT_VERSION = typeof __STORE_ADMIN_VERSION__ === 'string' ? __STORE_ADMIN_VERSION__ : '0.0.0-dev';

export interface ClientOptions extends RetryOptions {
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
  /** Limit for waiting on the store: for its answer to start, and for each pause in the body (default 30 s). */
  timeoutMs?: number;
  /** Limit for opening the connection (default 10 s, never above timeoutMs). */
  connectTimeoutMs?: number;
  /** Called with each request just before it is sent (tokens already redacted). */
  onRequest?: (request: PreparedRequest) => void;
  /** Called with each response status and headers. */
  onResponse?: (response: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown }) => void;
  /** Called when a response does not match its schema; the raw data is returned anyway. */
  onWarning?: (message: string) => void;
  /** Awaited before every attempt, retries included: where a shared rate limit waits. */
  beforeAttempt?: () => Promise<void>;
  /**
   * Check each answer against its documented shape (default true). Off, answers pass through as
   * received, still normalised where the operation reshapes them (4.7 always yields an array).
   */
  checkResponses?: boolean;
}

export interface PreparedRequest {
  /** Absent for raw requests (`store-admin api`). */
  operation?: OperationId;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface CallOptions {
  /** Aborts the call, even an attempt already sent. */
  signal?: AbortSignal;
  /** Checked once the first attempt's turn comes (after `beforeAttempt`): if aborted, nothing is sent. */
  startSignal?: AbortSignal;
  /** Told the HTTP status of the final answer. */
  onStatus?: (status: number) => void;
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

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the text of any other body, or undefined when empty. */
  body: unknown;
}

export type StoreClient = Groups & {
  readonly baseUrl: string;
  /** Validates the input and builds the request without sending it. */
  prepare<Id extends OperationId>(id: Id, input: OperationInput<Id>): Promise<PreparedRequest>;
  call<Id extends OperationId>(id: Id, input: OperationInput<Id>, options?: CallOptions): Promise<OperationOutput<Id>>;
  /** Builds a raw request without sending it. */
  prepareRaw(request: RawRequest): PreparedRequest;
  /** Sends a raw request with the same auth, retries and safety as `call`; any status is returned. */
  raw(request: RawRequest, options?: CallOptions): Promise<RawResponse>;
  /** Closes the client's own connections. */
  close(): Promise<void>;
};

export function createClient(options: ClientOptions): StoreClient {
  const baseUrl = normalizeStoreUrl(options.baseUrl);
  assertSafeTransport(baseUrl, options.allowHttp ?? false);
  // Node's timers take whole milliseconds.
  const timeoutMs = Math.max(1, Math.round(options.timeoutMs ?? DEFAULTS.timeoutSeconds * 1000));
  const connectTimeoutMs = Math.min(Math.round(options.connectTimeoutMs ?? 10_000), timeoutMs);
  const retries = options.retries ?? DEFAULTS.retries;
  const retryAfterCapMs = options.retryAfterCapMs ?? 30_000;
  const baseDelayMs = options.baseDelayMs ?? 250;
  let ownAgent: Agent | undefined;
  const dispatcher = () =>
    options.dispatcher ?? (ownAgent ??= new Agent({ keepAliveTimeout: 10_000, connect: { timeout: connectTimeoutMs } }));
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

  /** The Authorization header; nothing is sent without a token. */
  function bearer(): string {
    if (!options.token) {
      throw new AuthError(`No API token for ${baseUrl}`, { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
    }
    return `Bearer ${options.token}`;
  }

  async function call<Id extends OperationId>(id: Id, input: OperationInput<Id>, callOptions: CallOptions = {}) {
    const { prepared, headers, schemas } = await prepareWithHeaders(id, input);
    const sendHeaders = { ...headers, authorization: bearer() };
    const response = await sendWithRetries(prepared, sendHeaders, callOptions);
    callOptions.onStatus?.(response.status);
    if (response.status < 200 || response.status >= 300) {
      throw new ApiError(response.status, response.body, describeErrorBody(response.status, response.body), response.headers);
    }
    const body = 'normalize' in schemas && schemas.normalize ? schemas.normalize(response.body) : response.body;
    // An empty answer (204) is a success with nothing to check.
    if (body === undefined || options.checkResponses === false) return body as OperationOutput<Id>;
    const parsed = schemas.response.safeParse(body);
    if (parsed.success) return parsed.data as OperationOutput<Id>;
    options.onWarning?.(`The response to ${id} does not match the documented shape; showing it as received`);
    return body as OperationOutput<Id>;
  }

  async function sendWithRetries(prepared: PreparedRequest, headers: Record<string, string>, callOptions: CallOptions, anyBody = false) {
    const { method } = prepared;
    // Set when an attempt may have reached the store before its answer was lost.
    let answerLost = false;
    for (let attempt = 0; ; attempt++) {
      const more = attempt < retries;
      let response;
      try {
        await options.beforeAttempt?.();
        if (attempt === 0 && callOptions.startSignal?.aborted) throw new NotStartedError('Stopped before it was sent');
        options.onRequest?.(prepared);
        response = await send(prepared, headers, callOptions, anyBody);
      } catch (error) {
        if (more && retryableFailure(method, error)) {
          answerLost ||= (error as NetworkError).sent;
          await pause({ attempt: attempt + 1, of: retries, delayMs: backoffMs(attempt, baseDelayMs), reason: (error as Error).message }, callOptions);
          continue;
        }
        throw outcome(method, error);
      }
      options.onResponse?.(response);
      if (more && retryableStatus(method, response.status)) {
        const asked = retryAfterMs(response.headers['retry-after']);
        if (asked !== undefined && asked > retryAfterCapMs) {
          const at = new Date(Date.now() + asked).toISOString().replace(/\.\d{3}Z$/, 'Z');
          throw new ApiError(response.status, response.body, `${statusLine(response.status)}: the store asks to wait ${Math.ceil(asked / 1000)} s; retry after ${at}`, response.headers);
        }
        const delayMs = asked ?? backoffMs(attempt, baseDelayMs);
        await pause({ attempt: attempt + 1, of: retries, delayMs, reason: statusLine(response.status) }, callOptions);
        continue;
      }
      if (method === 'DELETE' && answerLost && response.status === 404) {
        throw new UnknownOutcomeError(
          'The answer to the first attempt was lost, and the retry found nothing to delete: the first attempt most likely deleted it',
          { hint: 'Read it back to be sure' },
        );
      }
      return response;
    }
  }

  async function pause(info: RetryInfo, callOptions: CallOptions) {
    options.onRetry?.(info);
    try {
      await sleep(info.delayMs, undefined, { signal: callOptions.signal });
    } catch {
      throw interrupted('GET');
    }
  }

  async function send(prepared: PreparedRequest, headers: Record<string, string>, callOptions: CallOptions, anyBody: boolean) {
    let response: Dispatcher.ResponseData;
    try {
      // undici's own timers bound the wait for the answer and each pause in its body; they cost
      // far less per request than an AbortSignal timeout.
      response = await request(dispatcher(), prepared.url, {
        method: prepared.method as Dispatcher.HttpMethod,
        headers,
        body: prepared.body === undefined ? undefined : JSON.stringify(prepared.body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
    } catch (error) {
      if (callOptions.signal?.aborted) throw interrupted(prepared.method);
      throw toNetworkError(error, prepared.url, timeoutMs);
    }
    const { statusCode: status, headers: responseHeaders } = response;
    if (status >= 300 && status < 400) {
      await response.body.dump().catch(() => {});
      const location = responseHeaders.location;
      throw new NetworkError(
        'redirect',
        `The store answered ${statusLine(status)} pointing to ${String(location ?? 'nowhere')}; not followed, so the token was not sent there`,
        { hint: 'Check the store URL; use the address the redirect names if you trust it' },
      );
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      if (callOptions.signal?.aborted) throw interrupted(prepared.method);
      throw new NetworkError('body', `The answer (${status}) from ${new URL(prepared.url).host} was cut short`, { cause: error, status, transient: true });
    }
    const contentType = String(responseHeaders['content-type'] ?? '');
    const body = parseBody(text, contentType, status, anyBody);
    return { status, headers: responseHeaders, body };
  }

  const origin = new URL(baseUrl).origin;

  function rawUrl(path: string): string {
    if (/^https?:\/\//i.test(path)) {
      // Pagination links are absolute: follow them only on the store's own origin.
      if (new URL(path).origin !== origin) {
        throw new NetworkError('redirect', `Refusing to follow ${path}: it is not on ${origin}, and the token would go with it`);
      }
      return path;
    }
    const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
    return `${baseUrl}${API_PREFIX}${relative.startsWith('/') ? '' : '/'}${relative}`;
  }

  function prepareRaw(request: RawRequest) {
    const url = new URL(rawUrl(request.path));
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.append(key, value);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': userAgent,
      ...request.headers,
      'x-store-api-version': request.version,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const prepared: PreparedRequest = {
      method: request.method.toUpperCase(),
      url: url.toString(),
      headers: redactHeaders({ ...headers, authorization: 'Bearer' }),
      ...(request.body !== undefined ? { body: request.body } : {}),
    };
    return { prepared, headers };
  }

  async function raw(request: RawRequest, callOptions: CallOptions = {}): Promise<RawResponse> {
    const { prepared, headers } = prepareRaw(request);
    const response = await sendWithRetries(prepared, { ...headers, authorization: bearer() }, callOptions, true);
    callOptions.onStatus?.(response.status);
    return response;
  }

  const client = {
    baseUrl,
    prepareRaw: (request: RawRequest) => prepareRaw(request).prepared,
    raw,
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

/** JSON, or for an error answer (and for raw requests) the text itself. */
function parseBody(text: string, contentType: string, status: number, anyBody: boolean): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (status >= 200 && status < 300 && !anyBody) {
      const kind = /html/i.test(contentType) || /^\s*</.test(text) ? 'an HTML page' : 'a body that is not JSON';
      // Not transient: asking again would get the same page.
      throw new NetworkError('body', `The store answered ${status} with ${kind}; expected JSON`, {
        hint: 'A proxy may stand in front of the store: check the store URL',
        status,
      });
    }
    return text;
  }
}

/** A POST whose answer was lost may have been applied: say so rather than guess. */
function outcome(method: string, error: unknown): unknown {
  if (method !== 'POST' || !(error instanceof NetworkError) || !error.sent) return error;
  if (error.kind === 'body' && error.status !== undefined && error.status >= 200 && error.status < 300) {
    return new UnknownOutcomeError(`The store accepted the change (${error.status}) but its answer could not be read`, {
      cause: error,
      hint: 'The change was applied; read it back rather than sending it again',
    });
  }
  if (error.kind === 'reset' || error.kind === 'timeout' || error.kind === 'body' || error.kind === 'other') {
    return new UnknownOutcomeError(`${error.message}; the change may or may not have been applied`, {
      cause: error,
      hint: 'Check the store before sending it again: it was not retried, so it cannot have been applied twice',
    });
  }
  return error;
}

function interrupted(method: string): InterruptedError {
  return new InterruptedError(
    method === 'POST'
      ? 'Interrupted while the request was in flight; the change may or may not have been applied'
      : method === 'GET'
        ? 'Interrupted'
        : 'Interrupted while the request was in flight; sending it again is safe',
  );
}

/** Codes that mean no connection was ever made, so nothing reached the store. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function toNetworkError(error: unknown, url: string, timeoutMs: number): NetworkError {
  const code = errorCode(error);
  const { host, hostname } = new URL(url);
  const sent = !NEVER_SENT.has(code ?? '');
  const make = (kind: NetworkFailure, message: string, extra: { transient?: boolean } = {}) =>
    new NetworkError(kind, message, { cause: error, sent, ...extra });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return make('dns', `Cannot resolve ${hostname}`, { transient: code === 'EAI_AGAIN' });
  }
  if (code === 'ECONNREFUSED') return make('refused', `Connection refused by ${host}`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return make('refused', `${host} is unreachable`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return make('timeout', `Could not connect to ${host} in time`);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || isTimeout(error)) {
    return make('timeout', `No answer from ${host} within ${Number((timeoutMs / 1000).toFixed(1))} s`);
  }
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code ?? '')) return make('tls', `TLS failure talking to ${host} (${code})`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return make('reset', `The connection to ${host} was reset`);
  }
  return make('other', `Request to ${host} failed: ${error instanceof Error ? error.message : String(error)}`);
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
