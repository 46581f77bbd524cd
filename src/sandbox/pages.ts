// The platform's cursor pagination: `{next, previous, results}`, where `next` and `previous` are
// absolute URLs (or null) carrying an opaque `cursor` query parameter, and there is no count.
// Records come newest first, by their key; a cursor holds the key to continue from and the
// direction. Keyed pages stay consistent while records change between them: a record made after
// the first page sorts before it (never shown twice), and one removed shifts nothing.
import { HttpError } from './http-error.js';

/** How many items a page holds when the sandbox is not told otherwise. */
export const DEFAULT_PAGE_SIZE = 20;

/** A position is a record's key, and every list's records are keyed by whole numbers (ids, order numbers; a test in kinds.test.ts holds it). */
const POSITION = /^\d{1,19}$/;

interface Cursor {
  /** Continue past this position (forward: older; reverse: newer). */
  position: string;
  reverse: boolean;
}

export interface Page<T> {
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * One page of `items` for the request at `url`, newest first by `positionOf` (numbers compare as
 * numbers): its other query parameters (the filters) are kept in the links, only `cursor` changes.
 */
export function pageOf<T>(items: readonly T[], url: URL, size: number, positionOf: (item: T) => string | number): Page<T> {
  const cursor = decodeCursor(url.searchParams.get('cursor'));
  const sorted = items.map((item) => ({ item, at: positionOf(item) })).sort((a, b) => compare(b.at, a.at));
  let window: typeof sorted;
  if (!cursor) window = sorted.slice(0, size);
  else if (cursor.reverse) window = sorted.filter((entry) => compare(entry.at, cursor.position) > 0).slice(-size);
  else window = sorted.filter((entry) => compare(entry.at, cursor.position) < 0).slice(0, size);
  const first = window[0]?.at;
  const last = window.at(-1)?.at;
  const link = (next: Cursor) => {
    const target = new URL(url);
    target.searchParams.set('cursor', encodeCursor(next));
    return target.toString();
  };
  // An empty page (a cursor past the end) still links back to what lies before it.
  const after = last ?? cursor?.position;
  const before = first ?? cursor?.position;
  return {
    next: after !== undefined && sorted.some((entry) => compare(entry.at, after) < 0) ? link({ position: String(after), reverse: false }) : null,
    previous: before !== undefined && (cursor !== undefined || first !== undefined) && sorted.some((entry) => compare(entry.at, before) > 0) ? link({ position: String(before), reverse: true }) : null,
    results: window.map((entry) => entry.item),
  };
}

/** Numbers (and digit-only keys such as order numbers) compare as numbers, other keys as text. */
function compare(a: string | number, b: string | number): number {
  const x = Number(a);
  const y = Number(b);
  if (String(a).trim() !== '' && String(b).trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return String(a).localeCompare(String(b));
}

// Opaque to clients, as the platform's are: base64 of a small query string.
function encodeCursor({ position, reverse }: Cursor): string {
  return Buffer.from(new URLSearchParams({ p: position, ...(reverse ? { r: '1' } : {}) }).toString()).toString('base64url');
}

function decodeCursor(text: string | null): Cursor | undefined {
  if (text === null) return undefined;
  const fields = new URLSearchParams(Buffer.from(text, 'base64url').toString('utf8'));
  const position = fields.get('p');
  if (position === null || !POSITION.test(position) || ![null, '1'].includes(fields.get('r'))) throw new HttpError(404, { detail: 'Invalid cursor' });
  return { position, reverse: fields.get('r') === '1' };
}
