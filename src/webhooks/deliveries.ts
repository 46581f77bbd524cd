// `webhooks deliveries` and `webhooks replay`: the sandbox's delivery attempts (its delivery log,
// read through a path only a sandbox answers) and what `webhooks listen` received (the local
// log), listed, shown one at a time, and sent again. No secret is ever printed: the sandbox checks
// and makes signatures with the webhook's secret itself, and a listen-log delivery is checked or
// signed with the secret the user names in a file.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreAdminError, UsageError } from '../api/errors.js';
import { parseJson } from '../api/json-syntax.js';
import { proxyFromEnv } from '../api/proxy.js';
import { redactPassword } from '../api/redaction.js';
import type { Context } from '../context.js';
import { childEnv } from '../io.js';
import { printable } from '../printable.js';
import { SANDBOX_ROUTES } from '../sandbox/paths.js';
import type { DeliveryAttempt } from '../sandbox/state.js';
import { appendReceived, CREDENTIAL_HEADERS, newReceivedId, readReceived, RECEIVED_ID, type ReceivedDelivery } from './received-log.js';
import { sandboxRead, sandboxWrite } from './sandbox-admin.js';
import { signWebhookBody, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from '../api/webhook-signature.js';

export interface ListOptions {
  webhook?: string;
  event?: string;
  failed?: boolean;
  received?: boolean;
  /** The newest this many. */
  limit: number;
  /** Only those of the last this many ms: of the sandbox's clock for its attempts, of this machine's for the listen log. */
  since?: number;
}

type SignatureCheck = { signed: boolean; checked?: boolean; valid?: boolean; matched?: string | null; reason?: string };
type ShownAttempt = DeliveryAttempt & { signature_check: SignatureCheck };

/** Lists delivery attempts or received deliveries, newest first, the newest `limit` of them. */
export async function listDeliveries(ctx: Context, options: ListOptions): Promise<void> {
  if (options.webhook !== undefined && !/^\d{1,9}$/.test(options.webhook)) throw new UsageError(`--webhook takes a webhook id, a whole number (got "${options.webhook}")`);
  if (options.received) {
    if (options.webhook !== undefined) throw new UsageError('--webhook does not apply to --received: the listen log knows no webhook ids');
    const after = options.since === undefined ? -Infinity : Date.now() - options.since;
    const entries = readReceived(ctx.io.env)
      .filter((e) => (options.event === undefined || e.event_type === options.event) && (!options.failed || !answeredOk(e.status)) && Date.parse(e.at) >= after)
      .reverse();
    return listed(ctx, entries.slice(0, options.limit), entries.length, 'receivedDeliveries', 'webhooks listen has received nothing that matches.');
  }
  const client = await ctx.client();
  const query: Record<string, string> = { limit: String(options.limit) };
  if (options.webhook !== undefined) query.webhook = options.webhook;
  if (options.event !== undefined) query.event = options.event;
  if (options.failed) query.failed = 'true';
  if (options.since !== undefined) {
    // The attempts are dated by the sandbox's clock, which may be days ahead of this machine's.
    const { now } = await sandboxRead<{ now: string }>(client, 'webhooks deliveries', SANDBOX_ROUTES.clock);
    query.since = new Date(Date.parse(now) - options.since).toISOString();
  }
  const { deliveries, total } = await sandboxRead<{ deliveries: DeliveryAttempt[]; total?: number }>(client, 'webhooks deliveries', SANDBOX_ROUTES.deliveries, query);
  return listed(ctx, deliveries, total ?? deliveries.length, 'deliveries', 'No delivery attempts match (webhooks deliveries --received lists what webhooks listen received).');
}

/** The list as the run asks; a person is told when none match, and when older ones were left out. */
async function listed(ctx: Context, shown: unknown[], total: number, view: 'deliveries' | 'receivedDeliveries', none: string): Promise<void> {
  if (ctx.format === 'table' && shown.length === 0) return ctx.output.prose(none);
  await ctx.output.result(shown, { view });
  if (total > shown.length) ctx.output.prose(`The newest ${shown.length} of ${total} are shown; --limit ${total} shows them all.`);
}

export async function showDelivery(ctx: Context, id: string, secret?: string): Promise<void> {
  if (RECEIVED_ID.test(id)) {
    const entry = receivedEntry(ctx, id);
    const check = checkReceived(entry, secret);
    return ctx.output.result({ ...entry, signature_check: check }, {
      text: () => describe([
        [`Received ${id}`, `${entry.event_type ?? 'not an event'} ${entry.event_id ?? ''}`.trim()],
        ['At', `${entry.at} on ${entry.url}`],
        ['Answered', String(entry.status ?? entry.error ?? '-')],
        ...(entry.replay_of ? [['Replay of', `${entry.replay_of}, sent to ${entry.sent_to}`] as [string, string]] : []),
        ['Signature', signatureText(check)],
      ], entry.headers, entry.body),
    });
  }
  checkSandboxId(id);
  const { delivery } = await sandboxRead<{ delivery: ShownAttempt }>(await ctx.client(), 'webhooks deliveries show', `${SANDBOX_ROUTES.deliveries}${id}`);
  await ctx.output.result(delivery, {
    text: (delivery) => describe([
      [`Delivery ${id}`, `${delivery.event_type} ${delivery.event_id} to webhook ${delivery.webhook}, ${delivery.replay_of ? `a replay of ${delivery.replay_of} (attempt ${delivery.attempt})` : `attempt ${delivery.attempt}`}`],
      ['Sent', `${delivery.sent_at} to ${delivery.target}`],
      ['Answer', delivery.status === null ? `none: ${delivery.error ?? 'no answer'}` : `${delivery.status} after ${delivery.duration_ms} ms`],
      ['Next attempt', delivery.next_attempt_at ?? (delivery.deactivated ? 'none: this attempt switched the webhook off' : 'none')],
      ['Signature', signatureText(delivery.signature_check)],
    ], delivery.headers, delivery.body),
  });
}

export interface ReplayOptions {
  to?: URL;
  edit: boolean;
  secret?: string;
}

export async function replayDelivery(ctx: Context, id: string, options: ReplayOptions): Promise<void> {
  if (ctx.options.dryRun) throw new UsageError('webhooks replay sends a delivery; it has no --dry-run');
  const replayed = RECEIVED_ID.test(id) ? await replayReceived(ctx, id, options) : await replayAttempt(ctx, id, options);
  const ok = answeredOk(replayed.status);
  await ctx.output.result(replayed, {
    text: (replayed) => `Replayed ${id} as ${replayed.id} to ${'target' in replayed ? replayed.target : replayed.sent_to}: ${replayed.status ?? replayed.error}.\n`,
  });
  if (!ok) throw new StoreAdminError(`the replay was not delivered: ${replayed.status ?? replayed.error}`);
}

async function replayAttempt(ctx: Context, id: string, options: ReplayOptions): Promise<DeliveryAttempt> {
  checkSandboxId(id);
  if (options.secret !== undefined) throw new UsageError("--secret-file is for a delivery from the listen log: the sandbox signs with the webhook's own secret");
  const client = await ctx.client();
  const { delivery } = await sandboxRead<{ delivery: ShownAttempt }>(client, 'webhooks replay', `${SANDBOX_ROUTES.deliveries}${id}`);
  const body = options.edit ? await editedBody(ctx, delivery.body) : undefined;
  const { delivery: made } = await sandboxWrite<{ delivery: DeliveryAttempt }>(client, `${SANDBOX_ROUTES.deliveries}${id}/replay/`, {
    ...(options.to ? { to: options.to.href } : {}),
    ...(body !== undefined && body !== delivery.body ? { body } : {}),
  });
  return made;
}

/** Headers that describe one hop, not the message: the sender sets its own. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'content-length']);

async function replayReceived(ctx: Context, id: string, options: ReplayOptions): Promise<ReceivedDelivery> {
  const entry = receivedEntry(ctx, id);
  const signed = entry.headers[WEBHOOK_SIGNATURE_HEADER] !== undefined;
  if (options.edit && signed && options.secret === undefined) {
    throw new UsageError('--edit signs the edited body again, and a delivery from the listen log needs the secret for that', {
      hint: `Give the webhook's secret: store-admin webhooks replay ${id} --edit --secret-file secret.txt`,
    });
  }
  let body = entry.body;
  // Someone else's credentials, had an older listen kept them, are not sent on.
  const headers = Object.fromEntries(Object.entries(entry.headers).filter(([name]) => !HOP_BY_HOP.has(name) && !CREDENTIAL_HEADERS.has(name)));
  if (options.edit) {
    const edited = await editedBody(ctx, body);
    if (edited !== body) {
      body = edited;
      if (signed) headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookBody(body, options.secret!);
    }
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  const target = options.to?.href ?? entry.url;
  const { post, DELIVERY_TIMEOUT_MS } = await import('../sandbox/deliverer.js');
  const answer = await post(target, headers, body, DELIVERY_TIMEOUT_MS, { signal: ctx.signal, proxy: proxyFromEnv(ctx.io.env) });
  const replay: ReceivedDelivery = {
    id: newReceivedId(),
    at: new Date().toISOString(),
    url: entry.url,
    headers,
    body,
    event_type: entry.event_type,
    event_id: entry.event_id,
    status: answer.status ?? null,
    replay_of: id,
    // Where it went, without a password the URL may hold.
    sent_to: redactPassword(target),
    ...(answer.error ? { error: answer.error } : {}),
  };
  await appendReceived(ctx.io.env, replay);
  return replay;
}

/**
 * Opens $VISUAL or $EDITOR on the body, pretty-printed; answers the edited body as compact JSON
 * (the platform's form), or the original bytes when nothing changed.
 */
async function editedBody(ctx: Context, body: string): Promise<string> {
  const editor = ctx.io.env.VISUAL?.trim() || ctx.io.env.EDITOR?.trim();
  if (!editor) throw new UsageError('--edit opens $EDITOR (or $VISUAL) on the body, and neither is set', { hint: 'For example: EDITOR=nano store-admin webhooks replay …' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const shown = parsed === undefined ? body : `${JSON.stringify(parsed, null, 2)}\n`;
  // A private folder: the body may carry customers' data.
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-replay-'));
  const file = join(dir, 'delivery.json');
  try {
    writeFileSync(file, shown, { mode: 0o600 });
    // The editor is a command line, as git runs it: `code --wait` and `vim -n` work.
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit', env: childEnv(ctx.io.env) });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new UsageError(`the editor (${editor}) exited with ${code ?? 'a signal'}; nothing was sent`);
    const edited = readFileSync(file, 'utf8');
    if (edited === shown) return body;
    try {
      return JSON.stringify(parseJson(edited));
    } catch (error) {
      throw new UsageError(`the edited body is ${(error as Error).message}; nothing was sent`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function receivedEntry(ctx: Context, id: string): ReceivedDelivery {
  const entry = readReceived(ctx.io.env).find((e) => e.id === id);
  if (!entry) throw new StoreAdminError(`Delivery ${id} is not in the listen log`, { hint: 'store-admin webhooks deliveries --received lists it' });
  return entry;
}

function checkSandboxId(id: string) {
  if (!/^dlv_\d{1,12}$/.test(id)) {
    throw new UsageError(`"${id}" is not a delivery id: the sandbox's are dlv_ and a number, the listen log's rcv_…`, {
      hint: 'store-admin webhooks deliveries lists them',
    });
  }
}

function checkReceived(entry: ReceivedDelivery, secret: string | undefined): SignatureCheck {
  const signature = entry.headers[WEBHOOK_SIGNATURE_HEADER];
  if (!signature) return { signed: false };
  if (secret === undefined) return { signed: true, checked: false, reason: 'no --secret-file' };
  return { signed: true, checked: true, ...verifyWebhookSignature(entry.body, signature, secret) };
}

function signatureText(check: SignatureCheck): string {
  if (!check.signed) return 'unsigned';
  if (!check.checked) return `not checked (${check.reason})`;
  if (!check.valid) return '✗ matches neither the raw body nor its re-serialisation';
  return `✓ (${check.matched === 'raw' ? 'raw body' : 're-serialised body'})`;
}

/** As the platform counts: only a 200 is delivered. */
function answeredOk(status: number | null | undefined): boolean {
  return status === 200;
}

/** A delivery for a person: its facts, its headers, then its body pretty-printed. */
function describe(facts: [string, string][], headers: Record<string, string>, body: string): string {
  const width = Math.max(...facts.slice(1).map(([name]) => name.length));
  const [[title, subject], ...rest] = facts as [[string, string], ...[string, string][]];
  let pretty = body;
  try {
    pretty = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  const lines = [
    `${title}: ${subject}`,
    ...rest.map(([name, value]) => `${name.padEnd(width)}  ${value}`),
    '',
    'Headers',
    ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`),
    '',
    'Body',
    pretty,
  ];
  return printable(`${lines.join('\n')}\n`);
}

