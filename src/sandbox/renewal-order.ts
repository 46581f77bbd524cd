// The order a subscription's renewal makes (renewal.ts): one line per subscription line, the
// subscription's shipping, and one payment by its saved card for the order's total. Every money
// field follows from the unit prices and quantities, with tax included at the store's rate.
import type { Order, OrderLine, SubscriptionDetail, SubscriptionLine, TaxPriceBreakdown, TaxSerailizer, Transaction, TransactionPaymentDetail } from '../api/generated/types.js';
import { fromCents, toCents } from './money.js';
import { STORE } from './store-facts.js';
import { nextId, type SandboxState } from './state.js';
import { recomputeOrderTotals, recordOriginals } from './totals.js';

type TaxLine = TaxPriceBreakdown;
type OrderTaxLine = TaxSerailizer;
type PaymentDetails = TransactionPaymentDetail;
type SubscriptionRecord = SubscriptionDetail & { user_id?: number; lines?: SubscriptionLine[] };

/** What an order line needs to know about what it sells. */
interface LineProduct {
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

/**
 * A new renewal order for `subscription`, numbered `number` and placed at `now`, with one line per
 * subscription line, and the payment that paid it. Takes fresh line and transaction ids from the
 * state; the caller stores both and links the order to the subscription.
 */
export function renewalOrder(state: SandboxState, subscription: SubscriptionRecord, number: string, now: string): { order: Order & { user_id?: number }; payment: Transaction & Record<string, unknown> } {
  const subscriptionId = subscription.id ?? 0;
  const lines = (subscription.lines ?? []).map((line) =>
    orderLine(nextId(state, 'line'), productOf(state, line), line.quantity ?? 1, now, { subscription_id: subscriptionId, subscription_line_id: line.id ?? 0 }),
  );
  const cycle = Math.max(0, ...(subscription.orders ?? []).map((o) => o.billing_cycle ?? 0)) + 1;
  const transactionId = nextId(state, 'transactions');
  const shippingIncl = toCents(subscription.shipping_price);
  const shippingExcl = exclTax(shippingIncl);
  const shippingCode = subscription.shipping_code || 'standard';
  const order: Order & { user_id?: number } = {
    number,
    user_id: subscription.user_id ?? subscription.user?.id,
    billing_address: structuredClone(subscription.billing_address),
    shipping_address: structuredClone(subscription.shipping_address),
    attribution: structuredClone(subscription.attribution),
    created_at: now,
    date_placed: now,
    updated_at: now,
    currency: subscription.currency ?? STORE.currency,
    display_taxes: 'included',
    shipping_code: shippingCode,
    shipping_method: STORE.shippingMethods[shippingCode] ?? shippingCode,
    source: 'subscription',
    // The renewal charges the saved card at once, and the sandbox's charges succeed.
    status: 'open',
    subscription_lifecycle: 'recurring',
    fulfillment_status: lines.some((l) => l.requires_shipping) ? 'unfulfilled' : 'not_required',
    payment_status: 'paid',
    is_test: false,
    supports_post_purchase_upsells: false,
    metadata: { subscription_id: subscriptionId, billing_cycle: cycle },
    tags: ['subscription', 'renewal'],
    order_status_url: `${STORE.url}/orders/${number}/status?key=nw${(Number(number) * 2654435761) % 4294967296}`,
    lines,
    refunds: [],
    subscriptions: [{ billing_cycle: cycle, id: subscriptionId }],
    offer_discounts: [],
    voucher_discounts: [],
    shipping_tax_lines: [taxLine(shippingIncl - shippingExcl, 2)],
    tax_lines: [orderTaxLine()],
    shipping_excl_tax: fromCents(shippingExcl),
    shipping_incl_tax: fromCents(shippingIncl),
    shipping_tax: fromCents(shippingIncl - shippingExcl),
  };
  recomputeOrderTotals(order);
  const payment = {
    ...sale(transactionId, paymentFrom(subscription), String(order.total_incl_tax), now),
    order: number,
    subscription_id: subscriptionId,
    user_id: order.user_id,
    attribution: structuredClone(subscription.attribution),
  };
  recomputeOrderTotals(order, [payment]);
  recordOriginals(order);
  return { order, payment };
}

/** The tax-exclusive part of a tax-inclusive amount, in cents. */
function exclTax(inclCents: number): number {
  return Math.round(inclCents / (1 + STORE.taxRate));
}

function taxFields(taxCents: number, title: string) {
  const amount = fromCents(taxCents);
  return { amount, currency: STORE.currency, rate: STORE.taxRate, report_values: { amount, currency: STORE.currency }, source: 'store', tax_title: title };
}

function taxLine(taxCents: number, taxId = 1): TaxLine {
  return { ...taxFields(taxCents, taxId === 1 ? 'Sales tax' : 'Sales tax on shipping'), tax_id: taxId };
}

/** The order's own tax line; recomputeOrderTotals sets its amount. */
function orderTaxLine(): OrderTaxLine {
  return { ...taxFields(0, 'Sales tax'), id: 1 };
}

/** An order line selling `quantity` of `item`: its money fields are line totals, tax included. */
function orderLine(id: number, item: LineProduct, quantity: number, at: string, metadata: Record<string, unknown>): OrderLine {
  const inclCents = toCents(item.price) * quantity;
  const exclCents = exclTax(inclCents);
  const money = {
    original_price_excl_tax: fromCents(exclCents),
    original_price_incl_tax: fromCents(inclCents),
    original_total_discount: '0.00',
    price_excl_tax: fromCents(exclCents),
    price_incl_tax: fromCents(inclCents),
    total_cost: fromCents(inclCents),
    total_discount: '0.00',
    unit_cost: fromCents(toCents(item.price)),
  };
  return {
    created_at: at,
    updated_at: at,
    currency: STORE.currency,
    current_quantity: quantity,
    editable_quantity: quantity,
    fulfillable_quantity: item.requiresShipping ? quantity : 0,
    quantity,
    id,
    is_gift_card: false,
    is_upsell: false,
    requires_shipping: item.requiresShipping,
    metadata,
    ...money,
    product_id: item.id,
    variant_id: item.variantId,
    product_image: item.image,
    product_url: item.url,
    product_title: item.title,
    variant_title: item.variantTitle,
    sku: item.sku,
    tax_lines: [taxLine(inclCents - exclCents)],
    report_values: { currency: STORE.currency, ...money },
  };
}

/** A successful card payment of `amount`. */
function sale(id: number, details: PaymentDetails, amount: string, at: string): Transaction & Record<string, unknown> {
  const paid = fromCents(toCents(amount));
  return {
    amount: paid,
    auth_code: (id * 7919).toString(36).toUpperCase().padStart(6, '0'),
    currency: STORE.currency,
    date_created: at,
    external_id: `ch_3Nw${id}Outfitters`,
    id,
    is_disputed: false,
    is_external: false,
    is_initial_retry: false,
    is_test: false,
    network_transaction_id: `MCC${String(id * 104729).padStart(12, '0')}`,
    parent_id: null,
    payment_details: structuredClone(details),
    payment_method: 'card',
    report_values: { amount: paid, currency: STORE.currency },
    response_code: 100,
    statement_descriptor: STORE.statementDescriptor,
    status: 'succeeded',
    type: 'debit',
  };
}

/** What a subscription line sells: the line's own fields, the variant's where it has them. */
function productOf(state: SandboxState, line: SubscriptionLine): LineProduct {
  const variant = state.records.variants[String(line.variant_id)] as { requires_shipping?: boolean } | undefined;
  return {
    id: line.product_id ?? 0,
    variantId: line.variant_id ?? 0,
    title: line.product_title ?? 'Subscription item',
    variantTitle: line.variant_title ?? '',
    sku: line.sku ?? `SUB-${line.id ?? 0}`,
    price: fromCents(toCents(line.price)),
    image: line.product_image ?? `${STORE.cdn}/products/placeholder.jpg`,
    url: line.product_url ?? `${STORE.url}/products`,
    requiresShipping: variant?.requires_shipping ?? true,
  };
}

/** The subscription's saved card, as a payment's details. */
function paymentFrom(subscription: SubscriptionRecord): PaymentDetails {
  return structuredClone((subscription.payment_details ?? {}) as PaymentDetails);
}
