// One HTTP exchange over Node's own http and https modules, with keep-alive pools. Node parses
// HTTP natively, so a short-lived CLI pays nothing to start its parser (undici compiles a
// WebAssembly parser first, which costs a one-request command more than the request itself).
// A single timer bounds each whole attempt: connecting, the wait for the answer and every byte of
// its body, however slowly it trickles in.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';

export interface Exchange {
  method: string;
  /** Parsed already by the client (a path is joined only through `new URL`); text is parsed here. */
  url: string | URL;
  headers: Readonly<Record<string, string>>;
  body?: string;
  /** Limit for the whole attempt, from the first byte sent to the last byte received. */
  timeoutMs: number;
  /** Limit for opening the connection; a failure then proves nothing was sent. */
  connectTimeoutMs: number;
  signal?: AbortSignal;
  /** Most bytes of body read before the answer is refused. */
  maxBytes: number;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text. */
  text: string;
}

/** A failure of the exchange itself; `code` tells which (system codes such as ECONNRESET pass through). */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly code: 'CONNECT_TIMEOUT' | 'TIMEOUT' | 'TOO_LARGE' | 'CUT_SHORT' | 'ABORTED',
    /** The answer's status, when it had begun. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** An answer whose body is handed over unread (a download), bounded by a limit on pauses; `done` lifts it. */
export interface OpenAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
  done(): void;
}

/** What the client sends its requests through: Node's own HTTP by default, or an undici dispatcher a program brings. */
export interface HttpPool {
  /** Sends the request and reads the whole answer. */
  send(exchange: Exchange): Promise<Answer>;
  /** Sends the request and hands over the answer with its body unread: the time limit then bounds each pause, not the whole. */
  open(exchange: Omit<Exchange, 'maxBytes'>): Promise<OpenAnswer>;
  close(): Promise<void>;
}

export function httpPool(): HttpPool {
  let plain: HttpAgent | undefined;
  let secure: HttpsAgent | undefined;
  let https: typeof import('node:https') | undefined;
  const guard = abortGuards();

  /**
   * Sends the request; `onResponse` reads the answer and settles the attempt. The attempt's timer
   * runs until then, the abort signal until the answer closes (a download's once its body is read).
   */
  function start<T>(exchange: Omit<Exchange, 'maxBytes'>, onResponse: (response: IncomingMessage, attempt: Attempt<T>, req: ClientRequest) => void): Promise<T> {
    const target = targetOf(typeof exchange.url === 'string' ? new URL(exchange.url) : exchange.url);
    const tls = target.protocol === 'https:' ? https : undefined;
    // https (and with it TLS) loads only for an https store: the sandbox and tests never pay for it.
    if (target.protocol === 'https:' && !tls) {
      return import('node:https').then((loaded) => {
        https = loaded;
        return start(exchange, onResponse);
      });
    }
    const agent = tls ? (secure ??= new tls.Agent({ keepAlive: true })) : (plain ??= new HttpAgent({ keepAlive: true }));
    const request = tls ? tls.request : httpRequest;
    const { signal } = exchange;
    if (signal?.aborted) return Promise.reject(new ExchangeError('aborted', 'ABORTED'));
    return new Promise<T>((resolve, reject) => {
      const options: RequestOptions = { protocol: target.protocol, hostname: target.hostname, port: target.port, path: target.path };
      options.method = exchange.method;
      options.headers = headerList(exchange, target.host);
      options.agent = agent;
      const req = request(options);
      let status: number | undefined;
      let settled = false;
      let ended = false;
      const end = () => {
        ended = true;
        clearTimeout(timer);
        clearTimeout(connectTimer);
      };
      const fail = (error: Error) => {
        release?.();
        if (ended) return;
        end();
        req.destroy(settled ? error : undefined);
        if (!settled) reject(error);
        settled = true;
      };
      const release = signal && guard(signal, () => fail(new ExchangeError('aborted', 'ABORTED', status)));
      const timer = setTimeout(() => fail(new ExchangeError(`no complete answer within ${exchange.timeoutMs} ms`, 'TIMEOUT', status)), exchange.timeoutMs);
      let connectTimer: NodeJS.Timeout | undefined;
      req.on('socket', (socket) => {
        // A reused keep-alive socket is connected already.
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => fail(new ExchangeError(`could not connect within ${exchange.connectTimeoutMs} ms`, 'CONNECT_TIMEOUT')), exchange.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('error', fail);
      req.on('response', (response) => {
        status = response.statusCode;
        response.on('error', () => fail(new ExchangeError('the answer was cut short', 'CUT_SHORT', status)));
        // A body cut short closes before it is complete.
        response.on('close', () => {
          if (!response.complete) fail(new ExchangeError('the answer was cut short', 'CUT_SHORT', status));
          release?.();
        });
        onResponse(
          response,
          {
            succeed(value) {
              if (settled) return;
              settled = true;
              end();
              resolve(value);
            },
            fail,
          },
          req,
        );
      });
      req.end(exchange.body);
    });
  }

  return {
    send(exchange) {
      return start<Answer>(exchange, (response, attempt) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > exchange.maxBytes) attempt.fail(new ExchangeError(`the answer is larger than ${exchange.maxBytes} bytes`, 'TOO_LARGE', response.statusCode));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          attempt.succeed({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks, size).toString('utf8') }),
        );
      });
    },
    open(exchange) {
      return start<OpenAnswer>(exchange, (response, attempt, req) => {
        // A download may take long; what must not happen is a pause as long as the time limit.
        req.setTimeout(exchange.timeoutMs, () => req.destroy(new ExchangeError(`no data for ${exchange.timeoutMs} ms`, 'TIMEOUT', response.statusCode)));
        // Once handed over, the body is the reader's: a connection that fails must fail it too. Node
        // would end a body that has no length at a reset as if it were complete.
        req.on('error', (error) => response.destroy(error));
        attempt.succeed({ status: response.statusCode ?? 0, headers: response.headers, body: response, done: () => req.setTimeout(0) });
      });
    },
    async close() {
      plain?.destroy();
      secure?.destroy();
    },
  };
}

