// Spaces requests evenly at a rate per second, and lets a 429 pause everyone at once.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Limiter {
  /** Waits for this request's turn. */
  acquire(): Promise<void>;
  /** Holds every caller back for `ms` (a 429's Retry-After). */
  pause(ms: number): void;
}

export function rateLimiter(perSecond: number): Limiter {
  const spacing = perSecond > 0 ? 1000 / perSecond : 0;
  let next = 0;
  let pausedUntil = 0;
  return {
    async acquire() {
      const now = Date.now();
      const slot = Math.max(now, next, pausedUntil);
      next = slot + spacing;
      if (slot > now) await sleep(slot - now);
    },
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms);
    },
  };
}
