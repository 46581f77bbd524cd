// An order's lines, edited as the platform's order-editing guide describes. A line counts the units
// ever added (`quantity`), those not removed (`current_quantity`), those not yet fulfilled
// (`fulfillable_quantity`) and those that may still change (`editable_quantity`: not fulfilled,
// not with a fulfilment location, not removed); only editable units change. A removed line stays
// on the order with nothing left. Its money follows the units it has, the order's totals follow
// its lines, and the fulfillment orders hold what is left to ship. Editing takes no payment
// (what is owed shows in `total_outstanding`, collected with collect-payment), except adding
// line items after the sale, which charges the order's first payment method at once.
import type { AddLineItem, AddOrderLine, CreateOrderLine, PatchedUpdateOrderLine } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { applyCurrentQuantity } from '../amounts.js';
import { runtimeSeeding } from '../builders.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { badRequest } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { addUnits, withdrawUnits } from '../line-units.js';
import { fromCents, sumCents } from '../money.js';
import { transactionsOf } from '../payments.js';
import { buildLine } from '../seed/orders.js';
import type { Currency } from '../seed/store-facts.js';
import { byStaff, gatewayFor, ofOrder, payerOfTransaction, recordTransaction } from './charges.js';
import { fieldError, findOrder, itemError, lineFacts, orderChanged, refuseIfCanceled, type OrderRecord } from './order-state.js';
import { subscribe } from './subscription-lines.js';

function findLine(order: OrderRecord, lineId: unknown): Rec {
  const line = ((order.lines ?? []) as Rec[]).find((candidate) => String(candidate.id) === String(lineId));
  if (!line) throw NOT_FOUND();
  return line;
}

const count = (line: Rec, field: string) => Number(line[field] ?? 0);

/** Units of a line the merchant could change no longer: why, in a person's words. */
const NOT_EDITABLE = 'fulfilled, with a fulfilment location, refunded or removed';

/** `units` more of a line (its quantity ever added grows with them), waiting to ship. */
function addToLine(ctx: RuleContext, order: Rec, line: Rec, units: number): void {
  Object.assign(line, {
    quantity: count(line, 'quantity') + units,
    current_quantity: count(line, 'current_quantity') + units,
    editable_quantity: count(line, 'editable_quantity') + units,
    fulfillable_quantity: count(line, 'fulfillable_quantity') + (line.requires_shipping === true ? units : 0),
    updated_at: ctx.now,
  });
  applyCurrentQuantity(line);
  addUnits(ctx, order, line, units);
}

/** `units` of a line's editable ones removed: they leave the line and the fulfillment orders. */
function removeFromLine(ctx: RuleContext, order: Rec, line: Rec, units: number): void {
  Object.assign(line, {
    current_quantity: count(line, 'current_quantity') - units,
    editable_quantity: count(line, 'editable_quantity') - units,
    fulfillable_quantity: Math.max(0, count(line, 'fulfillable_quantity') - (line.requires_shipping === true ? units : 0)),
    updated_at: ctx.now,
  });
  applyCurrentQuantity(line);
  withdrawUnits(ctx, order, line, units);
}

/** Removes a whole line: only one every unit of which may still change. It stays on the order with nothing left. */
const removeLine: Rule = (ctx) => {
  const order = findOrder(ctx);
  const line = findLine(order, ctx.params.lineId);
  refuseIfCanceled(order, 'its lines cannot change');
  const [editable, current] = [count(line, 'editable_quantity'), count(line, 'current_quantity')];
  // Nothing of it left to delete: deleting it again finds nothing, as a DELETE repeated does.
  if (current === 0) throw NOT_FOUND();
  if (editable <= 0) throw badRequest(`Line ${String(line.id)} has no editable quantity left (${NOT_EDITABLE}) and cannot be removed.`);
  if (editable < current) {
    throw badRequest(`Only ${editable} of the ${current} units of line ${String(line.id)} can still change (the rest are ${NOT_EDITABLE}); set its quantity to ${current - editable} instead of removing it.`);
  }
  removeFromLine(ctx, order, line, editable);
  orderChanged(ctx, order);
  return ctx.answer(order);
};

