// Orders: what changes an order's lines, and notes on an order or a customer. The other order
// operations of the platform's guides (cancel, capture, payments, refunds, fulfillments) have
// rules of their own modules.
import type { Order, OrderLine, Transaction } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { applyOrderTotals } from '../amounts.js';
import { sumCents } from '../money.js';
import { addNote } from './notes.js';

export type OrderRecord = Order & Rec;

export function findOrder(ctx: RuleContext, number: unknown): OrderRecord {
  const order = ctx.state.records.orders[String(number)];
  if (!order) throw NOT_FOUND();
  return order as OrderRecord;
}

/** The order's transactions, which the store keeps as records of their own. */
export function transactionsOf(ctx: Pick<RuleContext, 'state'>, number: unknown): (Transaction & Rec)[] {
  return (Object.values(ctx.state.records.transactions) as (Transaction & Rec)[]).filter((t) => String(t.order) === String(number));
}

/** What the order's payments brought in: successful charges less refunds, in cents. */
export function paidCents(ctx: Pick<RuleContext, 'state'>, number: unknown): number {
  const ok = transactionsOf(ctx, number).filter((t) => t.status === 'succeeded');
  return sumCents(ok.filter((t) => t.type === 'debit').map((t) => t.amount)) - sumCents(ok.filter((t) => t.type === 'refund').map((t) => t.amount));
}

/** The order's totals after a change, and its `updated` event. */
export function orderChanged(ctx: RuleContext, order: OrderRecord): void {
  applyOrderTotals(order, paidCents(ctx, order.number));
  order.updated_at = ctx.now;
  ctx.emit('order.updated', order);
}

const badRequest = (detail: string) => new HttpError(400, { detail });

/**
 * Only a line that is editable as a whole can be removed: `editable_quantity` says how many of its
 * units may still change (none once fulfilled, refunded or canceled, fewer once partly fulfilled).
 */
function checkRemovable(line: OrderLine) {
  const editable = Number(line.editable_quantity ?? 0);
  if (editable <= 0) throw badRequest(`Line ${line.id} has no editable quantity left (fulfilled, refunded or canceled) and cannot be removed.`);
  if (editable < Number(line.current_quantity ?? 0)) {
    throw badRequest(`Only ${editable} of the ${line.current_quantity} units of line ${line.id} are editable (the rest are fulfilled); it cannot be removed.`);
  }
}

const removeLine: Rule = (ctx) => {
  const order = findOrder(ctx, ctx.params.number);
  const lines = order.lines ?? [];
  const line = lines.find((l) => l.id === ctx.params.lineId);
  if (!line) throw NOT_FOUND();
  if (lines.length === 1) throw badRequest('An order must keep at least one line; cancel the order instead.');
  checkRemovable(line);
  // A fulfillment order is never left with nothing to fulfil: the store refuses rather than guess
  // whether to cancel it (a fulfillment service may already be working on it).
  const holding = (Object.values(ctx.state.records.fulfillmentOrders) as Rec[]).filter(
    (fo) => String(fo.order_number) === order.number && ((fo.line_items as Rec[] | undefined) ?? []).some((i) => i.order_line_id === line.id),
  );
  const emptied = holding.find((fo) => ((fo.line_items as Rec[] | undefined) ?? []).every((i) => i.order_line_id === line.id));
  if (emptied) {
    throw badRequest(`Line ${line.id} is the last line of fulfillment order ${String(emptied.id)}, which cannot be left empty; cancel the fulfillment order instead.`);
  }
  order.lines = lines.filter((l) => l !== line);
  for (const fo of holding) fo.line_items = ((fo.line_items as Rec[] | undefined) ?? []).filter((i) => i.order_line_id !== line.id);
  orderChanged(ctx, order);
  return ctx.answer(order);
};

export const orderRules: Partial<Record<OperationId, Rule>> = {
  ordersLinesDestroy: removeLine,
  ordersNotesCreate: (ctx) => addNote(ctx, 'orders', 'orderNotes', 'order_number', 'order.updated', ['date_created', 'date_updated']),
  usersNotesCreate: (ctx) => addNote(ctx, 'users', 'userNotes', 'user_id', 'customer.updated', ['created_at', 'updated_at']),
  disputesNotesCreate: (ctx) => addNote(ctx, 'disputes', 'disputeNotes', 'dispute_id', 'dispute.updated', ['created_at', 'updated_at']),
};
