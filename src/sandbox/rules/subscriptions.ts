// Subscriptions as the platform's subscription-management guide describes them: canceled with a
// reason, renewed only while active, a past-due renewal retried (on another gateway if asked) until
// paid, lines added, changed and removed (never the last) with the total kept right, and changed in
// part: its schedule, addresses, card or gateway, and status, a subscription made active needing a
// date to renew on. Every change sends subscription.updated.
import type { OperationId } from '../../api/operations.js';
import { subscriptionTotal } from '../amounts.js';
import { runtimeSeeding } from '../builders.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { fromCents, toCents } from '../money.js';
import { renewSubscription, type SubscriptionRecord } from '../renewal.js';
import { buildSubscriptionLine, frequencyOf } from '../seed/subscriptions.js';
import { STAFF, type Currency } from '../seed/store-facts.js';
import { SANDBOX_AGENT } from './notes.js';

function findSubscription(ctx: RuleContext): SubscriptionRecord {
  const subscription = ctx.state.records.subscriptions[String(ctx.params.id)];
  if (!subscription) throw NOT_FOUND();
  return subscription as SubscriptionRecord;
}

const badRequest = (detail: string) => new HttpError(400, { detail });
const fieldError = (field: string, message: string | Rec) => new HttpError(400, { [field]: typeof message === 'string' ? [message] : message });

const RENEW_REFUSALS = new Map([
  ['past_due', 'is past_due: its payment is retried (POST /subscriptions/{id}/retry/), not renewed'],
  ['retrying', 'is retrying its payment; only an active subscription can be renewed'],
  ['paused', 'is paused; only an active subscription can be renewed'],
  ['canceled', 'is canceled and cannot be renewed'],
]);

/** Why a subscription in each status but past_due has no renewal to retry. */
const RETRY_REFUSALS = new Map([
  ['active', 'is active: its renewals are paid; to renew now, POST /subscriptions/{id}/renew/'],
  ['retrying', 'is retrying its payment on the store’s own schedule; a renewal is retried by hand once it is past_due'],
  ['paused', 'is paused: it has no renewal due'],
  ['canceled', 'is canceled: it has no renewal due'],
]);

/** The subscription's total: its lines' prices times quantities, and its shipping. */
function recomputeTotal(subscription: SubscriptionRecord): void {
  subscription.total = subscriptionTotal((subscription.lines ?? []) as Rec[], String(subscription.shipping_price ?? '0.00'));
}

/** The subscription after a change: its total, and its `updated` event. */
function changed(ctx: RuleContext, subscription: SubscriptionRecord): void {
  recomputeTotal(subscription);
  ctx.emit('subscription.updated', subscription);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A sent object updates the fields it names, as the platform's serializers do. */
function merge(stored: unknown, sent: unknown): unknown {
  if (!isPlainObject(stored) || !isPlainObject(sent)) return sent;
  const result: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(sent)) result[key] = merge(result[key], value);
  return result;
}

/** The staff member an attribution names by id (the agent answered whole), or none. */
function agentOf(id: unknown): Rec | null {
  if (id === null) return null;
  const member = [...Object.values(STAFF), SANDBOX_AGENT].find((staff) => staff.id === id);
  if (!member) throw fieldError('attribution', { agent: [`Invalid pk "${String(id)}" - object does not exist.`] });
  return { ...member };
}

/** A canceled subscription renews no more. */
function cancel(ctx: RuleContext, subscription: SubscriptionRecord): void {
  subscription.status = 'canceled';
  subscription.cancel_date = ctx.now;
  subscription.next_renewal_date = null;
}

/**
 * The variant a line renews: `product_id` names it (a variant is a product of its own), and it
 * must have a price in the subscription's currency unless the line gives one.
 */
function variantOfLine(ctx: RuleContext, productId: number, currency: string, priced: boolean): number {
  const { variants, productPrices } = ctx.state.records;
  if (!variants[String(productId)]) {
    const children = Object.values(variants).filter((variant) => variant.product_id === productId);
    throw fieldError('product_id', children.length > 0 ? `${productId} is a product; a line renews one of its variants (${children.map((v) => String(v.id)).join(', ')}).` : `Invalid pk "${productId}" - object does not exist.`);
  }
  if (!priced && !productPrices[`${productId}/${currency}`]) throw fieldError('product_id', `Product ${productId} has no price in ${currency}, the subscription's currency; give the line a price.`);
  return productId;
}

function findLine(ctx: RuleContext, subscription: SubscriptionRecord): Rec {
  const line = ((subscription.lines ?? []) as Rec[]).find((candidate) => String(candidate.id) === String(ctx.params.lineId));
  if (!line) throw NOT_FOUND();
  return line;
}

