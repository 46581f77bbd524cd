// Refunds as the platform's guide describes them: calculated first (each line's share of what its
// remaining units cost, shipping, and the payments the money would go back through; nothing
// changes), then created (the refund with its lines and adjustments, money back through the
// payments named, the lines' units and the order's totals and payment status after it). A line's
// unfulfilled units are refunded with `cancel` and leave its fulfillment orders; fulfilled ones
// with `return` or `no_restock` (a digital product's only `no_restock`). Money goes back through
// captured charges; an uncaptured payment is never refunded in part, only voided with the whole
// order. Money alone (2023-02-10's refund, a transaction's refund) is a refund without lines.
import type { CalculateRefundRequest, RefundOrder, RefundTransaction, RefundTransactionRequest } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { netOf } from '../amounts.js';
import { runtimeSeeding } from '../builders.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { badRequest, HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { withdrawUnits } from '../line-units.js';
import { fromCents, toCents } from '../money.js';
import { childrenOf, openAuthorizations, refundableCents, refundableCharges, transactionsOf } from '../payments.js';
import { markReturned, refund, refundLineAmounts, type RefundPayment, type RestockType } from '../seed/orders.js';
import { SHIPPING_TAX } from '../seed/store-facts.js';
import { SANDBOX_AGENT } from './notes.js';
import { fieldError, findOrder, itemError, orderChanged, type OrderRecord } from './order-state.js';

interface PlannedLine {
  line: Rec;
  quantity: number;
  restock: RestockType;
  excl: number;
  incl: number;
}

/** What a refund gives back of the goods: lines and shipping, tax included and excluded, in cents. */
interface Plan {
  lines: PlannedLine[];
  shippingIncl: number;
  shippingExcl: number;
}

const goodsOf = (plan: Plan) => plan.lines.reduce((sum, l) => sum + l.incl, 0) + plan.shippingIncl;
const count = (line: Rec, field: string) => Number(line[field] ?? 0);

/**
 * The restock a refund line takes, checked against the units it has left: unfulfilled ones are
 * canceled, fulfilled ones returned or kept by the customer (`no_restock`, the only way for a
 * digital product). `left` counts what earlier lines of the request already took.
 */
function restockOf(line: Rec, quantity: number, given: RestockType | undefined, left: { unfulfilled: number; fulfilled: number }, refuse: (key: string, message: string) => HttpError): RestockType {
  const id = String(line.id);
  const restock = given ?? (quantity <= left.unfulfilled ? 'cancel' : 'no_restock');
  if (restock === 'return' && line.requires_shipping !== true) throw refuse('restock_type', `Line ${id} is a digital product: its fulfilled units are refunded with no_restock.`);
  const [pool, other] = restock === 'cancel' ? [left.unfulfilled, left.fulfilled] : [left.fulfilled, left.unfulfilled];
  if (quantity > pool) {
    const [what, instead] = restock === 'cancel' ? ['unfulfilled', line.requires_shipping === true ? 'return or no_restock' : 'no_restock'] : ['fulfilled', 'cancel'];
    throw refuse('restock_type', `${pool} unit${pool === 1 ? '' : 's'} of line ${id} ${pool === 1 ? 'is' : 'are'} ${what} (refunded with ${restock}); the other ${other} ${other === 1 ? 'is' : 'are'} refunded with ${instead}.`);
  }
  if (restock === 'cancel') left.unfulfilled -= quantity;
  else left.fulfilled -= quantity;
  return restock;
}

