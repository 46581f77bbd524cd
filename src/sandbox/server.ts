// The sandbox store: a real HTTP server speaking the Store Administration API, with seeded data
// and real state changes. Routing, version checks, scope checks and body validation all come
// from the operation table, so the sandbox cannot drift from the client.
import type * as z from 'zod/mini';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAllOperations, operation, type Operation, type OperationId, type OperationSchemas } from '../api/operations.js';
import { router } from '../api/routes.js';
import { answer, checkedBody, checkedQuery, checkScopes, checkVersion, type Answering } from './api-answer.js';
import { clockNow } from './clock.js';
import { createDeliverer, type DeliveryOptions } from './deliverer.js';
import { checkLink, EXPORT_FILES, signedLink } from './exports.js';
import { faultInjector, type Decision, type FaultKind, type FaultSpec } from './faults.js';
import { HttpError } from './http-error.js';
import type { Rec } from './kinds.js';
import { oauthStore, type OAuthCounters, type OAuthOptions } from './oauth.js';
import { DEFAULT_PAGE_SIZE } from './pages.js';
import { SANDBOX_PATH } from './paths.js';
import { readBody } from './read-body.js';
import { renderer } from './render.js';
import { sandboxOnly } from './sandbox-routes.js';
import { applyDueChanges, createScheduler, nextChangeAt } from './scheduler.js';
import { DEFAULT_EXPORT_DELAY_SECONDS, DEFAULT_LINK_TTL_SECONDS, PARTNER_APP, PLATFORM_RATE_PER_SECOND } from './settings.js';
import type { SandboxState } from './state.js';
import { memoryStore, type StateStore } from './store.js';
import { derivations, EVENT_DATA, type ViewContext } from './views.js';

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

/** A read found a change due on the clock: it is applied by a write first, then the read runs again. */
const DUE = Symbol('changes due');
const MAX_BODY_BYTES = 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ops = await loadAllOperations();
  const token = options.token ?? `sbx_${randomBytes(16).toString('hex')}`;
  const tokens = tokenTable(token, options.scopedTokens);
  const store = options.store ?? memoryStore();
  const injector = faultInjector({ seed: 1, ...options.faults, rate: options.faults?.rate ?? PLATFORM_RATE_PER_SECOND });
  // Tokens the partner app was given by signing in: taken back if it is uninstalled.
  const appTokens = new Set<string>();
  const oauth = oauthStore(options.oauth ?? {}, {
    issue: (scopes) => {
      const issued = `sbx_app_${randomBytes(16).toString('hex')}`;
      tokens.set(issued, scopes);
      appTokens.add(issued);
      return issued;
    },
    revoke: (issued) => void tokens.delete(issued),
  });
  const revokeApp = (clientId: string) => {
    if (clientId !== PARTNER_APP.client_id) return;
    for (const issued of appTokens) tokens.delete(issued);
    appTokens.clear();
  };
  const counters: SandboxCounters = { received: 0, invalid: 0, wrongVersion: 0, byOperation: {}, faults: injector.injected, oauth: oauth.counters };
  const links = exportLinks(options, counters);
  let origin = '';
  const answering = await answeringFor(ops, {
    origin: () => origin,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    exportDelayMs: (options.exportDelaySeconds ?? DEFAULT_EXPORT_DELAY_SECONDS) * 1000,
    signExportLink: (id, nowMs) => links.sign(origin, id, nowMs),
  });
  const deliverer = createDeliverer(store, options.webhooks);
  const scheduler = createScheduler(store, deliverer, answering, (error) => options.onError?.(error));
  const api = apiHandler({ ops, tokens, store, injector, counters, answering, deliverer, scheduler, options });

  const server = createServer((req, res) => {
    counters.received++;
    route(req, res).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      const body = error instanceof HttpError ? error.body : { detail: `Internal sandbox error: ${(error as Error)?.message ?? String(error)}` };
      if (!(error instanceof HttpError)) options.onError?.(error);
      send(res, status, body);
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname.startsWith(EXPORT_FILES) && req.method === 'GET') return serveExportFile(store, res, url, links.secret);
    if (await oauth.handle(req, res, url)) return;
    // How the CLI tells a sandbox from a real store without sending a token there.
    if (url.pathname === SANDBOX_PATH && req.method === 'GET') return send(res, 200, { sandbox: true });
    if (url.pathname.startsWith(SANDBOX_PATH)) {
      const fullAccess = authenticate(tokens, req.headers.authorization) === 'all';
      const answer = await sandboxOnly(req.method ?? 'GET', url, await readBody(req, MAX_BODY_BYTES), { store, deliverer, scheduler, answering, fullAccess, revokeApp });
      return send(res, answer.status, answer.body);
    }
    return api(req, res, url);
  }

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

