// An order's payments as its transactions tell them. An authorization holds money until it is
// captured (a debit whose parent it is; a capture takes what it takes and releases the rest) or
// voided (a void whose parent it is); a debit is money taken, a refund (whose parent is the debit)
// money given back. The order's `payment_status` and what it still owes follow from them, the
// same way for the seed's orders and for every change a rule makes.
import type { Rec, Records } from './kinds.js';
import { sumCents, toCents } from './money.js';

const succeeded = (t: Rec) => t.status === 'succeeded';
const amounts = (transactions: readonly Rec[], type: string) => sumCents(transactions.filter((t) => t.type === type && succeeded(t)).map((t) => t.amount));

/** The order's transactions, oldest first. */
export function transactionsOf(records: Records, number: unknown): Rec[] {
  return Object.values(records.transactions)
    .filter((t) => t.order !== null && String(t.order) === String(number))
    .sort((a, b) => String(a.date_created).localeCompare(String(b.date_created)) || Number(a.id) - Number(b.id));
}

/** The transactions made on `parent` (a capture or void of an authorization, a refund of a debit). */
export function childrenOf(transactions: readonly Rec[], parent: Rec): Rec[] {
  return transactions.filter((t) => t.parent_id === parent.id);
}

/** What is left to capture of an authorization, in cents: nothing once captured or voided in full. */
export function capturableCents(authorization: Rec, children: readonly Rec[]): number {
  if (authorization.type !== 'authorize' || !succeeded(authorization) || amounts(children, 'debit') > 0) return 0;
  return Math.max(0, toCents(authorization.amount) - amounts(children, 'void'));
}

/** What is left to refund of a charge, in cents (`amount_available_for_refund`). */
export function refundableCents(charge: Rec, children: readonly Rec[]): number {
  if (charge.type !== 'debit' || !succeeded(charge)) return 0;
  return Math.max(0, toCents(charge.amount) - amounts(children, 'refund'));
}

/** The authorizations of an order still holding money, with what each holds. */
export function openAuthorizations(transactions: readonly Rec[]): { authorization: Rec; cents: number }[] {
  return transactions
    .filter((t) => t.type === 'authorize')
    .map((authorization) => ({ authorization, cents: capturableCents(authorization, childrenOf(transactions, authorization)) }))
    .filter(({ cents }) => cents > 0);
}

/** The authorizations that can still be captured: none once the order's have expired. */
export function liveAuthorizations(order: Rec, transactions: readonly Rec[]): { authorization: Rec; cents: number }[] {
  return order.payment_status === 'expired' ? [] : openAuthorizations(transactions);
}

/** The charges of an order that can still be refunded, with what is left of each, oldest first. */
export function refundableCharges(transactions: readonly Rec[]): { charge: Rec; cents: number }[] {
  return transactions
    .filter((t) => t.type === 'debit')
    .map((charge) => ({ charge, cents: refundableCents(charge, childrenOf(transactions, charge)) }))
    .filter(({ cents }) => cents > 0);
}

/** Statuses of money authorized and not captured: an authorization ages from one to the next. */
const AUTHORIZED = new Set(['authorized', 'expiring', 'expired']);

/**
 * The order's `payment_status` from its transactions: refunds first, then what was charged
 * against the order's total, then authorizations still open (keeping how far they have aged),
 * then voids; nothing at all is `pending`.
 */
export function paymentStatus(order: Rec, transactions: readonly Rec[]): string {
  const charged = amounts(transactions, 'debit');
  const refunded = amounts(transactions, 'refund');
  const voided = amounts(transactions, 'void');
  if (refunded > 0) return refunded >= charged ? 'refunded' : 'partially_refunded';
  if (charged > 0) return charged >= toCents(order.total_incl_tax) ? 'paid' : 'partially_paid';
  if (openAuthorizations(transactions).length > 0) {
    if (voided > 0) return 'partially_voided';
    return AUTHORIZED.has(String(order.payment_status)) ? String(order.payment_status) : 'authorized';
  }
  return voided > 0 ? 'voided' : 'pending';
}

/**
 * What the payments brought in for the order's goods, in cents: charges less refunds, where a
 * refund's discrepancy (money given back beyond, or short of, the goods it returned) is a price
 * change, not a debt of the customer.
 */
export function paidCents(order: Rec, transactions: readonly Rec[]): number {
  const discrepancies = ((order.refunds ?? []) as Rec[]).flatMap((refund) => (refund.adjustments as Rec[]).filter((a) => a.type === 'refund_discrepancy'));
  return amounts(transactions, 'debit') - amounts(transactions, 'refund') + sumCents(discrepancies.map((a) => a.amount_incl_tax));
}
