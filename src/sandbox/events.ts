// Webhook events: each change a rule or the generic engine makes emits the event the platform
// sends, and each emitted event becomes one delivery per active webhook subscribed to it, queued
// in the state's outbox with its `data` in the shape of the webhook's API version. The deliverer
// (deliverer.ts) sends them once the change is saved.
import { randomUUID } from 'node:crypto';
import { REFERENCE_VERSIONS } from '../api/operations.js';
import { signWebhookBody } from '../api/webhook-signature.js';
import type { Rec } from './kinds.js';
import type { OutboxDelivery, SandboxState } from './state.js';

/** A webhook without its own api_version is sent events at the version it was registered with. */
const DEFAULT_API_VERSION = REFERENCE_VERSIONS[0];

export function outbox(state: SandboxState): OutboxDelivery[] {
  return (state.webhookOutbox ??= []);
}

/** The kind of object an event is about: `order` for `order.updated`. */
export function objectOf(event: string): string {
  return event.split('.')[0]!;
}

/**
 * Queues `event` for every active webhook subscribed to it, `dataAt(version)` giving its `data`
 * at the webhook's API version; returns how many deliveries.
 */
export function emitEvent(state: SandboxState, event: string, dataAt: (version: string) => unknown, now: number): number {
  const webhooks = Object.values(state.records.webhooks) as Rec[];
  const subscribed = webhooks.filter((w) => w.active !== false && ((w.events as string[] | undefined) ?? []).includes(event));
  const store = storeName(state);
  for (const webhook of subscribed) {
    const eventId = randomUUID();
    const version = typeof webhook.api_version === 'string' && webhook.api_version ? webhook.api_version : DEFAULT_API_VERSION;
    const envelope = {
      api_version: version,
      data: dataAt(version),
      event_id: eventId,
      event_type: event,
      object: objectOf(event),
      webhook: { events: webhook.events, id: webhook.id, store, target: webhook.target },
    };
    // The platform sends compact JSON but signs its Python re-serialisation (api/webhook-signature.ts).
    const body = JSON.stringify(envelope);
    const secret = typeof webhook.secret_key === 'string' && webhook.secret_key ? webhook.secret_key : undefined;
    outbox(state).push({
      event_id: eventId,
      event_type: event,
      webhook: Number(webhook.id),
      body,
      ...(secret ? { signature: signWebhookBody(body, secret) } : {}),
      failures: 0,
      dueAt: now,
    });
  }
  return subscribed.length;
}

/** The data of an event about a record, at a version: the record as the operation that answers its kind shows it (the sandbox's views). */
export type EventData = (state: SandboxState, event: string, version: string, record: Rec) => unknown;

/** Queues `event` about `record` as it is now, its data rendered by `eventData` at each webhook's version. */
export function emitAbout(state: SandboxState, event: string, record: Rec, eventData: EventData, now: number): number {
  return emitEvent(state, event, (version) => eventData(state, event, version, structuredClone(record)), now);
}

/** The store's name, as deliveries name it. */
function storeName(state: SandboxState): string {
  const store = Object.values(state.records.store)[0] as Rec | undefined;
  return typeof store?.name === 'string' ? store.name : 'sandbox';
}
