// The sandbox store's starting data: a small outdoor apparel shop with three orders, two customers,
// four subscriptions and the objects around them. Every call builds fresh objects, so the caller
// may change the result freely. All dates are fixed, so two seeds are equal but for the clock's
// offset, which starts the sandbox's clock at the seed's moment (clock.ts).
import { EXPORT_TYPES } from '../api/enums.js';
import { seedClockOffset } from './clock.js';
import { markAvailable } from './exports.js';
import { fromCents, toCents } from './money.js';
import { PARTNER_APP } from './settings.js';
import { STATE_SCHEMA, withNullPrototypes } from './state.js';
import type {
  Category,
  CustomerNote,
  ExportRecord,
  FulfillmentEvent,
  FulfillmentOrder,
  Order,
  OrderLine,
  OrderNote,
  SandboxState,
  SubscriptionLineRecord,
  SubscriptionRecord,
  User,
  Webhook,
} from './state.js';
import { recomputeOrderTotals } from './totals.js';

type Transaction = NonNullable<Order['transactions']>[number];
type PaymentDetails = NonNullable<Transaction['payment_details']>;
type TaxLine = NonNullable<OrderLine['tax_lines']>[number];
type OrderTaxLine = NonNullable<Order['tax_lines']>[number];
type Refund = NonNullable<Order['refunds']>[number];
type Fulfillment = NonNullable<Order['fulfillments']>[number];
type BillingAddress = NonNullable<Order['billing_address']>;
type ShippingAddress = NonNullable<Order['shipping_address']>;
type OriginAddress = NonNullable<Fulfillment['origin_address']>;
type Attribution = NonNullable<Order['attribution']>;
type Agent = NonNullable<OrderNote['author']>;
type FulfillmentOrderLine = NonNullable<FulfillmentOrder['line_items']>[number];

const CURRENCY = 'USD';
const TAX_RATE = 0.2;
export const STORE_NAME = 'Northwind Outfitters';
const STORE_URL = 'https://shop.northwind-outfitters.example';
const CDN_URL = 'https://cdn.northwind-outfitters.example';

const SHIPPING_METHODS: Record<string, string> = {
  standard: 'Standard Shipping (3-5 business days)',
  express: 'Express Shipping (1-2 business days)',
  no_shipping: 'No shipping required',
};

// --- money and tax ----------------------------------------------------------------------------

// The response types leave some fields untyped; these read back values the seed itself wrote.
const whole = (value: unknown): number => (typeof value === 'number' ? value : Number(value) || 0);
const amount = (value: unknown): string => fromCents(toCents(value));
const textOf = (value: unknown): string => (value == null ? '' : String(value));

/** The tax-exclusive part of a tax-inclusive amount, in cents. */
function exclTax(inclCents: number): number {
  return Math.round(inclCents / (1 + TAX_RATE));
}

function taxFields(taxCents: number, title: string) {
  const amount = fromCents(taxCents);
  return { amount, currency: CURRENCY, rate: TAX_RATE, report_values: { amount, currency: CURRENCY }, source: 'store', tax_title: title };
}

function taxLine(taxCents: number, taxId = 1): TaxLine {
  return { ...taxFields(taxCents, taxId === 1 ? 'Sales tax' : 'Sales tax on shipping'), tax_id: taxId };
}

function orderTaxLine(taxCents: number): OrderTaxLine {
  return { ...taxFields(taxCents, 'Sales tax'), id: 1 };
}

// --- people and places ------------------------------------------------------------------------

interface Person {
  id: number;
  first: string;
  last: string;
  email: string;
  phone: string;
  ip: string;
  browser: string;
  marketing: boolean;
  /** line1, line2, line3 (district), line4 (city), state, postcode. */
  street: readonly [string, string, string, string, string, string];
  /** First six and last four digits of the saved card. */
  card: readonly [string, string];
}

const MAYA: Person = {
  id: 1,
  first: 'Maya',
  last: 'Lindqvist',
  email: 'maya.lindqvist@example.com',
  phone: '+1 303 555 0148',
  ip: '73.95.112.40',
  browser: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  marketing: true,
  street: ['1550 Larimer Street', 'Unit 804', 'LoDo', 'Denver', 'CO', '80202'],
  card: ['424242', '4242'],
};

const DANIEL: Person = {
  id: 2,
  first: 'Daniel',
  last: 'Okafor',
  email: 'daniel.okafor@example.net',
  phone: '+1 512 555 0193',
  ip: '24.155.20.187',
  browser: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  marketing: false,
  street: ['2207 Riverside Drive', 'Suite 12', 'Travis Heights', 'Austin', 'TX', '78741'],
  card: ['555555', '4444'],
};

const PEOPLE = [MAYA, DANIEL] as const;

function user(person: Person): User {
  return {
    accepts_marketing: person.marketing,
    email: person.email,
    first_name: person.first,
    id: person.id,
    ip: person.ip,
    language: 'en-US',
    last_name: person.last,
    phone_number: person.phone,
    user_agent: person.browser,
  };
}

function billingAddress(person: Person): BillingAddress {
  const [line1, line2, line3, line4, state, postcode] = person.street;
  return {
    country: 'US',
    first_name: person.first,
    id: person.id * 10 + 1,
    last_name: person.last,
    line1,
    line2,
    line3,
    line4,
    phone_number: person.phone,
    postcode,
    state,
  };
}

function shippingAddress(person: Person, notes: string): ShippingAddress {
  return { ...billingAddress(person), id: person.id * 10 + 2, notes };
}

function warehouse(): OriginAddress {
  return {
    country: 'US',
    line1: '2200 NW Front Avenue',
    line2: 'Dock 4',
    line3: 'Northwind Fulfillment Center',
    line4: 'Portland',
    phone_number: '+1 503 555 0100',
    postcode: '97209',
    state: 'OR',
  };
}

