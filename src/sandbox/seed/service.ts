// Around the orders: carts (open, abandoned, turned into orders), gift cards, disputes on charges
// with the notes kept on them, and support tickets with their comments.
//
// Kept: a cart its lines (amounts computed) and totals, with `user_id`; a gift card its balance,
// with `user_id`; a dispute its `order` and `transaction` (as the answer shows them; the charge is
// marked disputed); a dispute note `dispute_id`; a ticket its comments (they have no endpoint).
// Joined when answered (views.ts): the `user` of a cart or gift card.
import { DISPUTE_RESOLUTIONS } from '../../api/enums.js';
import { lineAmounts } from '../amounts.js';
import { isoSeconds } from '../clock.js';
import { fromCents, sumCents, toCents } from '../money.js';
import type { Rec } from '../kinds.js';
import { SHIPPED_VARIANTS, SUBSCRIBABLE, sold, soldFields, type Sold } from './catalogue.js';
import { attribution } from './marketing.js';
import type { Customer } from './people.js';
import { DAY, HOUR, type Seeding } from './seeding.js';
import { SALES_TAX, STAFF, staffNote, STORE, WELCOME, type Currency } from './store-facts.js';

/** A cart left at checkout, still open, or turned into an order, the `n`th in turn. */
export function buildCart(seed: Seeding, customer: Customer, currency: Currency, n: number): Rec {
  const state = (['abandoned', 'open', 'submitted'] as const)[n % 3];
  const created = seed.now - (2 + n * 3) * HOUR - (state === 'abandoned' ? 2 * DAY : 0);
  const lines = Array.from({ length: 1 + (n % 2) }, (_, at): Rec => {
    const subscribed = n % 4 === 1 && at === 0;
    const variantId = subscribed ? SUBSCRIBABLE[n % SUBSCRIBABLE.length]!.variantId : SHIPPED_VARIANTS[(n * 5 + at) % SHIPPED_VARIANTS.length]!;
    const quantity = 1 + ((n + at) % 2);
    const discount = at === 1 ? fromCents(Math.round(toCents(sold(seed.records, variantId, currency).price) * quantity * 0.1)) : '0.00';
    const interval = subscribed ? SUBSCRIBABLE[n % SUBSCRIBABLE.length]!.interval : null;
    return cartLine(seed, { variantId, quantity, discount, currency, interval, metadata: n % 3 === 1 ? { gift: true } : {} });
  });
  const id = seed.id('carts');
  const totals = cartTotals(lines, currency);
  return seed.add('carts', {
    id,
    user_id: customer.user.id,
    abandoned: state === 'abandoned',
    attribution: attribution(n + 2),
    checkout_url: checkoutUrl(id),
    created_at: isoSeconds(created),
    currency,
    lines,
    metadata: n % 3 === 2 ? {} : { device: n % 2 ? 'mobile' : 'desktop' },
    status: state === 'submitted' ? 'Submitted' : 'Open',
    ...totals,
    voucher_discounts: n % 5 === 0 ? [{ amount: lines.at(-1)!.total_discount, description: WELCOME.description, name: WELCOME.name, voucher: { code: WELCOME.code, name: WELCOME.name, start_datetime: seed.at('2026-01-01T00:00:00Z'), end_datetime: seed.at('2026-03-31T23:59:59Z') } }] : [],
  });
}

/** Where the customer picks the cart up again to check out. */
export const checkoutUrl = (id: number): string => `${STORE.url}/checkout/${id}/?key=c${(id * 7919).toString(36)}`;

/** A cart line selling `quantity` of a variant at its price in `currency` (or the `price` given), tax included. */
export function cartLine(
  seed: Pick<Seeding, 'records' | 'id'>,
  line: { variantId: number; quantity: number; currency: Currency; discount?: string; price?: string; interval?: string | null; isUpsell?: boolean; metadata?: unknown; item?: Sold },
): Rec {
  const item = line.item ?? sold(seed.records, line.variantId, line.currency);
  const { tax_lines: _tax, original_price_excl_tax: _a, original_price_incl_tax: _b, original_total_discount: _c, report_values: _d, ...money } = lineAmounts({
    unitCost: line.price ?? item.price,
    quantity: line.quantity,
    discount: line.discount ?? '0.00',
    currency: line.currency,
    tax: SALES_TAX,
  });
  return {
    id: seed.id('cartLine'),
    ...money,
    interval: line.interval ?? null,
    interval_count: line.interval ? 1 : null,
    is_upsell: line.isUpsell ?? false,
    metadata: line.metadata ?? {},
    quantity: line.quantity,
    ...soldFields(item),
    report_values: { currency: line.currency, price_excl_tax: money.price_excl_tax, price_incl_tax: money.price_incl_tax, total_cost: money.total_cost, total_discount: money.total_discount, unit_cost: money.unit_cost },
  };
}

/** A cart's totals: its lines' amounts added up. */
export function cartTotals(lines: readonly Rec[], currency: string): Rec {
  const sum = (field: string) => fromCents(sumCents(lines.map((line) => line[field])));
  const totals = { total_cost: sum('total_cost'), total_discount: sum('total_discount'), total_excl_tax: sum('price_excl_tax'), total_incl_tax: sum('price_incl_tax') };
  return { ...totals, report_values: { currency, ...totals } };
}

