// Record builders for an order and everything that happens to it: its lines (amounts computed),
// payments, fulfillment orders, fulfillments with their tracking events, refunds and notes.
//
// Kept per order (Order at 2024-04-01): its own fields, lines, refunds, discounts, tax lines and
// a copy of its addresses and attribution (none has an endpoint of its own), with `user_id` for
// its customer. Joined when answered (views.ts): `user`, `fulfillments` (the fulfillments kind, by
// `order_number`), `transactions` (by `order`), and each refund's `transactions` (by `refund_id`).
// A transaction keeps `order` (the number, or null), `subscription_id` and `billing_cycle`,
// `user_id` and, for a refund, `refund_id`; its `user`, `subscription`, `attribution` and, unless
// staff made it, `initiator` are joined. A fulfillment keeps `order_number` and
// `fulfillment_order_id`; a fulfillment order `order_number` and `location_id` (its
// `assigned_location` is joined); an event `order` and `fulfillment`.
import { applyCurrentQuantity, applyOrderTotals, applyOutstanding, lineAmounts, netOf, recordOriginals, shippingAmounts, taxBreakdown } from '../amounts.js';
import { paidCents, transactionsOf } from '../payments.js';
import { fromCents, sumCents, toCents } from '../money.js';
import { isoSeconds } from '../clock.js';
import type { Rec } from '../kinds.js';
import { supportedActions } from '../supported-actions.js';
import { LOCATION_OF, sold, soldFields } from './catalogue.js';
import type { Customer } from './people.js';
import { DAY, HOUR, type Seeding } from './seeding.js';
import { GATEWAYS, SALES_TAX, SHIPPING, SHIPPING_TAX, STAFF, staffNote, STORE, type Carrier, type Currency } from './store-facts.js';

export interface LineFacts {
  id?: number;
  variantId: number;
  quantity: number;
  /** The price of one unit, tax included; else the catalogue's in the order's currency. */
  price?: string;
  /** The line's whole discount, tax included. */
  discount?: string;
  metadata?: Rec;
  upsell?: boolean;
}

export interface OrderFacts {
  number: string;
  customer: Customer;
  currency: Currency;
  placedAt: string;
  shipping: keyof typeof SHIPPING;
  /** Tax included; else the shipping method's price. */
  shippingPrice?: string;
  lines: LineFacts[];
  status: 'open' | 'canceled' | 'archived';
  fulfillmentStatus: string;
  paymentStatus: string;
  attribution: Rec;
  source?: string;
  /** The subscription and billing cycle the order renews. */
  subscription?: { id: number; cycle: number };
  tags?: (string | null)[];
  metadata?: Rec;
  offers?: { name: string; description: string; amount: string }[];
  voucher?: { name: string; description: string; code: string; amount: string };
  /** Else the customer's defaults (null: none). */
  billing?: Rec | null;
  shippingAddress?: Rec | null;
  isTest?: boolean;
}

/** A line of an order in `currency`, added at `at`: its units all still to fulfil and editable, its money computed. */
export function buildLine(seed: Seeding, currency: Currency, line: LineFacts, at: string): Rec {
  const item = sold(seed.records, line.variantId, currency);
  return {
    id: seed.id('line', line.id),
    created_at: at,
    updated_at: at,
    quantity: line.quantity,
    current_quantity: line.quantity,
    editable_quantity: line.quantity,
    fulfillable_quantity: item.requiresShipping ? line.quantity : 0,
    is_gift_card: item.sku === '',
    is_upsell: line.upsell ?? false,
    requires_shipping: item.requiresShipping,
    metadata: line.metadata ?? { gift_wrap: false },
    ...lineAmounts({ unitCost: line.price ?? item.price, quantity: line.quantity, discount: line.discount, currency, tax: SALES_TAX }),
    ...soldFields(item),
  };
}

