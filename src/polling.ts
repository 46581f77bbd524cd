// How a wait looks and for how long: a duration as people type it (`--wait-timeout 10m`), the
// pause before the next look, which grows with the time waited, and a duration as people read it.
// An export's wait and a fulfillment order's wait for its location's answer share them.

/**
 * When to look again: after half the time waited so far, at least 2 s and at most 30 s later.
 * What is waited for is so seen at most half as late again as it took (a 20 s wait by about 20 s,
 * not at 30 s), and a long one every 30 s, about 120 looks an hour, well within the rate limit.
 */
export const POLL = Object.freeze({ firstMs: 2_000, longestMs: 30_000 });

/** The schedule above, as the help of a command that waits states it. */
export const POLLING = `polls after ${POLL.firstMs / 1000} s, then as often as half the time waited, at most every ${POLL.longestMs / 1000} s`;

export function nextPause(waitedMs: number): number {
  return Math.min(POLL.longestMs, Math.max(POLL.firstMs, Math.round(waitedMs / 2)));
}

/** `90`, `90s`, `10m`, `1h` (whole numbers above 0; a bare number is seconds) → milliseconds; anything else → undefined. */
export function durationMs(value: string): number | undefined {
  const match = /^\s*(\d{1,6})\s*(s|m|h)?\s*$/i.exec(value);
  if (!match || Number(match[1]) === 0) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  return Number(match[1]) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000);
}

/** `42s`, `3m05s`, `1h20m`. */
export function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s` : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
