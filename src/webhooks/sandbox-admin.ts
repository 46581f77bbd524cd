// What only a sandbox store answers (src/sandbox/sandbox-routes.ts): its webhooks, its clock, its
// delivery log and the dashboard's changes. Asking is also how these commands tell a sandbox from a real store, which they
// refuse: each first reads something only a sandbox answers, and changes nothing on a store that
// does not.
import * as z from 'zod/mini';
import { AuthError, StoreAdminError, UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { StoreClient } from '../api/client.js';
import { REFERENCE_VERSIONS } from '../api/operations.js';
import { readCappedBody } from '../capped-body.js';
import { quotedExcerpt } from '../printable.js';
import { SANDBOX_PATH, SANDBOX_ROUTES } from '../sandbox/paths.js';
import type { ClockMove } from '../sandbox/scheduler.js';

/** The sandbox's own paths need no API version, but the client sends one with every request: the newest. */
const VERSION = REFERENCE_VERSIONS[0];

export interface SandboxWebhook {
  id: number;
  name: string | null;
  active: boolean;
  events: string[];
  target: string;
  warning_count: number;
  next_check_date: string | null;
  pending_deliveries: number;
}

// What a sandbox answers on its own paths, checked before anything of it is shown or used: a
// server that only claims to be a sandbox gets one clear line, never "unexpected error". Loose
// objects: fields a later sandbox adds pass through.
const time = z.iso.datetime({ offset: true });
const count = z.int().check(z.minimum(0));
const delivery = z.looseObject({
  id: z.string().check(z.regex(/^dlv_\d{1,12}$/)),
  event_id: z.string(),
  event_type: z.string(),
  webhook: count,
  attempt: count,
  replay_of: z.optional(z.nullable(z.string())),
  target: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  sent_at: time,
  status: z.nullable(count),
  error: z.optional(z.nullable(z.string())),
  duration_ms: z.number(),
  next_attempt_at: z.nullable(time),
  deactivated: z.optional(z.boolean()),
});
const ANSWERS = {
  clock: z.looseObject({ now: time }),
  move: z.looseObject({
    from: time,
    now: time,
    renewals: z.array(z.looseObject({ subscription: count, order: z.string(), at: time })),
    exports: z.array(z.looseObject({ id: count, at: time })),
    carts: z.array(z.looseObject({ id: count, at: time })),
    delivery_attempts: count,
    webhooks_switched_off: z.array(z.looseObject({ webhook: count, at: time, attempt: count, delivery: z.string(), answer: z.string() })),
  }),
  deliveries: z.looseObject({ deliveries: z.array(delivery) }),
  // One attempt, as shown: with the sandbox's check of its signature.
  shown: z.looseObject({
    delivery: z.extend(delivery, {
      signature_check: z.looseObject({ signed: z.boolean(), checked: z.optional(z.boolean()), valid: z.optional(z.boolean()), matched: z.optional(z.nullable(z.string())), reason: z.optional(z.string()) }),
    }),
  }),
  delivery: z.looseObject({ delivery }),
  webhooks: z.looseObject({
    webhooks: z.array(z.looseObject({ id: count, name: z.nullable(z.string()), active: z.boolean(), events: z.array(z.string()), target: z.string() })),
  }),
};

/** The shape of the answer to a sandbox path (GET, or POST for a change). */
function answerShape(rest: string, method: 'GET' | 'POST'): z.ZodMiniType | undefined {
  if (rest === SANDBOX_ROUTES.clock) return method === 'GET' ? ANSWERS.clock : ANSWERS.move;
  if (rest === SANDBOX_ROUTES.reset) return ANSWERS.clock;
  if (rest === SANDBOX_ROUTES.deliveries) return ANSWERS.deliveries;
  if (rest.startsWith(SANDBOX_ROUTES.deliveries)) return method === 'GET' ? ANSWERS.shown : ANSWERS.delivery;
  if (rest === SANDBOX_ROUTES.webhooks) return ANSWERS.webhooks;
  return undefined;
}

/** The answer, if it has the shape a sandbox gives it; else one line naming the first field that does not. */
function checked<T>(client: StoreClient, rest: string, method: 'GET' | 'POST', body: unknown): T {
  const parsed = answerShape(rest, method)?.safeParse(body);
  if (parsed && !parsed.success) {
    const issue = parsed.error.issues[0]!;
    const place = issue.path.map(String).join('.') || '(answer)';
    let value: unknown = body;
    for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
    throw new StoreAdminError(`${new URL(client.baseUrl).origin} does not answer as a sandbox does: ${place} is ${value === undefined ? 'missing' : quotedExcerpt(value)}`, {
      hint: 'Point --base-url at a running `store-admin sandbox`, or use --sandbox',
    });
  }
  return body as T;
}

function sandboxUrl(client: StoreClient, rest: string): string {
  return `${new URL(client.baseUrl).origin}${SANDBOX_PATH}${rest}`;
}

/** The refusal of a store that is not a sandbox, naming the command (`what`) that needs one. */
export function notASandbox(client: StoreClient, what: string): UsageError {
  return new UsageError(`${what} works only with a sandbox store, and ${new URL(client.baseUrl).origin} is not one`, {
    hint: 'Add --sandbox, or point --base-url at a running `store-admin sandbox`',
  });
}

/** A GET of a sandbox-only path (`rest`, one of SANDBOX_ROUTES); a UsageError naming `what` when the store is not a sandbox. */
export async function sandboxRead<T>(client: StoreClient, what: string, rest: string, query?: Record<string, string>): Promise<T> {
  // Asked without the token first: a real store's paths outside /api/admin never get it.
  if (!(await isSandbox(client))) throw notASandbox(client, what);
  const answer = await client.raw({ method: 'GET', path: sandboxUrl(client, rest), version: VERSION, ...(query ? { query } : {}) });
  const body = answer.body as ({ sandbox?: unknown } & T) | undefined;
  if (body?.sandbox !== true) throw notASandbox(client, what);
  // The sandbox's own "not found" (a delivery id it never made) carries `sandbox: true` as well.
  if (answer.status !== 200) throw new StoreAdminError(sandboxProblem(body));
  return checked<T>(client, rest, 'GET', body);
}

/**
 * A change through a sandbox-only path, once `sandboxRead` has shown the store is a sandbox; a
 * record the path names that is not there is `gone()`, when given.
 */
export async function sandboxWrite<T>(client: StoreClient, rest: string, body: unknown, method: 'POST' | 'PATCH' = 'POST', gone?: () => StoreAdminError): Promise<T> {
  const answer = await client.raw({ method, path: sandboxUrl(client, rest), version: VERSION, body });
  if (answer.status === 400) throw new UsageError(sandboxProblem(answer.body));
  if (answer.status === 401 || answer.status === 403) throw new AuthError(sandboxProblem(answer.body));
  if (answer.status === 404 && gone) throw gone();
  if (answer.status !== 200) throw new StoreAdminError(sandboxProblem(answer.body));
  return checked<T>(client, rest, 'POST', answer.body);
}

/** The sandbox's own error body, as one line: `{"detail": …}` or `{"field": ["…"]}`. */
function sandboxProblem(body: unknown): string {
  const object = (body ?? {}) as Record<string, unknown>;
  if (typeof object.detail === 'string') return object.detail;
  const first = Object.values(object).flat()[0];
  return typeof first === 'string' ? first : 'The sandbox refused the request';
}

/** The sandbox's webhooks; a UsageError naming `what` when the store is not a sandbox. */
export async function sandboxWebhooks(client: StoreClient, what: string): Promise<SandboxWebhook[]> {
  const body = await sandboxRead<{ webhooks: SandboxWebhook[] }>(client, what, SANDBOX_ROUTES.webhooks);
  return body.webhooks;
}

/** A sandbox answers GET /sandbox/ with {"sandbox": true}, to anyone. */
export async function isSandbox(client: StoreClient): Promise<boolean> {
  const answer = await client.openLink(`${new URL(client.baseUrl).origin}${SANDBOX_PATH}`);
  try {
    if (answer.status !== 200) return false;
    // The marker is a few bytes: a store answering at length is no sandbox.
    const text = (await readCappedBody(answer.body, 1024)).toString('utf8');
    return (JSON.parse(text) as { sandbox?: unknown } | null)?.sandbox === true;
  } catch {
    // Too long, not JSON, or cut short: no sandbox answers so.
    return false;
  } finally {
    answer.done();
    answer.body.destroy();
  }
}

/**
 * Moves the sandbox's clock on to its next change due (a renewal, an export turning available, a
 * cart abandoned), which then happens; says what it did, or undefined when nothing is due. `what`
 * names the command.
 */
export async function advanceToNextChange(client: StoreClient, what: string): Promise<ClockMove | undefined> {
  const { next_change_at: next } = await sandboxRead<{ next_change_at?: unknown }>(client, what, SANDBOX_ROUTES.clock);
  if (typeof next !== 'string') return undefined;
  return sandboxWrite<ClockMove>(client, SANDBOX_ROUTES.clock, { to: next });
}

/** Restores a running sandbox's seed data and clock (its full-access token needed); refused on a real store. */
export async function resetSandbox(client: StoreClient): Promise<{ now: string }> {
  if (!(await isSandbox(client))) throw notASandbox(client, 'sandbox reset');
  return sandboxWrite<{ now: string }>(client, SANDBOX_ROUTES.reset, {});
}

/** The command that restores the seed data of the sandbox a run uses: the embedded one, or the running one at its URL. */
export async function resetCommand(ctx: Context): Promise<string> {
  const { store } = await ctx.destination();
  return store === 'embedded sandbox' ? 'store-admin sandbox reset' : `store-admin sandbox reset --base-url ${new URL((await ctx.client()).baseUrl).origin}`;
}
