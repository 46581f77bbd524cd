// What happened to each generated order: a story per combination of order status, fulfillment
// status and payment status the store shows, told with the builders of orders.ts (payments,
// fulfillment orders, parcels, refunds). Between them the stories use every value of those three
// and of a fulfillment order's status and request status; the generated orders take them in turn.
import { fromCents, toCents } from '../money.js';
import { isoSeconds } from '../clock.js';
import type { Rec } from '../kinds.js';
import { DIGITAL_VARIANTS, SHIPPED_VARIANTS } from './catalogue.js';
import { attribution } from './marketing.js';
import { buildFulfillment, buildFulfillmentOrder, buildOrder, markReturned, orderNote, pay, paymentDetails, refund, type LineFacts, type Payer } from './orders.js';
import type { Customer } from './people.js';
import { DAY, HOUR, type Seeding } from './seeding.js';
import { CARRIERS, WELCOME, type Currency } from './store-facts.js';

interface Story {
  status: 'open' | 'canceled' | 'archived';
  fulfillment: string;
  payment: string;
  /** The fulfillment order's status and request status. */
  fulfillmentOrder: [status: string, requestStatus: string];
  /** How its goods went out: all at once, in two parcels, or after a canceled label. */
  parcels?: 'one' | 'split' | 'relabelled';
  /** What came back: one unit, or everything. */
  refund?: 'one' | 'all';
  digital?: true;
}

const STORIES: readonly Story[] = [
  { status: 'open', fulfillment: 'unfulfilled', payment: 'paid', fulfillmentOrder: ['open', 'pending'] },
  { status: 'open', fulfillment: 'unfulfilled', payment: 'pending', fulfillmentOrder: ['open', 'pending'] },
  { status: 'open', fulfillment: 'unfulfilled', payment: 'authorized', fulfillmentOrder: ['open', 'pending'] },
  { status: 'open', fulfillment: 'unfulfilled', payment: 'expiring', fulfillmentOrder: ['open', 'requested'] },
  { status: 'open', fulfillment: 'on_hold', payment: 'expired', fulfillmentOrder: ['on_hold', 'pending'] },
  { status: 'open', fulfillment: 'processing', payment: 'paid', fulfillmentOrder: ['processing', 'accepted'] },
  { status: 'open', fulfillment: 'rejected', payment: 'paid', fulfillmentOrder: ['open', 'rejected'] },
  { status: 'open', fulfillment: 'incomplete', payment: 'paid', fulfillmentOrder: ['incomplete', 'accepted'], parcels: 'one' },
  { status: 'archived', fulfillment: 'fulfilled', payment: 'paid', fulfillmentOrder: ['closed', 'closed'], parcels: 'one' },
  { status: 'open', fulfillment: 'fulfilled', payment: 'partially_refunded', fulfillmentOrder: ['closed', 'closed'], parcels: 'one', refund: 'one' },
  { status: 'archived', fulfillment: 'fulfilled', payment: 'refunded', fulfillmentOrder: ['closed', 'closed'], parcels: 'one', refund: 'all' },
  { status: 'canceled', fulfillment: 'unfulfilled', payment: 'voided', fulfillmentOrder: ['canceled', 'cancel_accepted'] },
  { status: 'canceled', fulfillment: 'unfulfilled', payment: 'refunded', fulfillmentOrder: ['canceled', 'cancel_accepted'], refund: 'all' },
  { status: 'open', fulfillment: 'unfulfilled', payment: 'partially_paid', fulfillmentOrder: ['open', 'pending'] },
  { status: 'open', fulfillment: 'processing', payment: 'partially_voided', fulfillmentOrder: ['processing', 'cancel_rejected'] },
  { status: 'open', fulfillment: 'not_required', payment: 'paid', fulfillmentOrder: ['not_required', 'pending'], digital: true },
  { status: 'open', fulfillment: 'processing', payment: 'paid', fulfillmentOrder: ['processing', 'cancel_requested'] },
  { status: 'open', fulfillment: 'on_hold', payment: 'paid', fulfillmentOrder: ['on_hold', 'pending'] },
  { status: 'open', fulfillment: 'fulfilled', payment: 'paid', fulfillmentOrder: ['closed', 'closed'], parcels: 'split' },
  { status: 'open', fulfillment: 'fulfilled', payment: 'paid', fulfillmentOrder: ['closed', 'closed'], parcels: 'one' },
  { status: 'archived', fulfillment: 'fulfilled', payment: 'paid', fulfillmentOrder: ['closed', 'closed'], parcels: 'relabelled' },
];