function staff(): Agent {
  return { email: 'priya.raman@northwind-outfitters.example', first_name: 'Priya', id: 9001, last_name: 'Raman' };
}

function attribution(source: string, medium: string, campaign: string): Attribution {
  return {
    affiliate: 'trailblazer-journal',
    agent: staff(),
    funnel: 'winter-layers-2026',
    gclid: `Cj0KCQiA${campaign.replace(/[^a-z0-9]/gi, '')}EAAYASAAEgK`,
    metadata: { landing_page: `/collections/${campaign}`, first_visit: '2026-01-10T18:22:00Z' },
    subaffiliate1: 'newsletter',
    subaffiliate2: 'january-week-2',
    subaffiliate3: 'hero-banner',
    subaffiliate4: 'desktop',
    subaffiliate5: 'us-west',
    utm_campaign: campaign,
    utm_content: 'layering-guide',
    utm_medium: medium,
    utm_source: source,
    utm_term: 'merino layers',
  };
}

function cardDetails(person: Person): PaymentDetails {
  const [firstSix, lastFour] = person.card;
  return {
    bankcard_first_six: firstSix,
    bankcard_last_four: lastFour,
    card_token: `tok_nw_${person.last.toLowerCase()}_${lastFour}`,
    gateway: { id: 1, name: 'Stripe', type: 'stripe' },
    is_3ds: true,
    optimized_3ds: false,
    paypal_vault_id: `BA-${firstSix}NW${person.id}`,
    sca_flow: 'frictionless',
  };
}

interface Charge {
  type: string;
  status: string;
  amount: string;
  at: string;
  parent?: number;
}

function transaction(id: number, details: PaymentDetails, charge: Charge): Transaction {
  const amount = fromCents(toCents(charge.amount));
  return {
    amount,
    auth_code: (id * 7919).toString(36).toUpperCase().padStart(6, '0'),
    currency: CURRENCY,
    date_created: charge.at,
    external_id: `${charge.type === 'refund' ? 're' : 'ch'}_3Nw${id}Outfitters`,
    id,
    is_disputed: false,
    is_external: false,
    is_initial_retry: false,
    is_test: false,
    network_transaction_id: `MCC${String(id * 104729).padStart(12, '0')}`,
    // Transactions without a parent carry 0.
    parent_id: charge.parent ?? 0,
    payment_details: structuredClone(details),
    payment_method: 'card',
    report_values: { amount, currency: CURRENCY },
    response_code: charge.status === 'succeeded' ? 100 : 102,
    statement_descriptor: 'NORTHWIND OUTFITTERS',
    status: charge.status,
    type: charge.type,
  };
}

// --- catalogue --------------------------------------------------------------------------------

/** What an order line needs to know about the product it sells. */
export interface LineProduct {
  id: number;
  variantId: number;
  title: string;
  variantTitle: string;
  sku: string;
  /** Unit price including tax. */
  price: string;
  image: string;
  url: string;
  requiresShipping: boolean;
}

interface CatalogueProduct extends LineProduct {
  categoryId: number;
  upc: string;
  slug: string;
}

const CATEGORIES = [
  {
    id: 1,
    name: 'Apparel',
    taxCode: 'PC040100',
    description: 'Organic cotton tees, fleece and merino layers made for the trail and the town.',
  },
  {
    id: 2,
    name: 'Gear & Goods',
    taxCode: 'PG050000',
    description: 'Enamel mugs, knit beanies, small-batch coffee and the club that keeps you outside.',
  },
] as const;

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function product(
  id: number,
  [title, variantTitle]: [string, string],
  sku: string,
  price: string,
  categoryId: number,
  requiresShipping = true,
): CatalogueProduct {
  const slug = slugify(title);
  return {
    id,
    variantId: id + 1100,
    title,
    variantTitle,
    sku,
    price,
    image: `${CDN_URL}/products/${slug}.jpg`,
    url: `${STORE_URL}/products/${slug}`,
    requiresShipping,
    categoryId,
    upc: `81005512${String(id).padStart(4, '0')}`,
    slug,
  };
}

const PRODUCTS = {
  tee: product(1001, ['Trailhead Organic Cotton Tee', 'Forest Green / M'], 'NWO-TEE-FG-M', '30.00', 1),
  hoodie: product(1002, ['Summit Fleece Hoodie', 'Charcoal / L'], 'NWO-HOOD-CH-L', '72.00', 1),
  mug: product(1003, ['Campfire Enamel Mug', '12 oz / Cream'], 'NWO-MUG-12-CR', '18.00', 2),
  socks: product(1004, ['Merino Trail Socks (3-pack)', 'Heather Grey / M'], 'NWO-SOCK-HG-M', '24.00', 1),
  beanie: product(1005, ['Ridgeline Knit Beanie', 'Navy / One size'], 'NWO-BEAN-NV-OS', '26.40', 2),
  coffee: product(1006, ['Basecamp Coffee Blend', 'Whole bean / 12 oz'], 'NWO-COF-WB-12', '16.80', 2),
  espresso: product(1007, ['Summit Espresso Roast', 'Ground / 12 oz'], 'NWO-ESP-GR-12', '19.20', 2),
  club: product(1008, ['Outfitters Club Membership', 'Annual'], 'NWO-CLUB-ANNUAL', '60.00', 2, false),
};

const CATALOGUE: CatalogueProduct[] = Object.values(PRODUCTS);

function categoryRef(id: number) {
  const found = CATEGORIES.find((c) => c.id === id) ?? CATEGORIES[0];
  return { id: found.id, name: found.name, slug: slugify(found.name) };
}