export function buildOrder(seed: Seeding, facts: OrderFacts): Rec {
  const { currency, placedAt } = facts;
  const lines = facts.lines.map((line) => buildLine(seed, currency, line, placedAt));
  const method = SHIPPING[facts.shipping];
  const order: Rec = {
    number: facts.number,
    user_id: facts.customer.user.id,
    billing_address: facts.billing === undefined ? facts.customer.billing : facts.billing,
    shipping_address: facts.shippingAddress === undefined ? facts.customer.shipping : facts.shippingAddress,
    attribution: facts.attribution,
    created_at: placedAt,
    date_placed: placedAt,
    updated_at: placedAt,
    currency,
    display_taxes: 'included',
    shipping_code: method.code,
    shipping_method: method.name,
    source: facts.source ?? (facts.subscription ? 'subscription' : 'checkout'),
    status: facts.status,
    subscription_lifecycle: facts.subscription ? 'recurring' : 'non-recurring',
    fulfillment_status: facts.fulfillmentStatus,
    payment_status: facts.paymentStatus,
    is_test: facts.isTest ?? false,
    supports_post_purchase_upsells: !facts.subscription,
    metadata: facts.metadata ?? { checkout_version: 3 },
    tags: facts.tags ?? [],
    order_status_url: `${STORE.url}/orders/${facts.number}/status?key=nw${(Number(facts.number) * 2654435761) % 4294967296}`,
    lines,
    refunds: [],
    subscriptions: facts.subscription ? [{ billing_cycle: facts.subscription.cycle, id: facts.subscription.id }] : [],
    offer_discounts: facts.offers ?? [],
    voucher_discounts: facts.voucher
      ? [{ amount: facts.voucher.amount, description: facts.voucher.description, name: facts.voucher.name, voucher: { code: facts.voucher.code, name: facts.voucher.name, start_datetime: seed.at('2026-01-01T00:00:00Z'), end_datetime: seed.at('2026-03-31T23:59:59Z') } }]
      : [],
    ...shippingAmounts(facts.shippingPrice ?? method.price[currency], currency, SHIPPING_TAX),
  };
  applyOrderTotals(order, 0);
  recordOriginals(order);
  return seed.add('orders', order);
}

/** A customer's card or wallet, as a transaction's `payment_details` shows it. */
export function paymentDetails(method: 'bankcard' | 'paypal' | 'klarna', userId: number, lastFour = '4242'): Rec {
  const wallet = (gateway: Rec, vault: string) => ({ bankcard_first_six: null, bankcard_last_four: null, card_token: '', gateway: { ...gateway }, is_3ds: false, optimized_3ds: false, paypal_vault_id: vault, sca_flow: '' });
  if (method === 'paypal') return wallet(GATEWAYS.paypal, `BA-NW${userId}PP`);
  if (method === 'klarna') return wallet(GATEWAYS.klarna, '');
  // Every third customer's bank lets the store skip the challenge (optimised 3-D Secure).
  return { bankcard_first_six: lastFour === '4444' ? '555555' : '424242', bankcard_last_four: lastFour, card_token: `tok_nw_${userId}_${lastFour}`, gateway: { ...GATEWAYS.stripe }, is_3ds: true, optimized_3ds: userId % 3 === 0, paypal_vault_id: '', sca_flow: 'frictionless' };
}

export interface TransactionFacts {
  id?: number;
  type: 'authorize' | 'debit' | 'refund' | 'void';
  amount: string;
  at: string;
  status?: 'succeeded' | 'failed';
  parent?: Rec;
  /** The order's number; null for a renewal that made no order. */
  order: string | null;
  currency: string | null;
  userId: unknown;
  subscription?: { id: number; cycle: number | null };
  refundId?: number;
  details: Rec;
  paymentMethod: string | null;
  /** Staff who made it; else the customer did. */
  initiator?: Rec;
  external?: boolean;
  test?: boolean;
}

