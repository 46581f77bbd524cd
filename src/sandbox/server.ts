// The sandbox store: a real HTTP server speaking the Store Administration API, with seeded data
// and real state changes. Routing, version checks, scope checks and body validation all come
// from the operation table, so the sandbox cannot drift from the client.
import type * as z from 'zod/mini';
import { nestsDeeperThan } from '../api/json-depth.js';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { operations, versionsOf, type OperationId } from '../api/operations.js';
import { missingScopes } from '../api/scopes.js';
import { dotted } from '../api/errors.js';
import { toFieldIssues } from '../api/validate.js';
import { clockNow, isoSeconds } from './clock.js';
import { createDeliverer, type DeliveryOptions } from './deliverer.js';
import { emitEvent } from './events.js';
import { checkLink, EXPORT_FILES, signedLink } from './exports.js';
import { SANDBOX_PATH } from './paths.js';
import { payloadShaper, type PayloadShaper } from './payloads.js';
import { sandboxOnly } from './sandbox-routes.js';
import { DEFAULT_EXPORT_DELAY_SECONDS, DEFAULT_LINK_TTL_SECONDS, PLATFORM_RATE_PER_SECOND } from './settings.js';
import { applyDueChanges, createScheduler, nextChangeAt } from './scheduler.js';
import { handlers } from './handlers.js';
import { HttpError } from './http-error.js';
import { readBody } from './read-body.js';
import { matchRoute } from '../api/routes.js';
import { faultInjector, type Decision, type FaultKind, type FaultSpec } from './faults.js';
import { oauthStore, type OAuthCounters, type OAuthOptions } from './oauth.js';
import { memoryStore, type StateStore } from './store.js';
import { DEFAULT_PAGE_SIZE } from './pages.js';

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The full-access token; random when not given. */
  token?: string;
  /** Tokens limited to the scopes listed. */
  scopedTokens?: Record<string, readonly string[]>;
  store?: StateStore;
  /**
   * Misbehave on purpose (see faults.ts). The platform's rate limit (PLATFORM_RATE_PER_SECOND per
   * token) holds unless `faults.rate` says otherwise (0 lifts it).
   */
  faults?: FaultSpec;
  /** How webhook deliveries are retried and reported (deliverer.ts). */
  webhooks?: DeliveryOptions & {
    /** On close, let the deliveries due now have their attempt first (the embedded sandbox does). */
    finishOnClose?: boolean;
  };
  /** Told of a failure inside the sandbox itself (answered 500). */
  onError?: (error: unknown) => void;
  /** How long a new export stays pending, in seconds (default DEFAULT_EXPORT_DELAY_SECONDS). */
  exportDelaySeconds?: number;
  /** How long a signed download link stays valid, in seconds (default DEFAULT_LINK_TTL_SECONDS). */
  linkTtlSeconds?: number;
  /** The partner app that may sign in through the Authorization Code flow (oauth.ts). */
  oauth?: OAuthOptions;
  /** Items per page of a list (default DEFAULT_PAGE_SIZE, pages.ts). */
  pageSize?: number;
  /** Told of each successful answer, and the API version asked for, before it is sent: the tests hold answers to the schemas. */
  onAnswer?: (id: OperationId, body: unknown, version: string) => void;
}

/** What the sandbox received and what it changed, per operation: tests read these. */
export interface SandboxCounters {
  received: number;
  /** Requests a correct client never sends: malformed ids or bodies. */
  invalid: number;
  /** Requests with a missing or wrong X-Store-API-Version (a client may override it on purpose). */
  wrongVersion: number;
  byOperation: Partial<Record<OperationId, { received: number; applied: number }>>;
  /** Faults injected, by kind. */
  faults: Partial<Record<FaultKind, number>>;
  /** The Authorization Code flow: codes handed out and exchanged. */
  oauth: OAuthCounters;
}