/** Sets a line's quantity (its units not removed): up by adding units, down by removing editable ones. */
const changeLine: Rule = (ctx) => {
  const order = findOrder(ctx);
  const line = findLine(order, ctx.params.lineId);
  const body = (ctx.body ?? {}) as PatchedUpdateOrderLine;
  refuseIfCanceled(order, 'its lines cannot change');
  const [editable, current] = [count(line, 'editable_quantity'), count(line, 'current_quantity')];
  const wanted = body.quantity ?? current;
  if (wanted !== current && editable <= 0) throw fieldError('quantity', `Line ${String(line.id)} has no editable quantity left (${NOT_EDITABLE}); add a new line instead (POST /orders/${order.number}/lines/).`);
  if (wanted < current - editable) {
    throw fieldError('quantity', `Line ${String(line.id)} has ${current} units, of which ${editable} can still change: its quantity can go down to ${current - editable}, not ${wanted}.`);
  }
  if (wanted > current) addToLine(ctx, order, line, wanted - current);
  if (wanted < current) removeFromLine(ctx, order, line, current - wanted);
  if (body.metadata !== undefined) line.metadata = body.metadata;
  orderChanged(ctx, order);
  return ctx.answer(order);
};

/** New lines of an order, their units waiting to ship. */
function addLines(ctx: RuleContext, order: OrderRecord, facts: ReturnType<typeof lineFacts>[]): Rec[] {
  const seed = runtimeSeeding(ctx.state, ctx.nowMs);
  return facts.map((fact) => {
    const line = buildLine(seed, order.currency as Currency, fact, ctx.now);
    (order.lines as Rec[]).push(line);
    addUnits(ctx, order, line, count(line, 'current_quantity'));
    return line;
  });
}

/** A new line (a swap's second step): the variant's price in the order's currency unless the request prices it. */
const createLine: Rule = (ctx) => {
  const order = findOrder(ctx);
  refuseIfCanceled(order, 'no line can be added');
  addLines(ctx, order, [lineFacts(ctx, order.currency as Currency, ctx.body as AddOrderLine, fieldError)]);
  orderChanged(ctx, order);
  return ctx.answer(order);
};

/** Payment methods the store can charge again without the customer (platform guide: cards, and PayPal with reference transactions). */
const MERCHANT_INITIATED = new Set(['bankcard', 'paypal']);

/**
 * Line items added after the sale (an upsell): charged at once, their amount through the order's
 * first payment method (on the gateway the request names, else the same one).
 */
const addLineItems: Rule = (ctx) => {
  const order = findOrder(ctx);
  const body = ctx.body as AddLineItem & { lines: CreateOrderLine[] };
  refuseIfCanceled(order, 'no line can be added');
  if (order.supports_post_purchase_upsells === false) {
    throw badRequest(`Order ${order.number} takes no post-purchase line items (supports_post_purchase_upsells is false); add lines with POST /orders/${order.number}/lines/ and collect the payment.`);
  }
  const first = transactionsOf(ctx.state.records, order.number).find((t) => (t.type === 'debit' || t.type === 'authorize') && t.status === 'succeeded');
  if (!first || first.is_external === true || !MERCHANT_INITIATED.has(String(first.payment_method))) {
    throw badRequest(`Order ${order.number} was not paid by card or PayPal, which the store could charge again without the customer; add lines with POST /orders/${order.number}/lines/ instead.`);
  }
  if (body.lines.length === 0) throw fieldError('lines', 'Add at least one line.');
  const facts = body.lines.map((line, at) => lineFacts(ctx, order.currency as Currency, line, itemError('lines', at)));
  const payer = payerOfTransaction(first);
  const gateway = body.payment_details ? gatewayFor(ctx, body.payment_details, String(order.currency)) : undefined;
  const details = gateway ? { ...payer.details, gateway: { id: gateway.id, name: gateway.name, type: gateway.gateway_type } } : payer.details;

  const lines = addLines(ctx, order, facts);
  body.lines.forEach((line, at) => {
    if (!line.subscription) return;
    const subscription = subscribe(ctx, order, line, lines[at]!, { details, method: String(first.payment_method) });
    order.subscriptions = [...(order.subscriptions ?? []), { billing_cycle: 1, id: Number(subscription.id) }];
  });
  const amount = sumCents(lines.map((line) => line.price_incl_tax));
  if (amount > 0) recordTransaction(ctx, { ...ofOrder(order), ...payer, details, ...byStaff(), type: 'debit', amount: fromCents(amount) });
  orderChanged(ctx, order);
  return ctx.answer(order);
};

export const orderLineRules: Partial<Record<OperationId, Rule>> = {
  ordersLinesCreate: createLine,
  ordersLinesPartialUpdate: changeLine,
  ordersLinesDestroy: removeLine,
  ordersAddLineItemsCreate: addLineItems,
};
