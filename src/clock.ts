// The time a run reads and waits on, handed down with the context as the IO is: the real one, or
// in a test one that moves with the sandbox's own clock, so that a wait of minutes takes none.
import { setTimeout as wait } from 'node:timers/promises';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with an AbortError as soon as `signal` is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => wait(ms, undefined, signal ? { signal } : undefined),
};