export function buildTransaction(seed: Seeding, facts: TransactionFacts): Rec {
  const id = seed.id('transactions', facts.id);
  const failed = facts.status === 'failed';
  const code = (id * 7919).toString(36).toUpperCase().padStart(6, '0').slice(-6);
  return seed.add('transactions', {
    id,
    order: facts.order,
    user_id: facts.userId,
    ...(facts.subscription ? { subscription_id: facts.subscription.id, billing_cycle: facts.subscription.cycle } : {}),
    ...(facts.refundId === undefined ? {} : { refund_id: facts.refundId }),
    ...(facts.initiator ? { initiator: facts.initiator } : {}),
    amount: facts.amount,
    auth_code: failed || facts.external ? null : code,
    currency: facts.currency,
    date_created: facts.at,
    external_id: facts.external ? null : `${facts.type === 'refund' ? 're' : 'ch'}_3Nw${id}Outfitters`,
    is_disputed: false,
    is_external: facts.external ?? false,
    is_initial_retry: facts.subscription ? failed : null,
    is_test: facts.test ?? (facts.external ? null : false),
    network_transaction_id: failed || facts.external ? null : `MCC0000${String(52000000 + id * 104729).slice(-8)}`,
    parent_id: facts.parent ? facts.parent.id : null,
    payment_details: facts.details,
    payment_method: facts.paymentMethod,
    report_values: { amount: facts.amount, currency: facts.currency ?? STORE.currencies[0] },
    response_code: failed ? 205 : 100,
    statement_descriptor: facts.external ? null : STORE.statementDescriptor,
    status: failed ? 'failed' : 'succeeded',
    type: facts.type,
  });
}

/** What a customer pays with: the card or wallet, the method's name and the transaction's currency (null when nobody said). */
export interface Payer {
  details: Rec;
  method: string | null;
  currency: string | null;
  /** Paid outside the store's gateways, recorded by hand. */
  external?: boolean;
}

/**
 * The payments behind an order's `payment_status`: authorizations, charges and voids, with the
 * order's totals worked out from what was charged. Refunds are made by `refund` after this.
 */
export function pay(seed: Seeding, order: Rec, payer: Payer, subscription?: { id: number; cycle: number }): Rec[] {
  const total = toCents(order.total_incl_tax);
  const status = String(order.payment_status);
  const placed = Date.parse(String(order.date_placed));
  const base = { order: String(order.number), currency: payer.currency, userId: order.user_id, details: payer.details, paymentMethod: payer.method, subscription, external: payer.external };
  const made: Rec[] = [];
  const add = (type: TransactionFacts['type'], cents: number, after: number, extra: Partial<TransactionFacts> = {}) => {
    const t = buildTransaction(seed, { ...base, type, amount: fromCents(cents), at: isoSeconds(placed + after), ...extra });
    made.push(t);
    return t;
  };
  switch (status) {
    case 'pending':
      add('debit', total, 0, { status: 'failed' });
      break;
    case 'authorized':
    case 'expiring':
    case 'expired':
      add('authorize', total, 0);
      break;
    case 'voided': {
      const auth = add('authorize', total, 0);
      add('void', total, 2 * HOUR, { parent: auth, initiator: { ...STAFF.tomas } });
      break;
    }
    case 'partially_voided': {
      const auth = add('authorize', total, 0);
      add('void', Math.round(total / 3), 3 * HOUR, { parent: auth, initiator: { ...STAFF.priya } });
      break;
    }
    case 'partially_paid':
      // Half on the card, the rest to be paid on delivery.
      add('debit', Math.round(total / 2), 0);
      break;
    default:
      add('debit', total, 0);
  }
  applyOutstanding(order, sumCents(made.filter((t) => t.type === 'debit' && t.status === 'succeeded').map((t) => t.amount)));
  return made;
}


export type RestockType = 'cancel' | 'no_restock' | 'return';

/** Money given back through one payment of the order. */
export interface RefundPayment {
  /** A charge (refunded), or an authorization never captured (voided: an uncaptured payment is only ever refunded whole). */
  charge: Rec;
  /** Tax included; the whole refund when it goes through this payment alone. */
  amount?: string;
  /** Given back outside the store's gateways and only recorded here (as for a charge made outside them). */
  external?: boolean;
  transactionId?: number;
}

