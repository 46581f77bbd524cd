// What every rule about an order needs: the order the path names, its totals and payment status
// after a change (from its lines and transactions) with its `updated` event, refusals in the
// platform's forms, and a requested line checked against the catalogue.
import type { CreateOrderLine, Order } from '../../api/generated/types.js';
import { applyOrderTotals } from '../amounts.js';
import { NOT_FOUND } from '../collections.js';
import type { RuleContext } from '../engine.js';
import { badRequest, HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { paidCents, paymentStatus, transactionsOf } from '../payments.js';
import type { LineFacts } from '../seed/orders.js';
import type { Currency } from '../seed/store-facts.js';

export type OrderRecord = Order & Rec;

export function findOrder(ctx: RuleContext, number: unknown = ctx.params.number): OrderRecord {
  const order = ctx.state.records.orders[String(number)];
  if (!order) throw NOT_FOUND();
  return order as OrderRecord;
}

/** A change to a canceled order is refused, saying what was asked. */
export function refuseIfCanceled(order: Rec, what: string): void {
  if (order.status === 'canceled') throw badRequest(`Order ${String(order.number)} is canceled; ${what}.`);
}

/** The order's totals and payment status, from its lines and transactions. */
export function settleOrder(ctx: Pick<RuleContext, 'state'>, order: Rec): void {
  const transactions = transactionsOf(ctx.state.records, order.number);
  applyOrderTotals(order, paidCents(order, transactions));
  order.payment_status = paymentStatus(order, transactions);
}

/** The order after a change: its totals and payment status, and its `updated` event. */
export function orderChanged(ctx: RuleContext, order: Rec): void {
  settleOrder(ctx, order);
  order.updated_at = ctx.now;
  ctx.emit('order.updated', order);
}

/** A field's error in the framework's form (`{"field": ["message"]}`, nested objects nested). */
export const fieldError = (field: string, message: string | Rec): HttpError => new HttpError(400, { [field]: typeof message === 'string' ? [message] : message });

/** Refusals of the fields of item `at` of the request's list `field`, at its place in the list (the framework's form). */
export function itemError(field: string, at: number): (key: string, message: string) => HttpError {
  return (key, message) => new HttpError(400, { [field]: Array.from({ length: at + 1 }, (_, index) => (index === at ? { [key]: [message] } : {})) });
}

/** Refuses a field of a requested line: `fieldError` for a line that is the whole body, `itemError` for one of a list. */
export type LineRefusal = (field: string, message: string) => HttpError;

/** What a requested line sells and at what price, checked against the catalogue in the order's currency. */
export function lineFacts(ctx: RuleContext, currency: Currency, line: Pick<CreateOrderLine, 'product_id' | 'quantity' | 'price' | 'metadata' | 'is_upsell'>, refuse: LineRefusal): LineFacts {
  const variantId = Number(line.product_id);
  if (line.product_id === undefined) throw refuse('product_id', 'This field is required.');
  if (!ctx.state.records.variants[String(variantId)]) {
    const variants = Object.values(ctx.state.records.variants).filter((variant) => variant.product_id === variantId);
    throw refuse('product_id', variants.length > 0 ? `${variantId} is a product; a line sells one of its variants (${variants.map((v) => String(v.id)).join(', ')}).` : `Invalid pk "${variantId}" - object does not exist.`);
  }
  if (!ctx.state.records.productPrices[`${variantId}/${currency}`]) throw refuse('product_id', `Product ${variantId} has no price in ${currency}, the order's currency.`);
  if (!(Number(line.quantity) >= 1)) throw refuse('quantity', 'Ensure this value is greater than or equal to 1.');
  return {
    variantId,
    quantity: Number(line.quantity),
    ...(line.price === undefined ? {} : { price: line.price }),
    ...(line.metadata === undefined || line.metadata === null ? {} : { metadata: line.metadata as Rec }),
    ...(line.is_upsell === undefined ? {} : { upsell: line.is_upsell }),
  };
}