function category(id: number): Category {
  const found = CATEGORIES.find((c) => c.id === id) ?? CATEGORIES[0];
  const slug = slugify(found.name);
  return {
    id: found.id,
    description: found.description,
    external_tax_code: found.taxCode,
    image: `${CDN_URL}/categories/${slug}.jpg`,
    is_public: true,
    meta_description: found.description,
    meta_title: `${found.name} | ${STORE_NAME}`,
    name: found.name,
    slug,
    template: 'category-grid',
  };
}

// --- order lines ------------------------------------------------------------------------------

interface LineOptions {
  /** Discount on the whole line, including tax. */
  discount?: string;
  metadata?: Record<string, unknown>;
}

/**
 * An order line selling `quantity` of `product`. Money fields are line totals:
 * unit price × quantity, less the line's discount, with tax included at the store rate.
 */
export function orderLine(id: number, item: LineProduct, quantity: number, at: string, options: LineOptions = {}): OrderLine {
  const discountCents = toCents(options.discount ?? '0');
  const inclCents = toCents(item.price) * quantity - discountCents;
  const exclCents = exclTax(inclCents);
  const money = {
    original_price_excl_tax: fromCents(exclCents),
    original_price_incl_tax: fromCents(inclCents),
    original_total_discount: fromCents(discountCents),
    price_excl_tax: fromCents(exclCents),
    price_incl_tax: fromCents(inclCents),
    total_cost: fromCents(inclCents),
    total_discount: fromCents(discountCents),
    unit_cost: fromCents(toCents(item.price)),
  };
  return {
    created_at: at,
    updated_at: at,
    currency: CURRENCY,
    current_quantity: quantity,
    editable_quantity: quantity,
    fulfillable_quantity: item.requiresShipping ? quantity : 0,
    quantity,
    id,
    is_gift_card: false,
    is_upsell: false,
    requires_shipping: item.requiresShipping,
    metadata: options.metadata ?? { gift_wrap: false },
    ...money,
    product_id: item.id,
    variant_id: item.variantId,
    product_image: item.image,
    product_url: item.url,
    product_title: item.title,
    variant_title: item.variantTitle,
    sku: item.sku,
    tax_lines: [taxLine(inclCents - exclCents)],
    report_values: { currency: CURRENCY, ...money },
  };
}

function lineById(order: Order, id: number): OrderLine {
  const found = order.lines?.find((line) => line.id === id);
  if (!found) throw new Error(`Seed order ${order.number} has no line ${id}`);
  return found;
}

/** Part of a line's amounts, for `quantity` of its units. */
function lineShare(line: OrderLine, quantity: number) {
  const share = (value: unknown) => fromCents(Math.round((toCents(value) * quantity) / (whole(line.quantity) || 1)));
  return { excl: share(line.price_excl_tax), incl: share(line.price_incl_tax) };
}

// --- orders -----------------------------------------------------------------------------------

interface Customer {
  user: Order['user'];
  billing_address: Order['billing_address'];
  shipping_address: Order['shipping_address'];
  attribution: Order['attribution'];
}

function customerOf(person: Person, deliveryNote: string, source: Attribution): Customer {
  return {
    user: user(person),
    billing_address: billingAddress(person),
    shipping_address: shippingAddress(person, deliveryNote),
    attribution: source,
  };
}

interface OrderPlan {
  number: string;
  customer: Customer;
  placed: string;
  updated: string;
  lines: OrderLine[];
  /** Shipping including tax. */
  shipping: string;
  shippingCode: string;
  status: string;
  payment: string;
  fulfillment: string;
  source: string;
  lifecycle: string;
  tags: string[];
  metadata: Record<string, unknown>;
  offers?: Order['offer_discounts'];
  vouchers?: Order['voucher_discounts'];
  subscriptions?: Order['subscriptions'];
  fulfillments?: Fulfillment[];
  refunds?: Refund[];
  /** The order's payments, given its total; refund transactions are added from the refunds. */
  charge: (total: string) => Transaction[];
}

function buildOrder(plan: OrderPlan): Order {
  const shippingIncl = toCents(plan.shipping);
  const shippingExcl = exclTax(shippingIncl);
  const refunds = plan.refunds ?? [];
  const order: Order = {
    number: plan.number,
    ...plan.customer,
    created_at: plan.placed,
    date_placed: plan.placed,
    updated_at: plan.updated,
    currency: CURRENCY,
    display_taxes: 'included',
    shipping_code: plan.shippingCode,
    shipping_method: SHIPPING_METHODS[plan.shippingCode] ?? plan.shippingCode,
    source: plan.source,
    status: plan.status,
    subscription_lifecycle: plan.lifecycle,
    fulfillment_status: plan.fulfillment,
    payment_status: plan.payment,
    is_test: false,
    supports_post_purchase_upsells: plan.lifecycle === 'none',
    metadata: plan.metadata,
    tags: plan.tags,
    order_status_url: `${STORE_URL}/orders/${plan.number}/status?key=nw${(Number(plan.number) * 2654435761) % 4294967296}`,
    lines: plan.lines,
    fulfillments: plan.fulfillments ?? [],
    refunds,
    transactions: [],
    subscriptions: plan.subscriptions ?? [],
    offer_discounts: plan.offers ?? [],
    voucher_discounts: plan.vouchers ?? [],
    shipping_tax_lines: [taxLine(shippingIncl - shippingExcl, 2)],
    tax_lines: [orderTaxLine(0)],
    shipping_excl_tax: fromCents(shippingExcl),
    shipping_incl_tax: fromCents(shippingIncl),
    shipping_tax: fromCents(shippingIncl - shippingExcl),
  };
  recomputeOrderTotals(order);
  order.transactions = [...plan.charge(String(order.total_incl_tax)), ...refunds.flatMap((r) => structuredClone(r.transactions ?? []))];
  recomputeOrderTotals(order);
  recordOriginals(order);
  return order;
}

