// Money moving at run time: who pays and with what (a payment method of the reference, a gateway
// chosen as the store's groups say), and each transaction a rule makes, announced with
// `transaction.created`. Transactions are built as the seed builds them (seed/orders.ts).
import type { AddLineItemPaymentDetail, PaymentDetail } from '../../api/generated/types.js';
import { runtimeSeeding } from '../builders.js';
import type { RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { buildTransaction, type Payer, type TransactionFacts } from '../seed/orders.js';
import type { Customer } from '../seed/people.js';
import { SANDBOX_AGENT } from './notes.js';

/** How a new order is paid: a payer whose money is taken now (`charges`), or one the customer is sent away to pay with. */
export interface OrderPayer extends Payer {
  charges: boolean;
  /** A test card token: a test order. */
  test?: boolean;
}

/** A refusal of a field of the request's `payment_details`. */
const refuseDetail = (field: string, message: string) => new HttpError(400, { payment_details: { [field]: [message] } });

/** What a transaction shows of a payment outside the store's gateways. */
export const OUTSIDE = { bankcard_first_six: null, bankcard_last_four: null, card_token: '', gateway: { id: 0, name: 'External', type: 'external' }, is_3ds: false, optimized_3ds: false, paypal_vault_id: '', sca_flow: '' };

/** Test card tokens the platform's testing guide names. */
const TEST_TOKENS = new Set(['test_card', 'test_3ds_card']);

/**
 * The gateway a payment goes through: the one named, else the best of the group named (or of the
 * store's first group) that is active, takes the currency and suits the method (by weight).
 */
export function gatewayFor(
  ctx: RuleContext,
  given: Pick<AddLineItemPaymentDetail, 'payment_gateway' | 'payment_gateway_group'> | null | undefined,
  currency: string,
  type?: string,
  refuse: (field: string, message: string) => HttpError = refuseDetail,
): Rec {
  const { gateways, gatewayGroups } = ctx.state.records;
  const takes = (gateway: Rec) => gateway.active !== false && ((gateway.currencies as Rec[] | undefined) ?? []).some((accepted) => accepted.code === currency);
  if (given?.payment_gateway !== undefined && given.payment_gateway !== null) {
    const named = gateways[String(given.payment_gateway)];
    if (!named) throw refuse('payment_gateway', `Invalid pk "${given.payment_gateway}" - object does not exist.`);
    if (!takes(named)) throw refuse('payment_gateway', `Gateway ${String(named.id)} (${String(named.name)}) ${named.active === false ? 'is not active' : `does not take ${currency}`}.`);
    return named;
  }
  const groupId = given?.payment_gateway_group ?? Math.min(...Object.values(gatewayGroups).map((group) => Number(group.id)));
  if (!gatewayGroups[String(groupId)]) throw refuse('payment_gateway_group', `Invalid pk "${groupId}" - object does not exist.`);
  const weight = (gateway: Rec) => Number(((gateway.gateway_groups as Rec[] | undefined) ?? []).find((g) => Number(g.id) === groupId)?.weight ?? -1);
  const candidates = Object.values(gateways).filter((gateway) => weight(gateway) >= 0 && takes(gateway) && (type === undefined || gateway.gateway_type === type || (type === 'bankcard' && gateway.gateway_type !== 'paypal')));
  const best = candidates.sort((a, b) => weight(b) - weight(a))[0];
  if (!best) throw refuse('payment_gateway_group', `No active gateway of group ${groupId} takes ${currency}${type ? ` by ${type}` : ''}.`);
  return best;
}

/** A gateway as a card's payment details name it. */
export const gatewayRef = (gateway: Rec) => ({ id: gateway.id, name: gateway.name, type: gateway.gateway_type });

/**
 * How an order placed through the API is paid, as `payment_method` and `payment_details` say:
 * a card token charged through a gateway, the customer's saved card, a payment outside the store,
 * or a redirect method (PayPal, wallets, pay-later) the customer completes elsewhere; none at all
 * leaves the order pending.
 */
export function payerFor(ctx: RuleContext, method: string | null, details: PaymentDetail | null, customer: Customer, currency: string): OrderPayer | null {
  switch (method) {
    case null:
      return null;
    case 'card_token': {
      const token = details?.card_token;
      if (!token) throw refuseDetail('card_token', 'This field is required.');
      const gateway = gatewayFor(ctx, details, currency, 'bankcard');
      const card = { ...OUTSIDE, card_token: token, gateway: gatewayRef(gateway), is_3ds: token === 'test_3ds_card', sca_flow: token === 'test_3ds_card' ? 'challenge' : '' };
      return { details: card, method: 'bankcard', currency, charges: true, test: TEST_TOKENS.has(token) };
    }
    case 'saved_card': {
      const cards = Object.values(ctx.state.records.transactions).filter((t) => t.user_id === customer.user.id && t.payment_method === 'bankcard' && t.status === 'succeeded' && t.is_external !== true);
      const latest = cards.sort((a, b) => String(b.date_created).localeCompare(String(a.date_created)))[0];
      if (!latest) throw new HttpError(400, { payment_method: [`Customer ${String(customer.user.id ?? customer.user.email)} has no saved card to pay with.`] });
      return { details: structuredClone(latest.payment_details as Rec), method: 'bankcard', currency, charges: true };
    }
    case 'external':
      return { details: { ...OUTSIDE }, method: details?.external_payment_method ?? 'external', currency, external: true, charges: true };
    default:
      if (!details?.payment_return_url) throw refuseDetail('payment_return_url', `Required with ${method}: the customer completes the payment there and is sent back to this URL.`);
      return { details: { ...OUTSIDE, gateway: gatewayRef(gatewayFor(ctx, details, currency)) }, method, currency, charges: false };
  }
}

/** The payer behind an earlier transaction: the same card or wallet, currency and subscription. */
export function payerOfTransaction(transaction: Rec): Pick<TransactionFacts, 'details' | 'paymentMethod' | 'currency' | 'external' | 'subscription'> {
  return {
    details: transaction.payment_details as Rec,
    paymentMethod: transaction.payment_method as string | null,
    currency: transaction.currency as string | null,
    external: transaction.is_external === true,
    ...(transaction.subscription_id === undefined ? {} : { subscription: { id: Number(transaction.subscription_id), cycle: transaction.billing_cycle as number | null } }),
  };
}

/** A payer as the facts of a transaction take it. */
export function payerFacts(payer: OrderPayer): Pick<TransactionFacts, 'details' | 'paymentMethod' | 'currency' | 'external' | 'test'> {
  return { details: payer.details, paymentMethod: payer.method, currency: payer.currency, external: payer.external, ...(payer.test ? { test: true } : {}) };
}

/** Made by whoever uses the API: the store's staff, not the customer. */
export const byStaff = () => ({ initiator: { ...SANDBOX_AGENT } });

/** Whose a transaction of an order is. */
export const ofOrder = (order: Rec) => ({ order: String(order.number), userId: order.user_id });

/** A transaction made now, announced. */
export function recordTransaction(ctx: RuleContext, facts: Omit<TransactionFacts, 'at'>): Rec {
  const made = buildTransaction(runtimeSeeding(ctx.state, ctx.nowMs), { ...facts, at: ctx.now });
  ctx.emit('transaction.created', made);
  return made;
}
