// Fulfillment orders as the platform's guides describe their lifecycle. The rest of it (holds,
// requests, moves, closing) belongs here too.
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';

export function findFulfillmentOrder(ctx: RuleContext): Rec {
  const found = ctx.state.records.fulfillmentOrders[String(ctx.params.id)];
  if (!found) throw NOT_FOUND();
  return found;
}

export const fulfillmentOrderRules: Partial<Record<OperationId, Rule>> = {
  cancellationRequestReject: (ctx) => {
    const fo = findFulfillmentOrder(ctx);
    if (fo.request_status !== 'cancel_requested') {
      throw new HttpError(400, { detail: `Fulfillment order ${ctx.params.id} has no pending cancellation request.` });
    }
    fo.request_status = 'cancel_rejected';
    fo.supported_actions = ((fo.supported_actions as unknown[] | undefined) ?? []).filter((action) => !String(action).startsWith('cancellation_request'));
    fo.updated_at = ctx.now;
    return ctx.answer(fo);
  },
};