/** Keeps the placement totals as `original_*` and repeats the amounts in `report_values`. */
function recordOriginals(order: Order): void {
  const originals = {
    original_shipping_excl_tax: amount(order.shipping_excl_tax),
    original_shipping_incl_tax: amount(order.shipping_incl_tax),
    original_total_discount: amount(order.total_discount),
    original_total_excl_tax: amount(order.total_excl_tax),
    original_total_incl_tax: amount(order.total_incl_tax),
  };
  Object.assign(order, originals);
  order.report_values = {
    currency: CURRENCY,
    ...originals,
    shipping_excl_tax: originals.original_shipping_excl_tax,
    shipping_incl_tax: originals.original_shipping_incl_tax,
    total_cost: amount(order.total_cost),
    total_discount: originals.original_total_discount,
    total_excl_tax: originals.original_total_excl_tax,
    total_incl_tax: originals.original_total_incl_tax,
  };
  for (const tax of order.tax_lines ?? []) {
    if (tax.report_values) tax.report_values.amount = tax.amount;
  }
}

function offer(amount: string, name: string, description: string) {
  return { amount, description, name };
}

interface RefundPlan {
  id: number;
  order: string;
  at: string;
  note: string;
  /** [refund line item id, order line, quantity] */
  lines: [number, OrderLine, number][];
  /** [adjustment id, shipping refunded including tax] */
  shipping: [number, string];
  transaction: [id: number, parent: number, details: PaymentDetails];
}

function refund(plan: RefundPlan): Refund {
  const report = (excl: string, incl: string) => ({ amount_excl_tax: excl, amount_incl_tax: incl, currency: CURRENCY });
  const refundLines = plan.lines.map(([id, line, quantity]) => {
    const { excl, incl } = lineShare(line, quantity);
    return {
      amount_excl_tax: excl,
      amount_incl_tax: incl,
      id,
      line_item_id: whole(line.id),
      location_id: 1,
      quantity,
      report_values: report(excl, incl),
      restock_type: 'cancel',
    };
  });
  const [adjustmentId, shippingIncl] = plan.shipping;
  const shippingExcl = fromCents(exclTax(toCents(shippingIncl)));
  const returnExcl = refundLines.reduce((sum, l) => sum + toCents(l.amount_excl_tax), 0);
  const returnIncl = refundLines.reduce((sum, l) => sum + toCents(l.amount_incl_tax), 0);
  const totals = {
    total_refund_amount: fromCents(returnIncl + toCents(shippingIncl)),
    total_return_excl_tax: fromCents(returnExcl),
    total_return_incl_tax: fromCents(returnIncl),
  };
  const [transactionId, parent, details] = plan.transaction;
  return {
    id: plan.id,
    user_id: staff().id,
    created_at: plan.at,
    note: plan.note,
    order_number: plan.order,
    ...totals,
    report_values: { currency: CURRENCY, ...totals },
    transactions: [
      transaction(transactionId, details, { type: 'refund', status: 'succeeded', amount: totals.total_refund_amount, at: plan.at, parent }),
    ],
    adjustments: [
      {
        amount_excl_tax: shippingExcl,
        amount_incl_tax: shippingIncl,
        id: adjustmentId,
        report_values: report(shippingExcl, shippingIncl),
        type: 'refund_shipping',
      },
    ],
    refund_line_items: refundLines,
  };
}

interface Tracking {
  carrier: string;
  code: string;
  link: string;
}

function fulfillment(id: number, order: string, lines: [number, OrderLine][], tracking: Tracking, dates: [string, string]): Fulfillment {
  return {
    created_at: dates[0],
    last_event_date: dates[1],
    delivery_status: 'in_transit',
    id,
    location_id: 1,
    order_number: order,
    origin_address: warehouse(),
    requires_shipping: true,
    shipping_method: SHIPPING_METHODS.standard,
    status: 'success',
    tracking_carrier: tracking.carrier,
    tracking_carriers: tracking.carrier,
    tracking_code: tracking.code,
    tracking_codes: tracking.code,
    tracking_link: tracking.link,
    tracking_links: tracking.link,
    line_items: lines.map(([itemId, line]) => ({
      currency: CURRENCY,
      fulfilled_quantity: textOf(line.quantity),
      fulfillment_service: 'manual',
      id: itemId,
      order_line_id: whole(line.id),
      price_excl_tax: line.price_excl_tax,
      price_incl_tax: line.price_incl_tax,
      product_id: line.product_id,
      product_image: line.product_image,
      product_title: line.product_title,
      quantity: whole(line.quantity),
      requires_shipping: line.requires_shipping === true,
      returnable_quantity: textOf(line.quantity),
      returned_quantity: '0',
      sku: line.sku,
      tax_lines: structuredClone(line.tax_lines),
      total_discount: line.total_discount,
    })),
  };
}

