// The values the platform's reference lists for the fields people pick from, as plain arrays:
// prompts, help and completion read these without loading zod. Each is read from the generated
// facts (src/api/generated/), never written out again here.
import type { FieldFact } from './field-facts.js';
import { WEBHOOK_EVENTS } from './generated/events.js';
import { fields as disputes } from './generated/disputes/fields.js';
import { fields as exports } from './generated/exports/fields.js';
import { fields as orders } from './generated/orders/fields.js';
import { fields as subscriptions } from './generated/subscriptions/fields.js';

type Facts = Record<string, { query?: readonly FieldFact[]; body?: readonly FieldFact[] }>;

/** The values a body field of an operation takes, as the reference lists them. */
function valuesOf(facts: Facts, operation: string, field: string): readonly [string, ...string[]] {
  const values = facts[operation]?.body?.find(([name]) => name === field)?.[2]?.values;
  if (!values || values.length === 0) throw new Error(`The reference lists no values for ${operation}'s ${field}`);
  return values as readonly [string, ...string[]];
}

export const CANCEL_REASONS = valuesOf(subscriptions, 'subscriptionsCancelCreate', 'cancel_reason');
export const INTERVALS = valuesOf(subscriptions, 'subscriptionsPartialUpdate', 'interval');
export const SUBSCRIPTION_STATUSES = valuesOf(subscriptions, 'subscriptionsPartialUpdate', 'status');
export const EXPORT_TYPES = valuesOf(exports, 'exportsCreate', 'type');
/** The carriers a fulfilment's tracking names (`other` with a name of its own). */
export const CARRIERS = valuesOf(orders, 'ordersFulfillmentsCreate', 'carrier');
export const DISPUTE_TYPES = valuesOf(disputes, 'disputesCreate', 'type');
/** The empty string and null are also accepted (see the dispute schema). */
export const DISPUTE_RESOLUTIONS = valuesOf(disputes, 'disputesCreate', 'resolution');

/** Event names the platform publishes; webhooks accept others too. */
export { WEBHOOK_EVENTS };