type Granted = readonly string[] | 'all';

function tokenTable(token: string, scoped: Record<string, readonly string[]> = {}): Map<string, Granted> {
  const tokens = new Map<string, Granted>([[token, 'all']]);
  for (const [other, scopes] of Object.entries(scoped)) tokens.set(other, scopes);
  return tokens;
}

function authenticate(tokens: Map<string, Granted>, header: string | undefined): Granted {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw new HttpError(401, { detail: 'Authentication credentials were not provided.' });
  const granted = tokens.get(match[1]!);
  if (!granted) throw new HttpError(401, { detail: 'Invalid token.' });
  return granted;
}

async function listen(server: ReturnType<typeof createServer>, options: SandboxOptions): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Signed links to exports' files; the expired-links fault hands out links already dead, as if fetched too late. */
function exportLinks(options: SandboxOptions, counters: SandboxCounters) {
  const ttlMs = (options.linkTtlSeconds ?? DEFAULT_LINK_TTL_SECONDS) * 1000;
  const secret = randomBytes(32);
  let expiredLeft = options.faults?.expiredLinks ?? 0;
  return {
    secret,
    sign(origin: string, id: number, nowMs: number): string {
      if (expiredLeft > 0) {
        expiredLeft--;
        counters.faults['expired-link'] = (counters.faults['expired-link'] ?? 0) + 1;
        return signedLink(origin, id, nowMs - 1000, secret);
      }
      return signedLink(origin, id, nowMs + ttlMs, secret);
    },
  };
}

/**
 * How records are answered: rendered through the views (views.ts) in the shape of a version; an
 * event's data in the shape of the operation that answers its kind of object (event-sources.ts),
 * its schemas loaded once per sandbox.
 */
async function answeringFor(ops: readonly Operation[], base: Pick<Answering, 'origin' | 'pageSize' | 'exportDelayMs' | 'signExportLink'>): Promise<Answering> {
  const render = renderer<ViewContext>(derivations);
  const eventSchemas = new Map<string, z.ZodMiniType>();
  for (const [event, { operation: id }] of Object.entries(EVENT_DATA)) {
    const op = ops.find((candidate) => candidate.id === id)!;
    for (const version of op.versions) eventSchemas.set(`${event}@${version}`, itemOf((await op.schemas(version)).response));
  }
  // One view of the store per call: the views index the records they join, once.
  const renderAt = (state: SandboxState, version: string, schema: z.ZodMiniType, records: readonly Rec[]) => {
    const ctx: ViewContext = { records: state.records, version, origin: base.origin() };
    return records.map((record) => render(schema, record, ctx));
  };
  return {
    ...base,
    render: renderAt,
    eventData: (state, event, version, record) => {
      // product.deleted carries only the id (platform facts).
      if (EVENT_DATA[event]?.keyOnly) return record;
      const schema = eventSchemas.get(`${event}@${version}`);
      return schema ? renderAt(state, version, schema, [record])[0] : record;
    },
  };
}

/** The object an answer carries: a list's item, or the answer itself. */
function itemOf(response: z.ZodMiniType): z.ZodMiniType {
  const def = (response as unknown as { def: { type: string; element?: z.ZodMiniType } }).def;
  return def.type === 'array' ? def.element! : response;
}

