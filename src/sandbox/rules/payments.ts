// An order's payments as the platform's guides describe them: authorizations captured (the
// order's all at once, or one in full or in part), a payment made outside the store recorded
// (mark as paid), the outstanding balance charged to the order's first payment method (collect
// payment), a card checked before it is used (verify), and the order canceled: open
// authorizations voided, the money refunded when asked, its fulfillment orders canceled, refused
// once anything has shipped or a location has it in hand.
import type { CancelOrder, CaptureTransaction, MarkAsPaid, VerifyTransaction } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { badRequest, HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { liveFulfillmentOrders, openToChanges } from '../line-units.js';
import { fromCents, toCents } from '../money.js';
import { capturableCents, childrenOf, liveAuthorizations, refundableCharges, transactionsOf } from '../payments.js';
import { STORE } from '../seed/store-facts.js';
import { supportedActions } from '../supported-actions.js';
import { byStaff, gatewayFor, ofOrder, OUTSIDE, payerOfTransaction, recordTransaction } from './charges.js';
import { fieldError, findOrder, orderChanged, refuseIfCanceled, type OrderRecord } from './order-state.js';
import { makeRefund, wholeOrder } from './refunds.js';

/** A capture of what is left of an authorization, or `cents` of it. */
function capture(ctx: RuleContext, owner: { order: string | null; userId: unknown }, authorization: Rec, cents: number): Rec {
  return recordTransaction(ctx, { ...owner, ...payerOfTransaction(authorization), ...byStaff(), type: 'debit', amount: fromCents(cents), parent: authorization });
}

/** An order whose authorization is waiting is captured, never charged again. */
function refuseWhileAuthorized(ctx: RuleContext, order: OrderRecord, instead: string): void {
  if (liveAuthorizations(order, transactionsOf(ctx.state.records, order.number)).length > 0) {
    throw badRequest(`Order ${order.number} has an authorized payment waiting: capture it (POST /orders/${order.number}/capture/) ${instead}.`);
  }
}

function refuseIfNothingOwed(order: OrderRecord, what: string): void {
  if (toCents(order.total_outstanding) <= 0) throw badRequest(`Order ${order.number} has nothing outstanding ${what} (payment status ${String(order.payment_status)}).`);
}

const captureOrder: Rule = (ctx) => {
  const order = findOrder(ctx);
  refuseIfCanceled(order, 'its payments cannot be captured');
  if (order.payment_status === 'expired') {
    throw badRequest(`The authorization of order ${order.number} has expired and can no longer be captured; ask the customer to pay again.`);
  }
  const open = liveAuthorizations(order, transactionsOf(ctx.state.records, order.number));
  if (open.length === 0) throw badRequest(`Order ${order.number} has no authorized payment to capture (payment status ${String(order.payment_status)}).`);
  for (const { authorization, cents } of open) capture(ctx, ofOrder(order), authorization, cents);
  orderChanged(ctx, order);
  return ctx.answer(order);
};

const captureTransaction: Rule = (ctx) => {
  const all = Object.values(ctx.state.records.transactions);
  const authorization = ctx.state.records.transactions[String(ctx.params.id)];
  if (!authorization) throw NOT_FOUND();
  const id = String(authorization.id);
  if (authorization.type !== 'authorize') throw badRequest(`Transaction ${id} is a ${String(authorization.type)}, not an authorization: only an authorization can be captured.`);
  const order = authorization.order === null ? undefined : (ctx.state.records.orders[String(authorization.order)] as OrderRecord | undefined);
  if (order?.payment_status === 'expired') throw badRequest(`Authorization ${id} has expired and can no longer be captured.`);
  const held = capturableCents(authorization, childrenOf(all, authorization));
  if (held === 0) throw badRequest(`Authorization ${id} has nothing left to capture: it was captured or voided.`);
  const asked = (ctx.body as CaptureTransaction | undefined)?.amount;
  const cents = asked === undefined || asked === null ? held : toCents(asked);
  if (cents <= 0) throw fieldError('amount', 'Ensure this value is greater than 0.');
  if (cents > held) throw fieldError('amount', `Authorization ${id} holds ${fromCents(held)}; ${asked} cannot be captured.`);
  const made = capture(ctx, order ? ofOrder(order) : { order: null, userId: authorization.user_id }, authorization, cents);
  if (order) orderChanged(ctx, order);
  return ctx.answer(made);
};

/** A payment taken outside the store's gateways (cash, a bank transfer), recorded for what is outstanding. */
const markAsPaid: Rule = (ctx) => {
  const order = findOrder(ctx);
  refuseIfCanceled(order, 'nothing is owed on it');
  refuseWhileAuthorized(ctx, order, 'rather than record a payment made elsewhere');
  refuseIfNothingOwed(order, 'to mark as paid');
  const method = (ctx.body as MarkAsPaid | undefined)?.external_payment_method ?? 'external';
  recordTransaction(ctx, { ...ofOrder(order), ...byStaff(), details: { ...OUTSIDE }, paymentMethod: method, currency: String(order.currency), external: true, type: 'debit', amount: String(order.total_outstanding) });
  orderChanged(ctx, order);
  return ctx.answer(order);
};

/** The outstanding balance, charged to the payment method the order was first paid (or tried) with. */
const collectPayment: Rule = (ctx) => {
  const order = findOrder(ctx);
  refuseIfCanceled(order, 'nothing can be collected');
  refuseWhileAuthorized(ctx, order, 'instead of charging the customer again');
  refuseIfNothingOwed(order, 'to collect');
  const first = transactionsOf(ctx.state.records, order.number).find((t) => t.type === 'debit' || t.type === 'authorize');
  if (!first || first.is_external === true) {
    throw badRequest(`Order ${order.number} has no payment method the store can charge (it was ${first ? 'paid outside the store' : 'never paid'}); record a payment made elsewhere with POST /orders/${order.number}/mark-as-paid/.`);
  }
  recordTransaction(ctx, { ...ofOrder(order), ...payerOfTransaction(first), ...byStaff(), type: 'debit', amount: String(order.total_outstanding) });
  orderChanged(ctx, order);
  return ctx.answer(order);
};

/** Why an order cannot be canceled yet: something shipped, or a location has work of it in hand. */
function refuseIfUnderway(ctx: RuleContext, order: OrderRecord): void {
  const shipped = Object.values(ctx.state.records.fulfillments).find((f) => String(f.order_number) === order.number && f.status !== 'canceled');
  if (shipped) {
    throw badRequest(`Order ${order.number} has shipped items (fulfillment ${String(shipped.id)}) and cannot be canceled; refund what comes back instead (POST /orders/${order.number}/refund/).`);
  }
  const inHand = liveFulfillmentOrders(ctx, order).find((fo) => !openToChanges(fo));
  if (inHand) {
    throw badRequest(
      `Fulfillment order ${String(inHand.id)} of order ${order.number} is with its location (${String(inHand.status)}, request ${String(inHand.request_status)}): request its cancellation first (POST /fulfillment-orders/${String(inHand.id)}/cancellation-request/) and cancel the order once the location accepts.`,
    );
  }
}

/**
 * Cancels an order (the platform guide's "cancel the entire order"): authorizations still open
 * are voided; with `full_refund`, every line and the shipping are refunded and the money goes back
 * through each charge; what was to ship is canceled with the fulfillment orders.
 */
const cancelOrder: Rule = (ctx) => {
  const order = findOrder(ctx);
  const body = ctx.body as CancelOrder;
  if (order.status === 'canceled') throw badRequest(`Order ${order.number} is already canceled.`);
  refuseIfUnderway(ctx, order);
  const refunding = body.full_refund ? wholeOrder(order) : undefined;
  const transactions = transactionsOf(ctx.state.records, order.number);
  const open = liveAuthorizations(order, transactions);
  // With full_refund, the money goes back (and the authorizations are voided) through a refund of everything.
  const payments = [...(refunding ? refundableCharges(transactions).map(({ charge, cents }) => ({ charge, cents })) : []), ...open.map(({ authorization, cents }) => ({ charge: authorization, cents }))];
  if (refunding && payments.length > 0) makeRefund(ctx, order, refunding, payments.map(({ charge, cents }) => ({ charge, amount: fromCents(cents) })), body.cancel_reason || null);
  else for (const { authorization, cents } of open) recordTransaction(ctx, { ...ofOrder(order), ...payerOfTransaction(authorization), ...byStaff(), type: 'void', amount: fromCents(cents), parent: authorization });
  for (const fo of liveFulfillmentOrders(ctx, order)) {
    Object.assign(fo, { status: 'canceled', updated_at: ctx.now, supported_actions: supportedActions('canceled', String(fo.request_status)) });
  }
  for (const line of (order.lines ?? []) as Rec[]) Object.assign(line, { editable_quantity: 0, fulfillable_quantity: 0 });
  order.status = 'canceled';
  orderChanged(ctx, order);
  return ctx.answer(order);
};

/** A card checked before it is used: the gateway that would take it in the currency (the one named, else the group's best). */
const verifyTransaction: Rule = (ctx) => {
  const body = ctx.body as VerifyTransaction & { currency: string };
  if (!(STORE.currencies as readonly string[]).includes(body.currency)) throw fieldError('currency', `The store takes ${STORE.currencies.join(' and ')}, not "${body.currency}".`);
  const gateway = gatewayFor(ctx, body, body.currency, 'bankcard', (field, message) => new HttpError(400, { [field]: [message] }));
  return ctx.answer({ card_token: body.card_token, preferred_payment_gateway: { id: gateway.id, name: gateway.name, gateway_type: gateway.gateway_type }, user: body.user });
};

export const paymentRules: Partial<Record<OperationId, Rule>> = {
  ordersCaptureCreate: captureOrder,
  ordersMarkAsPaidCreate: markAsPaid,
  ordersCollectPaymentCreate: collectPayment,
  ordersCancelCreate: cancelOrder,
  transactionsCaptureCreate: captureTransaction,
  transactionsVerifyCreate: verifyTransaction,
};
