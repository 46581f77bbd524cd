// The webhook `webhooks listen --register` creates, and its removal. Its name tags it with the
// listener's process and host, so one left behind by a listen killed hard (SIGKILL, a closed
// laptop) is recognised by the next `listen --register` on this machine, which removes it and
// says so. A sandbox store delivers to the listener's loopback address; a real store cannot reach
// this machine, so there it takes the public URL of a tunnel (--public-url). Listing and removing
// go through the platform's own webhook operations, on a sandbox and a real store alike.
import { hostname } from 'node:os';
import { ApiError, StoreAdminError, UsageError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import { quotedExcerpt } from '../printable.js';
import { isWebhookId, listAllWebhooks } from './list.js';
import { isSandbox } from './sandbox-admin.js';

const TAG = /^store-admin webhooks listen \(pid (\d{1,10}) on (.+)\)$/;

export function listenTag(pid: number = process.pid, host: string = hostname()): string {
  return `store-admin webhooks listen (pid ${pid} on ${host})`;
}

/** The pid of the listen that made a webhook named `name` on this machine, when that process is gone. */
export function leftBehindBy(name: string | null | undefined, host: string = hostname()): number | undefined {
  const match = TAG.exec(name ?? '');
  if (!match || match[2] !== host) return undefined;
  const pid = Number(match[1]);
  try {
    process.kill(pid, 0);
    return undefined;
  } catch (error) {
    // EPERM: the process lives, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? pid : undefined;
  }
}

export interface Registration {
  id: number;
  /** Where the store delivers. */
  target: string;
  /** Removes the webhook; false when it was gone already. */
  remove(): Promise<boolean>;
}

export interface RegisterOptions {
  /** The listener's own address, on 127.0.0.1. */
  listenUrl: string;
  publicUrl?: URL;
  events: string[];
  secret: string;
}

export async function registerListener(ctx: Context, client: StoreClient, options: RegisterOptions): Promise<Registration> {
  if (!options.publicUrl && !(await isSandbox(client))) {
    const port = new URL(options.listenUrl).port;
    throw new UsageError(
      `${new URL(client.baseUrl).origin} is not a sandbox store, and a real store cannot reach ${options.listenUrl} on this machine`,
      { hint: `Start a tunnel to it (ngrok http ${port}, or cloudflared tunnel --url ${options.listenUrl}) and pass its public address: --public-url https://…` },
    );
  }
  await removeLeftBehind(ctx, client);
  const target = options.publicUrl?.href ?? options.listenUrl;
  const created = (await client.call('webhooksCreate', { body: { target, events: options.events, name: listenTag(), secret_key: options.secret } })) as { id?: unknown };
  const id: unknown = created.id;
  // The id goes into a path to remove it and names the file its secret is saved in.
  if (!isWebhookId(id)) {
    throw new StoreAdminError(`Registered a webhook for the listener, but the store answered ${quotedExcerpt(id)} for its id, which is not a webhook id (a positive whole number)`, {
      hint: `Remove it in the store's admin: it is named "${listenTag()}"`,
    });
  }
  return { id, target, remove: () => removeWebhook(client, id) };
}

/** Webhooks a listen on this machine registered and could not remove, as it was killed. */
async function removeLeftBehind(ctx: Context, client: StoreClient): Promise<void> {
  for (const hook of await listAllWebhooks(client, {}, ctx.signal)) {
    const pid = leftBehindBy(hook.name);
    if (pid !== undefined && isWebhookId(hook.id) && (await removeWebhook(client, hook.id))) {
      ctx.output.prose(`Removed webhook ${hook.id}, left behind by a listen (pid ${pid}) that stopped without removing it.`);
    }
  }
}

/** False when it was gone already. */
async function removeWebhook(client: StoreClient, id: number): Promise<boolean> {
  try {
    await client.call('webhooksDestroy', { params: { id } });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}
