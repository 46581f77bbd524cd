// The one way the tool sends HTTP: the client's requests, an export's signed link, the OAuth
// token exchange, `webhooks listen --forward-to`, and the sandbox's webhook deliveries all go
// through `httpPool`, under one set of rules:
// - one timer bounds each whole attempt: connecting, the wait for the answer and every byte of its
//   body, however slowly it trickles in (a download handed over unread: each pause instead);
// - connecting has a shorter limit of its own, so a failure then proves nothing was sent;
// - an answer is read up to a size limit, and refused past it without reading the rest;
// - an abort signal stops the attempt at once, at any stage;
// - no redirect is ever followed, and a failure is described by the host alone (`networkError`),
//   never by a URL's query (a signed link's signature) or a header (the token).
// Underneath are two wires (./wire.ts). Node's own http and https modules carry a request sent
// straight to its host: Node parses HTTP natively, where undici first compiles a WebAssembly
// parser and loads its whole API, which costs a one-request command more than the request itself
// (bench row 3b: the same GET from an undici script takes 228 ms against 71 ms from a node:http
// one, Node 20.20, 2026-11-26). undici, through its public API, carries what Node's modules
// cannot: a proxy named in the environment (./proxy.ts) and a dispatcher a program brings
// (./transport.ts).
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { Transform, pipeline, type Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { NetworkError, statusLine, type NetworkFailure } from './errors.js';
import { proxyFor, type ProxySettings } from './proxy.js';
import { ExchangeError, type Head, type Wire } from './wire.js';
import { BodyTooLargeError, readCappedBody } from '../capped-body.js';
import { DEFAULTS } from '../defaults.js';

/** The limits every exchange of a pool keeps. */
export interface Limits {
  /** Limit for the whole attempt, from the first byte sent to the last byte received. */
  timeoutMs: number;
  /** Limit for opening the connection; a failure then proves nothing was sent. */
  connectTimeoutMs: number;
  /** Most bytes of an answer read (it is held in memory whole); more is refused. */
  maxBytes: number;
}

/** Limits from a time limit, with the connect limit (by default DEFAULTS') never above it, in the whole milliseconds Node's timers take. */
export function limitsOf({ timeoutMs, connectTimeoutMs = DEFAULTS.connectTimeoutSeconds * 1000, maxBytes }: { timeoutMs: number; connectTimeoutMs?: number; maxBytes: number }): Limits {
  const whole = Math.max(1, Math.round(timeoutMs));
  return { timeoutMs: whole, connectTimeoutMs: Math.max(1, Math.min(Math.round(connectTimeoutMs), whole)), maxBytes };
}

/** Headers as a list of pairs keep their names' case, their order and any repeated name, as a forwarder needs. */
export type HeaderPairs = readonly (readonly [string, string])[];

export interface Exchange {
  method: string;
  /** Parsed already by the client (a path is joined only through `new URL`); text is parsed here. */
  url: string | URL;
  headers: Readonly<Record<string, string>> | HeaderPairs;
  body?: string | Buffer;
  signal?: AbortSignal;
}

export { ExchangeError };

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer whose body is handed over unread (a download): the time limit then bounds each pause; `done` lets go of it. */
export interface OpenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
  done(): void;
}

export interface HttpPool {
  readonly limits: Limits;
  /** A failure of one of its exchanges as one line a person can act on (see `networkError`). */
  describe(error: unknown, url: string | URL): NetworkError;
  /** Sends the request and reads the whole answer. */
  send(exchange: Exchange): Promise<Answer>;
  /** Sends the request and hands over the answer with its body unread. */
  open(exchange: Exchange): Promise<OpenAnswer>;
  close(): Promise<void>;
}

/** Where requests go: straight to their host, through a proxy, or through a program's own dispatcher. */
export interface Route {
  /** Sends everything through this undici dispatcher (its own pool, proxy or mock): the limits above still apply. */
  dispatcher?: Dispatcher;
  /** The proxy settings (`proxyFromEnv`): used where `proxyFor` says. */
  proxy?: ProxySettings;
}

