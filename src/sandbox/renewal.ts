// A subscription's renewal, the one way it happens: by `subscriptions renew` (rules) or by the
// sandbox's clock passing its next_renewal_date (scheduler.ts). Only an `active` subscription
// renews (platform facts); a renewal creates an order, paid by a new transaction, and fires
// order.created, transaction.created and subscription.updated.
import type { SubscriptionDetail } from '../api/generated/types.js';
import type { Rec } from './kinds.js';
import { renewalOrder } from './renewal-order.js';
import { nextId, type SandboxState } from './state.js';

export type SubscriptionRecord = SubscriptionDetail & Rec;

/** Renews `subscription` at `now`; emits its events. The caller has checked it is active. */
export function renewSubscription(state: SandboxState, subscription: SubscriptionRecord, now: string, emit: (event: string, record: Rec) => void): Rec {
  const id = subscription.id ?? 0;
  const number = String(nextId(state, 'orders'));
  const { order, payment } = renewalOrder(state, subscription, number, now);
  const billingCycle = Math.max(0, ...(subscription.orders ?? []).map((o) => o.billing_cycle ?? 0)) + 1;
  order.subscriptions = [{ billing_cycle: billingCycle, id }];
  state.records.orders[number] = order as Rec;
  state.records.transactions[String(payment.id)] = payment;
  subscription.orders = [...(subscription.orders ?? []), { billing_cycle: billingCycle, order_number: number }];
  subscription.num_orders = subscription.orders.length;
  subscription.next_renewal_date = addInterval(subscription.next_renewal_date ?? now, subscription.interval ?? 'month', subscription.interval_count ?? 1);
  emit('order.created', order as Rec);
  emit('transaction.created', payment);
  emit('subscription.updated', subscription);
  return order as Rec;
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
