// A subscription's renewal, the one way it happens: by `subscriptions renew` (rules) or by the
// sandbox's clock passing its next_renewal_date (scheduler.ts). Only an `active` subscription
// renews (platform facts); a renewal creates an order (built as the seed builds one, with its
// fulfillment order), paid by a new transaction, and fires order.created, transaction.created and
// subscription.updated.
import type { SubscriptionDetail } from '../api/generated/types.js';
import { runtimeSeeding } from './builders.js';
import type { Rec } from './kinds.js';
import { renewalOrder } from './seed/subscriptions.js';
import { nextId, type SandboxState } from './state.js';

export type SubscriptionRecord = SubscriptionDetail & Rec;

/** Renews `subscription` at `now`; emits its events. The caller has checked it is active. */
export function renewSubscription(state: SandboxState, subscription: SubscriptionRecord, now: string, emit: (event: string, record: Rec) => void): Rec {
  const number = String(nextId(state, 'orders'));
  // The cycle after the last one an order was made for (its orders are found by their link to it).
  const cycles = Object.values(state.records.orders).flatMap((order) => ((order.subscriptions ?? []) as Rec[]).filter((link) => link.id === subscription.id).map((link) => Number(link.billing_cycle ?? 0)));
  const cycle = Math.max(0, ...cycles) + 1;
  const customer = {
    user: state.records.users[String(subscription.user_id)] ?? {},
    billing: (subscription.billing_address ?? null) as Rec | null,
    shipping: (subscription.shipping_address ?? null) as Rec | null,
  };
  const order = renewalOrder(runtimeSeeding(state, Date.parse(now)), subscription, customer, number, cycle, Date.parse(now), true);
  subscription.next_renewal_date = addInterval(subscription.next_renewal_date ?? now, subscription.interval ?? 'month', subscription.interval_count ?? 1);
  emit('order.created', order);
  for (const payment of Object.values(state.records.transactions)) if (payment.order === number) emit('transaction.created', payment);
  emit('subscription.updated', subscription);
  return order;
}

/** Calendar arithmetic in UTC; a month step from the 31st lands on the month's last day. */
export function addInterval(from: string, interval: string, count: number): string {
  const date = new Date(from);
  if (Number.isNaN(date.getTime())) return from;
  if (interval === 'day' || interval === 'week') {
    date.setUTCDate(date.getUTCDate() + count * (interval === 'week' ? 7 : 1));
  } else {
    const months = count * (interval === 'year' ? 12 : 1);
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + months);
    const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, lastDay));
  }
  return date.toISOString().replace('.000Z', 'Z');
}
