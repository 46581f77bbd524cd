// Keeps requests under a store's rate limit, which counts the requests that arrive in any one
// second: starts are spaced evenly, and no start may come sooner than a second (and a margin for
// network jitter) after the start `perSecond` requests earlier, as measured when it really began.
// Spacing alone is not enough: a timer that fires late bunches the next starts together, and the
// store answers 429. A 429 still pauses everyone at once.
// The margin is what a run gives up of the rate (4 / 1.01 s is 3.96 a second), so it starts small
// and follows the network: a 429 says arrivals bunched more than it allowed, and doubles it; a
// long stretch without one narrows it again, step by step.
import { realClock, type Clock } from '../clock.js';

export interface Limiter {
  /** Waits for this request's turn (without a limit, only for a 429's pause). */
  acquire(): Promise<void>;
  /** Holds every caller back for `ms` (a 429's Retry-After), and widens the margin. */
  pause(ms: number): void;
  /** The margin now, in ms, past a second between a start and the one `perSecond` before it. */
  margin(): number;
}

/** Jitter between leaving here and arriving at the store that the window allows for, at first and at least. */
export const MARGIN_MS = 10;
/** The widest a run of 429s makes it. */
export const MAX_MARGIN_MS = 320;
/** Starts without a 429 after which the margin narrows by NARROW_MS. */
export const CALM_STARTS = 100;
const NARROW_MS = 10;

/** `clock`: the time the limiter reads and waits on (a test's moves by hand). */
export function rateLimiter(perSecond: number, { now, sleep }: Clock = realClock): Limiter {
  const spacing = perSecond > 0 ? 1000 / perSecond : 0;
  const window = Math.max(1, Math.floor(perSecond));
  // The real start times of the last `window` requests, oldest first.
  const starts: number[] = [];
  let next = 0;
  let pausedUntil = 0;
  let margin = MARGIN_MS;
  let calm = 0;
  return {
    acquire: turn,
    pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
      margin = Math.min(margin * 2, MAX_MARGIN_MS);
      calm = 0;
    },
    margin: () => margin,
  };

  async function turn() {
    const slot = Math.max(now(), next, pausedUntil);
    next = slot + spacing;
    for (;;) {
      const windowFull = spacing > 0 && starts.length === window;
      const at = Math.max(slot, pausedUntil, windowFull ? starts[0]! + 1000 + margin : 0);
      const wait = at - now();
      if (wait <= 0) break;
      await sleep(wait);
    }
    if (spacing === 0) return;
    starts.push(now());
    if (starts.length > window) starts.shift();
    if (++calm >= CALM_STARTS) {
      margin = Math.max(MARGIN_MS, margin - NARROW_MS);
      calm = 0;
    }
  }
}