/** The goods a request refunds, checked against what the order has left to refund. */
function planOf(order: OrderRecord, body: CalculateRefundRequest): Plan {
  const lines = (order.lines ?? []) as Rec[];
  const left = new Map<Rec, { unfulfilled: number; fulfilled: number; refundable: number }>();
  const planned = (body.refund_lines ?? []).map((given, at) => {
    const refuse = itemError('refund_lines', at);
    const line = lines.find((candidate) => candidate.id === given.line_id);
    if (!line) throw refuse('line_id', `Line ${String(given.line_id)} is not a line of order ${order.number}; its lines are ${lines.map((l) => String(l.id)).join(', ')}.`);
    const current = count(line, 'current_quantity');
    const units = left.get(line) ?? left.set(line, { unfulfilled: count(line, 'fulfillable_quantity'), fulfilled: current - count(line, 'fulfillable_quantity'), refundable: current }).get(line)!;
    const quantity = Number(given.quantity ?? 0);
    if (quantity > units.refundable) throw refuse('quantity', `Line ${String(line.id)} has ${units.refundable} unit${units.refundable === 1 ? '' : 's'} left to refund; ${quantity} were asked for.`);
    units.refundable -= quantity;
    const restock = restockOf(line, quantity, given.restock_type, units, refuse);
    const { excl, incl } = refundLineAmounts(line, quantity);
    return { line, quantity, restock, excl: toCents(excl), incl: toCents(incl) };
  });
  const shippingLeft = toCents(order.shipping_incl_tax);
  const shipping = body.refund_shipping;
  const asked = shipping?.full_refund ? shippingLeft : shipping?.amount_excl_tax === undefined ? 0 : Math.round(toCents(shipping.amount_excl_tax) * (1 + SHIPPING_TAX.rate));
  if (asked > shippingLeft) {
    throw fieldError('refund_shipping', { amount_excl_tax: [`${fromCents(netOf(shippingLeft, SHIPPING_TAX.rate))} of the shipping (tax excluded) is left to refund; ${shipping!.amount_excl_tax} was asked for.`] });
  }
  return { lines: planned, shippingIncl: asked, shippingExcl: netOf(asked, SHIPPING_TAX.rate) };
}

/** Whether a refund gives back everything the order has left: every unit of every line, and the shipping. */
const isWhole = (order: OrderRecord, plan: Plan) =>
  plan.shippingIncl === toCents(order.shipping_incl_tax) && ((order.lines ?? []) as Rec[]).every((line) => plan.lines.filter((l) => l.line === line).reduce((sum, l) => sum + l.quantity, 0) === count(line, 'current_quantity'));

/** Where refunded money can go: the charges with something left (oldest first), else the authorizations still open. */
function refundablePayments(transactions: readonly Rec[]): { payment: Rec; cents: number }[] {
  const charges = refundableCharges(transactions).map(({ charge, cents }) => ({ payment: charge, cents }));
  return charges.length > 0 ? charges : openAuthorizations(transactions).map(({ authorization, cents }) => ({ payment: authorization, cents }));
}

/** `cents` spread over payments, oldest first, each up to what it has left. */
function allocate(payments: readonly { payment: Rec; cents: number }[], cents: number): { payment: Rec; cents: number; left: number }[] {
  let rest = cents;
  return payments.map(({ payment, cents: left }) => {
    const taken = Math.min(rest, left);
    rest -= taken;
    return { payment, cents: taken, left };
  });
}

/** A partial refund of money that was never captured is refused, saying what to do instead. */
function refuseUncapturedPart(order: OrderRecord): never {
  throw badRequest(
    `Order ${order.number}'s payment is authorized but not captured, and an uncaptured payment cannot be refunded in part: capture it first (POST /orders/${order.number}/capture/), or refund the whole order.`,
  );
}

