// Subscriptions as the platform's subscription-management guide describes them: made for a
// customer found or made by e-mail, with the card to renew with and the first renewal's date;
// canceled with a reason, renewed only while active, a past-due renewal retried (on another gateway
// if asked) until paid, lines added, changed and removed (never the last) with the total kept
// right, and changed in part: its schedule, addresses, card or gateway, shipping and status, a
// subscription made active needing a date to renew on. Every change sends subscription.updated.
// The customer, lines, addresses, card and shipping are taken as a new order takes them (orders.ts).
import type { CreateOrderLine, CreateSubscription } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { subscriptionTotal } from '../amounts.js';
import { runtimeSeeding } from '../builders.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { badRequest } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { fromCents, toCents } from '../money.js';
import { renewSubscription, type SubscriptionRecord } from '../renewal.js';
import { soldNow } from '../seed/catalogue.js';
import { buildSubscription, buildSubscriptionLine, frequencyOf } from '../seed/subscriptions.js';
import { SHIPPING, STORE, type Currency } from '../seed/store-facts.js';
import { gatewayFor, gatewayRef, payerFor } from './charges.js';
import { fieldError, itemError, lineFacts } from './order-state.js';
import { addressesFor, attributionOf, customerFor, makeCustomer, shippingFor } from './orders.js';

function findSubscription(ctx: RuleContext): SubscriptionRecord {
  const subscription = ctx.state.records.subscriptions[String(ctx.params.id)];
  if (!subscription) throw NOT_FOUND();
  return subscription as SubscriptionRecord;
}

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

/** A canceled subscription renews no more. */
function cancel(ctx: RuleContext, subscription: SubscriptionRecord): void {
  subscription.status = 'canceled';
  subscription.cancel_date = ctx.now;
  subscription.next_renewal_date = null;
}

function findLine(ctx: RuleContext, subscription: SubscriptionRecord): Rec {
  const line = ((subscription.lines ?? []) as Rec[]).find((candidate) => String(candidate.id) === String(ctx.params.lineId));
  if (!line) throw NOT_FOUND();
  return line;
}

/** A line checked against the catalogue, as a subscription keeps it: its metadata an object (the subscription's events refuse a null there). */
const lineOf = ({ variantId, quantity, price, metadata }: ReturnType<typeof lineFacts>) => ({ variantId, quantity, ...(price === undefined ? {} : { price }), metadata: metadata ?? {} });

/** The model's limit on a line's quantity (the reference's SubscriptionLine: 0 and up). */
function checkQuantity(quantity: number): void {
  if (quantity < 0) throw fieldError('quantity', 'Ensure this value is greater than or equal to 0.');
}

/**
 * The card a subscription renews with after a change of `payment_details`: another gateway
 * (`payment_gateway`), or a new card (`card_token`, tokenized by the store's payment form; the
 * sandbox takes any token and knows no more of the card).
 */
function paymentDetailsAfter(ctx: RuleContext, subscription: SubscriptionRecord, sent: Record<string, unknown>): Rec {
  const details = { ...(subscription.payment_details as Rec) };
  if (typeof sent.payment_gateway === 'number') details.gateway = gatewayRef(gatewayFor(ctx, { payment_gateway: sent.payment_gateway }, String(subscription.currency)));
  if (typeof sent.card_token === 'string') Object.assign(details, { card_token: sent.card_token, bankcard_first_six: null, bankcard_last_four: null });
  return details;
}

/** Whether anything the subscription renews is shipped. */
const ships = (ctx: RuleContext, subscription: SubscriptionRecord) => ((subscription.lines ?? []) as Rec[]).some((line) => soldNow(ctx.state.records, Number(line.variant_id), subscription.currency as Currency).requiresShipping);

/**
 * A subscription's addresses, merged field by field. The reference's update takes null for them and
 * for the card (payment_details), while the subscription's events carry both addresses as objects
 * and every answer has its card: a null there changes nothing.
 */
const ADDRESSES = new Set(['billing_address', 'shipping_address']);

const partialUpdate: Rule = (ctx) => {
  const subscription = findSubscription(ctx);
  const { status, payment_details, shipping_code, shipping_price, ...sent } = (ctx.body ?? {}) as Record<string, unknown>;
  const fields = Object.fromEntries(Object.entries(sent).filter(([field, value]) => !(value === null && ADDRESSES.has(field))));
  const renewsOn = fields.next_renewal_date !== undefined ? fields.next_renewal_date : subscription.next_renewal_date;
  if (status === 'active' && subscription.status !== 'active' && !renewsOn) {
    throw fieldError('next_renewal_date', `Subscription ${ctx.params.id} has no renewal date: send next_renewal_date with status active.`);
  }
  const details = isPlainObject(payment_details) ? paymentDetailsAfter(ctx, subscription, payment_details) : undefined;
  const method = shipping_code !== undefined ? SHIPPING[shippingFor(shipping_code as string | null, ships(ctx, subscription), subscription.currency as Currency)] : undefined;

  const attribution = fields.attribution === undefined ? undefined : attributionOf(fields.attribution as Rec, subscription.attribution as Rec);
  for (const [field, value] of Object.entries(fields)) {
    (subscription as Rec)[field] = ADDRESSES.has(field) ? merge(subscription[field as keyof typeof subscription], value) : value;
  }
  if (attribution) subscription.attribution = attribution as SubscriptionRecord['attribution'];
  if (details) subscription.payment_details = details;
  if (method) subscription.shipping_code = method.code;
  if (shipping_price !== undefined) {
    // None given: the shipping method's own price. Money comes back written out in full ("0.50" for ".5").
    const price = shipping_price ?? (method ?? SHIPPING[shippingFor(subscription.shipping_code ?? null, ships(ctx, subscription), subscription.currency as Currency)]).price[subscription.currency as Currency];
    subscription.shipping_price = fromCents(toCents(price));
  }
  subscription.frequency = frequencyOf(String(subscription.interval), Number(subscription.interval_count));
  if (status === 'canceled' && subscription.status !== 'canceled') cancel(ctx, subscription);
  else if (status !== undefined) subscription.status = status as SubscriptionRecord['status'];
  changed(ctx, subscription);
  return ctx.answer(subscription);
};