/** Why fulfillment is held, in turn (besides waiting for a payment). */
const HOLD_REASONS = ['address_incorrect', 'out_of_stock', 'high_risk', 'other'];
/** Where parcels are, in turn: each delivery status, untracked ones (null, '') and a store pickup. */
const DELIVERIES = ['delivered', 'in_transit', 'out_for_delivery', 'attempted_delivery', 'failed_delivery', 'delayed', 'tracking_added', null, '', 'picked_up'];

/**
 * How the `n`th customer pays: mostly by card, some by PayPal, a few outside the store's gateways
 * (recorded by hand: no method, currency or gateway reference known).
 */
export function payerOf(customer: Customer, currency: Currency, n: number): Payer {
  const userId = Number(customer.user.id);
  if (n % 7 === 3) return { details: paymentDetails('paypal', userId), method: 'paypal', currency };
  if (n % 11 === 9) return { details: paymentDetails('bankcard', userId), method: null, currency: null, external: true };
  return { details: paymentDetails('bankcard', userId, n % 2 ? '4444' : '4242'), method: 'bankcard', currency };
}

export interface GeneratedOrder {
  number: string;
  placedAt: number;
  customer: Customer;
  currency: Currency;
  /** Its place among the generated orders: picks its story and its details. */
  n: number;
}

/** A generated order told through its story (the `n`th story in turn). */
export function buildStoryOrder(seed: Seeding, { number, placedAt, customer, currency, n }: GeneratedOrder): Rec {
  const story = STORIES[n % STORIES.length]!;
  const { random } = seed;
  const lines = storyLines(seed, story, currency, n);
  const discounted = lines.filter((line) => line.discount);
  const voucher = n % 10 === 4 && discounted.length > 0;
  const order = buildOrder(seed, {
    number,
    customer,
    currency,
    placedAt: isoSeconds(placedAt),
    shipping: story.digital ? 'no_shipping' : n % 6 === 5 ? 'express' : 'standard',
    lines,
    status: story.status,
    fulfillmentStatus: story.fulfillment,
    paymentStatus: story.payment,
    attribution: attribution(n),
    source: ['checkout', 'checkout', 'dashboard', 'admin_api'][n % 4],
    tags: n % 7 === 0 ? ['first-order'] : n % 7 === 3 ? ['gift', null] : [],
    metadata: n % 8 === 6 ? {} : { checkout_version: 3 },
    offers: discounted.slice(voucher ? 1 : 0).map((line) => ({ name: 'Bundle and save', description: '10% off a line of two or more', amount: line.discount! })),
    ...(voucher ? { voucher: { ...WELCOME, amount: discounted[0]!.discount! } } : {}),
    isTest: n % 29 === 17,
  });
  const [charge] = pay(seed, order, payerOf(customer, currency, n));
  const at = (after: number) => isoSeconds(placedAt + after);
  const [foStatus, requestStatus] = story.fulfillmentOrder;
  const requested = ['requested', 'accepted', 'rejected', 'cancel_requested', 'cancel_accepted', 'cancel_rejected', 'closed'].includes(requestStatus);
  const canceling = requestStatus.startsWith('cancel');
  const heldFor = () => HOLD_REASONS[seed.turn('hold') % HOLD_REASONS.length]!;
  const fo = buildFulfillmentOrder(seed, order, {
    at: at(60_000),
    updatedAt: at(story.parcels ? 2 * DAY : 3 * HOUR),
    status: foStatus,
    requestStatus,
    holds: foStatus === 'on_hold' ? [story.payment === 'expired' ? 'awaiting_payment' : heldFor(), heldFor()].map((reason, at) => ({ reason, message: (n + at) % 3 ? 'Waiting on the customer.' : null })) : undefined,
    requests: [
      ...(requested ? [{ type: 'fulfill_request' as const, message: n % 4 ? 'Please ship in one parcel.' : null, notify: n % 2 === 0 }] : []),
      ...(canceling ? [{ type: 'cancel_request' as const, message: 'The customer asked to cancel.', notify: true }] : []),
    ],
  });
  const carrier = CARRIERS[n % CARRIERS.length]!;
  // Delivered long ago, or wherever the next parcel on its way is.
  const delivery = () => (story.status === 'archived' ? 'delivered' : DELIVERIES[seed.turn('delivery') % DELIVERIES.length]!);
  const shipped = (order.lines as Rec[]).filter((line) => line.requires_shipping);
  const all = shipped.map((line) => ({ lineId: Number(line.id), quantity: Number(line.quantity) }));
  const parcels: Rec[] = [];
  if (story.parcels === 'one' && story.fulfillment === 'incomplete') {
    parcels.push(buildFulfillment(seed, order, { at: at(DAY), fulfillmentOrder: fo, lines: all.slice(0, 1), carrier, delivery: delivery() }));
  } else if (story.parcels === 'one') {
    parcels.push(buildFulfillment(seed, order, { at: at(DAY), fulfillmentOrder: fo, lines: all, carrier, delivery: delivery() }));
  } else if (story.parcels === 'split') {
    parcels.push(buildFulfillment(seed, order, { at: at(DAY), fulfillmentOrder: fo, lines: all.slice(0, 1), carrier, delivery: delivery() }));
    parcels.push(buildFulfillment(seed, order, { at: at(2 * DAY), fulfillmentOrder: fo, lines: all.slice(1), carrier: CARRIERS[(n + 1) % CARRIERS.length]!, delivery: delivery() }));
  } else if (story.parcels === 'relabelled') {
    buildFulfillment(seed, order, { at: at(DAY), fulfillmentOrder: fo, lines: all, carrier, delivery: 'tracking_added', canceled: true });
    parcels.push(buildFulfillment(seed, order, { at: at(DAY + 4 * HOUR), fulfillmentOrder: fo, lines: all, carrier, delivery: 'delivered' }));
  }
  if (story.refund && charge) {
    const returned = story.fulfillment === 'fulfilled';
    const given = story.refund === 'one' ? [{ lineId: all[0]!.lineId, quantity: 1 }] : (order.lines as Rec[]).map((line) => ({ lineId: Number(line.id), quantity: Number(line.current_quantity) }));
    refund(seed, order, {
      at: at(returned ? 8 * DAY : 4 * HOUR),
      lines: given.map((g) => ({ ...g, restock: returned ? (n % 2 ? 'return' : 'no_restock') : 'cancel' })),
      shipping: story.refund === 'all' ? String(order.shipping_incl_tax) : undefined,
      note: n % 3 ? (returned ? 'Returned by the customer.' : 'Order canceled before shipping.') : null,
      payments: [{ charge }],
    });
    if (returned) for (const g of given) markReturned(parcels[0]!, g.lineId, g.quantity);
  }
  if (story.status === 'canceled') for (const line of order.lines as Rec[]) Object.assign(line, { editable_quantity: 0, fulfillable_quantity: 0 });
  if (n % 4 === 1) orderNote(seed, order.number, random.pick(NOTES), at(5 * HOUR));
  if (n % 17 === 11) imported(order);
  order.updated_at = latest([String(order.updated_at), String(fo.updated_at), ...parcels.map((p) => String(p.last_event_date ?? p.created_at))]);
  return order;
}

