// The typed client: `prepare(id, input)` checks and builds a call from the operation table,
// `send` sends it, `call` does both; the same calls are grouped as methods
// (`client.subscriptions.cancel(...)`). No per-operation code lives here: calls are checked and
// built by ./prepare.ts, requests by ./request-builder.ts, each attempt is made by ./attempt.ts
// over ./http.ts (or an undici dispatcher a program brings), and ./retry.ts decides what is
// retried. `with(settings)` derives a client for one kind of work (a bulk run's rate limit) that
// shares the connections and the token.
import { ApiError, AuthError, describeErrorBody, withoutSecret } from './errors.js';
import { attempt } from './attempt.js';
import { httpPool, limitsOf, type HttpPool, type OpenAnswer } from './http.js';
import type { OperationId } from './operations.js';
import { grouped, type Grouped } from './grouped.js';
import { PreparedCall, prepareCall } from './prepare.js';
import { redactQuery } from './redaction.js';
import { requestBuilder, type Built, type PreparedRequest, type RawRequest } from './request-builder.js';
import type { RetryOptions } from './retry.js';
import { withRetries } from './retry-loop.js';
import type { Dispatcher } from 'undici';
import type { ProxySettings } from './proxy.js';
import type { OperationInput, OperationOutput, Response } from './types.js';
import { assertSafeTransport, normalizeStoreUrl } from './url.js';
import { DEFAULTS } from '../defaults.js';

export { REDACTED, redactHeaders, redactQuery } from './redaction.js';
export type { PreparedRequest, RawRequest } from './request-builder.js';
export { PreparedCall } from './prepare.js';

declare const __STORE_ADMIN_VERSION__: string;
export const CLIENT_VERSION = typeof __STORE_ADMIN_VERSION__ === 'string' ? __STORE_ADMIN_VERSION__ : '0.0.0-dev';

/** Largest JSON answer read by default; STORE_ADMIN_MAX_RESPONSE_MB or `maxResponseBytes` change it. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** What a derived client (`with`) may set for its own calls; everything else it shares. */
export interface ClientSettings {
  /** Overrides every operation's X-Store-API-Version value. */
  apiVersion?: string;
  /** Told once, when the first request of an operation is built with `apiVersion` in place of its own version. */
  onApiVersion?: (version: string) => void;
  /** Awaited before every attempt, retries included: where a shared rate limit waits. */
  beforeAttempt?: () => Promise<void> | void;
  /** Announces each wait before a retry. */
  onRetry?: RetryOptions['onRetry'];
  /**
   * Check each answer against its documented shape (default true). Off, answers pass through as
   * received, still normalised where the operation reshapes them (4.7 always yields an array).
   */
  checkResponses?: boolean;
  /** Called when a response does not match its schema; the raw data is returned anyway. */
  onWarning?: (message: string) => void;
}

export interface ClientOptions extends RetryOptions, ClientSettings {
  /** The store URL in any usual form (`shop.example.com`, `https://…/api/admin/`). */
  baseUrl: string;
  token?: string;
  /** An undici dispatcher to send through (a proxy, a mock, a tuned pool); the time and size limits still apply. By default Node's own HTTP with keep-alive. */
  dispatcher?: Dispatcher;
  /** A proxy to send through (`proxyFromEnv(process.env)` reads the usual variables); never used for this machine. */
  proxy?: ProxySettings;
  /** Send the token over plain http to a non-loopback host. */
  allowHttp?: boolean;
  userAgent?: string;
  /** Limit for each whole attempt: connecting, the wait for the answer and all of its body (default 30 s). */
  timeoutMs?: number;
  /** Limit for opening the connection (default: DEFAULTS.connectTimeoutSeconds, never above timeoutMs). */
  connectTimeoutMs?: number;
  /** Largest answer read (default 64 MB); a larger one is an error, not read further. */
  maxResponseBytes?: number;
  /** Called with each request just before it is sent (tokens already redacted). */
  onRequest?: (request: PreparedRequest) => void;
  /** Called with each response status and headers. */
  onResponse?: (response: Response) => void;
}

export interface CallOptions {
  /** Aborts the call, even an attempt already sent. */
  signal?: AbortSignal;
  /** Checked once the first attempt's turn comes (after `beforeAttempt`): if aborted, nothing is sent. */
  startSignal?: AbortSignal;
  /** Told the HTTP status of the final answer. */
  onStatus?: (status: number) => void;
  /** Called once, just before the first attempt leaves (after its turn came): a journal records it. */
  onSend?: () => void;
}

export type RawResponse = Response;

export type StoreClient = Grouped<CallOptions> & {
  readonly baseUrl: string;
  /** Checks the input and builds the call (at this client's API version), without sending it; throws a ValidationError naming every bad field. */
  prepare<Id extends OperationId>(id: Id, input: OperationInput<Id>): Promise<PreparedCall<Id>>;
  /** Sends a prepared call as it is: it was checked when it was prepared. */
  send<Id extends OperationId>(call: PreparedCall<Id>, options?: CallOptions): Promise<OperationOutput<Id>>;
  /** `send(await prepare(id, input), options)`. */
  call<Id extends OperationId>(id: Id, input: OperationInput<Id>, options?: CallOptions): Promise<OperationOutput<Id>>;
  /** The request a prepared call would be on this client, token and secrets of the URL redacted (--dry-run). */
  request(call: PreparedCall): PreparedRequest;
  /** A client with these settings for its calls, sharing this one's connections and token. */
  with(settings: ClientSettings): StoreClient;
  /** Builds a raw request without sending it. */
  prepareRaw(request: RawRequest): PreparedRequest;
  /** Sends a raw request with the same auth, retries and safety as `call`; any status is returned. */
  raw(request: RawRequest, options?: CallOptions): Promise<RawResponse>;
  /**
   * GETs a URL with no token (a pre-signed link) under the same time limit, with its body handed
   * over unread; redirects are not followed here.
   * @internal
   */
  openLink(url: string, options?: { signal?: AbortSignal }): Promise<OpenAnswer>;
  /** Closes the client's own connections (shared with the clients derived from it). */
  close(): Promise<void>;
};