/** A gift card: active with some left, spent, disabled, expired, or not yet loaded (no balance). */
export function buildGiftCard(seed: Seeding, customer: Customer, currency: Currency, n: number): Rec {
  const initial = ['50.00', '100.00', '25.00'][n % 3]!;
  const created = seed.now - (30 + n * 11) * DAY;
  const kind = n % 5;
  return seed.add('giftCards', {
    id: seed.id('giftCards'),
    user_id: customer.user.id,
    currency,
    initial,
    balance: kind === 4 ? null : kind === 1 ? '0.00' : fromCents(Math.round(toCents(initial) * (kind === 0 ? 0.6 : 1))),
    created_at: isoSeconds(created),
    updated_at: isoSeconds(created + 5 * DAY),
    disabled_at: kind === 2 ? isoSeconds(created + 5 * DAY) : null,
    expired_at: kind === 3 ? isoSeconds(seed.now - DAY) : null,
    last_four: String(4000 + ((n * 137) % 6000)).slice(-4),
  });
}

/** A dispute about a charge (null: an alert the store could not match to one), the `n`th in turn. */
export function buildDispute(seed: Seeding, charge: Rec | null, n: number): Rec {
  const opened = seed.now - (3 + n * 2) * DAY;
  // The first few are still new or open; resolved ones end in each way in turn.
  const [status, resolution] = n === 0 ? ['new', null] : n === 1 ? ['new', ''] : n === 2 ? ['open', null] : ['resolved', DISPUTE_RESOLUTIONS[(n - 3) % DISPUTE_RESOLUTIONS.length]!];
  if (charge) charge.is_disputed = true;
  const dispute = seed.add('disputes', {
    id: seed.id('disputes'),
    order: charge?.order ? Number(charge.order) : null,
    transaction: charge ? charge.id : null,
    amount: charge ? charge.amount : null,
    currency: charge ? charge.currency : null,
    report_amount: charge ? charge.amount : null,
    report_currency: charge ? (charge.currency ?? STORE.currencies[0]) : null,
    arn: charge ? `7423${String(Number(charge.id) * 104729).padStart(19, '0')}` : null,
    case_number: n % 4 === 3 ? null : `CB-${2026000 + n}`,
    date_created: isoSeconds(opened),
    happened_at: isoSeconds(opened - 2 * DAY),
    metadata: n % 3 === 0 ? {} : { reason_code: n % 2 ? '10.4' : '13.1' },
    resolution,
    resolution_other_message: resolution === 'other' ? 'Settled with the customer by phone.' : null,
    status,
    type: n % 3 === 1 ? 'alert' : 'chargeback',
  });
  if (n % 2 === 0) {
    const written = isoSeconds(opened + HOUR);
    seed.add('disputeNotes', { id: seed.id('disputeNotes'), dispute_id: dispute.id, ...staffNote('Evidence sent: tracking and signed delivery.'), created_at: written, updated_at: written });
  }
  return dispute;
}

const SUBJECTS = ['Where is my order?', 'Wrong size delivered', 'Can I change my address?', 'Question about merino care', 'Cancel my subscription'];
const CHANNELS = ['customer_account', 'dashboard', 'email', 'api', 'follow_up'];
const TICKET_STATUSES = ['new', 'open', 'pending', 'solved', 'closed'];
const PRIORITIES = ['high', 'medium', 'low'];

/** A support ticket, about an order when there is one, with a conversation of comments. */
export function buildTicket(seed: Seeding, customer: Customer, order: Rec | null, n: number): Rec {
  const opened = seed.now - (1 + n * 2) * DAY;
  const email = customer.user.email as string;
  const comments = Array.from({ length: 1 + (n % 3) }, (_, at) => {
    const fromCustomer = at % 2 === 0;
    return {
      id: seed.id('ticketComment'),
      attachments: at === 0 && n % 4 === 0 ? [{ id: seed.id('attachment'), file: `${STORE.cdn}/tickets/photo-${n}.jpg`, file_name: `photo-${n}.jpg` }] : [],
      author: fromCustomer ? (n % 5 === 4 ? null : customer.user.id) : STAFF.priya.id,
      body: at === 2 ? null : fromCustomer ? 'Hello, could you help me with this?' : 'Thanks for reaching out, we are on it.',
      created_at: isoSeconds(opened + at * 5 * HOUR),
      from_email: fromCustomer ? (n % 5 === 4 ? null : email) : STAFF.priya.email,
      is_public: fromCustomer || n % 2 === 0,
    };
  });
  return seed.add('tickets', {
    id: seed.id('tickets'),
    assignee: n % 3 === 0 ? null : STAFF.priya.id,
    channel: CHANNELS[n % CHANNELS.length],
    comments,
    created_at: isoSeconds(opened),
    updated_at: comments.at(-1)!.created_at,
    from_email: n % 5 === 4 ? null : email,
    order: order ? String(order.number) : '',
    priority: PRIORITIES[n % PRIORITIES.length],
    products: order ? [...new Set((order.lines as Rec[]).map((line) => Number(line.product_id)))] : [],
    requester: n % 5 === 4 ? null : customer.user.id,
    status: TICKET_STATUSES[n % TICKET_STATUSES.length],
    subject: SUBJECTS[n % SUBJECTS.length],
    tags: n % 2 ? ['shipping'] : [],
    ticket_type: n % 4 === 3 ? null : 1 + (n % 3),
  });
}
