// An order's totals follow from its lines and shipping; recomputed after every line change, and
// kept as its `original_*` when it is placed.
import type { Order, Transaction } from '../api/generated/types.js';
import { fromCents, sumCents, toCents } from './money.js';

/**
 * Line money fields are line totals (unit price × quantity, less the line's discount):
 * the order's totals are their sums plus shipping. `original_*` keep the values at placement.
 */
export function recomputeOrderTotals(order: Order, transactions: readonly Transaction[] = []): void {
  const lines = order.lines ?? [];
  const excl = sumCents(lines.map((l) => l.price_excl_tax)) + toCents(order.shipping_excl_tax);
  const incl = sumCents(lines.map((l) => l.price_incl_tax)) + toCents(order.shipping_incl_tax);
  const discount = sumCents(lines.map((l) => l.total_discount));
  const paid = paidCents(transactions);
  order.total_excl_tax = fromCents(excl);
  order.total_incl_tax = fromCents(incl);
  order.total_tax = fromCents(incl - excl);
  order.total_discount = fromCents(discount);
  order.total_cost = fromCents(incl);
  order.total_outstanding = fromCents(Math.max(0, incl - paid));
  const taxLine = order.tax_lines?.[0];
  if (taxLine) {
    taxLine.amount = fromCents(incl - excl - (toCents(order.shipping_incl_tax) - toCents(order.shipping_excl_tax)));
    if (taxLine.report_values) taxLine.report_values.amount = taxLine.amount;
  }
  if (order.report_values) {
    Object.assign(order.report_values, {
      total_excl_tax: order.total_excl_tax,
      total_incl_tax: order.total_incl_tax,
      total_discount: order.total_discount,
      total_cost: order.total_cost,
    });
  }
}

/** What the order's payments brought in: successful sales and captures, less refunds. */
export function paidCents(transactions: readonly Transaction[]): number {
  const ok = transactions.filter((t) => t.status === 'succeeded');
  return sumCents(ok.filter((t) => t.type === 'sale' || t.type === 'capture' || t.type === 'debit').map((t) => t.amount)) - sumCents(ok.filter((t) => t.type === 'refund').map((t) => t.amount));
}

/** Keeps a new order's totals as its `original_*` and repeats the amounts in `report_values`. */
export function recordOriginals(order: Order): void {
  const amount = (value: unknown): string => fromCents(toCents(value));
  const originals = {
    original_shipping_excl_tax: amount(order.shipping_excl_tax),
    original_shipping_incl_tax: amount(order.shipping_incl_tax),
    original_total_discount: amount(order.total_discount),
    original_total_excl_tax: amount(order.total_excl_tax),
    original_total_incl_tax: amount(order.total_incl_tax),
  };
  Object.assign(order, originals);
  order.report_values = {
    currency: String(order.currency),
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
