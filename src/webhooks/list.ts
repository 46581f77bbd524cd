// Listing the store's webhooks through the platform's cursor pagination: one page, or every page.
// A page's `next` link is not requested as is: its cursor is taken from it and the operation is
// called again, so every page goes through the table's path, version and checks.
import type { StoreClient } from '../api/client.js';
import { ApiError, StoreAdminError, UsageError } from '../api/errors.js';
import { operation } from '../api/operations.js';
import type { OperationQuery } from '../api/types.js';
import type { Options } from '../options.js';
import { addHint } from '../run/auth-hint.js';
import type { Context } from '../context.js';
import { redactSecrets } from '../output/redact.js';
import { checkQuery } from '../output/render.js';

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
export interface WebhookPage {
  next?: string | null;
  previous?: string | null;
  results?: StoreWebhook[];
}
type Query = OperationQuery;

/** More pages than any store has webhooks: a store whose links loop is stopped here. */
const MAX_PAGES = 1000;

/** A webhook id the tool may send back in a path, print and name a file by: a positive whole number. */
export const isWebhookId = (id: unknown): id is number => Number.isSafeInteger(id) && (id as number) > 0;

/** The cursor in a page's `next` (or `previous`) link; undefined for the last page. */
export function cursorOf(link: unknown): string | undefined {
  if (link === null || link === undefined) return undefined;
  let cursor: string | null = null;
  try {
    cursor = new URL(String(link)).searchParams.get('cursor');
  } catch {
    // reported below
  }
  if (!cursor) throw new StoreAdminError(`The store's link to the next page carries no cursor (got ${JSON.stringify(String(link).slice(0, 80))})`);
  return cursor;
}

/** Every webhook matching `query`, page after page; `turn` is awaited before each page (a rate limit). */
export async function listAllWebhooks(
  client: StoreClient,
  query: Query,
  signal?: AbortSignal,
  turn?: () => Promise<void> | undefined,
): Promise<StoreWebhook[]> {
  const all: StoreWebhook[] = [];
  let cursor = query.cursor as string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= MAX_PAGES) throw new StoreAdminError(`Stopped after ${MAX_PAGES} pages of webhooks: the store's next links do not end`);
    await turn?.();
    const page = (await client.call('webhooksList', { query: { ...query, ...(cursor ? { cursor } : {}) } }, { signal })) as WebhookPage;
    all.push(...(page.results ?? []));
    cursor = cursorOf(page.next);
    if (!cursor) return all;
  }
}

export async function listCommand(ctx: Context, opts: Options): Promise<void> {
  if (opts.active && opts.inactive) throw new UsageError('--active and --inactive contradict each other');
  if (opts.all && opts.cursor !== undefined) throw new UsageError('--all starts at the first page; leave out --cursor');
  if (ctx.options.query !== undefined) await checkQuery(ctx.options.query);
  const query: Query = {
    ...(opts.name !== undefined ? { name: String(opts.name) } : {}),
    ...(opts.active ? { active: true } : opts.inactive ? { active: false } : {}),
    ...(opts.cursor !== undefined ? { cursor: String(opts.cursor) } : {}),
  };
  const client = await ctx.client();
  if (ctx.options.dryRun) {
    const { printDryRun } = await import('../run/dry-run.js');
    return printDryRun(client.request(await client.prepare('webhooksList', { query })), ctx);
  }
  const stop = ctx.output.spinner(opts.all ? 'Fetching every page of webhooks…' : 'Fetching webhooks…');
  let page: WebhookPage;
  try {
    page = opts.all
      ? { next: null, previous: null, results: await listAllWebhooks(client, query, ctx.signal) }
      : ((await client.call('webhooksList', { query }, { signal: ctx.signal })) as WebhookPage);
  } catch (error) {
    if (error instanceof ApiError) addHint(error, operation('webhooksList'), await ctx.grant());
    throw error;
  } finally {
    stop();
  }
  const shown = redactSecrets(page);
  // JSON keeps the platform's page shape (with --all, one page holding everything); tables and
  // NDJSON show the webhooks themselves.
  const data = ctx.format === 'json' ? shown : (shown.results ?? []);
  await ctx.output.result(data, { view: 'webhooks' });
  if (ctx.format === 'table') {
    if ((page.results ?? []).length === 0) ctx.output.prose('No webhooks match.');
    const next = cursorOf(page.next);
    if (next) ctx.output.prose(`More on the next page: --cursor ${next} (or --all for every page)`);
  }
}