/**
 * A new subscription, as the guide's create: for the customer named (found by e-mail, or made),
 * renewing its lines at the catalogue's prices or those given, shipped by the method named (else
 * the cheapest that carries them), with the card token given (a test card makes a test
 * subscription), first renewing at next_renewal_date. Nothing is charged until then.
 */
const createSubscription: Rule = (ctx) => {
  const body = ctx.body as CreateSubscription & { lines: (CreateOrderLine & { currency?: string })[] };
  const currency = (body.currency ?? body.lines[0]?.currency ?? STORE.currencies[0]) as Currency;
  if (!STORE.currencies.includes(currency)) throw fieldError('currency', `The store sells in ${STORE.currencies.join(' and ')}, not "${currency}".`);
  if (body.lines.length === 0) throw fieldError('lines', 'A subscription needs at least one line.');
  const lines = body.lines.map((line, at) => lineOf(lineFacts(ctx, currency, line, itemError('lines', at))));
  const shipped = lines.some((line) => soldNow(ctx.state.records, line.variantId, currency).requiresShipping);
  const method = shippingFor(body.shipping_code, shipped, currency);
  const { customer, isNew } = customerFor(ctx, body.user);
  const addressesWith = addressesFor(ctx, body, customer, shipped, 'A subscription');
  // The schema has made sure of what it requires (the method, the schedule, the first renewal).
  const payer = payerFor(ctx, body.payment_method!, body.payment_details ?? null, customer, currency)!;
  const attribution = attributionOf(body.attribution, undefined);

  const buyer = isNew ? makeCustomer(ctx, customer.user) : customer;
  if (isNew) ctx.emit('customer.created', buyer.user);
  const { billing, shipping } = addressesWith(buyer);
  const subscription = buildSubscription(runtimeSeeding(ctx.state, ctx.nowMs), {
    customer: { ...buyer, billing },
    currency,
    status: 'active',
    interval: body.interval!,
    intervalCount: body.interval_count!,
    createdAt: ctx.now,
    nextRenewal: body.next_renewal_date!,
    lines,
    attribution,
    payer: { details: payer.details, method: String(payer.method) },
    shippingCode: SHIPPING[method].code,
    shippingPrice: fromCents(toCents(body.shipping_price ?? SHIPPING[method].price[currency])),
    shippingAddress: shipping,
    isTest: payer.test ?? false,
  });
  ctx.emit('subscription.created', subscription);
  return ctx.answer(subscription);
};

export const subscriptionRules: Partial<Record<OperationId, Rule>> = {
  subscriptionsCreate: createSubscription,

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
    if (typeof gateway === 'number') {
      const named = gatewayFor(ctx, { payment_gateway: gateway }, String(subscription.currency), undefined, (field, message) => fieldError(field, message));
      subscription.payment_details = { ...(subscription.payment_details as Rec), gateway: gatewayRef(named) };
    } else {
      // The renewal is charged where the subscription pays: a gateway switched off since cannot.
      const own = ((subscription.payment_details as Rec | null)?.gateway as Rec | undefined)?.id;
      const current = own === undefined ? undefined : ctx.state.records.gateways[String(own)];
      if (current && current.active === false) {
        throw badRequest(`Subscription ${ctx.params.id} pays through gateway ${String(current.id)} (${String(current.name)}), which is not active: retry it on another (payment_gateway).`);
      }
    }
    subscription.status = 'active';
    subscription.next_renewal_date = ctx.now;
    renewSubscription(ctx.state, subscription, ctx.now, ctx.emit);
    return ctx.answer(subscription);
  },

  subscriptionsPartialUpdate: partialUpdate,

  subscriptionsLinesCreate: (ctx) => {
    const subscription = findSubscription(ctx);
    const currency = subscription.currency as Currency;
    const line = buildSubscriptionLine(runtimeSeeding(ctx.state, ctx.nowMs), lineOf(lineFacts(ctx, currency, ctx.body, fieldError)), currency);
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
    Object.assign(line, { quantity, ...(metadata === undefined ? {} : { metadata: metadata ?? {} }), ...(price === undefined ? {} : { price: fromCents(toCents(price)) }) });
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