interface Target {
  protocol: string;
  /** Without an IPv6 address's brackets, as Node connects to it. */
  hostname: string;
  port: number | undefined;
  /** As the Host header gives it. */
  host: string;
  /** Path and query, as the request line gives them. */
  path: string;
}

function targetOf(url: URL): Target {
  const { protocol, hostname, port } = urlToHttpOptions(url);
  return { protocol: protocol!, hostname: hostname!, port: port === undefined ? undefined : Number(port), host: url.host, path: `${url.pathname}${url.search}` };
}

/**
 * Headers that say how the message is framed and where it goes: the exchange alone sets them,
 * from the body it sends and the URL it sends it to, whatever a caller gave (both transports).
 */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'host']);

/**
 * The headers as a flat list, `['accept', 'application/json', …]`, with the framing headers
 * derived here: the Host of the URL, and the body's real length (without one Node sends a body
 * chunked, which some proxies refuse). Node writes such a list as it is (still checking each name
 * and value) instead of storing each header by itself: a bulk run takes about 15 % less time.
 */
export function headerList({ method, headers, body }: Pick<Exchange, 'method' | 'headers' | 'body'>, host: string): string[] {
  const list: string[] = [];
  for (const name in headers) if (!FRAMING.has(name.toLowerCase())) list.push(name, headers[name]!);
  list.push('host', host);
  // With no body, Node's own rule: a method that may carry one says it is empty.
  if (body !== undefined) list.push('content-length', String(Buffer.byteLength(body)));
  else if (!BODILESS.has(method)) list.push('content-length', '0');
  return list;
}

/** Methods Node sends without a length when they have no body. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

interface Attempt<T> {
  succeed(value: T): void;
  fail(error: Error): void;
}

/**
 * Ties requests to abort signals with one listener per signal, however many requests it guards: an
 * abort listener added and removed for every request (Node's `signal` option) cost a bulk run
 * ~35 µs a request. Returns the function that unties a request once it is over.
 */
function abortGuards() {
  const guarded = new WeakMap<AbortSignal, Set<() => void>>();
  return (signal: AbortSignal, abort: () => void): (() => void) => {
    let aborts = guarded.get(signal);
    if (!aborts) {
      const members = new Set<() => void>();
      aborts = members;
      guarded.set(signal, members);
      signal.addEventListener('abort', () => {
        for (const each of [...members]) each();
      }, { once: true });
    }
    aborts.add(abort);
    const members = aborts;
    return () => members.delete(abort);
  };
}