export interface RefundFacts {
  id?: number;
  at: string;
  /** Lines given back, with how many and what happens to the stock. */
  lines: { lineId: number; quantity: number; restock: RestockType; id?: number }[];
  /** Shipping refunded, tax included. */
  shipping?: string;
  note: string | null;
  /** Where the money goes back. */
  payments: RefundPayment[];
  /** The staff member who refunds (Agent); Priya unless said. */
  by?: Rec;
  adjustmentId?: number;
}

/** A refund line's money: its share of what the line's remaining units cost. */
export function refundLineAmounts(line: Rec, quantity: number): { excl: string; incl: string } {
  const current = Number(line.current_quantity);
  const share = (amount: unknown) => fromCents(current === 0 ? 0 : Math.round((toCents(amount) * quantity) / current));
  return { excl: share(line.price_excl_tax), incl: share(line.price_incl_tax) };
}

/**
 * Units of a line given back: they leave its current quantity (and its money); canceled ones
 * were never fulfilled and leave what is to fulfil, returned ones (`return`, `no_restock`) had
 * been shipped.
 */
function giveBack(line: Rec, quantity: number, restock: RestockType, at: string): void {
  line.current_quantity = Number(line.current_quantity) - quantity;
  if (restock === 'cancel') line.fulfillable_quantity = Math.max(0, Number(line.fulfillable_quantity) - quantity);
  line.fulfillable_quantity = Math.min(Number(line.fulfillable_quantity), Number(line.current_quantity));
  // What is left to change: never more than is left, nor (for what ships) more than is left to ship.
  const ceiling = line.requires_shipping === true ? Number(line.fulfillable_quantity) : Number(line.current_quantity);
  line.editable_quantity = Math.min(Number(line.editable_quantity), ceiling);
  line.updated_at = at;
  applyCurrentQuantity(line);
}

/** An adjustment of a refund: shipping given back, or the money that differs from the goods. */
function adjustment(seed: Seeding, type: 'refund_shipping' | 'refund_discrepancy', [excl, incl]: [string, string], currency: string, id?: number): Rec {
  return { id: seed.id('adjustment', id), amount_excl_tax: excl, amount_incl_tax: incl, report_values: { amount_excl_tax: excl, amount_incl_tax: incl, currency }, type };
}

/**
 * A refund of some lines and shipping, its money given back through the order's payments (a
 * refund transaction of each charge, or the void of an authorization). The lines keep only the
 * units left and the shipping what was not refunded, so the order's totals are what remains;
 * money given back beyond or short of the goods is the refund's discrepancy.
 */
export function refund(seed: Seeding, order: Rec, facts: RefundFacts): Rec {
  const currency = String(order.currency);
  const lines = order.lines as Rec[];
  const location = LOCATION_OF[currency as Currency];
  const id = seed.id('refund', facts.id);
  const refundLines = facts.lines.map((given) => {
    const line = lines.find((l) => l.id === given.lineId)!;
    const { excl, incl } = refundLineAmounts(line, given.quantity);
    giveBack(line, given.quantity, given.restock, facts.at);
    return {
      id: seed.id('refundLine', given.id),
      line_item_id: line.id,
      location_id: location,
      quantity: given.quantity,
      amount_excl_tax: excl,
      amount_incl_tax: incl,
      report_values: { amount_excl_tax: excl, amount_incl_tax: incl, currency },
      restock_type: given.restock,
    };
  });
  const shippingIncl = toCents(facts.shipping ?? '0.00');
  const adjustments = shippingIncl ? [adjustment(seed, 'refund_shipping', [fromCents(netOf(shippingIncl, SHIPPING_TAX.rate)), fromCents(shippingIncl)], currency, facts.adjustmentId)] : [];
  if (shippingIncl) Object.assign(order, shippingAmounts(fromCents(toCents(order.shipping_incl_tax) - shippingIncl), currency, SHIPPING_TAX));
  const returnExcl = fromCents(sumCents(refundLines.map((l) => l.amount_excl_tax)));
  const returnIncl = fromCents(sumCents(refundLines.map((l) => l.amount_incl_tax)));
  const goods = toCents(returnIncl) + shippingIncl;
  const paid = facts.payments.map((payment) => ({ ...payment, cents: payment.amount === undefined ? goods : toCents(payment.amount) }));
  const total = paid.reduce((sum, payment) => sum + payment.cents, 0);
  if (total !== goods) adjustments.push(adjustment(seed, 'refund_discrepancy', [fromCents(total - goods), fromCents(total - goods)], currency));
  const by = facts.by ?? STAFF.priya;
  const made: Rec = {
    id,
    user_id: by.id,
    created_at: facts.at,
    note: facts.note,
    order_number: order.number,
    total_refund_amount: fromCents(total),
    total_return_excl_tax: returnExcl,
    total_return_incl_tax: returnIncl,
    report_values: { currency, total_refund_amount: fromCents(total), total_return_excl_tax: returnExcl, total_return_incl_tax: returnIncl },
    refund_line_items: refundLines,
    adjustments,
  };
  (order.refunds as Rec[]).push(made);
  for (const { charge, cents, external, transactionId } of paid.filter((payment) => payment.cents > 0)) {
    buildTransaction(seed, {
      id: transactionId,
      type: charge.type === 'authorize' ? 'void' : 'refund',
      amount: fromCents(cents),
      at: facts.at,
      parent: charge,
      external: external ?? charge.is_external === true,
      order: String(order.number),
      currency: charge.currency as string | null,
      userId: order.user_id,
      ...(charge.subscription_id === undefined ? {} : { subscription: { id: Number(charge.subscription_id), cycle: charge.billing_cycle as number | null } }),
      refundId: id,
      details: charge.payment_details as Rec,
      paymentMethod: charge.payment_method as string | null,
      initiator: { ...by },
    });
  }
  applyOrderTotals(order, paidCents(order, transactionsOf(seed.records, order.number)));
  order.updated_at = facts.at;
  return made;
}