/** Order 10001: three lines, the hoodie shipped, the mug cancelled and refunded. */
function firstOrder(): Order {
  const placed = '2026-01-11T14:32:05Z';
  const hoodie = orderLine(101, PRODUCTS.hoodie, 1, placed);
  const tees = orderLine(102, PRODUCTS.tee, 2, placed, { discount: '6.00' });
  const mug = orderLine(103, PRODUCTS.mug, 1, placed, { discount: '9.00', metadata: { gift_wrap: true } });
  Object.assign(hoodie, { editable_quantity: 0, fulfillable_quantity: 0, updated_at: '2026-01-12T10:15:00Z' });
  Object.assign(mug, { current_quantity: 0, editable_quantity: 0, fulfillable_quantity: 0, updated_at: '2026-01-12T09:20:00Z' });
  const card = cardDetails(MAYA);
  return buildOrder({
    number: '10001',
    customer: customerOf(MAYA, 'Leave with the front desk concierge.', attribution('newsletter', 'email', 'winter-layers')),
    placed,
    updated: '2026-01-13T03:42:00Z',
    lines: [hoodie, tees, mug],
    shipping: '6.00',
    shippingCode: 'standard',
    status: 'open',
    payment: 'partially_refunded',
    fulfillment: 'partially_fulfilled',
    source: 'web',
    lifecycle: 'none',
    tags: ['first-order', 'voucher'],
    metadata: { gift_message: 'Happy trails, see you at the summit!', checkout_version: 3 },
    offers: [offer('9.00', 'Hoodie + Mug', 'Half price on an enamel mug with any hoodie')],
    vouchers: [
      {
        ...offer('6.00', 'Welcome 10% off', '10% off tees on a first order'),
        voucher: {
          code: 'WELCOME10',
          end_datetime: '2026-03-31T23:59:59Z',
          name: 'Welcome 10% off',
          start_datetime: '2026-01-01T00:00:00Z',
        },
      },
    ],
    fulfillments: [
      fulfillment(
        201,
        '10001',
        [[251, hoodie]],
        { carrier: 'UPS', code: '1Z9NW4210345678901', link: 'https://www.ups.com/track?tracknum=1Z9NW4210345678901' },
        ['2026-01-12T10:15:00Z', '2026-01-13T03:42:00Z'],
      ),
    ],
    refunds: [
      refund({
        id: 801,
        order: '10001',
        at: '2026-01-12T09:20:00Z',
        note: 'Cream mug out of stock: line cancelled, half the shipping refunded as a courtesy.',
        lines: [[811, mug, 1]],
        shipping: [821, '3.00'],
        transaction: [502, 501, card],
      }),
    ],
    charge: (total) => [transaction(501, card, { type: 'sale', status: 'succeeded', amount: total, at: placed })],
  });
}

/** Order 10002: paid, not shipped yet, the customer asked to cancel it. */
function secondOrder(): Order {
  const placed = '2026-01-13T19:07:44Z';
  const card = cardDetails(DANIEL);
  return buildOrder({
    number: '10002',
    customer: customerOf(DANIEL, 'Gate code 4417. Leave by the garage if nobody answers.', attribution('instagram', 'social', 'beanie-season')),
    placed,
    updated: '2026-01-14T08:12:00Z',
    lines: [
      orderLine(104, PRODUCTS.beanie, 1, placed),
      orderLine(105, PRODUCTS.socks, 2, placed, { discount: '4.80' }),
    ],
    shipping: '14.40',
    shippingCode: 'express',
    status: 'open',
    payment: 'paid',
    fulfillment: 'unfulfilled',
    source: 'web',
    lifecycle: 'none',
    tags: ['express', 'cancellation-requested'],
    metadata: { checkout_version: 3, referral: 'instagram-story' },
    offers: [offer('4.80', 'Sock bundle', '10% off two or more packs of socks')],
    charge: (total) => [transaction(503, card, { type: 'sale', status: 'succeeded', amount: total, at: placed })],
  });
}

/** Order 10003: the first order of subscription 1. */
function thirdOrder(): Order {
  const placed = '2026-01-15T08:00:12Z';
  const card = cardDetails(MAYA);
  return buildOrder({
    number: '10003',
    customer: customerOf(MAYA, 'Leave with the front desk concierge.', attribution('website', 'organic', 'sock-club')),
    placed,
    updated: placed,
    lines: [orderLine(106, PRODUCTS.socks, 1, placed, { discount: '2.40', metadata: { subscription_id: 1 } })],
    shipping: '4.80',
    shippingCode: 'standard',
    status: 'open',
    payment: 'paid',
    fulfillment: 'unfulfilled',
    source: 'subscription',
    lifecycle: 'initial',
    tags: ['subscription', 'sock-club'],
    metadata: { checkout_version: 3, subscription_id: 1 },
    offers: [offer('2.40', 'Sock Club welcome', '10% off the first box of a Sock Club subscription')],
    subscriptions: [{ billing_cycle: 1, id: 1 }],
    charge: (total) => [transaction(504, card, { type: 'sale', status: 'succeeded', amount: total, at: placed })],
  });
}

// --- subscriptions ----------------------------------------------------------------------------

function subscriptionLine(id: number, item: CatalogueProduct, quantity: number): SubscriptionLineRecord {
  const stockrecordId = item.id + 2100;
  return {
    id,
    metadata: { source: 'subscription_checkout' },
    price: item.price,
    quantity,
    product: {
      categories: [categoryRef(item.categoryId)],
      id: item.id,
      images: [
        {
          attachment: `images/products/2026/01/${item.slug}.jpg`,
          caption: item.title,
          display_order: 0,
          file_name: `${item.slug}.jpg`,
          id: item.id + 4000,
          src: item.image,
        },
      ],
      title: item.title,
      upc: item.upc,
      url: item.url,
    },
    stockrecord: {
      id: stockrecordId,
      low_stock_threshold: 10,
      num_allocated: (item.id % 7) + 2,
      num_in_stock: 40 + (item.id % 9) * 15,
      partner_sku: item.sku,
      price: item.price,
      price_currency: CURRENCY,
      price_retail: fromCents(Math.ceil((toCents(item.price) * 1.15) / 100) * 100),
    },
    variant_id: item.variantId,
    variant_title: item.variantTitle,
  };
}

function frequency(interval: string, count: number): string {
  return count === 1 ? `Every ${interval}` : `Every ${count} ${interval}s`;
}

interface SubscriptionPlan {
  id: number;
  person: Person;
  status: string;
  every: [count: number, interval: string];
  created: string;
  next: string;
  shipping: [code: string, price: string];
  /** [line id, product, quantity] */
  lines: [number, CatalogueProduct, number][];
  /** [billing cycle, order number] */
  orders: [number, string][];
  cancel?: [reason: string, message: string];
  campaign: string;
}

