// Disputes as the platform's dispute-service guide describes them: one opened on a transaction (or
// matched to one later) marks it disputed, which changes its order too; a dispute is resolved with
// an outcome that fits its type (an alert's or a chargeback's), which makes it resolved, recording
// the refund it says the gateway made when asked. Every change sends dispute.updated (a note on it
// too: orders.ts keeps the notes' rules together).
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { fromCents, toCents } from '../money.js';
import { DISPUTE_RESOLUTIONS_OF } from '../settings.js';
import { leftOnCharge, refundCharge } from './refunds.js';

function findDispute(ctx: RuleContext): Rec {
  const dispute = ctx.state.records.disputes[String(ctx.params.id)];
  if (!dispute) throw NOT_FOUND();
  return dispute;
}

/**
 * Ties a dispute to the transaction it is about: the transaction is marked disputed, the dispute
 * takes its order (the order's number, as a number, as the reference has it), and both the
 * transaction and the order say they changed.
 */
function matchTransaction(ctx: RuleContext, dispute: Rec, id: unknown): Rec | undefined {
  if (id === null || id === undefined) return undefined;
  const transaction = ctx.state.records.transactions[String(id)];
  if (!transaction) throw new HttpError(400, { transaction: [`Invalid pk "${String(id)}" - object does not exist.`] });
  dispute.transaction = transaction.id;
  transaction.is_disputed = true;
  ctx.emit('transaction.updated', transaction);
  const order = typeof transaction.order === 'string' ? ctx.state.records.orders[transaction.order] : undefined;
  dispute.order = order ? Number(order.number) : null;
  if (order) {
    order.updated_at = ctx.now;
    ctx.emit('order.updated', order);
  }
  return transaction;
}

/** A resolution given must fit the dispute's type (refused before anything changes); none or an empty one always does. */
function checkResolution(type: unknown, resolution: unknown): void {
  if (resolution === undefined || resolution === null || resolution === '') return;
  const fitting: readonly string[] = DISPUTE_RESOLUTIONS_OF[type === 'alert' ? 'alert' : 'chargeback'];
  if (!fitting.includes(String(resolution))) {
    throw new HttpError(400, { resolution: [`"${String(resolution)}" does not resolve ${type === 'alert' ? 'an alert' : 'a chargeback'}; one of: ${fitting.join(', ')}.`] });
  }
}

/** A resolution given (checked): one makes the dispute resolved; an empty one leaves it open. */
function resolveWith(dispute: Rec, resolution: unknown, message: unknown): void {
  if (resolution === undefined) return;
  if (resolution === null || resolution === '') {
    dispute.resolution = resolution;
    if (dispute.status === 'resolved') dispute.status = 'open';
    return;
  }
  dispute.resolution = resolution;
  if (message !== undefined) dispute.resolution_other_message = message;
  dispute.status = 'resolved';
}

/** The resolutions that say money went back, and how much of what the charge had left. */
const REFUNDED = new Set(['issued_full_refund', 'issued_refund_for_remaining_amount']);

/**
 * The refund a resolution says was made at the gateway, to be recorded on the disputed charge as
 * an external refund of what it has left (a full refund only of a charge nothing was refunded from
 * yet): checked now, made by the function it gives.
 */
function externalRefund(ctx: RuleContext, dispute: Rec, resolution: unknown): () => void {
  const refuse = (message: string) => new HttpError(400, { create_external_refund: [message] });
  if (!REFUNDED.has(String(resolution))) throw refuse(`Only a resolution that refunds (${[...REFUNDED].join(', ')}) records a refund; "${String(resolution)}" does not.`);
  const charge = dispute.transaction === null || dispute.transaction === undefined ? undefined : ctx.state.records.transactions[String(dispute.transaction)];
  if (!charge) throw refuse(`Dispute ${String(dispute.id)} is not matched to a transaction: match it first (PUT /disputes/{id}/ with its transaction).`);
  const left = leftOnCharge(ctx, charge);
  if (left === 0) throw refuse(`Transaction ${String(charge.id)} has nothing left to refund: resolve with previously_refunded_nothing_to_do.`);
  if (resolution === 'issued_full_refund' && left < toCents(charge.amount)) {
    throw refuse(`Transaction ${String(charge.id)} was refunded in part already (${fromCents(left)} of ${String(charge.amount)} left): resolve with issued_refund_for_remaining_amount.`);
  }
  return () => void refundCharge(ctx, charge, fromCents(left), true);
}

/** A change to a dispute through its update: the fields sent, a transaction matched, a resolution fitting its type. */
const updating: Rule = (ctx) => {
  const dispute = findDispute(ctx);
  const { transaction, resolution, resolution_other_message, amount, ...fields } = (ctx.body ?? {}) as Rec;
  checkResolution(dispute.type, resolution);
  if (transaction !== undefined && String(transaction) !== String(dispute.transaction)) {
    if (transaction === null) dispute.transaction = dispute.order = null;
    else matchTransaction(ctx, dispute, transaction);
  }
  resolveWith(dispute, resolution, resolution_other_message);
  if (resolution === undefined && resolution_other_message !== undefined) dispute.resolution_other_message = resolution_other_message;
  if (amount !== undefined) dispute.amount = dispute.report_amount = amount === null ? null : fromCents(toCents(amount));
  Object.assign(dispute, fields);
  ctx.emit('dispute.updated', dispute);
  return ctx.answer(dispute);
};

export const disputeRules: Partial<Record<OperationId, Rule>> = {
  disputesCreate: (ctx) => {
    const { body } = ctx;
    checkResolution(body.type ?? 'chargeback', body.resolution);
    const dispute: Rec = { order: null, transaction: null };
    // An unknown transaction is refused before anything changes.
    const transaction = matchTransaction(ctx, dispute, body.transaction);
    const id = ctx.next('disputes');
    const amount = body.amount != null ? fromCents(toCents(body.amount)) : ((transaction?.amount as string | undefined) ?? null);
    const currency = body.currency ?? transaction?.currency ?? null;
    Object.assign(dispute, {
      id,
      amount,
      arn: body.arn ?? null,
      case_number: body.case_number ?? null,
      currency,
      date_created: ctx.now,
      happened_at: body.happened_at ?? ctx.now,
      // The dispute's events carry an object: nothing sent is kept as an empty one.
      metadata: body.metadata ?? {},
      report_amount: amount,
      report_currency: currency,
      resolution: null,
      resolution_other_message: null,
      status: 'new',
      type: body.type ?? 'chargeback',
    });
    resolveWith(dispute, body.resolution, body.resolution_other_message);
    ctx.state.records.disputes[String(id)] = dispute;
    ctx.emit('dispute.created', dispute);
    return ctx.answer(dispute);
  },
  disputesUpdate: updating,
  disputesPartialUpdate: updating,

  /**
   * The dispute's outcome: resolved, with the resolution its type allows; with
   * `create_external_refund`, a refund the gateway already made (an RDR alert's) recorded on the
   * disputed charge, for what the resolution says was refunded.
   */
  disputesResolveCreate: (ctx) => {
    const dispute = findDispute(ctx);
    const { resolution, resolution_other_message, create_external_refund } = (ctx.body ?? {}) as Rec;
    if (resolution === undefined || resolution === null || resolution === '') throw new HttpError(400, { resolution: ['This field is required.'] });
    checkResolution(dispute.type, resolution);
    const refund = create_external_refund === true ? externalRefund(ctx, dispute, resolution) : undefined;
    resolveWith(dispute, resolution, resolution_other_message ?? null);
    refund?.();
    ctx.emit('dispute.updated', dispute);
    return ctx.answer(dispute);
  },
};
