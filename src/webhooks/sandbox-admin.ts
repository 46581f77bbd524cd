// What only a sandbox store answers (src/sandbox/sandbox-routes.ts): its webhooks, its clock and
// its delivery log. Asking is also how these commands tell a sandbox from a real store, which they
// refuse: each first reads something only a sandbox answers, and changes nothing on a store that
// does not.
import { StoreAdminError, UsageError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';
import { REFERENCE_VERSIONS } from '../api/operations.js';
import { SANDBOX_PATH, SANDBOX_ROUTES } from '../sandbox/paths.js';

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

/**
 * A change through a sandbox-only path, once `sandboxRead` has shown the store is a sandbox; a
 * record the path names that is not there is `gone()`, when given.
 */
export async function sandboxWrite<T>(client: StoreClient, rest: string, body: unknown, method: 'POST' | 'PATCH' = 'POST', gone?: () => StoreAdminError): Promise<T> {
  const answer = await client.raw({ method, path: sandboxUrl(client, rest), version: VERSION, body });
  if (answer.status === 400) throw new UsageError(sandboxProblem(answer.body));
  if (answer.status === 404 && gone) throw gone();
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
