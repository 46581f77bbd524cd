// Subscriptions and the orders they made: one order per billing cycle so far, each paid by a
// charge of the saved card; a past-due or retrying one also has the renewal charge that failed
// (it made no order).
//
// Kept per subscription (SubscriptionDetail at 2024-04-01): its own fields, lines and a copy of
// its addresses, attribution and card, with `user_id`; `total` is computed from the lines
// (amounts.ts). Joined when answered (views.ts): `user`, `num_lines`, `num_orders` and `orders`
// (the orders whose `subscriptions` name it).
import { subscriptionTotal } from '../amounts.js';
import { isoSeconds } from '../clock.js';
import type { Rec } from '../kinds.js';
import { sold, soldFields, SUBSCRIBABLE } from './catalogue.js';
import { attribution } from './marketing.js';
import { buildFulfillment, buildFulfillmentOrder, buildOrder, buildTransaction, pay, paymentDetails } from './orders.js';
import { payerOf } from './order-stories.js';
import type { Customer } from './people.js';
import { DAY, type Seeding } from './seeding.js';
import { CARRIERS, SUBSCRIPTION_SHIPPING, type Currency } from './store-facts.js';

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'retrying', 'paused'] as const;

export interface SubscriptionFacts {
  id?: number;
  customer: Customer;
  currency: Currency;
  status: (typeof SUBSCRIPTION_STATUSES)[number];
  interval: string;
  intervalCount: number;
  createdAt: string;
  /** Null once nothing is due (paused). */
  nextRenewal: string | null;
  lines: { id?: number; variantId: number; quantity: number; price?: string }[];
  attribution: Rec;
  payer: { details: Rec; method: string };
  /** Tax included; else the flat price of a subscription box (nothing when nothing ships). */
  shippingPrice?: string;
  /** Else the customer's default shipping address. */
  shippingAddress?: Rec;
  cancelReason?: [reason: string, message: string | null];
  isTest?: boolean;
  /** When a canceled one was canceled. */
  canceledAt?: string;
}

export function buildSubscription(seed: Seeding, facts: SubscriptionFacts): Rec {
  const lines = facts.lines.map((line) => {
    const item = sold(seed.records, line.variantId, facts.currency);
    return {
      id: seed.id('subscriptionLine', line.id),
      metadata: { source: 'subscription_checkout' },
      price: line.price ?? item.price,
      quantity: line.quantity,
      ...soldFields(item),
    };
  });
  const shipped = facts.lines.some((line) => sold(seed.records, line.variantId, facts.currency).requiresShipping);
  const shippingPrice = !shipped ? '0.00' : (facts.shippingPrice ?? SUBSCRIPTION_SHIPPING[facts.currency]);
  const unit = facts.interval;
  return seed.add('subscriptions', {
    id: seed.id('subscriptions', facts.id),
    user_id: facts.customer.user.id,
    attribution: facts.attribution,
    billing_address: facts.customer.billing,
    shipping_address: facts.shippingAddress ?? facts.customer.shipping,
    cancel_reason: facts.cancelReason?.[0] ?? '',
    cancel_reason_other_message: facts.cancelReason?.[1] ?? null,
    // Kept, though no answer shows it: lists filter by it.
    cancel_date: facts.canceledAt ?? null,
    currency: facts.currency,
    date_created: facts.createdAt,
    frequency: facts.intervalCount === 1 ? `Every ${unit}` : `Every ${facts.intervalCount} ${unit}s`,
    interval: facts.interval,
    interval_count: facts.intervalCount,
    is_test: facts.isTest ?? false,
    lines,
    next_renewal_date: facts.nextRenewal,
    payment_details: facts.payer.details,
    payment_method: facts.payer.method,
    shipping_code: shipped ? 'standard' : 'no_shipping',
    shipping_price: shippingPrice,
    status: facts.status,
    total: subscriptionTotal(lines, shippingPrice),
  });
}

/** `ms` moved on by `count` intervals (months and years by the calendar). */
export function addInterval(ms: number, interval: string, count: number): number {
  const date = new Date(ms);
  if (interval === 'day') return ms + count * DAY;
  if (interval === 'week') return ms + count * 7 * DAY;
  if (interval === 'month') return date.setUTCMonth(date.getUTCMonth() + count);
  return date.setUTCFullYear(date.getUTCFullYear() + count);
}

/**
 * The order of one billing cycle, paid with the subscription's card: the latest still on its way
 * (its fulfillment order open), the earlier ones delivered.
 */
