// Every delivery attempt the sandbox made, kept in its state: what was sent (the exact bytes and
// headers), where, what came back and when the next attempt is. `webhooks deliveries` lists them
// and `webhooks replay` sends one again; a replay is recorded too, marked as one.
import { nextId, type DeliveryAttempt, type SandboxState } from './state.js';

/** The attempts kept; older ones go first, as the history's oldest entries do. */
export const DELIVERY_LOG_LIMIT = 1000;

export const DELIVERY_ID = /^dlv_\d{1,12}$/;

export function deliveryLog(state: SandboxState): DeliveryAttempt[] {
  // States saved before the log existed have none yet.
  return (state.deliveryLog ??= []);
}

/** Keeps `attempt` under a new id; returns the record kept. */
export function recordAttempt(state: SandboxState, attempt: Omit<DeliveryAttempt, 'id'>): DeliveryAttempt {
  const record = { id: `dlv_${nextId(state, 'delivery')}`, ...attempt };
  const log = deliveryLog(state);
  log.push(record);
  if (log.length > DELIVERY_LOG_LIMIT) log.splice(0, log.length - DELIVERY_LOG_LIMIT);
  return record;
}

export function findAttempt(state: SandboxState, id: string): DeliveryAttempt | undefined {
  return deliveryLog(state).find((a) => a.id === id);
}