const calculate: Rule = (ctx) => {
  const order = findOrder(ctx);
  const plan = planOf(order, (ctx.body ?? {}) as CalculateRefundRequest);
  const transactions = transactionsOf(ctx.state.records, order.number);
  const currency = String(order.currency);
  const linesExcl = plan.lines.reduce((sum, l) => sum + l.excl, 0);
  const method = (payment: Rec) => (payment.payment_details as Rec | undefined)?.gateway as Rec | undefined;
  return ctx.answer({
    refund_lines: plan.lines.map(({ line, quantity, restock, excl, incl }) => ({
      line_id: line.id,
      quantity,
      restock_type: restock,
      refundable_quantity: count(line, 'current_quantity'),
      amount_excl_tax: fromCents(excl),
      amount_incl_tax: fromCents(incl),
      total_tax: fromCents(incl - excl),
      product_id: line.product_id,
      product_image: line.product_image,
      product_title: line.product_title,
      product_url: line.product_url,
      sku: line.sku,
      variant_id: line.variant_id,
      variant_title: line.variant_title,
    })),
    refund_shipping: {
      amount_excl_tax: fromCents(plan.shippingExcl),
      amount_incl_tax: fromCents(plan.shippingIncl),
      total_tax: fromCents(plan.shippingIncl - plan.shippingExcl),
      currency,
      refundable_amount: fromCents(toCents(order.shipping_incl_tax)),
      shipping_code: order.shipping_code,
      shipping_method: order.shipping_method,
    },
    transactions: allocate(refundablePayments(transactions), goodsOf(plan)).map(({ payment, cents, left }) => ({
      id: payment.id,
      type: payment.type,
      amount: fromCents(cents),
      refundable_amount: fromCents(left),
      gateway_id: Number(method(payment)?.id ?? 0),
      gateway_name: String(method(payment)?.name ?? ''),
      payment_method: String(payment.payment_method ?? 'external'),
    })),
    amount_excl_tax: fromCents(linesExcl + plan.shippingExcl),
    amount_incl_tax: fromCents(goodsOf(plan)),
    total_tax: fromCents(goodsOf(plan) - linesExcl - plan.shippingExcl),
    currency,
  });
};

/** The payments a refund request names, checked: the order's own, each with enough left; an uncaptured one only for the whole order. */
function paymentsNamed(order: OrderRecord, transactions: readonly Rec[], named: readonly RefundTransactionRequest[], whole: boolean): RefundPayment[] {
  const seen = new Set<unknown>();
  return named.map((given, at) => {
    const refuse = itemError('transactions', at);
    const payment = transactions.find((t) => t.id === given.id);
    if (!payment) throw refuse('id', `Transaction ${String(given.id)} is not a payment of order ${order.number}.`);
    if (seen.has(payment.id)) throw refuse('id', `Transaction ${String(payment.id)} is named twice.`);
    seen.add(payment.id);
    const cents = toCents(given.amount);
    if (cents <= 0) throw refuse('amount', 'Ensure this value is greater than 0.');
    if (payment.type === 'authorize') {
      const held = openAuthorizations(transactions).find((open) => open.authorization === payment)?.cents ?? 0;
      if (held === 0) throw refuse('id', `Transaction ${String(payment.id)} is an authorization with nothing left to void.`);
      if (!whole || cents !== held) refuseUncapturedPart(order);
    } else if (payment.type === 'debit') {
      const left = refundableCents(payment, childrenOf(transactions, payment));
      if (cents > left) throw refuse('amount', `Transaction ${String(payment.id)} has ${fromCents(left)} left to refund; ${given.amount} was asked for.`);
    } else {
      throw refuse('id', `Transaction ${String(payment.id)} is a ${String(payment.type)}; money goes back through a charge (debit), or an uncaptured authorization is voided.`);
    }
    return { charge: payment, amount: fromCents(cents), ...(given.is_external ? { external: true } : {}) };
  });
}

/**
 * Makes the refund: the refund builder's record and transactions (announced), units canceled out
 * of the fulfillment orders and returned ones marked on the parcels that shipped them. The caller
 * says the order changed.
 */