export function renewalOrder(seed: Seeding, subscription: Rec, customer: Customer, number: string, cycle: number, placedAt: number, latest: boolean): Rec {
  const currency = String(subscription.currency) as Currency;
  const lines = subscription.lines as Rec[];
  const shipped = subscription.shipping_code !== 'no_shipping';
  const order = buildOrder(seed, {
    number,
    customer,
    currency,
    placedAt: isoSeconds(placedAt),
    shipping: shipped ? 'standard' : 'no_shipping',
    shippingPrice: String(subscription.shipping_price),
    lines: lines.map((line) => ({ variantId: Number(line.variant_id), quantity: Number(line.quantity), metadata: { subscription_id: subscription.id } })),
    status: latest || !shipped ? 'open' : 'archived',
    fulfillmentStatus: !shipped ? 'not_required' : latest ? 'unfulfilled' : 'fulfilled',
    paymentStatus: 'paid',
    attribution: subscription.attribution as Rec,
    subscription: { id: Number(subscription.id), cycle },
    tags: ['subscription'],
    shippingAddress: subscription.shipping_address as Rec,
    billing: subscription.billing_address as Rec,
  });
  pay(seed, order, { details: subscription.payment_details as Rec, method: String(subscription.payment_method), currency }, { id: Number(subscription.id), cycle });
  const fo = buildFulfillmentOrder(seed, order, {
    at: isoSeconds(placedAt + 60_000),
    status: !shipped ? 'not_required' : latest ? 'open' : 'closed',
    requestStatus: !shipped || latest ? 'pending' : 'closed',
  });
  if (shipped && !latest) {
    buildFulfillment(seed, order, {
      at: isoSeconds(placedAt + DAY),
      fulfillmentOrder: fo,
      lines: (order.lines as Rec[]).map((line) => ({ lineId: Number(line.id), quantity: Number(line.quantity) })),
      carrier: CARRIERS[cycle % CARRIERS.length]!,
      delivery: 'delivered',
    });
  }
  return order;
}

/** The renewal charge that failed: no order was made. */
export function failedRenewal(seed: Seeding, subscription: Rec, cycle: number, at: string): Rec {
  return buildTransaction(seed, {
    type: 'debit',
    status: 'failed',
    amount: String(subscription.total),
    at,
    order: null,
    currency: String(subscription.currency),
    userId: subscription.user_id,
    subscription: { id: Number(subscription.id), cycle },
    details: subscription.payment_details as Rec,
    paymentMethod: String(subscription.payment_method),
  });
}

export interface GeneratedSubscription {
  subscription: Rec;
  customer: Customer;
  /** When each of its orders was placed, first cycle first. */
  cycles: number[];
}

/**
 * The `n`th generated subscription, in the `n`th status in turn: its cycles end before the seed's
 * moment, the next renewal falls after it (before it, for one that is behind on payment).
 */
export function generateSubscription(seed: Seeding, customer: Customer, currency: Currency, n: number): GeneratedSubscription {
  const status = SUBSCRIPTION_STATUSES[n % SUBSCRIPTION_STATUSES.length]!;
  const product = SUBSCRIBABLE[n % SUBSCRIBABLE.length]!;
  const count = product.counts[n % product.counts.length]!;
  const cycles = 1 + (n % 3);
  const behind = status === 'past_due' || status === 'retrying';
  // A euro subscription behind on payment pays through Klarna, since switched off.
  const payer = status === 'past_due' && currency === 'EUR' ? { details: paymentDetails('klarna', Number(customer.user.id)), method: 'klarna' } : payerOf(customer, currency, n);
  // The next renewal: a few days ahead, or (behind on payment) two days ago.
  const next = behind ? seed.now - 2 * DAY : seed.now + (1 + (n % 5)) * DAY;
  const start = addInterval(next, product.interval, -count * cycles);
  const subscription = buildSubscription(seed, {
    customer,
    currency,
    status,
    interval: product.interval,
    intervalCount: count,
    createdAt: isoSeconds(start - 60_000),
    nextRenewal: status === 'paused' ? null : isoSeconds(next),
    lines: [{ variantId: product.variantId, quantity: 1 + (n % 2) }],
    attribution: attribution(n + 1),
    payer: { details: payer.details, method: payer.method ?? 'bankcard' },
    ...(status === 'canceled' ? { cancelReason: n % 2 ? ['product_too_expensive', 'Found it cheaper elsewhere.'] : ['not_satisfied_with_product', null], canceledAt: isoSeconds(next - DAY) } : {}),
    isTest: n % 6 === 5,
  });
  if (behind) failedRenewal(seed, subscription, cycles + 1, isoSeconds(next));
  return { subscription, customer, cycles: Array.from({ length: cycles }, (_, at) => addInterval(start, product.interval, count * at)) };
}
