// A list operation's cursor pages (`{next, previous, results}`), one after another. A page's
// `next` link is not requested as it is: its cursor is taken from it and the operation is called
// again, so every page goes through the table's path, version and checks, and the token never
// follows a URL the store sent.
import type { CallOptions, StoreClient } from './client.js';
import { StoreAdminError } from './errors.js';
import type { PreparedCall } from './prepare.js';

/** A page as a store answers it; any field may be missing. */
export interface Page {
  next?: unknown;
  previous?: unknown;
  results?: unknown[];
}

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

export interface PagesOptions extends Pick<CallOptions, 'signal'> {
  /** Awaited before each page is asked for: the platform's rate. */
  turn?: () => Promise<void> | undefined;
}

/** Every page from the first call's on, as each arrives; stops where a page has no `next`. */
export async function* pagesOf(client: StoreClient, first: PreparedCall, options: PagesOptions = {}): AsyncGenerator<Page> {
  const seen = new Set<string>();
  let call = first;
  for (;;) {
    await options.turn?.();
    const page = ((await client.send(call, { signal: options.signal })) ?? {}) as Page;
    yield page;
    const cursor = cursorOf(page.next);
    if (!cursor) return;
    // A store whose links lead back to a page already read would be followed for ever.
    if (seen.has(cursor)) throw new StoreAdminError("Stopped following the pages: the store's next link leads back to a page already read");
    seen.add(cursor);
    const input = { params: call.params, query: { ...call.query, cursor }, ...(call.body !== undefined ? { body: call.body } : {}) };
    call = await client.prepare(call.operation, input as never);
  }
}
