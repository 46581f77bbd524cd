// The platform's cursor pagination: `{next, previous, results}`, where `next` and `previous` are
// absolute URLs (or null) carrying an opaque `cursor` query parameter, and there is no count.
// Items are ordered by id; a cursor holds the id to continue from and the direction.
import { HttpError } from './http-error.js';

/** How many items a page holds when the sandbox is not told otherwise. */
export const DEFAULT_PAGE_SIZE = 20;

interface Cursor {
  /** Continue after this id (forward) or before it (reverse). */
  position: number;
  reverse: boolean;
}

export interface Page<T> {
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * One page of `items` (sorted by id) for the request at `url`: its other query parameters (the
 * filters) are kept in the links, only `cursor` changes.
 */
export function pageOf<T extends { id?: number | null }>(items: readonly T[], url: URL, size: number): Page<T> {
  const cursor = decodeCursor(url.searchParams.get('cursor'));
  const idOf = (item: T) => item.id ?? 0;
  let results: T[];
  if (!cursor) results = items.slice(0, size);
  else if (cursor.reverse) results = items.filter((item) => idOf(item) < cursor.position).slice(-size);
  else results = items.filter((item) => idOf(item) > cursor.position).slice(0, size);
  const first = results[0] === undefined ? undefined : idOf(results[0]);
  const last = results.at(-1) === undefined ? undefined : idOf(results.at(-1)!);
  // An empty page (a cursor past the end) still links back to what lies before it.
  const before = first ?? (cursor && !cursor.reverse ? cursor.position + 1 : (cursor?.position ?? 0));
  const after = last ?? (cursor?.reverse ? cursor.position - 1 : (cursor?.position ?? 0));
  const link = (next: Cursor) => {
    const target = new URL(url);
    target.searchParams.set('cursor', encodeCursor(next));
    return target.toString();
  };
  return {
    next: items.some((item) => idOf(item) > after) ? link({ position: after, reverse: false }) : null,
    previous: items.some((item) => idOf(item) < before) ? link({ position: before, reverse: true }) : null,
    results,
  };
}

// Opaque to clients, as the platform's are: base64 of a small query string.
function encodeCursor({ position, reverse }: Cursor): string {
  return Buffer.from(`p=${position}${reverse ? '&r=1' : ''}`).toString('base64url');
}

function decodeCursor(text: string | null): Cursor | undefined {
  if (text === null) return undefined;
  const fields = new URLSearchParams(Buffer.from(text, 'base64url').toString('utf8'));
  const position = fields.get('p') ?? '';
  if (!/^\d{1,10}$/.test(position) || ![null, '1'].includes(fields.get('r'))) throw new HttpError(404, { detail: 'Invalid cursor' });
  return { position: Number(position), reverse: fields.get('r') === '1' };
}
