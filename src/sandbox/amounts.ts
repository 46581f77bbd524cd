// The money a store computes rather than keeps by hand: a line's amounts from its unit price,
// quantity and discount (prices include tax at the line's rate), an order's totals from its lines,
// shipping and what was paid, a subscription's total from its lines. All in integer cents
// (money.ts); records hold the decimal strings the API answers. The seed builds every amount
// here, and a rule that changes lines or payments computes them again the same way.
import { fromCents, sumCents, toCents } from './money.js';

type Rec = Record<string, unknown>;

/** The part of a tax-inclusive amount that is not tax, to the cent. */
export function netOf(grossCents: number, rate: number): number {
  return Math.round(grossCents / (1 + rate));
}

export interface Tax {
  id: number;
  title: string;
  rate: number;
}

/** One tax on one amount, as lines and shipping carry it (TaxPriceBreakdown). */
export function taxBreakdown(cents: number, currency: string, tax: Tax): Rec {
  const amount = fromCents(cents);
  return { amount, currency, rate: tax.rate, report_values: { amount, currency }, source: 'store', tax_id: tax.id, tax_title: tax.title };
}

export interface LinePrice {
  /** Price of one unit, tax included. */
  unitCost: string;
  quantity: number;
  /** The line's whole discount, tax included. */
  discount?: string;
  currency: string;
  tax: Tax;
}

/**
 * A line's money fields: `price_*` and `total_cost` are line totals (unit price × quantity less
 * the discount), `original_*` the same at placement, `report_values` repeats them.
 */
export function lineAmounts({ unitCost, quantity, discount = '0.00', currency, tax }: LinePrice): Rec {
  const incl = toCents(unitCost) * quantity - toCents(discount);
  const excl = netOf(incl, tax.rate);
  const money = {
    original_price_excl_tax: fromCents(excl),
    original_price_incl_tax: fromCents(incl),
    original_total_discount: fromCents(toCents(discount)),
    price_excl_tax: fromCents(excl),
    price_incl_tax: fromCents(incl),
    total_cost: fromCents(incl),
    total_discount: fromCents(toCents(discount)),
    unit_cost: fromCents(toCents(unitCost)),
  };
  return { currency, ...money, tax_lines: [taxBreakdown(incl - excl, currency, tax)], report_values: { currency, ...money } };
}

/**
 * A line's money for the units it still has (`current_quantity`), once some were removed, refunded
 * or added: the discount shared out over the units ever added, the tax at the line's own rate;
 * what it was at placement (`original_*`) stays.
 */
export function applyCurrentQuantity(line: Rec): void {
  const [quantity, current] = [Number(line.quantity), Number(line.current_quantity)];
  const discount = quantity > 0 ? Math.round((toCents(line.original_total_discount) * current) / quantity) : 0;
  const tax = ((line.tax_lines as Rec[] | undefined) ?? [])[0];
  const money = lineAmounts({
    unitCost: String(line.unit_cost),
    quantity: current,
    discount: fromCents(discount),
    currency: String(line.currency),
    tax: { id: Number(tax?.tax_id ?? 0), title: String(tax?.tax_title ?? ''), rate: Number(tax?.rate ?? 0) },
  });
  const originals = Object.fromEntries(Object.entries(line).filter(([field]) => field.startsWith('original_')));
  Object.assign(line, money, originals, { report_values: { ...(money.report_values as Rec), ...originals } });
}

/**
 * What an amount was before its discount: tax included, the discount added back; tax excluded,
 * the discount's share of tax taken out in the amount's own proportion.
 */
export function beforeDiscount(excl: unknown, incl: unknown, discount: unknown): { excl: string; incl: string } {
  const [net, gross, off] = [toCents(excl), toCents(incl), toCents(discount)];
  return { excl: fromCents(net + (gross === 0 ? 0 : Math.round((off * net) / gross))), incl: fromCents(gross + off) };
}

/** A shipping price (tax included) as an order carries it. */
export function shippingAmounts(priceInclTax: string, currency: string, tax: Tax): Rec {
  const incl = toCents(priceInclTax);
  const excl = netOf(incl, tax.rate);
  return {
    shipping_excl_tax: fromCents(excl),
    shipping_incl_tax: fromCents(incl),
    shipping_tax: fromCents(incl - excl),
    shipping_tax_lines: incl === 0 ? [] : [taxBreakdown(incl - excl, currency, tax)],
  };
}

/**
 * An order's totals from its lines and shipping: the sums, the tax on the lines (its `tax_lines`),
 * and what is still to pay after `paidCents` (nothing on a canceled order).
 */
export function applyOrderTotals(order: Rec, paidCents: number): void {
  const lines = (order.lines ?? []) as Rec[];
  const currency = String(order.currency);
  const excl = sumCents(lines.map((l) => l.price_excl_tax)) + toCents(order.shipping_excl_tax);
  const incl = sumCents(lines.map((l) => l.price_incl_tax)) + toCents(order.shipping_incl_tax);
  const shippingTax = toCents(order.shipping_incl_tax) - toCents(order.shipping_excl_tax);
  const totals = {
    total_excl_tax: fromCents(excl),
    total_incl_tax: fromCents(incl),
    total_tax: fromCents(incl - excl),
    total_discount: fromCents(sumCents(lines.map((l) => l.total_discount))),
    total_cost: fromCents(incl),
  };
  Object.assign(order, totals);
  applyOutstanding(order, paidCents);
  const lineTax = fromCents(incl - excl - shippingTax);
  const rate = ((lines[0]?.tax_lines as Rec[] | undefined)?.[0]?.rate as number | undefined) ?? 0;
  order.tax_lines = [{ amount: lineTax, currency, id: 1, rate, report_values: { amount: lineTax, currency }, source: 'store', tax_title: 'Sales tax' }];
  order.report_values = {
    ...(order.report_values as Rec | undefined),
    currency,
    shipping_excl_tax: order.shipping_excl_tax,
    shipping_incl_tax: order.shipping_incl_tax,
    total_cost: totals.total_cost,
    total_discount: totals.total_discount,
    total_excl_tax: totals.total_excl_tax,
    total_incl_tax: totals.total_incl_tax,
  };
}

/** What is still to pay of an order after `paidCents`: nothing on a canceled order. */
export function applyOutstanding(order: Rec, paidCents: number): void {
  order.total_outstanding = fromCents(order.status === 'canceled' ? 0 : Math.max(0, toCents(order.total_incl_tax) - paidCents));
}

/** Keeps an order's totals at placement as its `original_*` (in `report_values` too). */
export function recordOriginals(order: Rec): void {
  const originals = {
    original_shipping_excl_tax: order.shipping_excl_tax,
    original_shipping_incl_tax: order.shipping_incl_tax,
    original_total_discount: order.total_discount,
    original_total_excl_tax: order.total_excl_tax,
    original_total_incl_tax: order.total_incl_tax,
  };
  Object.assign(order, originals);
  order.report_values = { ...(order.report_values as Rec | undefined), ...originals };
}

/** A subscription's total per renewal: its lines (price × quantity) and shipping. */
export function subscriptionTotal(lines: readonly Rec[], shippingPrice: string): string {
  return fromCents(lines.reduce<number>((total, line) => total + toCents(line.price) * Number(line.quantity), toCents(shippingPrice)));
}
