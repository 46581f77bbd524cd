// The sandbox's whole state: plain JSON, so it can be saved to a file and loaded again. The
// store's records are kept by kind (kinds.ts); beside them, what only the sandbox's machinery
// needs: the clock's offset, webhook deliveries waiting and made, and exports' files and timers.
import { KIND_NAMES, type Rec, type Records } from './kinds.js';

/** A webhook delivery waiting in the outbox (events.ts queues it): the exact bytes to send, and when. */
export interface OutboxDelivery {
  event_id: string;
  event_type: string;
  webhook: number;
  body: string;
  /** Absent when the webhook has no secret key. */
  signature?: string;
  /** Failed attempts so far. */
  failures: number;
  /** When the next attempt is due (epoch ms). */
  dueAt: number;
  /** Another process is sending it until then (epoch ms), so it is not sent twice. */
  claimedUntil?: number;
}

/** One delivery attempt as the delivery log (delivery-log.ts) keeps it. */
export interface DeliveryAttempt {
  /** `dlv_` and a number, in the order attempts were made. */
  id: string;
  event_id: string;
  event_type: string;
  webhook: number;
  /**
   * 1 for the first try, 2 for the first retry, …: the platform's tries only. A replay is none of
   * them: it keeps the number of the attempt it sent again, and `replay_of` marks it.
   */
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

/** Bumped when the layout changes, so an old saved state is reseeded rather than misread. */
export const STATE_SCHEMA = 5;

export interface SandboxState {
  schema: typeof STATE_SCHEMA;
  /** The sandbox clock's lead over real time, in ms (clock.ts): kept here, so it outlives a command. */
  clockOffsetMs: number;
  /** The store's records by kind, then key (kinds.ts). */
  records: Records;
  /** The last number handed out per kind of record, and for the numbered things that are no kind (order lines, deliveries). */
  lastIds: Record<string, number>;
  /** Webhook deliveries not yet made or to be retried. */
  webhookOutbox: OutboxDelivery[];
  /** Every delivery attempt, oldest first, bounded (delivery-log.ts). */
  deliveryLog: DeliveryAttempt[];
  /** The CSV file of each available export, made when it turned available, by export id. */
  exportFiles: Record<string, string>;
  /** When each pending export turns available (sandbox clock, ms since the epoch), by export id. */
  exportsReadyAt: Record<string, number>;
}

/** The next number of a kind (or of a numbered thing that is no kind). */
export function nextId(state: SandboxState, name: string): number {
  state.lastIds[name] = (state.lastIds[name] ?? 0) + 1;
  return state.lastIds[name];
}

/** A record of a kind by its key, if it is there. */
export function find(state: SandboxState, kind: keyof Records, key: unknown): Rec | undefined {
  return key === undefined || key === null ? undefined : state.records[kind][String(key)];
}

/**
 * Gives every map keyed by a request's value a null prototype, so an id such as `__proto__` or
 * `constructor` is an ordinary missing key: it can neither reach Object.prototype nor crash a
 * handler. Applied to the seed and to every state loaded from a file.
 */
export function withNullPrototypes(state: SandboxState): SandboxState {
  for (const kind of KIND_NAMES) state.records[kind] = nullPrototype(state.records[kind] ?? {});
  state.exportFiles = nullPrototype(state.exportFiles);
  state.exportsReadyAt = nullPrototype(state.exportsReadyAt);
  return state;
}

function nullPrototype<T extends object>(record: T): T {
  // Copying own properties by definition, not assignment: a saved `__proto__` key stays a key.
  return Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(record)) as T;
}