export interface FulfillmentOrderFacts {
  id?: number;
  at: string;
  updatedAt?: string;
  /** Its lines: all the order's shipped lines unless given. */
  lineIds?: number[];
  status: string;
  requestStatus: string;
  holds?: { reason: string; message: string | null }[] | null;
  requests?: { type: 'fulfill_request' | 'cancel_request'; message: string | null; notify: boolean }[] | null;
  lineItemIds?: number[];
}

/** The units of an order line a fulfillment order holds, and how many of them are still to fulfil. */
export function fulfillmentOrderLine(seed: Seeding, fulfillmentOrderId: number, line: Rec, currency: Currency, units: { quantity: number; fulfillable: number }, id?: number): Rec {
  return {
    id: seed.id('fulfillmentOrderLine', id),
    fulfillment_order_id: fulfillmentOrderId,
    order_line_id: line.id,
    currency,
    quantity: units.quantity,
    fulfillable_quantity: String(units.fulfillable),
    price_excl_tax: line.price_excl_tax,
    price_incl_tax: line.price_incl_tax,
    total_discount: line.total_discount,
    product_id: String(line.product_id),
    product_image: line.product_image,
    product_title: line.product_title,
    sku: line.sku,
    stockrecord_id: sold(seed.records, Number(line.variant_id), currency).stockrecordId,
    tax_lines: line.tax_lines,
  };
}

export function buildFulfillmentOrder(seed: Seeding, order: Rec, facts: FulfillmentOrderFacts): Rec {
  const id = seed.id('fulfillmentOrders', facts.id);
  const currency = String(order.currency) as Currency;
  const shipped = (order.lines as Rec[]).filter((line) => (facts.lineIds ? facts.lineIds.includes(Number(line.id)) : line.requires_shipping));
  const notRequired = facts.status === 'not_required';
  const done = ['closed', 'canceled', 'not_required'].includes(facts.status);
  const lines = (notRequired ? (order.lines as Rec[]) : shipped).map((line, at) =>
    fulfillmentOrderLine(seed, id, line, currency, { quantity: Number(line.current_quantity), fulfillable: done ? 0 : Number(line.fulfillable_quantity) }, facts.lineItemIds?.[at]),
  );
  const method = SHIPPING[order.shipping_code as keyof typeof SHIPPING];
  return seed.add('fulfillmentOrders', {
    id,
    order_number: order.number,
    location_id: LOCATION_OF[currency],
    created_at: facts.at,
    updated_at: facts.updatedAt ?? facts.at,
    status: facts.status,
    request_status: facts.requestStatus,
    fulfillment_holds: facts.holds === null || notRequired ? null : (facts.holds ?? []).map((hold) => ({ created_at: facts.updatedAt ?? facts.at, reason: hold.reason, reason_message: hold.message })),
    merchant_requests: facts.requests === null || notRequired ? null : (facts.requests ?? []),
    shipping_address: notRequired ? null : order.shipping_address,
    shipping_method: { code: method.code, name: method.name },
    supported_actions: supportedActions(facts.status, facts.requestStatus),
    line_items: lines,
  });
}

