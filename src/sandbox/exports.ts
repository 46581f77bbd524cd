// Exports as the platform's guide describes them: created `pending`, `available` after a delay
// counted on the sandbox's clock (scheduler.ts turns them), their file reached through a temporary
// signed link. The readiness time is kept in the state, so the embedded sandbox honours the delay
// across commands.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { exportCsv } from './export-csv.js';
import type { Rec } from './kinds.js';
import type { SandboxState } from './state.js';

/** Where signed links point, shaped like the platform's CDN paths (`/media/<store>/export_csv/…`). */
export const EXPORT_FILES = '/media/sandbox/export_csv/';

export interface ExportSettings {
  /** How long a new export stays pending. */
  delayMs: number;
  /** How long a signed link stays valid. */
  linkTtlMs: number;
  /** Key of the links' signatures; a fresh one per sandbox, so no link outlives it. */
  secret: Buffer;
}

/**
 * THE place an export turns available. Its file is made now, from the records of its date range
 * as they are at this moment (later changes are not in it), and the platform sends
 * `export.created` at this moment: the scheduler, its only caller, emits it right after.
 */
export function markAvailable(state: SandboxState, record: Rec): void {
  const id = String(record.id);
  // An export of no range (its dates may be null) holds everything up to now.
  state.exportFiles[id] = exportCsv(state, String(record.type), { from: String(record.date_from ?? '1970-01-01T00:00:00Z'), to: String(record.date_to ?? record.created_at) });
  record.status = 'available';
  delete state.exportsReadyAt[id];
}

/** `…/export-42.csv?expires=UNIX&signature=HEX`; `expiresMs` is normally now plus the TTL. */
export function signedLink(origin: string, id: number, expiresMs: number, secret: Buffer): string {
  const expires = Math.floor(expiresMs / 1000);
  return `${origin}${EXPORT_FILES}export-${id}.csv?expires=${expires}&signature=${signature(id, expires, secret)}`;
}

export type LinkCheck = { ok: true; id: number } | { ok: false; reason: 'not-found' | 'bad-signature' | 'expired' };

/** Checks a file request: the signature first (a forged expiry must not count), then the time. */
export function checkLink(url: URL, nowMs: number, secret: Buffer): LinkCheck {
  const match = /^export-(\d{1,10})\.csv$/.exec(url.pathname.slice(EXPORT_FILES.length));
  if (!match) return { ok: false, reason: 'not-found' };
  const id = Number(match[1]);
  const expires = url.searchParams.get('expires') ?? '';
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'utf8');
  const expected = Buffer.from(/^\d{1,12}$/.test(expires) ? signature(id, Number(expires), secret) : '', 'utf8');
  if (expected.length === 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad-signature' };
  }
  if (Number(expires) * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, id };
}

function signature(id: number, expires: number, secret: Buffer): string {
  return createHmac('sha256', secret).update(`${id}.${expires}`).digest('hex');
}
