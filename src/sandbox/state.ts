// The sandbox's whole state: plain JSON, so it can be saved to a file and loaded again.
import type * as z from 'zod/mini';
import type * as catalogue from '../api/schemas/catalogue.js';
import type * as common from '../api/schemas/common.js';
import type * as disputes from '../api/schemas/disputes.js';
import type * as exports from '../api/schemas/exports.js';
import type * as orders from '../api/schemas/orders.js';
import type * as subscriptions from '../api/schemas/subscriptions.js';
import type * as webhooks from '../api/schemas/webhooks.js';

export type Order = z.output<typeof orders.order>;
export type OrderLine = z.output<typeof orders.orderLine>;
export type OrderNote = z.output<typeof orders.orderNote>;
export type CustomerNote = z.output<typeof orders.customerNote>;
export type FulfillmentEvent = z.output<typeof orders.fulfillmentEvent>;
export type FulfillmentOrder = z.output<typeof orders.fulfillmentOrder>;
export type User = z.output<typeof common.user>;
export type Subscription = z.output<typeof subscriptions.subscription>;
/** Lines are kept in the cancel/renew shape plus the variant fields of the update shape. */
export type SubscriptionLineRecord = z.output<typeof subscriptions.subscriptionLine> & {
  variant_id: number;
  variant_title: string;
};
export type SubscriptionRecord = Subscription & { lines: SubscriptionLineRecord[] };
export type Category = z.output<typeof catalogue.category>;
export type Webhook = z.output<typeof webhooks.webhook>;
export type DataExport = z.output<typeof exports.dataExport>;
/** An export as kept: its `url` is derived from the sandbox's origin when it is answered. */
export type ExportRecord = Omit<DataExport, 'url' | 'id'> & { id: number };
export type Dispute = z.output<typeof disputes.dispute>;

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
export const STATE_SCHEMA = 4;

export interface SandboxState {
  schema: typeof STATE_SCHEMA;
  /** The sandbox clock's lead over real time, in ms (clock.ts): kept here, so it outlives a command. */
  clockOffsetMs: number;
  /** By order number. */
  orders: Record<string, Order>;
  /** Notes by order number. */
  orderNotes: Record<string, OrderNote[]>;
  /** By customer id. */
  customers: Record<string, { user: User; notes: CustomerNote[]; /** When the account was made (absent in older saved states). */ joined?: string }>;
  /** By subscription id. */
  subscriptions: Record<string, SubscriptionRecord>;
  /** By event id; each names its order and fulfillment. */
  fulfillmentEvents: Record<string, FulfillmentEvent>;
  /** By fulfillment order id. */
  fulfillmentOrders: Record<string, FulfillmentOrder>;
  /** By category id. */
  categories: Record<string, Category>;
  /** Settings by app client id. */
  appSettings: Record<string, Record<string, unknown>>;
  /** By webhook id. */
  webhooks: Record<string, Webhook>;
  /** Webhook deliveries not yet made or to be retried (absent in states saved before deliveries). */
  webhookOutbox?: OutboxDelivery[];
  /** Every delivery attempt, oldest first, bounded (delivery-log.ts). */
  deliveryLog?: DeliveryAttempt[];
  /** By export id. */
  exports: Record<string, ExportRecord>;
  /** The CSV file of each available export, made when it turned available, by export id. */
  exportFiles: Record<string, string>;
  /** When each pending export turns available (sandbox clock, ms since the epoch), by export id. */
  exportsReadyAt: Record<string, number>;
  /** By dispute id. */
  disputes: Record<string, Dispute>;
  exportTypes: { code: string; name: string }[];
  /** The last id handed out per kind of object; new objects take the next one. */
  lastIds: Record<'order' | 'line' | 'note' | 'export' | 'dispute' | 'webhook' | 'transaction' | 'delivery', number>;
}

const KEYED_MAPS = [
  'orders',
  'orderNotes',
  'customers',
  'subscriptions',
  'fulfillmentEvents',
  'fulfillmentOrders',
  'categories',
  'appSettings',
  'webhooks',
  'exports',
  'exportsReadyAt',
  'exportFiles',
  'disputes',
] as const;

/**
 * Gives every map keyed by a request's value (and every app's settings) a null prototype, so an
 * id such as `__proto__` or `constructor` is an ordinary missing key: it can neither reach
 * Object.prototype nor crash a handler. Applied to the seed and to every state loaded from a file.
 */
export function withNullPrototypes(state: SandboxState): SandboxState {
  for (const name of KEYED_MAPS) (state as unknown as Record<string, object>)[name] = nullPrototype(state[name] ?? {});
  for (const clientId of Object.keys(state.appSettings)) state.appSettings[clientId] = nullPrototype(state.appSettings[clientId]!);
  return state;
}

function nullPrototype<T extends object>(record: T): T {
  // Copying own properties by definition, not assignment: a saved `__proto__` key stays a key.
  return Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(record)) as T;
}
