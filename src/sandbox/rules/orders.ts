// Orders as the platform's guides describe them: placed through the API (a customer found by id or
// e-mail or made new, lines priced from the catalogue unless the request prices them, the cheapest
// shipping unless one is named, paid as the payment method says, a fulfillment order for what
// ships, a subscription for each line that asks for one), changed where the reference lets them
// change (addresses, attribution, metadata, tags, status), and noted. Lines, payments and refunds
// have modules of their own.
import type { CreateMarketingAttribution, CreateOrder, CreateOrderLine, CreateUser, Order, PatchedUpdateOrder } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { runtimeSeeding } from '../builders.js';
import type { Rule, RuleContext } from '../engine.js';
import type { Rec } from '../kinds.js';
import { openToChanges } from '../line-units.js';
import { soldNow } from '../seed/catalogue.js';
import { buildFulfillmentOrder, buildOrder } from '../seed/orders.js';
import { buildCustomer, type Customer } from '../seed/people.js';
import { SHIPPING, STAFF, STORE, type Currency } from '../seed/store-facts.js';
import { ofOrder, payerFacts, payerFor, recordTransaction } from './charges.js';
import { addNote, SANDBOX_AGENT } from './notes.js';
import { fieldError, findOrder, itemError, lineFacts, orderChanged, refuseIfCanceled, settleOrder } from './order-state.js';
import { subscribe } from './subscription-lines.js';

/** The staff member an attribution names (`agent` is their id), else the one it had, else the one the API acts as. */
export function attributionOf(given: CreateMarketingAttribution | undefined, kept: Rec | undefined): Rec {
  const { agent, ...rest } = given ?? {};
  const named = agent === undefined || agent === null ? undefined : [...Object.values(STAFF), SANDBOX_AGENT].find((member) => member.id === agent);
  if (agent !== undefined && agent !== null && !named) throw fieldError('attribution', { agent: [`Invalid pk "${agent}" - object does not exist.`] });
  return { ...kept, ...rest, agent: { ...(named ?? (kept?.agent as Rec | undefined) ?? SANDBOX_AGENT) } };
}

/** An address given in a request, as the order keeps its own copy: under the id it had, or a new one. */
function orderAddress(ctx: RuleContext, given: Rec, id?: unknown): Rec {
  const { id: _readOnly, ...fields } = given;
  return { ...fields, id: id ?? ctx.next('addresses') };
}

/** A customer's saved address as an order copies it (a billing address has no delivery notes). */
function savedCopy(address: Rec | undefined, billing: boolean): Rec | null {
  if (!address) return null;
  const { user_id: _user, is_default_for_billing: _b, is_default_for_shipping: _s, notes, ...copy } = address;
  return billing || notes === undefined ? copy : { ...copy, notes };
}

/** The customer an order (or a subscription) is placed for: by id, else by e-mail, else someone new (the platform looks people up by e-mail first). */
export function customerFor(ctx: RuleContext, user: CreateUser | undefined): { customer: Customer; isNew: boolean } {
  const { users, addresses } = ctx.state.records;
  if (user?.id !== undefined && user.id !== null && !users[String(user.id)]) throw fieldError('user', { id: [`Invalid pk "${user.id}" - object does not exist.`] });
  const email = typeof user?.email === 'string' ? user.email.toLowerCase() : undefined;
  const found = user?.id !== undefined && user.id !== null ? users[String(user.id)] : Object.values(users).find((candidate) => email !== undefined && String(candidate.email).toLowerCase() === email);
  if (found) {
    const saved = Object.values(addresses).filter((address) => address.user_id === found.id);
    return {
      customer: { user: found, billing: savedCopy(saved.find((a) => a.is_default_for_billing), true), shipping: savedCopy(saved.find((a) => a.is_default_for_shipping), false) },
      isNew: false,
    };
  }
  if (!user) throw fieldError('user', 'This field is required.');
  if (!user.email) throw fieldError('user', { email: ["Give the customer's id, or an e-mail to find them by (or to make them with)."] });
  return { customer: { user: { ...user }, billing: null, shipping: null }, isNew: true };
}

/** A customer made for an order (or a subscription): who the request says, with no saved address yet. */
export function makeCustomer(ctx: RuleContext, user: Rec): Customer {
  return buildCustomer(runtimeSeeding(ctx.state, ctx.nowMs), {
    first: String(user.first_name ?? ''),
    last: String(user.last_name ?? ''),
    email: String(user.email),
    joined: ctx.now,
    language: (user.language as string | null | undefined) ?? null,
    phone: (user.phone_number as string | null | undefined) ?? null,
    ip: (user.ip as string | null | undefined) ?? null,
    userAgent: (user.user_agent as string | null | undefined) ?? null,
    acceptsMarketing: user.accepts_marketing === true,
    tags: (user.tags as string[] | undefined) ?? [],
    metadata: (user.metadata as Rec | null | undefined) ?? {},
    addresses: [],
  });
}