export function makeRefund(ctx: RuleContext, order: OrderRecord, plan: Plan, payments: RefundPayment[], note: string | null): Rec {
  const made = refund(runtimeSeeding(ctx.state, ctx.nowMs), order, {
    at: ctx.now,
    lines: plan.lines.filter((l) => l.quantity > 0).map(({ line, quantity, restock }) => ({ lineId: Number(line.id), quantity, restock })),
    shipping: fromCents(plan.shippingIncl),
    note,
    payments,
    by: SANDBOX_AGENT,
  });
  for (const { line, quantity, restock } of plan.lines) {
    if (restock === 'cancel') withdrawUnits(ctx, order, line, quantity);
    else returned(ctx, order, line, quantity);
  }
  for (const transaction of Object.values(ctx.state.records.transactions).filter((t) => t.refund_id === made.id)) ctx.emit('transaction.created', transaction);
  refunded(ctx, payments.map((payment) => payment.charge));
  return made;
}

/** Charges refunded have less left to refund (`amount_available_for_refund`): each is updated. */
function refunded(ctx: RuleContext, charges: readonly Rec[]): void {
  for (const charge of charges) if (charge.type === 'debit') ctx.emit('transaction.updated', charge);
}

/** Fulfilled units given back: marked returned on the parcels that shipped them, first parcel first. */
function returned(ctx: RuleContext, order: OrderRecord, line: Rec, quantity: number): void {
  let left = quantity;
  for (const parcel of Object.values(ctx.state.records.fulfillments).filter((f) => String(f.order_number) === order.number && f.status !== 'canceled')) {
    const item = ((parcel.line_items ?? []) as Rec[]).find((i) => i.order_line_id === line.id);
    const taken = Math.min(left, Number(item?.returnable_quantity ?? 0));
    if (taken > 0) markReturned(parcel, Number(line.id), taken);
    left -= taken;
  }
}

/** Everything an order has left, to refund: every unit of its lines (canceled where unfulfilled) and the shipping. */
export function wholeOrder(order: OrderRecord): Plan {
  return planOf(order, {
    refund_lines: ((order.lines ?? []) as Rec[]).filter((line) => count(line, 'current_quantity') > 0).map((line) => ({ line_id: Number(line.id), quantity: count(line, 'current_quantity') })),
    refund_shipping: { full_refund: true },
  });
}

/** Money back without goods, spread over the order's charges: refused beyond what they have left, or from a payment never captured. */
function moneyOnly(ctx: RuleContext, order: OrderRecord, amount: string, external: boolean): Rec {
  const transactions = transactionsOf(ctx.state.records, order.number);
  const charges = refundableCharges(transactions);
  if (charges.length === 0 && openAuthorizations(transactions).length > 0) refuseUncapturedPart(order);
  const left = charges.reduce((sum, { cents }) => sum + cents, 0);
  if (toCents(amount) <= 0) throw fieldError('amount', 'Ensure this value is greater than 0.');
  if (toCents(amount) > left) throw fieldError('amount', `Order ${order.number} has ${fromCents(left)} left to refund; ${amount} was asked for.`);
  const payments = allocate(charges.map(({ charge, cents }) => ({ payment: charge, cents })), toCents(amount)).filter(({ cents }) => cents > 0);
  const made = makeRefund(ctx, order, { lines: [], shippingIncl: 0, shippingExcl: 0 }, payments.map(({ payment, cents }) => ({ charge: payment, amount: fromCents(cents), ...(external ? { external } : {}) })), null);
  orderChanged(ctx, order);
  return made;
}

/** Whether the version's answer to a refund is the refund (2024-04-01 on) or, as at 2023-02-10, the order. */
const answersRefund = (ctx: RuleContext) => 'refund_line_items' in ((ctx.schemas.response as unknown as { def: { shape?: Rec } }).def.shape ?? {});

