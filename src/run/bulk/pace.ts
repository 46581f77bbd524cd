// The pace of a bulk run: every request through one rate limiter, which a 429 pauses for everyone,
// and the store's 429s said once, shown on the progress line while they last and counted. An
// --each run and a job's checks and changes go at it alike.
import type { ClientSettings } from '../../api/client.js';
import { statusLine } from '../../api/errors.js';
import { rateLimiter } from '../limiter.js';
import type { BulkSettings } from './flags.js';
import type { Progress } from './progress.js';

/** The store's 429s in a run: said once, shown on the progress line while they last, counted in the summary. */
export interface Throttle {
  /** A call waits `delayMs` as the store asked. */
  paused(delayMs: number): void;
  count: number;
}

export function throttleNotice(note: (message: string) => void, progress: () => Pick<Progress, 'pause'>): Throttle {
  const throttle: Throttle = {
    count: 0,
    paused(delayMs) {
      if (throttle.count++ === 0) note(`${statusLine(429)}: the store asks to slow down; every worker waits as it asks, and each line goes on within --timeout`);
      progress().pause(delayMs);
    },
  };
  return throttle;
}

/**
 * Client settings for bulk work: a shared rate limit, which a 429 pauses for everyone. A 429 is
 * waited out by the client itself, whatever --retries says (the store did not take the request).
 */
export function tuning(settings: Pick<BulkSettings, 'rate'>, throttle: Throttle): ClientSettings {
  const limiter = rateLimiter(settings.rate);
  return {
    // Answers are passed through as received (4.7 still normalised to an array).
    checkResponses: false,
    beforeAttempt: () => limiter.acquire(),
    onRetry: ({ delayMs, throttled }) => {
      if (!throttled) return;
      limiter.pause(delayMs);
      throttle.paused(delayMs);
    },
  };
}