/** Each delivery status and the tracking events that led to it (nothing tracked: no events). */
const TRACKS: Record<string, string[]> = {
  tracking_added: ['label_printed'],
  in_transit: ['label_purchased', 'carrier_picked_up', 'in_transit'],
  out_for_delivery: ['label_printed', 'confirmed', 'carrier_picked_up', 'in_transit', 'out_for_delivery'],
  attempted_delivery: ['label_printed', 'carrier_picked_up', 'in_transit', 'out_for_delivery', 'attempted_delivery'],
  failed_delivery: ['label_printed', 'carrier_picked_up', 'in_transit', 'failure'],
  delivered: ['label_printed', 'carrier_picked_up', 'in_transit', 'out_for_delivery', 'delivered'],
  delayed: ['label_printed', 'carrier_picked_up', 'in_transit', 'delayed'],
  picked_up: ['confirmed', 'ready_for_pickup', 'picked_up'],
};

const HUBS = [
  { city: 'Salt Lake City', state: 'UT', postcode: '84104', country: 'US', line1: '1987 S 3800 W', line2: 'Regional hub', latitude: 40.7296, longitude: -111.9786 },
  { city: 'Louisville', state: 'KY', postcode: '40209', country: 'US', line1: '825 Lotus Avenue', line2: 'Worldport', latitude: 38.1744, longitude: -85.7361 },
  { city: 'Venlo', state: 'Limburg', postcode: '5928 LX', country: 'NL', line1: 'Celsiusweg 22', line2: null, latitude: 51.3704, longitude: 6.1724 },
  // A scan without a place: only the city is known.
  { city: 'Unknown', state: null, postcode: null, country: null, line1: null, line2: null, latitude: null, longitude: null },
];

const EVENT_MESSAGES: Record<string, string | null> = {
  label_printed: 'Shipping label created, package awaiting pickup.',
  label_purchased: 'Shipping label purchased.',
  confirmed: 'Shipment confirmed by the carrier.',
  ready_for_pickup: 'Ready for pickup at the store.',
  carrier_picked_up: 'Picked up by the carrier.',
  picked_up: 'Picked up by the customer.',
  in_transit: 'Departed facility, on the way.',
  out_for_delivery: 'Out for delivery.',
  attempted_delivery: 'Delivery attempted, nobody home.',
  failure: 'Address not found; returning to sender.',
  delivered: 'Delivered.',
  delayed: null,
};

export interface FulfillmentFacts {
  id?: number;
  at: string;
  fulfillmentOrder: Rec | null;
  /** Lines shipped and how many of each. */
  lines: { lineId: number; quantity: number; id?: number }[];
  carrier: Carrier;
  trackingCode?: string;
  /** The track the parcel is on (a key of TRACKS), or none tracked yet (null or ''). */
  delivery: string | null;
  /** The events' statuses, when not the delivery's usual track. */
  track?: string[];
  canceled?: boolean;
  eventIds?: number[];
  /** What differs in each event from the usual (where it was scanned, when, what it said). */
  eventOverrides?: Rec[];
}

