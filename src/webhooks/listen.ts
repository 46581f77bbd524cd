// `webhooks listen`: a receiver on 127.0.0.1 that shows each delivery, checks its signature, and
// can hand it on to a local app unchanged. With --register it also creates, on a sandbox store, a
// webhook pointing at itself, and removes that webhook (and nothing else) when it stops.
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import { NetworkError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import { removeSandboxWebhook, sandboxWebhooks } from './sandbox-admin.js';
import { verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER, type WebhookSignatureCheck } from './signature.js';
import { printableLine } from '../printable.js';

export interface ListenOptions {
  port: number;
  /** A local app's URL that receives each delivery as it came. */
  forwardTo?: URL;
  secret?: string;
  /** Only these events are shown and forwarded (all when empty); with `register`, the ones subscribed to. */
  events: string[];
  register: boolean;
}

/** Headers that describe one hop, not the message: a forwarder sets its own. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection']);

interface Forwarded {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export async function listen(ctx: Context, options: ListenOptions, stop: AbortSignal): Promise<void> {
  const only = new Set(options.events);
  let secret = options.secret;

  const server = createServer((req, res) => {
    receive(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end();
      ctx.note(`error while receiving a delivery: ${(error as Error).message}`);
    });
  });

  async function receive(req: IncomingMessage, res: ServerResponse) {
    const body = await readAll(req);
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      ctx.note(`ignored ${req.method} ${req.url}: deliveries are POSTs`);
      return;
    }
    let envelope: Record<string, any>;
    try {
      envelope = JSON.parse(body.toString('utf8'));
    } catch {
      res.writeHead(400).end();
      ctx.note(`ignored a POST to ${req.url} whose body is not JSON`);
      return;
    }
    const event = String(envelope?.event_type ?? '?');
    if (only.size > 0 && !only.has(event)) {
      res.writeHead(200).end();
      return;
    }
    const signature = header(req.headers, WEBHOOK_SIGNATURE_HEADER);
    const check = secret === undefined ? undefined : verifyWebhookSignature(body, signature, secret);
    let outcome = '';
    if (options.forwardTo) {
      try {
        const answer = await forward(options.forwardTo, req, body);
        res.writeHead(answer.status, passOn(answer.headers)).end(answer.body);
        outcome = `  → ${answer.status} from ${options.forwardTo.href}`;
      } catch (error) {
        res.writeHead(502).end();
        outcome = `  → forwarding failed: ${(error as Error).message}`;
      }
    } else {
      res.writeHead(200).end();
    }
    // The event's type and id are the sender's text: shown without control characters.
    const line = printableLine(`${new Date().toTimeString().slice(0, 8)}  ${event}  ${objectId(envelope.data)}  ${signatureMark(check, signature)}${outcome}`);
    if (ctx.format !== 'table') {
      // A stream of events is NDJSON whether json or ndjson was asked for: the envelope as one line: the bytes received when they are one line already.
      const text = body.toString('utf8');
      ctx.io.stdout.write(`${/[\r\n]/.test(text) ? JSON.stringify(envelope) : text}\n`);
      ctx.note(line);
    } else {
      ctx.io.stdout.write(`${line}\n`);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : error.message;
      reject(new NetworkError('other', `Cannot listen on 127.0.0.1:${options.port}: ${reason}`));
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  let registered: { client: StoreClient; id: number } | undefined;
  try {
    if (options.register) {
      const client = await ctx.client();
      await sandboxWebhooks(client, 'webhooks listen --register');
      secret ??= `whsec_${randomBytes(24).toString('hex')}`;
      const events = options.events.length > 0 ? options.events : [...WEBHOOK_EVENTS];
      const created = await client.webhooks.create({
        body: { target: url, events, name: 'store-admin webhooks listen', secret_key: secret },
      });
      registered = { client, id: created.id! };
      ctx.note(
        `Registered webhook ${created.id} for ${options.events.length > 0 ? events.join(', ') : 'every event'}, ` +
          `signed with ${options.secret === undefined ? 'a generated secret (pass --secret-file to choose it)' : 'the secret from --secret-file'}.`,
      );
    }
    ctx.note(`Listening for webhook deliveries on ${url}${options.forwardTo ? `, forwarding to ${options.forwardTo.href}` : ''} (Ctrl-C to stop)`);
    if (!stop.aborted) await new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }));
  } finally {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    if (registered && (await removeSandboxWebhook(registered.client, registered.id).catch(() => false))) {
      ctx.note(`Removed webhook ${registered.id}.`);
    }
  }
  ctx.note('Stopped listening.');
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

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function passOn(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/** Sends the delivery on as it came: same method, headers (as received, in order) and bytes. */
function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<Forwarded> {
  // Headers as a raw list keep their names' case and order; such a list gets no Host of its own.
  const headers: [string, string][] = [['Host', target.host]];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(req.rawHeaders[i]!.toLowerCase())) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const out = send(target, { method: req.method, headers: headers.flat() as unknown as Record<string, string> });
    out.on('response', (answer) => {
      readAll(answer).then((bytes) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: bytes }), reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
