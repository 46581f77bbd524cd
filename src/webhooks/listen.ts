// `webhooks listen`: a receiver on 127.0.0.1 that shows each delivery, checks its signature, and
// can hand it on to a local app unchanged. With --register it also creates a webhook pointing at
// itself (on a real store, at --public-url), and removes that webhook (and nothing else) when it
// stops. Each delivery received is kept in the listen log (received-log.ts).
// With a secret, only deliveries that verify reach the app, and each event only once: the listener
// is a door to the app, and anyone on this machine can knock. Bodies past 10 MB are refused (413)
// without being read.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import { BodyTooLargeError, readCappedBody } from '../capped-body.js';
import { NetworkError } from '../api/errors.js';
import { httpPool, limitsOf, type Answer, type HttpPool } from '../api/http.js';
import { proxyFromEnv } from '../api/proxy.js';
import { DEFAULTS } from '../defaults.js';
import { configDir } from '../config/paths.js';
import type { Context } from '../context.js';
import { appendReceived, newReceivedId, withoutCredentials } from './received-log.js';
import type { Registration } from './listen-registration.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type WebhookSignatureCheck } from '../api/webhook-signature.js';
import { printableLine } from '../printable.js';

export interface ListenOptions {
  port: number;
  /** A local app's URL that receives each delivery as it came. */
  forwardTo?: URL;
  secret?: string;
  /** Only these events are shown and forwarded (all when empty); with `register`, the ones subscribed to. */
  events: string[];
  register: boolean;
  /** Registers this public address (a tunnel's) instead of the loopback one; a real store needs it. */
  publicUrl?: URL;
  /** With a secret, forward deliveries whose signature does not verify too. */
  forwardUnverified?: boolean;
}

/** The largest delivery read; the platform's are a few kilobytes. */
export const MAX_DELIVERY_BYTES = 10 * 1024 * 1024;
/** How many delivered event ids are remembered to refuse a replay. */
const REMEMBERED_EVENTS = 10_000;

/** Headers that describe one hop, not the message: a forwarder sets its own. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection']);

/** What a running listener knows, shared by the functions below. */
interface Listener {
  ctx: Context;
  options: ListenOptions;
  /** Only these events are shown and forwarded (all when empty). */
  only: Set<string>;
  /** The secret deliveries are checked with (one is generated with --register). */
  secret?: string;
  /** Events forwarded (or being forwarded) that the app accepted: a second delivery of one is a replay. */
  delivered: Set<string>;
  /** The listener's own address, once it listens: the listen log says where each delivery came in. */
  address: string;
  records: RecordSink;
  /** Hands deliveries on to --forward-to, under the tool's time and size limits; Ctrl-C stops one in flight. */
  forwarder?: HttpPool;
  stop: AbortSignal;
}

type RecordSink = Awaited<ReturnType<Context['output']['records']>>;

export async function listen(ctx: Context, options: ListenOptions, stop: AbortSignal): Promise<void> {
  const listener: Listener = {
    ctx,
    options,
    only: new Set(options.events),
    secret: options.secret,
    delivered: new Set(),
    address: 'http://127.0.0.1/',
    // A stream of events is NDJSON whether json or ndjson was asked for.
    records: await ctx.output.records(),
    forwarder: options.forwardTo && forwarder(ctx),
    stop,
  };
  const server = createServer((req, res) => {
    receive(listener, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end();
      ctx.output.prose(`error while receiving a delivery: ${(error as Error).message}`);
    });
  });
  const url = await listenOn(server, options.port);
  listener.address = url;

  let registered: Registration | undefined;
  try {
    if (options.register || options.publicUrl) registered = await register(listener, url);
    ctx.output.prose(`Listening for webhook deliveries on ${url}${options.forwardTo ? `, forwarding to ${options.forwardTo.href}` : ''} (Ctrl-C to stop)`);
    if (!stop.aborted) await new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }));
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    listener.records.end();
    await listener.forwarder?.close();
    if (registered && (await registered.remove().catch(() => false))) ctx.output.prose(`Removed webhook ${registered.id}.`);
  }
  ctx.output.prose('Stopped listening.');
}

