// Every webhook of the store, page after page, for the jobs that need the whole set (apply plans
// against it; listen removes what an earlier listen left behind). `webhooks list` itself is a
// command of the table, listed by the one list machinery (src/run/list.ts).
import type { StoreClient } from '../api/client.js';
import { pagesOf } from '../api/pages.js';
import type { OperationQuery } from '../api/types.js';

/** A webhook as a store answers it; any field may be missing from a store's answer. */
export interface StoreWebhook {
  id?: number;
  name?: string | null;
  active?: boolean;
  events?: (string | null)[];
  target?: string;
  api_version?: string | null;
  secret_key?: string | null;
  [field: string]: unknown;
}

/** Every webhook matching `query`, page after page; `turn` is awaited before each page (a rate limit). */
export async function listAllWebhooks(
  client: StoreClient,
  query: OperationQuery,
  signal?: AbortSignal,
  turn?: () => Promise<void> | undefined,
): Promise<StoreWebhook[]> {
  const all: StoreWebhook[] = [];
  const first = await client.prepare('webhooksList', { query });
  for await (const page of pagesOf(client, first, { signal, ...(turn ? { turn } : {}) })) all.push(...((page.results ?? []) as StoreWebhook[]));
  return all;
}

/** A webhook id the tool may send back in a path, print and name a file by: a positive whole number. */
export const isWebhookId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;