function subscription(plan: SubscriptionPlan): SubscriptionRecord {
  const [count, interval] = plan.every;
  const [shippingCode, shippingPrice] = plan.shipping;
  const lines = plan.lines.map(([id, item, quantity]) => subscriptionLine(id, item, quantity));
  const goods = plan.lines.reduce((sum, [, item, quantity]) => sum + toCents(item.price) * quantity, 0);
  // A subscription never canceled has a blank reason: the reference allows '' but not null.
  const [cancelReason, cancelMessage] = plan.cancel ?? ['', ''];
  return {
    id: plan.id,
    attribution: attribution('website', 'organic', plan.campaign),
    billing_address: billingAddress(plan.person),
    shipping_address: shippingAddress(plan.person, 'Subscription box: leave at the door.'),
    user: user(plan.person),
    cancel_reason: cancelReason,
    cancel_reason_other_message: cancelMessage,
    currency: CURRENCY,
    frequency: frequency(interval, count),
    payment_method: 'card',
    shipping_code: shippingCode,
    date_created: plan.created,
    next_renewal_date: plan.next,
    interval,
    interval_count: count,
    is_test: false,
    is_tax_known: true,
    num_lines: lines.length,
    num_orders: plan.orders.length,
    orders: plan.orders.map(([billing_cycle, order_number]) => ({ billing_cycle, order_number })),
    payment_details: cardDetails(plan.person),
    shipping_price: shippingPrice,
    total: fromCents(goods + toCents(shippingPrice)),
    status: plan.status,
    lines,
  };
}

function subscriptions(): SubscriptionRecord[] {
  return [
    subscription({
      id: 1,
      person: MAYA,
      status: 'active',
      every: [1, 'month'],
      created: '2026-01-15T08:00:00Z',
      next: '2026-02-15T08:00:00Z',
      shipping: ['standard', '4.80'],
      lines: [[701, PRODUCTS.socks, 1]],
      orders: [[1, '10003']],
      campaign: 'sock-club',
    }),
    subscription({
      id: 2,
      person: DANIEL,
      status: 'past_due',
      every: [2, 'week'],
      created: '2026-01-10T12:00:00Z',
      next: '2026-01-24T12:00:00Z',
      shipping: ['standard', '6.00'],
      lines: [
        [702, PRODUCTS.coffee, 2],
        [703, PRODUCTS.espresso, 1],
      ],
      orders: [[1, '9986']],
      campaign: 'coffee-club',
    }),
    subscription({
      id: 3,
      person: MAYA,
      status: 'canceled',
      every: [3, 'month'],
      created: '2026-01-10T15:30:00Z',
      next: '2026-04-10T15:30:00Z',
      shipping: ['standard', '4.80'],
      lines: [[704, PRODUCTS.tee, 1]],
      orders: [[1, '9991']],
      cancel: ['product_too_expensive', 'Found a cheaper seasonal tee plan elsewhere.'],
      campaign: 'seasonal-tee-drop',
    }),
    subscription({
      id: 4,
      person: DANIEL,
      status: 'retrying',
      every: [1, 'year'],
      created: '2025-02-10T17:00:00Z',
      next: '2026-02-10T17:00:00Z',
      shipping: ['no_shipping', '0.00'],
      lines: [[705, PRODUCTS.club, 1]],
      orders: [[1, '8412']],
      campaign: 'outfitters-club',
    }),
  ];
}

/** The catalogue data of a subscription line, falling back to the seeded catalogue. */
function productOf(line: SubscriptionLineRecord): LineProduct {
  const known = CATALOGUE.find((p) => p.id === line.product?.id);
  return {
    id: line.product?.id ?? known?.id ?? 0,
    variantId: line.variant_id,
    title: line.product?.title ?? known?.title ?? 'Subscription item',
    variantTitle: line.variant_title,
    sku: line.stockrecord?.partner_sku ?? known?.sku ?? `SUB-${line.id ?? 0}`,
    price: fromCents(toCents(line.price ?? known?.price)),
    image: line.product?.images?.[0]?.src ?? known?.image ?? `${CDN_URL}/products/placeholder.jpg`,
    url: line.product?.url ?? known?.url ?? `${STORE_URL}/products`,
    requiresShipping: known?.requiresShipping ?? true,
  };
}

/** The subscription's payment details where they have the expected types, else the customer's card. */
function paymentFrom(subscription: SubscriptionRecord): PaymentDetails {
  const person = PEOPLE.find((p) => p.id === subscription.user?.id) ?? MAYA;
  const fallback: Record<string, unknown> = cardDetails(person);
  const details: Record<string, unknown> = { ...fallback };
  for (const [key, value] of Object.entries(subscription.payment_details ?? {})) {
    if (key in fallback && value !== null && typeof value === typeof fallback[key]) details[key] = value;
  }
  return details as PaymentDetails;
}

/**
 * A new renewal order for `subscription`, numbered `number` and placed at `now`, with one line per
 * subscription line. Takes fresh line and transaction ids from `state.lastIds`; the caller stores
 * the order and links it to the subscription.
 */