export interface Sandbox {
  /** The store URL to give the client, e.g. http://127.0.0.1:4010 */
  url: string;
  token: string;
  counters: SandboxCounters;
  store: StateStore;
  close(): Promise<void>;
}

const ALL_SCOPES = Symbol('all scopes');
/** A read found a change due on the clock: it is applied by a write first, then the read runs again. */
const DUE = Symbol('changes due');
const MAX_BODY_BYTES = 1024 * 1024;
/** Deeper JSON is refused before it is parsed: validating it would exhaust the stack. */
const MAX_JSON_DEPTH = 256;

/** The tokens the sandbox takes, each with the scopes it grants. */
type Tokens = Map<string, readonly string[] | typeof ALL_SCOPES>;

/** What a request is served with: the sandbox's parts, made once when it starts. */
interface Parts {
  options: SandboxOptions;
  store: StateStore;
  tokens: Tokens;
  counters: SandboxCounters;
  injector: ReturnType<typeof faultInjector>;
  oauth: ReturnType<typeof oauthStore>;
  deliverer: ReturnType<typeof createDeliverer>;
  scheduler: ReturnType<typeof createScheduler>;
  shape: PayloadShaper;
  links: LinkSigner;
  exportDelayMs: number;
  /** `http://127.0.0.1:PORT`, known once the server listens. */
  origin(): string;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const token = options.token ?? `sbx_${randomBytes(16).toString('hex')}`;
  const tokens = tokenTable(token, options.scopedTokens);
  const injector = faultInjector({ seed: 1, ...options.faults, rate: options.faults?.rate ?? PLATFORM_RATE_PER_SECOND });
  const oauth = oauthStore(options.oauth ?? {}, issuer(tokens));
  const counters: SandboxCounters = { received: 0, invalid: 0, wrongVersion: 0, byOperation: {}, faults: injector.injected, oauth: oauth.counters };
  const store = options.store ?? memoryStore();
  let origin = '';
  const deliverer = createDeliverer(store, options.webhooks);
  // Deliveries carry each object in the shape of the webhook's API version (payloads.ts).
  const shape = await payloadShaper();
  const scheduler = createScheduler(store, deliverer, { origin: () => origin, shape }, (error) => options.onError?.(error));
  const parts: Parts = {
    options,
    store,
    tokens,
    counters,
    injector,
    oauth,
    deliverer,
    scheduler,
    shape,
    links: linkSigner(options, counters, () => origin),
    exportDelayMs: (options.exportDelaySeconds ?? DEFAULT_EXPORT_DELAY_SECONDS) * 1000,
    origin: () => origin,
  };
  const server = createServer((req, res) => void respond(parts, req, res));
  origin = await listen(server, options);
  // What fell due while no sandbox ran (the embedded sandbox's state file) happens now, and
  // deliveries left from an earlier run go out when due.
  await scheduler.catchUp();
  deliverer.kick();
  return {
    url: origin,
    token,
    counters,
    store,
    close: async () => {
      if (options.webhooks?.finishOnClose) await deliverer.settle();
      scheduler.close();
      deliverer.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The full-access token and the scoped ones. */
function tokenTable(token: string, scoped: SandboxOptions['scopedTokens'] = {}): Tokens {
  const tokens: Tokens = new Map([[token, ALL_SCOPES]]);
  for (const [value, scopes] of Object.entries(scoped)) tokens.set(value, scopes);
  return tokens;
}

/** How the Authorization Code flow adds a token it issues, and takes back one it revokes. */
function issuer(tokens: Tokens) {
  return {
    issue: (scopes: string[]) => {
      const issued = `sbx_app_${randomBytes(16).toString('hex')}`;
      tokens.set(issued, scopes);
      return issued;
    },
    revoke: (issued: string) => void tokens.delete(issued),
  };
}

/** Signs an export's download link, valid for the link TTL from `nowMs` (sandbox time). */
type LinkSigner = { sign(id: number, nowMs: number): string; check(url: URL, nowMs: number): ReturnType<typeof checkLink> };

function linkSigner(options: SandboxOptions, counters: SandboxCounters, origin: () => string): LinkSigner {
  const ttlMs = (options.linkTtlSeconds ?? DEFAULT_LINK_TTL_SECONDS) * 1000;
  const secret = randomBytes(32);
  let expiredLeft = options.faults?.expiredLinks ?? 0;
  return {
    sign(id, nowMs) {
      // The expired-links fault hands out links that are already dead, as if fetched too late.
      if (expiredLeft > 0) {
        expiredLeft--;
        counters.faults['expired-link'] = (counters.faults['expired-link'] ?? 0) + 1;
        return signedLink(origin(), id, nowMs - 1000, secret);
      }
      return signedLink(origin(), id, nowMs + ttlMs, secret);
    },
    check: (url, nowMs) => checkLink(url, nowMs, secret),
  };
}

/** Listens where told (127.0.0.1 on a free port by default); the origin to give clients. */
async function listen(server: Server, options: SandboxOptions): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Serves one request; a failure becomes the platform's error answer (500 for the sandbox's own). */
async function respond(parts: Parts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  parts.counters.received++;
  try {
    await route(parts, req, res);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    const body = error instanceof HttpError ? error.body : { detail: `Internal sandbox error: ${(error as Error)?.message ?? String(error)}` };
    if (!(error instanceof HttpError)) parts.options.onError?.(error);
    send(res, status, body);
  }
}

/** Export files, the OAuth pages, the sandbox's own paths, then the API. */
async function route(parts: Parts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', parts.origin());
  if (url.pathname.startsWith(EXPORT_FILES) && req.method === 'GET') return serveExportFile(parts, res, url);
  if (await parts.oauth.handle(req, res, url)) return;
  // How the CLI tells a sandbox from a real store without sending a token there.
  if (url.pathname === SANDBOX_PATH && req.method === 'GET') return send(res, 200, { sandbox: true });
  if (url.pathname.startsWith(SANDBOX_PATH)) {
    const fullAccess = authenticate(parts.tokens, req.headers.authorization) === ALL_SCOPES;
    const { store, deliverer, scheduler, shape } = parts;
    const answer = await sandboxOnly(req.method ?? 'GET', url, await readBody(req, MAX_BODY_BYTES), { store, deliverer, scheduler, shape, fullAccess });
    return send(res, answer.status, answer.body);
  }
  return serveOperation(parts, req, res, url);
}

/** One operation of the table: found, misbehaved on purpose, checked, answered, its events and timers set going. */
async function serveOperation(parts: Parts, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const { counters, options } = parts;
  const found = matchRoute(req.method ?? 'GET', url.pathname);
  if (found.kind === 'not-found') throw new HttpError(404, { detail: 'Not found.' });
  if (found.kind === 'method-not-allowed') {
    res.setHeader('allow', found.allowed.join(', '));
    throw new HttpError(405, { detail: `Method "${req.method}" not allowed.` });
  }
  const count = (counters.byOperation[found.id] ??= { received: 0, applied: 0 });
  count.received++;
  if (found.kind === 'invalid-params') {
    counters.invalid++;
    throw new HttpError(404, { detail: 'Not found.' });
  }
  const decision = parts.injector.decide(req.headers.authorization ?? '');
  if (decision && (await misbehave(decision, req, res))) return;

  const op = operations[found.id];
  const version = checkAccess(parts, req, op);
  const { body, query } = await readInput(parts, req, url, await op.schemas());
  const write = op.method !== 'GET';
  const answered = await answerOperation(parts, { id: found.id, params: found.params, body, query, url, write });
  if (write) count.applied++;
  options.onAnswer?.(found.id, answered.result, version);
  // Saved: now the deliveries it queued may go out.
  if (answered.queued > 0) parts.deliverer.kick();
  // A long-running sandbox renews and turns exports available on time even if nobody asks.
  if (write) parts.scheduler.plan(answered.wake.at, answered.wake.now);
  if (decision?.after === 'reset-after') return void req.socket.destroy();
  if (decision?.after === 'truncate') return sendTruncated(res, op.success, answered.result);
  send(res, op.success, answered.result);
}

/** The token, the API version and the scopes, as the platform checks them; the version asked for. */
function checkAccess(parts: Parts, req: IncomingMessage, op: (typeof operations)[OperationId]): string {
  const granted = authenticate(parts.tokens, req.headers.authorization);
  const version = req.headers['x-store-api-version'];
  const accepted = versionsOf(op);
  if (typeof version !== 'string' || !accepted.includes(version)) {
    parts.counters.wrongVersion++;
    const got = version === undefined ? 'it is missing' : `got "${String(version)}"`;
    const allowed = accepted.map((v) => `"${v}"`).join(' or ');
    throw new HttpError(400, { detail: `X-Store-API-Version must be ${allowed} for this operation (${got}).` });
  }
  if (granted !== ALL_SCOPES) {
    const missing = missingScopes(granted, op.scopes);
    if (missing.length > 0) {
      throw new HttpError(403, { detail: `This token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.` });
    }
  }
  return version;
}

/** The body and the query, each checked against the operation's schema; a bad one is the platform's 400. */
async function readInput(parts: Parts, req: IncomingMessage, url: URL, schemas: Awaited<ReturnType<(typeof operations)[OperationId]['schemas']>>) {
  const raw = await readBody(req, MAX_BODY_BYTES);
  let body: unknown;
  if ('body' in schemas && schemas.body) {
    const json = parseJson(raw, req.headers['content-type']);
    const parsed = schemas.body.safeParse(json);
    if (!parsed.success) {
      parts.counters.invalid++;
      throw new HttpError(400, fieldErrors(parsed.error.issues, json));
    }
    body = parsed.data;
  }
  const query = 'query' in schemas && schemas.query ? checkedQuery(schemas.query, url.searchParams) : undefined;
  return { body, query };
}

interface OperationRequest {
  id: OperationId;
  params: Record<string, string | number>;
  body: unknown;
  query: unknown;
  url: URL;
  write: boolean;
}

/**
 * Runs the handler in one transaction of the state, at the sandbox's time. What the clock has
 * made due happens first; a read leaves that to a write of its own, then runs again.
 */
async function answerOperation(parts: Parts, request: OperationRequest) {
  const { store, options, shape } = parts;
  let queued = 0;
  let wake = { at: Infinity, now: 0 };
  const answer = () =>
    store.transact((state) => {
      const nowMs = clockNow(state);
      if (nextChangeAt(state) <= nowMs) {
        if (!request.write) return DUE;
        queued += applyDueChanges(state, nowMs, { origin: parts.origin(), shape });
      }
      const handler = handlers[request.id] as (ctx: unknown) => unknown;
      const emit = (event: string, data: unknown) => (queued += emitEvent(state, event, structuredClone(data), nowMs, shape));
      const result = handler({
        state,
        params: request.params,
        body: request.body,
        query: request.query,
        url: request.url,
        pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
        origin: parts.origin(),
        now: isoSeconds(nowMs),
        nowMs,
        exportDelayMs: parts.exportDelayMs,
        signExportLink: (id: number) => parts.links.sign(id, nowMs),
        emit,
      });
      if (request.write) wake = { at: nextChangeAt(state), now: nowMs };
      return result;
    }, request.write);
  let result = await answer();
  if (result === DUE) {
    await parts.scheduler.catchUp();
    result = await answer();
  }
  return { result, queued, wake };
}

/** The scopes a bearer token grants; 401 without one the sandbox knows. */
function authenticate(tokens: Tokens, header: string | undefined) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw new HttpError(401, { detail: 'Authentication credentials were not provided.' });
  const granted = tokens.get(match[1]!);
  if (!granted) throw new HttpError(401, { detail: 'Invalid token.' });
  return granted;
}

/** A signed link's file, as a storage service serves it: no token, the signature and expiry checked. */
async function serveExportFile(parts: Parts, res: ServerResponse, url: URL) {
  const csv = await parts.store.transact((state) => {
    // Links expire on the sandbox's clock: advancing it past a link's expiry kills the link.
    const link = parts.links.check(url, clockNow(state));
    if (!link.ok) return link;
    const found = state.exports[link.id];
    const text = found?.status === 'available' ? state.exportFiles[link.id] : undefined;
    return text === undefined ? undefined : { ok: true as const, id: link.id, text };
  }, false);
  if (csv === undefined) return sendStorageError(res, 'not-found');
  if (!csv.ok) return sendStorageError(res, csv.reason);
  res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="export-${csv.id}.csv"`,
  });
  res.end(csv.text);
}

/** Storage services answer in XML and say why; 403 for a bad or expired signature, as S3 does. */
function sendStorageError(res: ServerResponse, reason: 'not-found' | 'bad-signature' | 'expired') {
  const [status, code, message] =
    reason === 'expired'
      ? [403, 'AccessDenied', 'Request has expired']
      : reason === 'bad-signature'
        ? [403, 'SignatureDoesNotMatch', 'The request signature does not match']
        : [404, 'NoSuchKey', 'The specified key does not exist.'];
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Applies the faults due before the handler; true when the request is dealt with. */
async function misbehave(decision: Decision, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  if (decision.retryAfter !== undefined) {
    res.setHeader('retry-after', String(decision.retryAfter));
    send(res, 429, { detail: `Request was throttled. Expected available in ${decision.retryAfter} second${decision.retryAfter === 1 ? '' : 's'}.` });
    return true;
  }
  const before = decision.before;
  if (!before) return false;
  if (before.kind === 'reset-before') req.socket.destroy();
  else if (before.kind === 'html') {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>proxy</body></html>');
  } else if (before.kind === 'error') send(res, before.status, { detail: 'The sandbox failed on purpose.' });
  // A hang answers nothing: the client's timeout, or the server's close, ends it.
  return true;
}

/** Announces the whole body, sends half of it, then drops the connection. */
function sendTruncated(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body ?? null);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
}

function send(res: ServerResponse, status: number, body: unknown) {
  // 204: no body, and no headers announcing one.
  if (body === undefined && status === 204) return void res.writeHead(status).end();
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function parseJson(raw: string, contentType: string | undefined): unknown {
  if (raw.trim() === '') return {};
  if (contentType && !/^application\/json\b/i.test(contentType)) {
    throw new HttpError(415, { detail: `Unsupported media type "${contentType}" in request.` });
  }
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new HttpError(400, { detail: `JSON parse error - nested deeper than ${MAX_JSON_DEPTH} levels.` });
  }
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new HttpError(400, { detail: `JSON parse error - ${(error as Error).message}` });
  }
}

/** The query parameters the operation knows, checked; others are ignored, as the platform ignores them. */
function checkedQuery(schema: z.ZodMiniType, search: URLSearchParams): unknown {
  const known = Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);
  const given = Object.fromEntries(known.filter((key) => search.has(key)).map((key) => [key, search.get(key)]));
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw new HttpError(400, fieldErrors(parsed.error.issues, given));
  return parsed.data;
}

/** Validation errors in the platform's shape: `{"field": ["message"]}`, `non_field_errors` for the whole body. */
function fieldErrors(issues: Parameters<typeof toFieldIssues>[1], body: unknown): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of toFieldIssues('', issues, body)) {
    (errors[dotted(issue.path) || 'non_field_errors'] ??= []).push(issue.message);
  }
  return errors;
}

