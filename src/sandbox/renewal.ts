// A subscription's renewal, the one way it happens: by `subscriptions renew` (handlers.ts) or by
// the sandbox's clock passing its next_renewal_date (scheduler.ts). Only an `active` subscription
// renews (platform facts); a renewal creates an order, paid by a new transaction, and fires
// order.created, transaction.created and subscription.updated.
import type { EVENTS_BY_CHANGE } from './events.js';
import { renewalOrder } from './renewal-order.js';
import type { Order, SandboxState, SubscriptionRecord } from './state.js';
import { subscriptionView } from './subscription-views.js';

/** The same events either way; the event table lists both changes. */
export type RenewalEvent = (typeof EVENTS_BY_CHANGE)['subscriptionsRenewCreate' | 'subscription.renewalDue'][number];

/** Renews `subscription` at `now`; emits its events. The caller has checked it is active. */
export function renewSubscription(
  state: SandboxState,
  subscription: SubscriptionRecord,
  now: string,
  emit: (event: RenewalEvent, data: unknown) => void,
): Order {
  const id = subscription.id ?? 0;
  const number = String(++state.lastIds.order);
  const order = renewalOrder(state, subscription, number, now);
  const billingCycle = Math.max(0, ...(subscription.orders ?? []).map((o) => o.billing_cycle ?? 0)) + 1;
  order.subscriptions = [{ billing_cycle: billingCycle, id }];
  state.orders[number] = order;
  state.orderNotes[number] = [];
  subscription.orders = [...(subscription.orders ?? []), { billing_cycle: billingCycle, order_number: number }];
  subscription.num_orders = subscription.orders.length;
  subscription.next_renewal_date = addInterval(subscription.next_renewal_date ?? now, subscription.interval ?? 'month', subscription.interval_count ?? 1);
  emit('order.created', order);
  for (const transaction of order.transactions ?? []) emit('transaction.created', transaction);
  emit('subscription.updated', subscriptionView(subscription));
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
