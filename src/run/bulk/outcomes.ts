// What a bulk run tells people as it goes and at the end: one short line per result on a
// terminal, and the failure reasons grouped with their counts.
import { ApiError, NetworkError, StoreAdminError, statusLine } from '../../api/errors.js';
import { printableLine } from '../../printable.js';

/** The reason a line failed, as grouped in the summary: `404 Not Found`, or the kind of failure. */
export function failureReason(error: unknown): string {
  if (error instanceof ApiError) return statusLine(error.status);
  if (error instanceof NetworkError) return `network: ${error.kind}`;
  if (error instanceof StoreAdminError) return error.name.replace(/Error$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() || 'error';
  return 'unexpected error';
}

/** `12 × 404 Not Found, 3 × 400 Bad Request`, most frequent first. */
export function groupedReasons(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `${count} × ${reason}`).join(', ');
}

/** The one fact worth a glance in an answer: its number or id, and its status. */
function keyFact(data: unknown): string {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return '';
  const record = data as Record<string, unknown>;
  const name = ['number', 'order_number', 'id'].find((key) => typeof record[key] === 'string' || typeof record[key] === 'number');
  const parts = [name ? `${name === 'id' ? 'id ' : '#'}${String(record[name])}` : '', typeof record.status === 'string' ? record.status : ''];
  return parts.filter(Boolean).join(' ');
}

/** A result as a person reads it: `✓ 3  #10007 active` or `✗ 5  404 Not Found: Subscription 5 not found.` */
export function shortLine(input: readonly string[], result: { ok: boolean; data?: unknown; outcome?: string; error?: { message: string } }): string {
  const what = input.join(' ');
  if (result.ok) return printableLine(`✓ ${what}  ${keyFact(result.data)}`.trimEnd());
  return printableLine(`${result.outcome === 'unknown' ? '?' : '✗'} ${what}  ${result.error?.message ?? ''}`.trimEnd());
}