/** The shipping method named, else the cheapest that carries the order (with nothing to ship, none). */
export function shippingFor(code: string | null | undefined, ships: boolean, currency: Currency): keyof typeof SHIPPING {
  const keys = Object.keys(SHIPPING) as (keyof typeof SHIPPING)[];
  if (code !== undefined && code !== null) {
    const named = keys.find((key) => SHIPPING[key].code === code);
    if (!named) throw fieldError('shipping_code', `No shipping method has the code "${code}"; the store's are ${keys.map((key) => SHIPPING[key].code).join(', ')}.`);
    return named;
  }
  if (!ships) return 'no_shipping';
  return keys.filter((key) => key !== 'no_shipping').reduce((cheapest, key) => (Number(SHIPPING[key].price[currency]) < Number(SHIPPING[cheapest].price[currency]) ? key : cheapest));
}

/** What a request for a new order or subscription says of where it bills and ships. */
type AddressRequest = Pick<CreateOrder, 'billing_address' | 'shipping_address' | 'use_default_billing_address' | 'use_default_shipping_address' | 'billing_same_as_shipping_address'>;

/**
 * Where a new order or subscription (`what`) bills and ships, as the request says: checked
 * against the customer before anything is made; the function it gives then makes the copies kept,
 * once the customer (`buyer`) is.
 */
export function addressesFor(ctx: RuleContext, body: AddressRequest, customer: Customer, ships: boolean, what: string): (buyer: Customer) => { billing: Rec; shipping: Rec } {
  const who = String(customer.user.id ?? customer.user.email);
  if (body.use_default_shipping_address && !customer.shipping) throw fieldError('use_default_shipping_address', `Customer ${who} has no default shipping address.`);
  if (body.use_default_billing_address && !customer.billing) throw fieldError('use_default_billing_address', `Customer ${who} has no default billing address.`);
  const shipsTo = body.shipping_address ?? (body.use_default_shipping_address ? customer.shipping : null);
  if (ships && !shipsTo) throw fieldError('shipping_address', `${what} with items to ship needs a shipping address (or use_default_shipping_address).`);
  if (!body.billing_address && !body.use_default_billing_address && !(body.billing_same_as_shipping_address && shipsTo)) {
    throw fieldError('billing_address', `${what} needs a billing address (or billing_same_as_shipping_address, or use_default_billing_address).`);
  }
  return (buyer) => {
    // The customer's saved addresses are copied as they are; those given get ids of their own.
    const given = (address: unknown) => orderAddress(ctx, address as Rec);
    const shipped = body.shipping_address ? given(body.shipping_address) : body.use_default_shipping_address ? buyer.shipping : null;
    const billing = body.billing_address ? given(body.billing_address) : body.use_default_billing_address ? buyer.billing! : given(shipped);
    // With nothing to ship and no address to ship to, the billing address stands for it: the events always carry one.
    return { billing, shipping: shipped ?? given(billing) };
  };
}