/** The model's limit on a line's quantity (the reference's SubscriptionLine: 0 and up). */
function checkQuantity(quantity: number): void {
  if (quantity < 0) throw fieldError('quantity', 'Ensure this value is greater than or equal to 0.');
}

// A line's metadata is an object: the subscription's events refuse a null there.
const metadataOf = (given: unknown) => (given === undefined || given === null ? {} : given);

/** A gateway a subscription's card may be charged through: there, active, and taking its currency. */
function gatewayFor(ctx: RuleContext, id: number, currency: string, field: (message: string) => HttpError): Rec {
  const gateway = ctx.state.records.gateways[String(id)];
  if (!gateway) throw field(`Invalid pk "${id}" - object does not exist.`);
  if (gateway.active === false) throw field(`Gateway ${id} (${String(gateway.name)}) is not active.`);
  if (!((gateway.currencies ?? []) as Rec[]).some((accepted) => accepted.code === currency)) throw field(`Gateway ${id} (${String(gateway.name)}) does not take ${currency}.`);
  return { id: gateway.id, name: gateway.name, type: gateway.gateway_type };
}

/**
 * The card a subscription renews with after a change of `payment_details`: another gateway
 * (`payment_gateway`), or a new card (`card_token`, tokenized by the store's payment form; the
 * sandbox takes any token and knows no more of the card).
 */
function paymentDetailsAfter(ctx: RuleContext, subscription: SubscriptionRecord, sent: Record<string, unknown>): Rec {
  const details = { ...(subscription.payment_details as Rec) };
  if (typeof sent.payment_gateway === 'number') {
    details.gateway = gatewayFor(ctx, sent.payment_gateway, String(subscription.currency), (message) => fieldError('payment_details', { payment_gateway: [message] }));
  }
  if (typeof sent.card_token === 'string') Object.assign(details, { card_token: sent.card_token, bankcard_first_six: null, bankcard_last_four: null });
  return details;
}

/** The shipping method a code names; none named, the cheapest that carries what the subscription renews. */
function shippingMethod(ctx: RuleContext, subscription: SubscriptionRecord, code: string | null): Rec {
  const methods = Object.values(ctx.state.records.shippingMethods);
  if (code !== null) {
    const named = methods.find((method) => method.code === code);
    if (!named) throw fieldError('shipping_code', `No shipping method has the code "${code}"; the store's are ${methods.map((m) => String(m.code)).join(', ')}.`);
    return named;
  }
  const ships = ((subscription.lines ?? []) as Rec[]).some((line) => ctx.state.records.variants[String(line.variant_id)]?.requires_shipping !== false);
  const priceOf = (method: Rec) => toCents(((method.prices ?? []) as Rec[]).find((p) => p.currency === subscription.currency)?.price_per_order ?? Infinity);
  const carriers = methods.filter((method) => (method.code === 'no_shipping') === !ships);
  return carriers.reduce((cheapest, method) => (priceOf(method) < priceOf(cheapest) ? method : cheapest));
}

const partialUpdate: Rule = (ctx) => {
  const subscription = findSubscription(ctx);
  const { status, payment_details, shipping_code, shipping_price, ...fields } = (ctx.body ?? {}) as Record<string, unknown>;
  for (const field of ['billing_address', 'shipping_address'] as const) {
    // The subscription's events carry its addresses whole: a renewal is billed and shipped somewhere.
    if (fields[field] === null) throw fieldError(field, 'This field may not be null.');
  }
  if (payment_details === null) throw fieldError('payment_details', 'This field may not be null.');
  const renewsOn = fields.next_renewal_date !== undefined ? fields.next_renewal_date : subscription.next_renewal_date;
  if (status === 'active' && subscription.status !== 'active' && !renewsOn) {
    throw fieldError('next_renewal_date', `Subscription ${ctx.params.id} has no renewal date: send next_renewal_date with status active.`);
  }
  const details = isPlainObject(payment_details) ? paymentDetailsAfter(ctx, subscription, payment_details) : undefined;
  const method = shipping_code !== undefined ? shippingMethod(ctx, subscription, shipping_code as string | null) : undefined;

  const { agent, ...attribution } = (fields.attribution ?? {}) as Rec;
  if (fields.attribution !== undefined) fields.attribution = { ...attribution, ...(agent === undefined ? {} : { agent: agentOf(agent) }) };
  for (const [field, value] of Object.entries(fields)) {
    (subscription as Rec)[field] = ['attribution', 'billing_address', 'shipping_address'].includes(field) ? merge(subscription[field as keyof typeof subscription], value) : value;
  }
  if (details) subscription.payment_details = details;
  if (method) subscription.shipping_code = String(method.code);
  if (shipping_price !== undefined) {
    // None given: the shipping method's own price. Money comes back written out in full ("0.50" for ".5").
    const price = shipping_price ?? ((method ?? shippingMethod(ctx, subscription, subscription.shipping_code ?? null)).prices as Rec[]).find((p) => p.currency === subscription.currency)?.price_per_order;
    subscription.shipping_price = fromCents(toCents(price ?? '0.00'));
  }
  subscription.frequency = frequencyOf(String(subscription.interval), Number(subscription.interval_count));
  if (status === 'canceled' && subscription.status !== 'canceled') cancel(ctx, subscription);
  else if (status !== undefined) subscription.status = status as SubscriptionRecord['status'];
  changed(ctx, subscription);
  return ctx.answer(subscription);
};

