// Every delivery attempt the sandbox made, kept in its state: what was sent (the exact bytes and
// headers), where, what came back and when the next attempt is. `webhooks deliveries` lists them
// and `webhooks replay` sends one again; a replay is recorded too, marked as one.
import type { SandboxState } from './state.js';

export interface DeliveryAttempt {
  /** `dlv_` and a number, in the order attempts were made. */
  id: string;
  event_id: string;
  event_type: string;
  webhook: number;
  /** 1 for the first try, 2 for the first retry, …; a replay counts on from the delivery it replays. */
  attempt: number;
  /** The attempt this one sent again (`webhooks replay`). */
  replay_of?: string;
  target: string;
  /** The headers exactly as sent, names in lower case. */
  headers: Record<string, string>;
  /** The body exactly as sent. */
  body: string;
  /** Sandbox time. */
  sent_at: string;
  /** The receiver's status; null when none came (refused, timed out). */
  status: number | null;
  error?: string;
  /** How long the receiver took to answer (or to fail). */
  duration_ms: number;
  ok: boolean;
  /** When the delivery is tried again; null when it is not (delivered, replayed, given up). */
  next_attempt_at: string | null;
  /** This attempt switched the webhook off. */
  deactivated: boolean;
}

/** The attempts kept; older ones go first, as the history's oldest entries do. */
export const DELIVERY_LOG_LIMIT = 1000;

export const DELIVERY_ID = /^dlv_\d{1,12}$/;

export function deliveryLog(state: SandboxState): DeliveryAttempt[] {
  // States saved before the log existed have none yet.
  return (state.deliveryLog ??= []);
}

/** Keeps `attempt` under a new id; returns the record kept. */
export function recordAttempt(state: SandboxState, attempt: Omit<DeliveryAttempt, 'id'>): DeliveryAttempt {
  const record = { id: `dlv_${++state.lastIds.delivery}`, ...attempt };
  const log = deliveryLog(state);
  log.push(record);
  if (log.length > DELIVERY_LOG_LIMIT) log.splice(0, log.length - DELIVERY_LOG_LIMIT);
  return record;
}

export function findAttempt(state: SandboxState, id: string): DeliveryAttempt | undefined {
  return deliveryLog(state).find((a) => a.id === id);
}