/** An order moved over from the store's previous platform: its lines' dates and its tax's details were not kept. */
function imported(order: Rec): void {
  (order.tags as string[]).push('imported');
  for (const line of order.lines as Rec[]) Object.assign(line, { created_at: null, updated_at: null });
  for (const tax of order.tax_lines as Rec[]) Object.assign(tax, { currency: null, source: null });
}

const NOTES = ['Customer called to confirm the delivery address.', 'Gift wrap requested at checkout.', 'Asked for a single parcel.', 'Prefers e-mail over phone.'];

function storyLines(seed: Seeding, story: Story, currency: Currency, n: number): LineFacts[] {
  const { random } = seed;
  if (story.digital) return [{ variantId: DIGITAL_VARIANTS[n % DIGITAL_VARIANTS.length]!, quantity: 1, metadata: {} }];
  // Parcels and partial refunds need more than one unit to tell apart.
  const count = story.parcels || story.refund || story.fulfillment === 'incomplete' ? 2 : random.int(1, 3);
  const start = random.int(0, SHIPPED_VARIANTS.length - 1);
  return Array.from({ length: count }, (_, at) => {
    const variantId = SHIPPED_VARIANTS[(start + at * 3) % SHIPPED_VARIANTS.length]!;
    const quantity = random.int(1, 3);
    return {
      variantId,
      quantity,
      ...(random.chance(0.3) ? { discount: fromCents(Math.round(toCents(seed.records.productPrices[`${variantId}/${currency}`]!.price) * quantity * 0.1)) } : {}),
      ...(at === 1 && n % 9 === 2 ? { upsell: true, metadata: { offer: 'post-purchase' } } : {}),
    };
  });
}

function latest(dates: string[]): string {
  return dates.reduce((a, b) => (a > b ? a : b));
}