/** Opens the server on 127.0.0.1; answers its URL. */
async function listenOn(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : error.message;
      reject(new NetworkError('other', `Cannot listen on 127.0.0.1:${port}: ${reason}`));
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** --register: a webhook pointing at this listener (or at --public-url), signed with the secret given or one made here. */
async function register(listener: Listener, url: string): Promise<Registration> {
  const { ctx, options } = listener;
  const { registerListener } = await import('./listen-registration.js');
  const secret = (listener.secret ??= `whsec_${randomBytes(24).toString('hex')}`);
  const events = options.events.length > 0 ? options.events : [...WEBHOOK_EVENTS];
  const registered = await registerListener(ctx, await ctx.client(), { listenUrl: url, publicUrl: options.publicUrl, events, secret });
  ctx.output.prose(
    `Registered webhook ${registered.id} for ${options.events.length > 0 ? events.join(', ') : 'every event'}` +
      `${options.publicUrl ? ` at ${registered.target}` : ''}, ` +
      `signed with ${options.secret === undefined ? `a generated secret, ${keepSecret(ctx, registered.id, secret)}` : 'the secret from --secret-file'}.`,
  );
  // A store cannot reach 127.0.0.1 here: the tunnel is what carries its deliveries in.
  if (options.publicUrl) ctx.output.prose(`The store delivers to ${registered.target}: the tunnel must forward it to ${url}.`);
  return registered;
}

async function receive(listener: Listener, req: IncomingMessage, res: ServerResponse) {
  const { ctx, options, only, secret } = listener;
  // Only a sender that addresses this listener by name, and no web page: a page the browser
  // reaches through a rebound name (Host: its own) or posts to from elsewhere (Origin) would
  // otherwise fill the listen log and, with --forward-to, read the app's answers.
  const refusal = foreign(req, listener.address, options.publicUrl);
  if (refusal) {
    res.writeHead(403, { connection: 'close' }).end(() => req.destroy());
    ctx.output.prose(`refused a ${printableLine(req.method ?? '?')} to ${printableLine(req.url ?? '/')}: ${refusal}`);
    return;
  }
  const body = await readBody(req, MAX_DELIVERY_BYTES);
  if (!body) {
    // Answered, then the connection closed: the rest of the body is never read.
    res.writeHead(413, { connection: 'close' }).end(() => req.destroy());
    ctx.output.prose(`refused a POST to ${printableLine(req.url ?? '/')}: its body is larger than ${MAX_DELIVERY_BYTES / 1024 / 1024} MB`);
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    ctx.output.prose(`ignored ${req.method} ${req.url}: deliveries are POSTs`);
    return;
  }
  let envelope: Record<string, any>;
  try {
    envelope = JSON.parse(body.toString('utf8'));
  } catch {
    res.writeHead(400).end();
    ctx.output.prose(`ignored a POST to ${req.url} whose body is not JSON`);
    return;
  }
  const event = String(envelope?.event_type ?? '?');
  // The listen log's id, shown with the delivery: what `webhooks replay` and `deliveries show` take.
  const id = newReceivedId();
  if (only.size > 0 && !only.has(event)) {
    res.writeHead(200).end();
    return keep(listener, id, req, body, envelope, 200);
  }
  const signature = header(req, WEBHOOK_SIGNATURE_HEADER);
  const check = secret === undefined ? undefined : verifyWebhookSignature(body, signature, secret);
  let outcome = '';
  if (options.forwardTo) outcome = await handOn(listener, req, res, body, envelope, check);
  else res.writeHead(200).end();
  // The event's type and id are the sender's text: shown without control characters.
  const line = printableLine(`${new Date().toTimeString().slice(0, 8)}  ${event}  ${objectId(envelope.data)}  ${signatureMark(check, signature)}${outcome}  ${id}`);
  if (ctx.format !== 'table') {
    // Each record keeps the headers and the body as received, so `webhooks verify` can check it later.
    listener.records.write({ id, received_at: new Date().toISOString(), headers: withoutCredentials(receivedHeaders(req)), body: body.toString('utf8'), event: envelope });
    ctx.output.prose(line);
  } else {
    ctx.output.text(`${line}\n`);
  }
  await keep(listener, id, req, body, envelope, res.statusCode);
}

/**
 * --forward-to: the delivery goes to the app unless its signature fails (without
 * --forward-unverified) or its event was delivered already; the app's answer is the sender's.
 * Answers what the listen line says of it.
 */
async function handOn(listener: Listener, req: IncomingMessage, res: ServerResponse, body: Buffer, envelope: Record<string, any>, check: WebhookSignatureCheck | undefined): Promise<string> {
  const { options, delivered } = listener;
  const target = options.forwardTo!;
  const eventId = typeof envelope?.event_id === 'string' ? envelope.event_id : undefined;
  if (check && !check.valid && !options.forwardUnverified) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"The signature does not verify."}');
    return '  → not forwarded (--forward-unverified forwards it)';
  }
  if (eventId !== undefined && delivered.has(eventId)) {
    res.writeHead(409, { 'content-type': 'application/json' }).end('{"detail":"This event was delivered already."}');
    return '  → not forwarded: this event was delivered already';
  }
  if (eventId !== undefined) remember(delivered, eventId);
  try {
    const answer = await forward(listener.forwarder!, target, req, body, listener.stop);
    res.writeHead(answer.status, passOn(answer.headers)).end(answer.body);
    // Refused by the app: the platform sends it again, and that one goes through.
    if (eventId !== undefined && (answer.status < 200 || answer.status >= 300)) delivered.delete(eventId);
    return `  → ${answer.status} from ${target.href}`;
  } catch (error) {
    if (eventId !== undefined) delivered.delete(eventId);
    res.writeHead(502).end();
    return `  → forwarding failed: ${(error as Error).message}`;
  }
}

