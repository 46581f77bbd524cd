// Disputes: one opened on a transaction marks it disputed, which changes its order too.
import type { OperationId } from '../../api/operations.js';
import type { Rule } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { fromCents, toCents } from '../money.js';

export const disputeRules: Partial<Record<OperationId, Rule>> = {
  disputesCreate: (ctx) => {
    const { body } = ctx;
    const transaction = body.transaction == null ? undefined : ctx.state.records.transactions[String(body.transaction)];
    if (body.transaction != null && !transaction) {
      throw new HttpError(400, { transaction: [`Invalid pk "${body.transaction}" - object does not exist.`] });
    }
    const order = transaction && typeof transaction.order === 'string' ? ctx.state.records.orders[transaction.order] : undefined;
    if (transaction) {
      transaction.is_disputed = true;
      ctx.emit('transaction.updated', transaction);
    }
    if (order) {
      order.updated_at = ctx.now;
      ctx.emit('order.updated', order);
    }
    const id = ctx.next('disputes');
    const amount = body.amount != null ? fromCents(toCents(body.amount)) : ((transaction?.amount as string | undefined) ?? null);
    const currency = body.currency ?? transaction?.currency ?? null;
    const dispute: Rec = {
      id,
      amount,
      arn: body.arn ?? null,
      case_number: body.case_number ?? null,
      currency,
      date_created: ctx.now,
      happened_at: body.happened_at ?? ctx.now,
      // Kept as an object: the dispute events carry no null metadata.
      metadata: body.metadata ?? {},
      // The reference numbers the dispute's order: the order's number, as a number.
      order: order ? Number(order.number) : null,
      report_amount: amount,
      report_currency: currency,
      resolution: body.resolution ?? null,
      resolution_other_message: body.resolution_other_message ?? null,
      status: 'new',
      transaction: body.transaction ?? null,
      type: body.type ?? 'chargeback',
    };
    ctx.state.records.disputes[String(id)] = dispute;
    ctx.emit('dispute.created', dispute);
    return ctx.answer(dispute);
  },
};