interface ApiParts {
  ops: readonly Operation[];
  tokens: Map<string, Granted>;
  store: StateStore;
  injector: ReturnType<typeof faultInjector>;
  counters: SandboxCounters;
  answering: Answering;
  deliverer: ReturnType<typeof createDeliverer>;
  scheduler: ReturnType<typeof createScheduler>;
  options: SandboxOptions;
}

/** The Admin API: route, faults, token, version, scopes, checked input, the answer, and what it queued. */
function apiHandler(parts: ApiParts) {
  const { tokens, store, injector, counters, answering, deliverer, scheduler, options } = parts;
  const matchRoute = router(parts.ops);
  return async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const route = matchRoute(req.method ?? 'GET', url.pathname);
    if (route.kind === 'not-found') throw new HttpError(404, { detail: 'Not found.' });
    if (route.kind === 'method-not-allowed') {
      res.setHeader('allow', route.allowed.join(', '));
      throw new HttpError(405, { detail: `Method "${req.method}" not allowed.` });
    }
    const op = operation(route.id);
    const count = (counters.byOperation[route.id] ??= { received: 0, applied: 0 });
    count.received++;
    if (route.kind === 'invalid-params') {
      counters.invalid++;
      throw new HttpError(404, { detail: 'Not found.' });
    }
    const decision = injector.decide(req.headers.authorization ?? '');
    if (decision && (await misbehave(decision, req, res))) return;
    const granted = authenticate(tokens, req.headers.authorization);
    let version: string;
    try {
      version = checkVersion(op, req.headers['x-store-api-version']);
    } catch (error) {
      counters.wrongVersion++;
      throw error;
    }
    checkScopes(op, granted);
    const schemas: OperationSchemas = await op.schemas(version);
    let body: unknown;
    let query: Record<string, unknown>;
    try {
      body = checkedBody(schemas, await readBody(req, MAX_BODY_BYTES), req.headers['content-type'], op.method === 'PATCH');
      query = checkedQuery(schemas, url.searchParams);
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) counters.invalid++;
      throw error;
    }
    const write = op.method !== 'GET';
    let queued = 0;
    let wake = { at: Infinity, now: 0 };
    const run = () =>
      store.transact((state) => {
        const nowMs = clockNow(state);
        // What the clock has made due happens first; a read leaves that to a write of its own.
        if (nextChangeAt(state) <= nowMs) {
          if (!write) return DUE;
          queued += applyDueChanges(state, nowMs, answering);
        }
        const result = answer(state, { op, version, schemas, params: route.params, query, body, url }, answering, (n) => (queued += n));
        if (write) wake = { at: nextChangeAt(state), now: nowMs };
        return result;
      }, write);
    let result = await run();
    if (result === DUE) {
      await scheduler.catchUp();
      result = await run();
    }
    if (write) count.applied++;
    options.onAnswer?.(route.id, result, version);
    // Saved: now the deliveries it queued may go out.
    if (queued > 0) deliverer.kick();
    // A long-running sandbox renews and turns exports available on time even if nobody asks.
    if (write) scheduler.plan(wake.at, wake.now);
    if (decision?.after === 'reset-after') return void req.socket.destroy();
    if (decision?.after === 'truncate') return sendTruncated(res, op.success, result);
    send(res, result === undefined ? 204 : op.success, result);
  };
}

/** A signed link's file, as a storage service serves it: no token, the signature and expiry checked. */
async function serveExportFile(store: StateStore, res: ServerResponse, url: URL, secret: Buffer) {
  const csv = await store.transact((state) => {
    // Links expire on the sandbox's clock: advancing it past a link's expiry kills the link.
    const link = checkLink(url, clockNow(state), secret);
    if (!link.ok) return link;
    const found = state.records.exports[String(link.id)];
    const text = found?.status === 'available' ? state.exportFiles[String(link.id)] : undefined;
    return text === undefined ? undefined : { ok: true as const, id: link.id, text };
  }, false);
  if (csv === undefined) return sendStorageError(res, 'not-found');
  if (!csv.ok) return sendStorageError(res, csv.reason);
  res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="export-${csv.id}.csv"` });
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