export function httpPool(limits: Limits, route: Route = {}): HttpPool {
  let direct: Wire | undefined;
  // undici's wires: the dispatcher brought (under ''), or one per proxy (under its URL).
  const undici = new Map<string, Promise<Wire>>();
  const wireFor = (url: URL): Wire | Promise<Wire> => {
    const proxy = route.dispatcher ? undefined : proxyFor(url, route.proxy);
    if (!route.dispatcher && !proxy) return (direct ??= nodeWire(limits.connectTimeoutMs));
    const key = proxy?.href ?? '';
    let wire = undici.get(key);
    if (!wire) {
      const through = route.dispatcher ? { dispatcher: route.dispatcher } : { proxy: proxy!, connectTimeoutMs: limits.connectTimeoutMs };
      wire = import('./transport.js').then(({ undiciWire }) => undiciWire(through));
      // A wire that failed to load is tried again by the next request.
      wire.catch(() => undici.delete(key));
      undici.set(key, wire);
    }
    return wire;
  };

  /** Sends the request under the attempt's timer and the caller's signal; both end in `abort`, whose reason is the failure. */
  async function start(exchange: Exchange) {
    const url = typeof exchange.url === 'string' ? new URL(exchange.url) : exchange.url;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Not an http(s) URL: ${url.protocol}`);
    if (exchange.signal?.aborted) throw new ExchangeError('aborted', 'ABORTED');
    const abort = new AbortController();
    let status: number | undefined;
    const fail = (reason: ExchangeError) => abort.abort(reason);
    let timer = setTimeout(() => fail(new ExchangeError(`no complete answer within ${limits.timeoutMs} ms`, 'TIMEOUT', status)), limits.timeoutMs);
    const onAbort = () => fail(new ExchangeError('aborted', 'ABORTED', status));
    exchange.signal?.addEventListener('abort', onAbort, { once: true });
    const attempt = {
      abort,
      /** Restarts the timer as a limit on a pause: `no data for …`. */
      idle() {
        clearTimeout(timer);
        timer = setTimeout(() => fail(new ExchangeError(`no data for ${limits.timeoutMs} ms`, 'TIMEOUT', status)), limits.timeoutMs);
      },
      release() {
        clearTimeout(timer);
        exchange.signal?.removeEventListener('abort', onAbort);
      },
      /** What a failure was: the limit or the abort that caused it, when one did. */
      failure: (error: unknown) => (abort.signal.aborted ? abort.signal.reason : error),
    };
    try {
      const wire = await wireFor(url);
      const head = await wire.request({ method: exchange.method, url, headers: headerList(exchange, url.host), body: exchange.body, signal: abort.signal }, fail);
      status = head.status;
      return { head, ...attempt };
    } catch (error) {
      attempt.release();
      throw attempt.failure(headerRefused(error) ?? error);
    }
  }

  return {
    limits,
    describe(error, url) {
      const parsed = typeof url === 'string' ? new URL(url) : url;
      return networkError(error, parsed, limits, route.dispatcher ? undefined : proxyFor(parsed, route.proxy));
    },
    async send(exchange) {
      const { head, release, failure } = await start(exchange);
      try {
        const body = await readCappedBody(head.body, limits.maxBytes, head.headers['content-length']).catch((error: unknown) => {
          if (!(error instanceof BodyTooLargeError)) throw error;
          // Not read further: the connection goes, so a sender cannot fill the memory.
          head.body.destroy();
          throw new ExchangeError(`the answer is larger than ${limits.maxBytes} bytes`, 'TOO_LARGE', head.status);
        });
        return { status: head.status, headers: head.headers, body };
      } catch (error) {
        const reason = failure(error);
        throw reason instanceof ExchangeError ? reason : new ExchangeError('the answer was cut short', 'CUT_SHORT', head.status);
      } finally {
        release();
      }
    },
    async open(exchange) {
      const { head, abort, idle, release } = await start(exchange);
      // A download may take long in all; what must not happen is a pause as long as the time limit.
      idle();
      const body = new Transform({
        transform(chunk, _encoding, done) {
          idle();
          done(null, chunk);
        },
      });
      // The body fails with the limit or abort that stopped it, not with the wire's own words for it.
      abort.signal.addEventListener('abort', () => body.destroy(abort.signal.reason), { once: true });
      pipeline(head.body, body, release);
      return { status: head.status, headers: head.headers, body, done: release };
    },
    async close() {
      const wires = [...undici.values()];
      undici.clear();
      await Promise.all([direct?.close(), ...wires.map((wire) => wire.then((loaded) => loaded.close(), () => {}))]);
      direct = undefined;
    },
  };
}

/** Node's refusals of a header name or value, made before anything is sent. */
const BAD_HEADER = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE']);

/** A header either wire refused to send (nothing was sent), as one error with the wire's words for it. */
function headerRefused(error: unknown): ExchangeError | undefined {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : '';
  if (BAD_HEADER.has(code ?? '') || (code === 'UND_ERR_INVALID_ARG' && /header/i.test(message))) return new ExchangeError(message, 'BAD_HEADER');
  return undefined;
}

/** Node's own HTTP, with a keep-alive pool per scheme; https (and with it TLS) loads only for an https URL. */
function nodeWire(connectTimeoutMs: number): Wire {
  let plain: HttpAgent | undefined;
  let secure: HttpsAgent | undefined;
  let https: typeof import('node:https') | undefined;
  return {
    async request({ method, url, headers, body, signal }, fail) {
      const tls = url.protocol === 'https:' ? (https ??= await import('node:https')) : undefined;
      const agent = tls ? (secure ??= new tls.Agent({ keepAlive: true })) : (plain ??= new HttpAgent({ keepAlive: true }));
      // Without its brackets, an IPv6 address as Node connects to it; the Host header keeps them.
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      return new Promise<Head>((resolve, reject) => {
        const req = (tls ? tls.request : httpRequest)({ protocol: url.protocol, hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers, agent, signal });
        req.on('socket', (socket) => {
          // A reused keep-alive socket is connected already.
          if (!socket.connecting) return;
          const timer = setTimeout(() => fail(new ExchangeError(`could not connect within ${connectTimeoutMs} ms`, 'CONNECT_TIMEOUT')), connectTimeoutMs);
          socket.once('connect', () => clearTimeout(timer));
          socket.once('close', () => clearTimeout(timer));
        });
        req.on('error', reject);
        req.on('response', (response) => {
          // Once handed over, the body is the reader's: a connection that fails must fail it too
          // (Node ends a body that has no length at a reset as if it were complete), and a body
          // cut short closes before it is complete.
          req.on('error', (error) => response.destroy(error));
          response.on('close', () => {
            if (!response.complete) response.destroy(new ExchangeError('the answer was cut short', 'CUT_SHORT', response.statusCode));
          });
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response });
        });
        req.end(body);
      });
    },
    async close() {
      plain?.destroy();
      secure?.destroy();
    },
  };
}

/**
 * Headers that say how the message is framed and where it goes: the exchange alone sets them,
 * from the body it sends and the URL it sends it to, whatever a caller gave (both wires).
 */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'host']);

/**
 * The headers as the flat list both wires take, `['accept', 'application/json', …]`, names and
 * order as given, with the framing headers derived here: the Host of the URL, and the body's real
 * length (without one Node sends a body chunked, which some proxies refuse).
 */
export function headerList({ method, headers, body }: Pick<Exchange, 'method' | 'headers' | 'body'>, host: string): string[] {
  const list: string[] = [];
  const pairs: Iterable<readonly [string, string]> = Array.isArray(headers) ? (headers as HeaderPairs) : Object.entries(headers);
  for (const [name, value] of pairs) if (!FRAMING.has(name.toLowerCase())) list.push(name, value);
  list.push('host', host);
  // With no body, Node's own rule: a method that may carry one says it is empty.
  if (body !== undefined) list.push('content-length', String(Buffer.byteLength(body)));
  else if (!BODILESS.has(method)) list.push('content-length', '0');
  return list;
}

/** Methods Node sends without a length when they have no body. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** Failures to open a connection. */
const CONNECTING = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'CONNECT_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Codes that mean nothing reached the host: a header refused, or no connection ever made. */
const NEVER_SENT = new Set(['BAD_HEADER', ...CONNECTING]);

/**
 * A failure of an exchange as one line a person can act on, naming the host alone (or the proxy,
 * when it is the proxy that could not be reached), and whether the request can have reached the
 * host (`sent`).
 */
function networkError(error: unknown, url: URL, limits: Limits, proxy: URL | undefined): NetworkError {
  const code = errorCode(error);
  // Through a proxy, the connection that failed to open is the one to the proxy: the tunnel's own failure is its answer (below).
  const atProxy = proxy !== undefined && CONNECTING.has(code ?? '');
  const host = atProxy ? `the proxy at ${proxy.host}` : url.host;
  const hostname = atProxy ? `the proxy ${proxy.hostname}` : url.hostname;
  const sent = !NEVER_SENT.has(code ?? '');
  const status = error instanceof ExchangeError ? error.status : undefined;
  const make = (kind: NetworkFailure, message: string, extra: { transient?: boolean; hint?: string; sent?: boolean } = {}) =>
    new NetworkError(kind, message, { cause: error, sent, ...(status !== undefined ? { status } : {}), ...(atProxy ? { hint: PROXY_HINT } : {}), ...extra });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return make('dns', `Cannot resolve ${hostname}`, { transient: code === 'EAI_AGAIN' });
  }
  if (code === 'ECONNREFUSED') return make('refused', `Connection refused by ${host}`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return make('refused', `${host} is unreachable`);
  if (code === 'CONNECT_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return make('timeout', `Could not connect to ${host} in time`);
  if (code === 'TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return make('timeout', `No complete answer from ${url.host} within ${Number((limits.timeoutMs / 1000).toFixed(1))} s`, {
      hint: 'Raise --timeout if the store is slow but working',
    });
  }
  if (code === 'TOO_LARGE') {
    // Not transient: the same answer would come again.
    return new NetworkError('body', `The answer from ${url.host} is larger than ${formatSize(limits.maxBytes)}; stopped reading it`, {
      cause: error,
      status,
      hint: 'Raise the limit with STORE_ADMIN_MAX_RESPONSE_MB if the answer is expected to be this large',
    });
  }
  // The proxy would not open the tunnel (undici's words): nothing reached the host.
  const tunnel = /^Proxy response \((\d+)\)/.exec(error instanceof Error ? error.message : '');
  if (tunnel) {
    const answered = Number(tunnel[1]);
    return make('refused', `The proxy${proxy ? ` at ${proxy.host}` : ''} refused to connect to ${url.host} (${statusLine(answered)})`, {
      sent: false,
      hint: answered === 407 ? 'The proxy asks for credentials: give them in its URL, https_proxy=http://user:password@proxy.example.com:3128' : PROXY_HINT,
    });
  }
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|^EPROTO$/i.test(code ?? '')) return make('tls', `TLS failure talking to ${host} (${code})`);
  if (code === 'CUT_SHORT') return make('body', `The answer (${status}) from ${url.host} was cut short`, { transient: true });
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return make('reset', `The connection to ${host} was reset`);
  }
  return make('other', `Request to ${url.host} failed: ${error instanceof Error ? error.message : String(error)}`);
}

const PROXY_HINT = 'Check https_proxy and http_proxy (or HTTPS_PROXY and HTTP_PROXY), or name the store in NO_PROXY to reach it directly';


function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
