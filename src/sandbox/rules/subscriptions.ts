// Subscriptions as the platform's guides describe them: canceled with a reason, renewed only
// while active (a past_due one is retried instead), changed in part with its total kept right.
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import { subscriptionTotal } from '../amounts.js';
import { fromCents, toCents } from '../money.js';
import type { Rec } from '../kinds.js';
import { renewSubscription, type SubscriptionRecord } from '../renewal.js';

export function findSubscription(ctx: RuleContext): SubscriptionRecord {
  const subscription = ctx.state.records.subscriptions[String(ctx.params.id)];
  if (!subscription) throw NOT_FOUND();
  return subscription as SubscriptionRecord;
}

const badRequest = (detail: string) => new HttpError(400, { detail });

const RENEW_REFUSALS = new Map([
  ['past_due', 'is past_due: its payment is retried (POST /subscriptions/{id}/retry/), not renewed'],
  ['retrying', 'is retrying its payment; only an active subscription can be renewed'],
  ['paused', 'is paused; only an active subscription can be renewed'],
  ['canceled', 'is canceled and cannot be renewed'],
]);

/** The subscription's total: its lines' prices times quantities, and its shipping. */
export function recomputeTotal(subscription: SubscriptionRecord): void {
  subscription.total = subscriptionTotal((subscription.lines ?? []) as Rec[], String(subscription.shipping_price ?? '0.00'));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A sent object updates the fields it names, as the platform's serializers do. */
function merge(stored: unknown, sent: unknown): unknown {
  if (!isPlainObject(stored) || !isPlainObject(sent)) return sent;
  const result: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(sent)) result[key] = merge(result[key], value);
  return result;
}

export const subscriptionRules: Partial<Record<OperationId, Rule>> = {
  subscriptionsCancelCreate: (ctx) => {
    const subscription = findSubscription(ctx);
    if (subscription.status === 'canceled') throw badRequest(`Subscription ${ctx.params.id} is already canceled.`);
    subscription.status = 'canceled';
    subscription.cancel_reason = ctx.body.cancel_reason;
    subscription.cancel_reason_other_message = ctx.body.cancel_reason_other_message ?? null;
    subscription.cancel_date = ctx.now;
    subscription.next_renewal_date = null;
    ctx.emit('subscription.updated', subscription);
    return ctx.answer(subscription);
  },

  subscriptionsRenewCreate: (ctx) => {
    const subscription = findSubscription(ctx);
    if (subscription.status !== 'active') {
      throw badRequest(`Subscription ${ctx.params.id} ${RENEW_REFUSALS.get(String(subscription.status)) ?? `is ${String(subscription.status)}; only an active subscription can be renewed`}.`);
    }
    renewSubscription(ctx.state, subscription, ctx.now, ctx.emit);
    return ctx.answer(subscription);
  },

  subscriptionsPartialUpdate: (ctx) => {
    const subscription = findSubscription(ctx);
    for (const [field, value] of Object.entries(ctx.body as Record<string, unknown>)) {
      (subscription as Record<string, unknown>)[field] = ['attribution', 'billing_address', 'shipping_address'].includes(field) && value !== null ? merge(subscription[field as keyof typeof subscription], value) : value;
    }
    // Money comes back written out in full ("0.50" for ".5").
    if (typeof subscription.shipping_price === 'string') subscription.shipping_price = fromCents(toCents(subscription.shipping_price));
    recomputeTotal(subscription);
    ctx.emit('subscription.updated', subscription);
    return ctx.answer(subscription);
  },
};
