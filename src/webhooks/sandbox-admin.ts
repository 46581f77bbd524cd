// What only a sandbox store answers: its list of webhooks and the removal of one. Asking is also
// how `listen --register` and `trigger` tell a sandbox from a real store, which they refuse.
import { StoreAdminError, UsageError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';

/** Where a sandbox answers, without a token, that it is one (src/sandbox/server.ts). */
export const SANDBOX_PATH = '/sandbox/';
/** Where a sandbox serves its own view of webhooks, outside the API's /api/admin. */
export const SANDBOX_WEBHOOKS_PATH = `${SANDBOX_PATH}webhooks/`;
/** Where a sandbox sends, on request, an event that no change in its API causes (`webhooks trigger`). */
export const SANDBOX_EVENTS_PATH = `${SANDBOX_PATH}events/`;
/** The sandbox's own paths need no API version, but the client sends one with every request. */
const VERSION = '2024-04-01';

export interface SandboxWebhook {
  id: number;
  active: boolean;
  events: string[];
  target: string;
  warning_count: number;
  pending_deliveries: number;
}

function sandboxUrl(client: StoreClient, rest = ''): string {
  return `${new URL(client.baseUrl).origin}${SANDBOX_WEBHOOKS_PATH}${rest}`;
}

/** The sandbox's webhooks; a UsageError naming `what` when the store is not a sandbox. */
export async function sandboxWebhooks(client: StoreClient, what: string): Promise<SandboxWebhook[]> {
  const notOne = () =>
    new UsageError(`${what} works only with a sandbox store, and ${new URL(client.baseUrl).origin} is not one`, {
      hint: 'Add --sandbox, or point --base-url at a running `store-admin sandbox`',
    });
  // Asked without the token: a real store's paths outside /api/admin never get it.
  if (!(await isSandbox(client))) throw notOne();
  const answer = await client.raw({ method: 'GET', path: sandboxUrl(client), version: VERSION });
  const body = answer.body as { sandbox?: unknown; webhooks?: SandboxWebhook[] } | undefined;
  if (answer.status !== 200 || body?.sandbox !== true || !Array.isArray(body.webhooks)) throw notOne();
  return body.webhooks;
}

/** A sandbox answers GET /sandbox/ with {"sandbox": true}, to anyone. */
async function isSandbox(client: StoreClient): Promise<boolean> {
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

/** Removes a webhook from the sandbox; false when it was already gone. */
export async function removeSandboxWebhook(client: StoreClient, id: number): Promise<boolean> {
  const answer = await client.raw({ method: 'DELETE', path: sandboxUrl(client, String(id)), version: VERSION });
  return answer.status === 204;
}

/** Has the sandbox send `event` with a seeded object of its kind; says what it sent and to which webhooks. */
export async function sendSandboxSample(client: StoreClient, event: string): Promise<{ said: string; webhooks: number[] }> {
  const path = `${new URL(client.baseUrl).origin}${SANDBOX_EVENTS_PATH}`;
  const answer = await client.raw({ method: 'POST', path, version: VERSION, body: { event } });
  const body = answer.body as { said?: unknown; webhooks?: unknown; detail?: unknown } | undefined;
  if (answer.status !== 200 || typeof body?.said !== 'string' || !Array.isArray(body.webhooks)) {
    throw new StoreAdminError(`The sandbox did not send ${event}: ${typeof body?.detail === 'string' ? body.detail : `status ${answer.status}`}`);
  }
  return { said: body.said, webhooks: body.webhooks as number[] };
}
