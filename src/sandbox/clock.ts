// The sandbox's one clock. Every time the sandbox uses — created_at/updated_at, export readiness,
// link expiry, renewal dates, delivery retries, next_check_date — is this clock's: real time plus
// an offset kept in the state. A new state's clock starts at the seed's moment, so the seeded
// dates are as coherent as when they were written; real time moves it, and `sandbox clock
// advance|set` moves it forward (scheduler.ts runs what falls due on the way).
import type { SandboxState } from './state.js';

/** The moment the seeded data was written at: its last change is just before, its next renewal after. */
export const SEED_MOMENT = Date.parse('2026-02-02T09:00:00Z');

/** The clock's offset for a state created at real time `realMs`: the clock then reads SEED_MOMENT. */
export function seedClockOffset(realMs: number = Date.now()): number {
  return SEED_MOMENT - realMs;
}

/** The sandbox's time now, in ms since the epoch. */
export function clockNow(state: SandboxState, realMs: number = Date.now()): number {
  return realMs + state.clockOffsetMs;
}

/** Moves the clock forward to `toMs`; never back, so nothing already done is undone. */
export function moveClock(state: SandboxState, toMs: number, realMs: number = Date.now()): void {
  if (toMs > clockNow(state, realMs)) state.clockOffsetMs = toMs - realMs;
}

/** The API's date-time form: ISO 8601 in UTC, whole seconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