export function renewalOrder(state: SandboxState, subscription: SubscriptionRecord, number: string, now: string): Order {
  const subscriptionId = subscription.id ?? 0;
  const subscriptionLines: SubscriptionLineRecord[] = subscription.lines;
  const lines = subscriptionLines.map((line) =>
    orderLine(++state.lastIds.line, productOf(line), line.quantity ?? 1, now, {
      metadata: { subscription_id: subscriptionId, subscription_line_id: line.id ?? 0 },
    }),
  );
  const cycle = Math.max(0, ...(subscription.orders ?? []).map((o) => o.billing_cycle ?? 0)) + 1;
  const transactionId = ++state.lastIds.transaction;
  const details = paymentFrom(subscription);
  const shippingCode = subscription.shipping_code || 'standard';
  return buildOrder({
    number,
    customer: {
      user: structuredClone(subscription.user),
      billing_address: structuredClone(subscription.billing_address),
      shipping_address: structuredClone(subscription.shipping_address),
      attribution: structuredClone(subscription.attribution),
    },
    placed: now,
    updated: now,
    lines,
    shipping: fromCents(toCents(subscription.shipping_price)),
    shippingCode,
    // The renewal charges the saved card at once, and the sandbox's charges succeed.
    status: 'open',
    payment: 'paid',
    fulfillment: lines.some((l) => l.requires_shipping) ? 'unfulfilled' : 'not_required',
    source: 'subscription',
    lifecycle: 'renewal',
    tags: ['subscription', 'renewal'],
    metadata: { subscription_id: subscriptionId, billing_cycle: cycle },
    subscriptions: [{ billing_cycle: cycle, id: subscriptionId }],
    charge: (total) => [transaction(transactionId, details, { type: 'sale', status: 'succeeded', amount: total, at: now })],
  });
}

// --- fulfillment events and fulfillment orders ------------------------------------------------

interface Place {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postcode: string;
  latitude: number;
  longitude: number;
}

function fulfillmentEvent(id: number, status: string, message: string, at: string, place: Place): FulfillmentEvent {
  const { city, ...rest } = place;
  return {
    id,
    fulfillment: 201,
    order: '10001',
    city,
    country: 'US',
    ...rest,
    message,
    status,
    created_at: at,
    updated_at: at,
    happened_at: at,
    estimated_delivery_at: '2026-01-15T22:00:00Z',
  };
}

function fulfillmentEvents(): FulfillmentEvent[] {
  return [
    fulfillmentEvent(301, 'label_printed', 'Shipping label created, package awaiting pickup.', '2026-01-12T10:16:30Z', {
      line1: '2200 NW Front Avenue',
      line2: 'Dock 4',
      city: 'Portland',
      state: 'OR',
      postcode: '97209',
      latitude: 45.5393,
      longitude: -122.6909,
    }),
    fulfillmentEvent(302, 'in_transit', 'Departed UPS facility, on the way to Denver.', '2026-01-13T03:42:00Z', {
      line1: '1987 S 3800 W',
      line2: 'UPS Salt Lake City Hub',
      city: 'Salt Lake City',
      state: 'UT',
      postcode: '84104',
      latitude: 40.7296,
      longitude: -111.9786,
    }),
  ];
}

function fulfillmentOrderLine(fulfillmentOrderId: number, id: number, line: OrderLine): FulfillmentOrderLine {
  const discount = toCents(line.total_discount);
  const inclBeforeDiscount = toCents(line.price_incl_tax) + discount;
  return {
    currency: CURRENCY,
    fulfillable_quantity: textOf(line.fulfillable_quantity),
    fulfillment_order_id: fulfillmentOrderId,
    id,
    order_line_id: whole(line.id),
    price_excl_tax: line.price_excl_tax,
    price_incl_tax: line.price_incl_tax,
    product_id: textOf(line.product_id),
    product_image: line.product_image,
    product_title: line.product_title,
    quantity: whole(line.quantity),
    sku: line.sku,
    stockrecord_id: (line.product_id ?? 0) + 2100,
    tax_lines: structuredClone(line.tax_lines),
    price_excl_tax_excl_discounts: fromCents(exclTax(inclBeforeDiscount)),
    price_incl_tax_excl_discounts: fromCents(inclBeforeDiscount),
    total_discount: fromCents(discount),
  };
}

interface FulfillmentOrderPlan {
  id: number;
  order: Order;
  /** [fulfillment order line id, order line id] */
  lines: [number, number][];
  dates: [created: string, updated: string];
  request_status: string;
  status: string;
  fulfillment_holds: FulfillmentOrder['fulfillment_holds'];
  merchant_requests: FulfillmentOrder['merchant_requests'];
  supported_actions: string[];
}

function fulfillmentOrder(plan: FulfillmentOrderPlan): FulfillmentOrder {
  const { id, order } = plan;
  return {
    id,
    created_at: plan.dates[0],
    updated_at: plan.dates[1],
    order_number: order.number,
    request_status: plan.request_status,
    status: plan.status,
    assigned_location: {
      accept_return: true,
      address: warehouse(),
      callback_url: 'https://fulfillment.northwind-outfitters.example/callbacks/fulfillment-orders',
      id: 1,
      name: 'Portland Warehouse',
    },
    fulfillment_holds: plan.fulfillment_holds,
    merchant_requests: plan.merchant_requests,
    shipping_address: structuredClone(order.shipping_address),
    shipping_method: { code: textOf(order.shipping_code), name: textOf(order.shipping_method) },
    supported_actions: plan.supported_actions,
    line_items: plan.lines.map(([lineId, orderLineId]) => fulfillmentOrderLine(id, lineId, lineById(order, orderLineId))),
  };
}

