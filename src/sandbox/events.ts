// Which state change emits which webhook event: data, like the operation table. A handler may
// emit only the events its entry lists (the type checker holds it to that), and each emitted
// event becomes one delivery per active webhook subscribed to it, queued in the state's outbox.
// The deliverer (deliverer.ts) sends them once the change is saved.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import { REFERENCE_VERSIONS, type OperationId } from '../api/operations.js';
import { signWebhookBody } from '../api/webhook-signature.js';
import type { PayloadShaper } from './payloads.js';
import type { OutboxDelivery, SandboxState, Webhook } from './state.js';

export const EVENTS_BY_CHANGE = {
  // A renewal creates an order, paid by a new transaction, and moves the subscription on.
  'subscriptionsRenewCreate': ['order.created', 'transaction.created', 'subscription.updated'],
  'subscriptionsCancelCreate': ['subscription.updated'],
  'subscriptionsPartialUpdate': ['subscription.updated'],
  'ordersLinesDestroy': ['order.updated'],
  'ordersNotesCreate': ['order.updated'],
  'usersNotesCreate': ['customer.updated'],
  // A dispute on a transaction marks it disputed: a change to the transaction and to its order.
  'disputesCreate': ['dispute.created', 'transaction.updated', 'order.updated'],
  // Not requests: the sandbox's clock passing a moment (scheduler.ts). An export turns available
  // some time after exports.create; an active subscription renews at its next_renewal_date.
  'export.available': ['export.created'],
  'subscription.renewalDue': ['order.created', 'transaction.created', 'subscription.updated'],
} as const satisfies Partial<Record<OperationId | 'export.available' | 'subscription.renewalDue', readonly string[]>>;

/**
 * The platform's events that no change in the sandbox's API causes (nothing there creates a
 * customer or a product, updates a fulfillment, …): `webhooks trigger` sends them with a seeded
 * object of their kind (samples.ts).
 */
export const EVENTS_WITHOUT_CHANGE: readonly string[] = WEBHOOK_EVENTS.filter(
  (event) => !Object.values(EVENTS_BY_CHANGE).some((events) => (events as readonly string[]).includes(event)),
);

export type EventsOf<Id extends OperationId> = Id extends keyof typeof EVENTS_BY_CHANGE
  ? (typeof EVENTS_BY_CHANGE)[Id][number]
  : never;

/** A webhook without its own api_version is sent events at the version it was registered with. */
const DEFAULT_API_VERSION = REFERENCE_VERSIONS[0];

export function outbox(state: SandboxState): OutboxDelivery[] {
  // States saved before deliveries existed have no outbox yet.
  return (state.webhookOutbox ??= []);
}

/**
 * Queues `event` for every active webhook subscribed to it, its `data` shaped for the webhook's
 * API version; returns how many deliveries.
 */
export function emitEvent(state: SandboxState, event: string, data: unknown, now: number, shape: PayloadShaper): number {
  const subscribed = Object.values(state.webhooks).filter((w) => w.active !== false && (w.events ?? []).includes(event));
  for (const webhook of subscribed) {
    const eventId = randomUUID();
    const version = webhook.api_version ?? DEFAULT_API_VERSION;
    // product.deleted carries only the id (platform facts).
    const shown = event === 'product.deleted' ? data : shape(objectOf(event), version, data);
    // The platform sends compact JSON but signs its Python re-serialisation (api/webhook-signature.ts).
    const body = JSON.stringify(envelope(webhook, version, event, eventId, shown));
    outbox(state).push({
      event_id: eventId,
      event_type: event,
      webhook: webhook.id!,
      body,
      ...(webhook.secret_key ? { signature: signWebhookBody(body, webhook.secret_key) } : {}),
      failures: 0,
      dueAt: now,
    });
  }
  return subscribed.length;
}

/** The kind of object an event is about: `order` for `order.updated`. */
export function objectOf(event: string): string {
  return event.split('.')[0]!;
}

function envelope(webhook: Webhook, version: string, event: string, eventId: string, data: unknown) {
  return {
    api_version: version,
    data,
    event_id: eventId,
    event_type: event,
    object: objectOf(event),
    webhook: { events: webhook.events, id: webhook.id, store: 'sandbox', target: webhook.target },
  };
}