export function createClient(options: ClientOptions): StoreClient {
  const baseUrl = normalizeStoreUrl(options.baseUrl);
  assertSafeTransport(baseUrl, options.allowHttp ?? false);
  const limits = limitsOf({
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutSeconds * 1000,
    connectTimeoutMs: options.connectTimeoutMs,
    maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  });
  const pool = httpPool(limits, { dispatcher: options.dispatcher, proxy: options.proxy });
  const shared: Shared = {
    baseUrl,
    pool,
    authorized: (headers) => {
      if (!options.token) {
        throw new AuthError(`No API token for ${baseUrl}`, { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
      }
      return { ...headers, authorization: `Bearer ${options.token}` };
    },
    userAgent: options.userAgent ?? `store-admin/${CLIENT_VERSION} node/${process.versions.node}`,
  };
  return clientOf(shared, options);
}

/** What every client derived from one shares: the store, the connections (and their limits) and the token. */
interface Shared {
  baseUrl: string;
  pool: HttpPool;
  authorized(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
  userAgent: string;
}

function clientOf(shared: Shared, options: ClientOptions, built?: ReturnType<typeof requestBuilder>): StoreClient {
  const { baseUrl, pool } = shared;
  const builder = built ?? requestBuilder({ baseUrl, userAgent: shared.userAgent, apiVersion: options.apiVersion, onApiVersion: options.onApiVersion });

  async function exchange({ prepared, url, headers, json }: Built, callOptions: CallOptions, anyBody: boolean): Promise<Response> {
    const sendHeaders = shared.authorized(headers);
    let response: Response;
    try {
      response = await withRetries(prepared, () => attempt(pool, prepared, { url, headers: sendHeaders, body: json }, callOptions.signal, anyBody), options, callOptions);
    } catch (error) {
      throw withoutSecret(error, options.token);
    }
    callOptions.onStatus?.(response.status);
    return response;
  }

  async function send<Id extends OperationId>(call: PreparedCall<Id>, callOptions: CallOptions = {}): Promise<OperationOutput<Id>> {
    // Only a call from prepare() was checked: send does not check again.
    if (!(call instanceof PreparedCall)) throw new TypeError('send() takes a call made by prepare()');
    const response = await exchange(builder.operation(call), callOptions, false);
    if (response.status < 200 || response.status >= 300) {
      throw withoutSecret(new ApiError(response.status, response.body, describeErrorBody(response.status, response.body), response.headers), options.token);
    }
    const schemas = PreparedCall.schemasOf(call);
    const body = schemas.normalize ? schemas.normalize(response.body) : response.body;
    // An empty answer (204) is a success with nothing to check.
    if (body === undefined || options.checkResponses === false) return body as OperationOutput<Id>;
    // A list the reference declares as one object (answers `many`) is normalized to a list, which its schema describes.
    if (schemas.response.safeParse(body).success) return body as OperationOutput<Id>;
    options.onWarning?.(`The response to ${call.operation} does not match the documented shape; showing it as received`);
    return body as OperationOutput<Id>;
  }

  const prepare = <Id extends OperationId>(id: Id, input: OperationInput<Id>) => prepareCall(id, input, options.apiVersion);
  const call = async <Id extends OperationId>(id: Id, input: OperationInput<Id>, callOptions?: CallOptions) => send(await prepare(id, input), callOptions);

  const client = {
    ...(grouped<CallOptions>(call as never) as Grouped<CallOptions>),
    baseUrl,
    prepare,
    send,
    call,
    request: (prepared: PreparedCall) => builder.operation(prepared).prepared,
    with: (settings: ClientSettings) =>
      // A client that keeps the version keeps the request builder too, which tells of a changed version once.
      clientOf(shared, { ...options, ...settings }, 'apiVersion' in settings && settings.apiVersion !== options.apiVersion ? undefined : builder),
    prepareRaw: (request: RawRequest) => builder.raw(request).prepared,
    raw: (request: RawRequest, callOptions: CallOptions = {}) => exchange(builder.raw(request), callOptions, true),
    openLink: async (url: string, { signal }: { signal?: AbortSignal } = {}) => {
      const prepared = { method: 'GET', url, headers: { accept: '*/*', 'user-agent': builder.userAgent } };
      // The link (and a redirect's) works without a token: only its path is ever shown.
      options.onRequest?.({ ...prepared, url: redactQuery(url) });
      let answer;
      try {
        answer = await pool.open({ ...prepared, signal });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw pool.describe(error, url);
      }
      const { location } = answer.headers;
      options.onResponse?.({ status: answer.status, headers: typeof location === 'string' ? { ...answer.headers, location: redactQuery(location) } : answer.headers, body: undefined });
      return answer;
    },
    close: () => pool.close(),
  };
  return client;
}