const create: Rule = (ctx) => {
  const order = findOrder(ctx);
  const body = (ctx.body ?? {}) as RefundOrder & { amount?: string; is_external?: boolean };
  if (body.amount !== undefined) {
    moneyOnly(ctx, order, body.amount, body.is_external === true);
    return ctx.answer(order);
  }
  const plan = planOf(order, body);
  const transactions = transactionsOf(ctx.state.records, order.number);
  const whole = isWhole(order, plan);
  // Nothing captured but money held: only the whole order can be refunded, voiding what is held.
  const uncaptured = refundableCharges(transactions).length === 0 ? openAuthorizations(transactions) : [];
  if (uncaptured.length > 0 && !whole) refuseUncapturedPart(order);
  const payments = paymentsNamed(order, transactions, body.transactions ?? [], whole);
  const unvoided = uncaptured.filter(({ authorization }) => !payments.some((p) => p.charge === authorization));
  if (unvoided.length > 0) {
    const named = unvoided.map(({ authorization, cents }) => `transaction ${String(authorization.id)} (${fromCents(cents)})`).join(' and ');
    throw fieldError('transactions', `Refunding all of order ${order.number} gives back a payment only authorized: name ${named} to void it.`);
  }
  if (goodsOf(plan) === 0 && plan.lines.every((l) => l.quantity === 0) && payments.length === 0) {
    throw badRequest('Nothing to refund: name the lines (refund_lines), the shipping (refund_shipping) or the money (transactions).');
  }
  const made = makeRefund(ctx, order, plan, payments, body.note ?? null);
  orderChanged(ctx, order);
  return ctx.answer(answersRefund(ctx) ? made : order);
};

/**
 * A charge refunded in part or whole (a dispute settled, money already given back at the
 * gateway: `is_external`): a refund of money alone on its order, answered with the refund
 * transaction.
 */
const refundTransaction: Rule = (ctx) => {
  const charge = ctx.state.records.transactions[String(ctx.params.id)];
  if (!charge) throw NOT_FOUND();
  const body = ctx.body as RefundTransaction & { amount: string };
  return ctx.answer(refundCharge(ctx, charge, body.amount, body.is_external === true));
};

/** What a charge has left to refund (its `amount_available_for_refund`), in cents; refused for one that cannot be refunded at all. */
export function leftOnCharge(ctx: RuleContext, charge: Rec): number {
  const id = String(charge.id);
  if (charge.type === 'authorize') throw badRequest(`Transaction ${id} is an authorization that was not captured: capture it first (POST /transactions/${id}/capture/), or cancel the order to void it.`);
  if (charge.type !== 'debit' || charge.status !== 'succeeded') throw badRequest(`Transaction ${id} is ${charge.status === 'succeeded' ? `a ${String(charge.type)}` : 'a charge that failed'}: only a charge that went through can be refunded.`);
  return refundableCents(charge, childrenOf(Object.values(ctx.state.records.transactions), charge));
}

/** `amount` of a charge given back (`external`: already given back at the gateway), as a refund of money alone on its order; the refund transaction. */
export function refundCharge(ctx: RuleContext, charge: Rec, amount: string, external: boolean): Rec {
  const left = leftOnCharge(ctx, charge);
  const cents = toCents(amount);
  if (cents <= 0) throw fieldError('amount', 'Ensure this value is greater than 0.');
  if (cents > left) throw fieldError('amount', `Transaction ${String(charge.id)} has ${fromCents(left)} left to refund (amount_available_for_refund); ${amount} was asked for.`);
  // Every charge that went through belongs to an order (a renewal's too).
  const order = findOrder(ctx, charge.order);
  const made = makeRefund(ctx, order, { lines: [], shippingIncl: 0, shippingExcl: 0 }, [{ charge, amount: fromCents(cents), ...(external ? { external: true } : {}) }], null);
  orderChanged(ctx, order);
  return Object.values(ctx.state.records.transactions).find((t) => t.refund_id === made.id)!;
}

export const refundRules: Partial<Record<OperationId, Rule>> = {
  ordersRefundCalculateCreate: calculate,
  ordersRefundCreate: create,
  transactionsRefundCreate: refundTransaction,
};
