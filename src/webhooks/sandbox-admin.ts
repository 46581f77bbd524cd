// What only a sandbox store answers (src/sandbox/sandbox-routes.ts): its webhooks, its clock and
// its delivery log. Asking is also how these commands tell a sandbox from a real store, which they
// refuse: each first reads something only a sandbox answers, and changes nothing on a store that
// does not.
import { AuthError, StoreAdminError, UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { StoreClient } from '../api/client.js';
import { operations } from '../api/operations.js';
import { SANDBOX_PATH, SANDBOX_ROUTES } from '../sandbox/paths.js';
import type { ClockMove } from '../sandbox/scheduler.js';

/**
 * The sandbox's own paths need no API version, but the client sends one with every request: the
 * version of the webhooks' operations, which every sandbox-only path is about or beside.
 */
const VERSION = operations['webhooks.list'].version;

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
  return body;
}

/** A change through a sandbox-only path, once `sandboxRead` has shown the store is a sandbox. */
export async function sandboxWrite<T>(client: StoreClient, rest: string, body: unknown): Promise<T> {
  const answer = await client.raw({ method: 'POST', path: sandboxUrl(client, rest), version: VERSION, body });
  if (answer.status === 400) throw new UsageError(sandboxProblem(answer.body));
  if (answer.status === 401 || answer.status === 403) throw new AuthError(sandboxProblem(answer.body));
  if (answer.status !== 200) throw new StoreAdminError(sandboxProblem(answer.body));
  return answer.body as T;
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
  const body = await sandboxRead<{ webhooks?: SandboxWebhook[] }>(client, what, SANDBOX_ROUTES.webhooks);
  if (!Array.isArray(body.webhooks)) throw notASandbox(client, what);
  return body.webhooks;
}

/** A sandbox answers GET /sandbox/ with {"sandbox": true}, to anyone. */
export async function isSandbox(client: StoreClient): Promise<boolean> {
  const answer = await client.openLink(`${new URL(client.baseUrl).origin}${SANDBOX_PATH}`);
  try {
    if (answer.status !== 200) return false;
    let text = '';
    for await (const chunk of answer.body) {
      text += String(chunk);
      // The marker is a few bytes: a store answering at length is no sandbox.
      if (text.length > 1024) return false;
    }
    return (JSON.parse(text) as { sandbox?: unknown } | null)?.sandbox === true;
  } catch {
    return false;
  } finally {
    answer.done();
    answer.body.destroy();
  }
}

/** Has the sandbox send `event` with a seeded object of its kind; says what it sent and to which webhooks. */
export async function sendSandboxSample(client: StoreClient, event: string): Promise<{ said: string; webhooks: number[] }> {
  const answer = await client.raw({ method: 'POST', path: sandboxUrl(client, SANDBOX_ROUTES.events), version: VERSION, body: { event } });
  const body = answer.body as { said?: unknown; webhooks?: unknown; detail?: unknown } | undefined;
  if (answer.status !== 200 || typeof body?.said !== 'string' || !Array.isArray(body.webhooks)) {
    throw new StoreAdminError(`The sandbox did not send ${event}: ${typeof body?.detail === 'string' ? body.detail : `status ${answer.status}`}`);
  }
  return { said: body.said, webhooks: body.webhooks as number[] };
}

/**
 * Moves the sandbox's clock on to its next change due (a renewal, an export turning available),
 * which then happens; says what it did, or undefined when nothing is due. `what` names the command.
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
