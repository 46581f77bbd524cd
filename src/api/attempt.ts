// One attempt at a request: sent through the exchange, redirects refused (the token never
// follows one), the answer parsed, and every failure turned into a NetworkError that says
// whether the request can have reached the store.
import { InterruptedError, NetworkError, statusLine, UsageError, type NetworkFailure } from './errors.js';
import { ExchangeError, type HttpPool } from './http.js';
import { nestsDeeperThan } from './json-depth.js';
import { excerpt } from '../printable.js';
import type { PreparedRequest } from './request-builder.js';
import type { Response } from './types.js';

export interface AttemptLimits {
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Most bytes of an answer read (a JSON answer is held in memory whole). */
  maxBytes: number;
}


/**
 * Sends `prepared` once (to its URL as the client parsed it, if given), with the headers that carry the token and the body as JSON text.
 * `anyBody` accepts a success that is not JSON (raw requests); for operations that is an error.
 */
export async function attempt(
  pool: HttpPool,
  prepared: PreparedRequest,
  { url = prepared.url, headers, body }: { url?: URL | string; headers: Readonly<Record<string, string>>; body: string | undefined },
  limits: AttemptLimits,
  signal: AbortSignal | undefined,
  anyBody: boolean,
): Promise<Response> {
  let answer;
  try {
    const { timeoutMs, connectTimeoutMs, maxBytes } = limits;
    answer = await pool.send({ method: prepared.method, url, headers, body, timeoutMs, connectTimeoutMs, maxBytes, signal });
  } catch (error) {
    if (signal?.aborted) throw interrupted(prepared.method);
    // Node refuses such a header before it opens a connection: nothing can have been applied.
    if (BAD_HEADER.has(errorCode(error) ?? '')) {
      throw new UsageError(`A request header holds a character HTTP does not allow (${(error as Error).message}); nothing was sent`);
    }
    throw toNetworkError(error, prepared.url, limits);
  }
  const { status, headers: responseHeaders, text } = answer;
  if (status >= 300 && status < 400) {
    const location = responseHeaders.location;
    throw new NetworkError(
      'redirect',
      `The store answered ${statusLine(status)} pointing to ${excerpt(String(location ?? 'nowhere'))}; not followed, so the token was not sent there`,
      { hint: 'Check the store URL; use the address the redirect names if you trust it' },
    );
  }
  return { status, headers: responseHeaders, body: parseBody(text, String(responseHeaders['content-type'] ?? ''), status, anyBody, prepared.url) };
}

/** Far deeper than any answer of the API; shallow enough for every recursive walker of the tool. */
const MAX_ANSWER_DEPTH = 256;

/** JSON, or for an error answer (and for raw requests) the text itself. */
function parseBody(text: string, contentType: string, status: number, anyBody: boolean, url: string): unknown {
  if (!/\S/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
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
  if (typeof parsed === 'object' && parsed !== null && nestsDeeperThan(text, MAX_ANSWER_DEPTH)) {
    // Not transient: the same answer would come again.
    throw new NetworkError('body', `The answer (${status}) from ${new URL(url).host} is nested more than ${MAX_ANSWER_DEPTH} levels deep; not read`, { status });
  }
  return parsed;
}

export function interrupted(method: string): InterruptedError {
  return new InterruptedError(
    method === 'POST'
      ? 'Interrupted while the request was in flight; the change may or may not have been applied'
      : method === 'GET'
        ? 'Interrupted'
        : 'Interrupted while the request was in flight; sending it again is safe',
  );
}

/** Node's refusals of a header name or value, made before anything is sent. */
const BAD_HEADER = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE']);

/** Codes that mean no connection was ever made, so nothing reached the store. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'CONNECT_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function toNetworkError(error: unknown, url: string, limits: AttemptLimits): NetworkError {
  const code = errorCode(error);
  const { host, hostname } = new URL(url);
  const sent = !NEVER_SENT.has(code ?? '');
  const status = error instanceof ExchangeError ? error.status : undefined;
  const make = (kind: NetworkFailure, message: string, extra: { transient?: boolean; hint?: string } = {}) =>
    new NetworkError(kind, message, { cause: error, sent, ...(status !== undefined ? { status } : {}), ...extra });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return make('dns', `Cannot resolve ${hostname}`, { transient: code === 'EAI_AGAIN' });
  }
  if (code === 'ECONNREFUSED') return make('refused', `Connection refused by ${host}`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return make('refused', `${host} is unreachable`);
  if (code === 'CONNECT_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return make('timeout', `Could not connect to ${host} in time`);
  if (code === 'TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return make('timeout', `No complete answer from ${host} within ${Number((limits.timeoutMs / 1000).toFixed(1))} s`, {
      hint: 'Raise --timeout if the store is slow but working',
    });
  }
  if (code === 'TOO_LARGE') {
    // Not transient: the same answer would come again.
    return new NetworkError('body', `The answer from ${host} is larger than ${formatSize(limits.maxBytes)}; stopped reading it`, {
      cause: error,
      status,
      hint: 'Raise the limit with STORE_ADMIN_MAX_RESPONSE_MB if the answer is expected to be this large',
    });
  }
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|^EPROTO$/i.test(code ?? '')) return make('tls', `TLS failure talking to ${host} (${code})`);
  if (code === 'CUT_SHORT') return make('body', `The answer (${status}) from ${host} was cut short`, { transient: true });
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return make('reset', `The connection to ${host} was reset`);
  }
  return make('other', `Request to ${host} failed: ${error instanceof Error ? error.message : String(error)}`);
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
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
