// When a failed request may be sent again. Reads and PATCH repeat to the same state, and so does
// DELETE (the client reports a 404 on a retry as the likely work of the lost first attempt); a POST
// (notes, cancel, renew, creates) is repeated only when it provably never reached the store.
// Anything else is reported, never guessed at. A 429 is not a failure: the store refused the
// request outright, so any request is sent again once the wait it asks for is over
// (./retry-loop.ts).
import { NetworkError } from './errors.js';
import { DEFAULTS } from '../defaults.js';

export interface RetryOptions {
  /** Further attempts after the first (default: DEFAULTS.retries). */
  retries?: number;
  /** Longest Retry-After the client will wait (default: DEFAULTS.retryAfterCapMs); longer ones fail at once. */
  retryAfterCapMs?: number;
  /** First backoff step (default: DEFAULTS.retryBaseDelayMs); it doubles per attempt, with full jitter. */
  baseDelayMs?: number;
  /** Announces each wait. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The retry this wait comes before (for a 429, the retries made so far: it is not one). */
  attempt: number;
  of: number;
  delayMs: number;
  reason: string;
  /** A 429: the store did not take the request, and asks to wait; no retry is spent on it. */
  throttled?: boolean;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

export function isIdempotent(method: string): boolean {
  return method !== 'POST';
}

export function retryableStatus(method: string, status: number): boolean {
  return isIdempotent(method) && RETRYABLE_STATUS.has(status);
}

/** Failures that prove nothing reached the store: no connection was ever made. */
export function neverSent(error: unknown): boolean {
  return error instanceof NetworkError && error.sent === false;
}

export function retryableFailure(method: string, error: unknown): boolean {
  if (!(error instanceof NetworkError)) return false;
  if (neverSent(error)) return error.kind !== 'dns' || error.transient;
  // A cut-short body is worth another try; an HTML page in place of JSON is not.
  return isIdempotent(method) && (error.kind === 'reset' || error.kind === 'timeout' || (error.kind === 'body' && error.transient));
}

export function backoffMs(attempt: number, baseDelayMs: number): number {
  const ceiling = Math.min(DEFAULTS.retryMaxDelayMs, baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