function fulfillmentOrders(orders: Record<string, Order>): FulfillmentOrder[] {
  const orderNumbered = (number: string): Order => {
    const found = orders[number];
    if (!found) throw new Error(`Seed has no order ${number}`);
    return found;
  };
  return [
    fulfillmentOrder({
      id: 401,
      order: orderNumbered('10002'),
      lines: [
        [451, 104],
        [452, 105],
      ],
      dates: ['2026-01-13T19:08:00Z', '2026-01-14T08:12:00Z'],
      // The platform's guide: a cancellation request is sent for a fulfillment order the
      // fulfillment service has accepted and is processing.
      request_status: 'cancel_requested',
      status: 'processing',
      fulfillment_holds: [
        {
          created_at: '2026-01-14T08:12:00Z',
          reason: 'other',
          reason_message: 'On hold while the cancellation request is reviewed.',
        },
      ],
      merchant_requests: [
        {
          message: 'The customer asked to cancel this order. Please stop it if it has not been packed yet.',
          notify: true,
          type: 'cancel_request',
        },
      ],
      supported_actions: ['cancellation_request_accept', 'cancellation_request_reject'],
    }),
    fulfillmentOrder({
      id: 402,
      order: orderNumbered('10001'),
      lines: [[461, 102]],
      dates: ['2026-01-11T14:33:00Z', '2026-01-12T10:20:00Z'],
      // The fulfill request is sent and not yet accepted: the tees can still be edited.
      request_status: 'pending',
      status: 'open',
      fulfillment_holds: [],
      merchant_requests: [
        {
          message: 'Please ship the tees in one parcel; the hoodie has already gone out.',
          notify: false,
          type: 'fulfill_request',
        },
      ],
      supported_actions: ['create_fulfillment', 'request_cancellation'],
    }),
  ];
}

// --- notes, settings, webhooks ----------------------------------------------------------------

function noteParts(id: number, message: string) {
  return { app: { ...PARTNER_APP }, author: staff(), id, message };
}

function orderNote(): OrderNote {
  const at = '2026-01-12T09:25:00Z';
  return {
    ...noteParts(601, 'Cream mug out of stock; the customer chose a refund over a backorder.'),
    date_created: at,
    date_updated: at,
  };
}

function customerNote(): CustomerNote {
  const at = '2026-01-20T11:05:00Z';
  return {
    ...noteParts(602, 'Prefers UPS deliveries. Sock Club member since January 2026.'),
    created_at: at,
    updated_at: at,
  };
}

function webhook(): Webhook {
  return {
    id: 1,
    active: true,
    api_version: '2024-04-01',
    created_at: '2026-01-10T09:00:00Z',
    updated_at: '2026-01-22T16:45:00Z',
    next_check_date: '2026-02-15T00:00:00Z',
    events: ['order.created', 'order.updated'],
    name: 'Order sync to warehouse system',
    secret_key: 'whsec_nw_5f3c9a1e7b2d4c6f8a0e',
    target: 'https://hooks.northwind-outfitters.example/store-events',
    warning_count: 0,
  };
}

/** Switched off: the list's `active` filter has something to tell apart, and nothing is delivered to it. */
function pausedWebhook(): Webhook {
  return {
    id: 2,
    active: false,
    api_version: '2024-04-01',
    created_at: '2026-01-12T14:30:00Z',
    updated_at: '2026-01-18T08:15:00Z',
    next_check_date: null,
    events: ['customer.created'],
    name: 'Legacy CRM import (paused)',
    secret_key: null,
    target: 'https://crm.northwind-outfitters.example/hooks/customers',
    warning_count: 0,
  };
}

function appSettings(): Record<string, unknown> {
  return {
    display_name: 'Northwind Ops Console',
    sync_interval_minutes: 15,
    auto_accept_fulfillment_orders: false,
    low_stock_alerts: true,
    notifications: { email: 'ops@northwind-outfitters.example', slack_channel: '#store-orders' },
  };
}

function exportName(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function byId<T>(items: T[], key: (item: T) => string | number | null | undefined): Record<string, T> {
  return Object.fromEntries(items.map((item) => [String(key(item)), item]));
}

function highest(ids: unknown[]): number {
  return Math.max(0, ...ids.map(whole));
}

// --- the whole state --------------------------------------------------------------------------

/** One export made earlier, already available, so `exports get 1` and `exports download 1` work at once. */
function seededExport(): ExportRecord {
  return {
    id: 1,
    created_at: '2026-02-01T06:00:00Z',
    date_from: '2026-01-01T00:00:00Z',
    date_to: '2026-01-31T23:59:59Z',
    status: 'available',
    type: 'order_list',
  };
}

export function createSeed(): SandboxState {
  const orders = byId([firstOrder(), secondOrder(), thirdOrder()], (order) => order.number);
  const allOrders = Object.values(orders);
  const state = withNullPrototypes({
    schema: STATE_SCHEMA,
    clockOffsetMs: seedClockOffset(),
    orders,
    orderNotes: { '10001': [orderNote()], '10002': [], '10003': [] },
    customers: {
      '1': { user: user(MAYA), notes: [customerNote()], joined: '2026-01-11T14:30:40Z' },
      '2': { user: user(DANIEL), notes: [], joined: '2025-02-10T16:52:13Z' },
    },
    subscriptions: byId(subscriptions(), (s) => s.id),
    fulfillmentEvents: byId(fulfillmentEvents(), (event) => event.id),
    fulfillmentOrders: byId(fulfillmentOrders(orders), (fo) => fo.id),
    categories: byId(
      CATEGORIES.map((c) => category(c.id)),
      (c) => c.id,
    ),
    appSettings: { [PARTNER_APP.client_id]: appSettings() },
    webhooks: { '1': webhook(), '2': pausedWebhook() },
    exports: {},
    exportsReadyAt: {},
    exportFiles: {},
    disputes: {},
    exportTypes: EXPORT_TYPES.map((code) => ({ code, name: exportName(code) })),
    lastIds: {
      order: highest(allOrders.map((order) => Number(order.number))),
      line: highest(allOrders.flatMap((order) => (order.lines ?? []).map((line) => line.id))),
      note: 602,
      export: 1,
      dispute: 0,
      webhook: 2,
      delivery: 0,
      transaction: highest(allOrders.flatMap((order) => (order.transactions ?? []).map((t) => t.id))),
    },
  });
  const earlier = seededExport();
  state.exports[earlier.id] = earlier;
  markAvailable(state, earlier);
  return state;
}