export const subscriptionRules: Partial<Record<OperationId, Rule>> = {
  subscriptionsCancelCreate: (ctx) => {
    const subscription = findSubscription(ctx);
    if (subscription.status === 'canceled') throw badRequest(`Subscription ${ctx.params.id} is already canceled.`);
    cancel(ctx, subscription);
    subscription.cancel_reason = ctx.body.cancel_reason;
    subscription.cancel_reason_other_message = ctx.body.cancel_reason_other_message ?? null;
    // send_cancel_notification (default true) tells the store to e-mail the customer; the sandbox sends no e-mail.
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

  /**
   * A past-due renewal charged again, through the gateway named if one is: paid, it makes the
   * cycle's order, the subscription is active again, and its cycles go on from today.
   */
  subscriptionsRetryCreate: (ctx) => {
    const subscription = findSubscription(ctx);
    if (subscription.status !== 'past_due') {
      throw badRequest(`Subscription ${ctx.params.id} ${RETRY_REFUSALS.get(String(subscription.status)) ?? `is ${String(subscription.status)}; only a past_due subscription's renewal is retried`}.`);
    }
    const gateway = ctx.body?.payment_gateway;
    if (typeof gateway === 'number') subscription.payment_details = paymentDetailsAfter(ctx, subscription, { payment_gateway: gateway });
    subscription.status = 'active';
    subscription.next_renewal_date = ctx.now;
    renewSubscription(ctx.state, subscription, ctx.now, ctx.emit);
    return ctx.answer(subscription);
  },

  subscriptionsPartialUpdate: partialUpdate,

  subscriptionsLinesCreate: (ctx) => {
    const subscription = findSubscription(ctx);
    const { product_id, quantity, price, metadata } = ctx.body as { product_id: number; quantity: number; price?: string; metadata?: unknown };
    checkQuantity(quantity);
    const variantId = variantOfLine(ctx, product_id, String(subscription.currency), price !== undefined);
    const seed = runtimeSeeding(ctx.state, ctx.nowMs);
    const line = buildSubscriptionLine(seed, { variantId, quantity, ...(price === undefined ? {} : { price: fromCents(toCents(price)) }), metadata: metadataOf(metadata) }, subscription.currency as Currency);
    subscription.lines = [...((subscription.lines ?? []) as Rec[]), line] as SubscriptionRecord['lines'];
    changed(ctx, subscription);
    return ctx.answer(line);
  },

  subscriptionsLinesUpdate: (ctx) => {
    const subscription = findSubscription(ctx);
    const line = findLine(ctx, subscription);
    const { quantity, price, metadata } = ctx.body as { quantity: number; price?: string; metadata?: unknown };
    checkQuantity(quantity);
    // What the request leaves out stays as it was (the price agreed, the metadata).
    Object.assign(line, { quantity, ...(metadata === undefined ? {} : { metadata: metadataOf(metadata) }), ...(price === undefined ? {} : { price: fromCents(toCents(price)) }) });
    changed(ctx, subscription);
    return ctx.answer(line);
  },

  subscriptionsLinesDestroy: (ctx) => {
    const subscription = findSubscription(ctx);
    const line = findLine(ctx, subscription);
    const lines = (subscription.lines ?? []) as Rec[];
    if (lines.length === 1) throw badRequest(`A subscription must keep at least one line; cancel subscription ${ctx.params.id} instead (POST /subscriptions/{id}/cancel/).`);
    subscription.lines = lines.filter((kept) => kept !== line) as SubscriptionRecord['lines'];
    changed(ctx, subscription);
    return undefined;
  },
};