/** Appends the delivery to the listen log, so it can be looked at and replayed later. */
async function keep(listener: Listener, id: string, req: IncomingMessage, body: Buffer, envelope: Record<string, any>, status: number) {
  const { ctx } = listener;
  const flat = Object.fromEntries(Object.entries(withoutCredentials(receivedHeaders(req))).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));
  await appendReceived(ctx.io.env, {
    id,
    at: new Date().toISOString(),
    // The path only: an absolute-form request line must not choose where a replay goes.
    url: `${listener.address}${req.url?.startsWith('/') ? req.url.slice(1) : ''}`,
    headers: flat,
    body: body.toString('utf8'),
    event_type: typeof envelope?.event_type === 'string' ? envelope.event_type : null,
    event_id: typeof envelope?.event_id === 'string' ? envelope.event_id : null,
    status,
  }).catch((error: unknown) => ctx.output.prose(`could not keep the delivery in the listen log: ${(error as Error).message}`));
}

/**
 * Writes a generated secret where only its owner can read it, and says where: the deliveries
 * captured with --json can then be checked with `webhooks verify --secret-file`. The secret is
 * never printed.
 */
function keepSecret(ctx: Context, id: number, secret: string): string {
  const dir = join(configDir(ctx.io.env), 'listen');
  const file = join(dir, `webhook-${id}.secret`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return `saved in ${file} (for webhooks verify --secret-file)`;
  } catch (error) {
    return `which could not be saved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; pass --secret-file to choose it)`;
  }
}

/**
 * Why a request did not come from a sender of deliveries, if it did not: its Host names neither
 * this listener (`listening`) nor the tunnel's public address, or it comes from a web page.
 */
function foreign(req: IncomingMessage, listening: string, publicUrl: URL | undefined): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  const port = new URL(listening).port;
  const own = [`127.0.0.1:${port}`, `localhost:${port}`, ...(publicUrl ? [publicUrl.host.toLowerCase()] : [])];
  if (!own.includes(host)) return `its Host (${printableLine(host) || 'none'}) is not this listener's address`;
  const origin = req.headers.origin ?? req.headers['sec-fetch-site'];
  if (origin !== undefined) return `it comes from a web page (${printableLine(String(origin))}), and a store's deliveries never do`;
  return undefined;
}

/** Remembers an event id, forgetting the oldest past the bound. */
function remember(ids: Set<string>, id: string): void {
  ids.add(id);
  if (ids.size > REMEMBERED_EVENTS) ids.delete(ids.values().next().value!);
}

/** The request's headers by lower-case name, each repeated one kept in order. */
function receivedHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    const known = headers[name];
    headers[name] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
  }
  return headers;
}

function signatureMark(check: WebhookSignatureCheck | undefined, signature: string | undefined): string {
  if (!check) return signature ? 'signature not checked (no --secret-file)' : 'unsigned';
  if (!signature) return 'signature ✗ (none sent)';
  if (!check.valid) return 'signature ✗';
  return `signature ✓ (${check.matched === 'raw' ? 'raw body' : 're-serialised body'})`;
}

/** Orders are known by their number, everything else by its id. */
function objectId(data: unknown): string {
  const object = (data ?? {}) as { number?: unknown; id?: unknown };
  return String(object.number ?? object.id ?? '-');
}

/** A header sent once; one sent twice (or more) is none, as no single value can be trusted. */
function header(req: IncomingMessage, name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() !== name) continue;
    if (found !== undefined) return undefined;
    found = req.rawHeaders[i + 1]!;
  }
  return found;
}

function passOn(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/** The HTTP pool deliveries are handed on through: --timeout bounds each, and the app's answer is read up to the same 10 MB. */
function forwarder(ctx: Context): HttpPool {
  return httpPool(limitsOf({ timeoutMs: (ctx.options.timeout ?? DEFAULTS.timeoutSeconds) * 1000, maxBytes: MAX_DELIVERY_BYTES }), { proxy: proxyFromEnv(ctx.io.env) });
}

/** Sends the delivery on as it came: same method, headers (as received: names, case and order) and bytes. */
async function forward(pool: HttpPool, target: URL, req: IncomingMessage, body: Buffer, signal: AbortSignal): Promise<Answer> {
  const headers: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(req.rawHeaders[i]!.toLowerCase())) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  }
  try {
    return await pool.send({ method: req.method ?? 'POST', url: target, headers, body, signal });
  } catch (error) {
    throw pool.describe(error, target);
  }
}

/**
 * The whole body, or undefined once it is (or says it will be) larger than `limit`: reading then
 * stops, so a sender cannot fill the memory.
 */
function readBody(message: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return readCappedBody(message, limit).catch((error: unknown) => {
    if (error instanceof BodyTooLargeError) return undefined;
    throw error;
  });
}