const createOrder: Rule = (ctx) => {
  const body = ctx.body as CreateOrder & { lines: (CreateOrderLine & { currency?: string })[] };
  const currency = (body.currency ?? body.lines[0]?.currency ?? STORE.currencies[0]) as Currency;
  if (!STORE.currencies.includes(currency)) throw fieldError('currency', `The store sells in ${STORE.currencies.join(' and ')}, not "${currency}".`);
  if (body.lines.length === 0) throw fieldError('lines', 'An order needs at least one line.');
  const lines = body.lines.map((line, at) => lineFacts(ctx, currency, line, itemError('lines', at)));
  const ships = lines.some((line) => soldNow(ctx.state.records, line.variantId, currency).requiresShipping);
  const shipping = shippingFor(body.shipping_code, ships, currency);
  const { customer, isNew } = customerFor(ctx, body.user);
  const addressesWith = addressesFor(ctx, body, customer, ships, 'An order');
  const payer = payerFor(ctx, body.payment_method ?? null, body.payment_details ?? null, customer, currency);
  const subscribing = body.lines.filter((line) => line.subscription);
  if (subscribing.length > 0 && !payer?.charges) throw fieldError('payment_method', 'An order with subscription lines is paid when placed (by card or wallet), so the card is kept for the renewals.');
  const attribution = attributionOf(body.attribution, undefined);

  const buyer = isNew ? makeCustomer(ctx, customer.user) : customer;
  if (isNew) ctx.emit('customer.created', buyer.user);
  const { billing: billingAddress, shipping: shippingAddress } = addressesWith(buyer);
  const seed = runtimeSeeding(ctx.state, ctx.nowMs);
  const order = buildOrder(seed, {
    number: String(ctx.next('orders')),
    customer: buyer,
    currency,
    placedAt: body.date_placed ?? ctx.now,
    shipping,
    ...(body.shipping_price === undefined ? {} : { shippingPrice: body.shipping_price }),
    lines,
    status: body.status ?? 'open',
    fulfillmentStatus: ships ? 'unfulfilled' : 'not_required',
    paymentStatus: 'pending',
    attribution,
    source: 'admin_api',
    tags: body.tags ?? [],
    metadata: (body.metadata as Rec | null | undefined) ?? {},
    billing: billingAddress,
    shippingAddress,
    isTest: payer?.test ?? false,
  });
  Object.assign(order, { created_at: ctx.now, updated_at: ctx.now });
  const subscriptions = subscribing.map((line) => subscribe(ctx, order, line, (order.lines as Rec[])[body.lines.indexOf(line)]!, payer!));
  if (subscriptions.length > 0) Object.assign(order, { subscriptions: subscriptions.map((s) => ({ billing_cycle: 1, id: s.id })), subscription_lifecycle: 'recurring' });
  buildFulfillmentOrder(seed, order, { at: ctx.now, status: ships ? 'open' : 'not_required', requestStatus: 'pending' });
  ctx.emit('order.created', order);
  if (payer?.charges && Number(order.total_incl_tax) > 0) recordTransaction(ctx, { ...ofOrder(order), ...payerFacts(payer), type: 'debit', amount: String(order.total_incl_tax) });
  settleOrder(ctx, order);
  return ctx.answer(order);
};

/** Statuses a change may set: an order is canceled through its own operation, which settles its payments. */
const SETTABLE_STATUSES = ['open', 'archived'];

/**
 * A change to an order: PUT replaces each field it names, PATCH merges what it names of an
 * address or attribution into what the order has. Fulfillment orders not yet with their location
 * ship to the new address.
 */
function changeOrder(merge: boolean): Rule {
  return (ctx) => {
    const order = findOrder(ctx);
    const body = (ctx.body ?? {}) as PatchedUpdateOrder;
    if (body.status !== undefined && body.status !== order.status) {
      if (body.status === 'canceled') throw fieldError('status', `Cancel an order with POST /orders/${order.number}/cancel/, which voids or refunds its payments.`);
      if (!SETTABLE_STATUSES.includes(body.status)) throw fieldError('status', `"${body.status}" is not a valid choice.`);
      refuseIfCanceled(order, 'its status cannot change');
    }
    const fields = ['billing_address', 'shipping_address'] as const;
    // An order's events always carry its addresses: one is changed, never taken away.
    for (const field of fields) if (body[field] === null) throw fieldError(field, 'An order keeps its address; give the new one instead.');
    const attribution = body.attribution === undefined ? undefined : attributionOf(body.attribution, merge ? (order.attribution as Rec) : undefined);
    if (attribution) order.attribution = attribution as Order['attribution'];
    for (const field of fields) {
      const given = body[field] as Rec | undefined;
      if (given === undefined) continue;
      const kept = order[field] as Rec | null | undefined;
      (order as Rec)[field] = orderAddress(ctx, merge ? { ...kept, ...given } : given, kept?.id);
    }
    for (const field of ['fulfillment_status', 'metadata', 'status', 'tags'] as const) if (body[field] !== undefined) (order as Rec)[field] = body[field];
    if (body.shipping_address !== undefined) {
      for (const fo of Object.values(ctx.state.records.fulfillmentOrders).filter((f) => String(f.order_number) === order.number && openToChanges(f))) {
        Object.assign(fo, { shipping_address: order.shipping_address, updated_at: ctx.now });
      }
    }
    orderChanged(ctx, order);
    return ctx.answer(order);
  };
}

export const orderRules: Partial<Record<OperationId, Rule>> = {
  ordersCreate: createOrder,
  ordersUpdate: changeOrder(false),
  ordersPartialUpdate: changeOrder(true),
  ordersNotesCreate: (ctx) => addNote(ctx, 'orders', 'orderNotes', 'order_number', 'order.updated', ['date_created', 'date_updated']),
  usersNotesCreate: (ctx) => addNote(ctx, 'users', 'userNotes', 'user_id', 'customer.updated', ['created_at', 'updated_at']),
  disputesNotesCreate: (ctx) => addNote(ctx, 'disputes', 'disputeNotes', 'dispute_id', 'dispute.updated', ['created_at', 'updated_at']),
};
