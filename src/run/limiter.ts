// Keeps requests under a store's rate limit, which counts the requests that arrive in any one
// second: starts are spaced evenly, and no start may come sooner than a second (and a margin for
// network jitter) after the start `perSecond` requests earlier, as measured when it really began.
// Spacing alone is not enough: a timer that fires late bunches the next starts together, and the
// store answers 429. A 429 still pauses everyone at once.
import { realClock, type Clock } from '../clock.js';

export interface Limiter {
  /** Waits for this request's turn (without a limit, only for a 429's pause). */
  acquire(): Promise<void>;
  /** Holds every caller back for `ms` (a 429's Retry-After). */
  pause(ms: number): void;
}

/** Jitter between leaving here and arriving at the store that the window allows for. */
export const MARGIN_MS = 40;

/** `clock`: the time the limiter reads and waits on (a test's moves by hand). */
export function rateLimiter(perSecond: number, { now, sleep }: Clock = realClock): Limiter {
  const spacing = perSecond > 0 ? 1000 / perSecond : 0;
  const window = Math.max(1, Math.floor(perSecond));
  // The real start times of the last `window` requests, oldest first.
  const starts: number[] = [];
  let next = 0;
  let pausedUntil = 0;
  return {
    acquire: turn,
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };

  async function turn() {
    const slot = Math.max(now(), next, pausedUntil);
    next = slot + spacing;
    for (;;) {
      const windowFull = spacing > 0 && starts.length === window;
      const at = Math.max(slot, pausedUntil, windowFull ? starts[0]! + 1000 + MARGIN_MS : 0);
      const wait = at - now();
      if (wait <= 0) break;
      await sleep(wait);
    }
    if (spacing === 0) return;
    starts.push(now());
    if (starts.length > window) starts.shift();
  }
}