/** A parcel: a fulfillment of some lines, with its tracking events; the lines count it as fulfilled. */
export function buildFulfillment(seed: Seeding, order: Rec, facts: FulfillmentFacts): Rec {
  const id = seed.id('fulfillments', facts.id);
  const lines = order.lines as Rec[];
  const code = facts.trackingCode ?? `${facts.carrier.code}${String(id * 982451653).slice(-10)}`;
  const track = facts.track ?? (facts.delivery === null || facts.delivery === '' ? [] : TRACKS[facts.delivery]!);
  const shippedAt = Date.parse(facts.at);
  const events = track.map((status, at) => {
    const when = isoSeconds(shippedAt + at * 14 * HOUR + 90_000);
    return seed.add('fulfillmentEvents', {
      id: seed.id('fulfillmentEvents', facts.eventIds?.[at]),
      fulfillment: id,
      order: order.number,
      ...HUBS[(id + at) % HUBS.length]!,
      message: EVENT_MESSAGES[status] ?? null,
      status,
      created_at: when,
      updated_at: when,
      happened_at: when,
      estimated_delivery_at: status === 'delayed' ? null : isoSeconds(shippedAt + 3 * DAY + 13 * HOUR),
      ...facts.eventOverrides?.[at],
    });
  });
  const currency = String(order.currency);
  const items = facts.lines.map((given) => {
    const line = lines.find((l) => l.id === given.lineId)!;
    if (!facts.canceled) {
      line.fulfillable_quantity = Number(line.fulfillable_quantity) - given.quantity;
      line.editable_quantity = Math.min(Number(line.editable_quantity), Number(line.fulfillable_quantity));
      line.updated_at = facts.at;
    }
    const share = (amount: unknown) => fromCents(Math.round((toCents(amount) * given.quantity) / Number(line.quantity)));
    const tax = toCents(share(line.price_incl_tax)) - toCents(share(line.price_excl_tax));
    return {
      id: seed.id('fulfillmentLine', given.id),
      order_line_id: line.id,
      currency,
      quantity: given.quantity,
      fulfilled_quantity: String(given.quantity),
      fulfillment_service: 'manual',
      price_excl_tax: share(line.price_excl_tax),
      price_incl_tax: share(line.price_incl_tax),
      total_discount: share(line.total_discount),
      product_id: line.product_id,
      product_image: line.product_image,
      product_title: line.product_title,
      requires_shipping: line.requires_shipping,
      returnable_quantity: String(given.quantity),
      returned_quantity: '0',
      sku: line.sku,
      tax_lines: [taxBreakdown(tax, currency, SALES_TAX)],
    };
  });
  const location = seed.records.locations[String(LOCATION_OF[currency as Currency])]!;
  const link = facts.carrier.link(code);
  return seed.add('fulfillments', {
    id,
    order_number: order.number,
    fulfillment_order_id: facts.fulfillmentOrder ? facts.fulfillmentOrder.id : null,
    location_id: location.id,
    created_at: facts.at,
    last_event_date: events.at(-1)?.happened_at ?? null,
    delivery_status: facts.delivery === 'picked_up' ? 'delivered' : facts.delivery,
    origin_address: { ...(location.address as Rec) },
    requires_shipping: true,
    shipping_method: order.shipping_method,
    status: facts.canceled ? 'canceled' : 'success',
    tracking_carrier: facts.carrier.name,
    tracking_carriers: facts.carrier.name,
    tracking_code: code,
    tracking_codes: code,
    tracking_link: link,
    tracking_links: link,
    line_items: items,
  });
}

/** Marks lines returned in a refund of shipped goods on the fulfillment that shipped them. */
export function markReturned(fulfillment: Rec, lineId: number, quantity: number): void {
  const item = (fulfillment.line_items as Rec[]).find((i) => i.order_line_id === lineId);
  if (!item) return;
  item.returned_quantity = String(Number(item.returned_quantity) + quantity);
  item.returnable_quantity = String(Number(item.returnable_quantity) - quantity);
}

/** A staff note on an order (orders' notes kind). */
export function orderNote(seed: Seeding, orderNumber: unknown, message: string, written: string, id?: number): Rec {
  return seed.add('orderNotes', {
    id: seed.id('orderNotes', id),
    order_number: orderNumber,
    ...staffNote(message),
    date_created: written,
    date_updated: written,
  });
}
