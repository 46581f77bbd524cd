// The sandbox's rules that are other pieces of work, not written yet: the reference checks leave a
// todo naming each, until the rule lands and the operation joins them.
import type { OperationId } from '../../src/api/operations.js';

/**
 * Operations whose rule is another piece of work, not written yet: each pair of theirs is a todo
 * naming it, until the rule lands and the pair joins the check.
 */
export const RULES_TO_COME: Partial<Record<OperationId, string>> = {
  ...rulesOf('the fulfillment-order lifecycle', [
    'availableLocationsRetrieve',
    'fulfillmentOrdersCancel',
    'fulfillmentOrdersClose',
    'fulfillmentOrdersHold',
    'fulfillmentOrdersMove',
    'fulfillmentOrdersReleaseHold',
    'cancellationRequestSend',
    'cancellationRequestAccept',
    'cancellationRequestCancel',
    'fulfillmentRequestSend',
    'fulfillmentRequestAccept',
    'fulfillmentRequestCancel',
    'fulfillmentRequestReject',
  ]),
  ...rulesOf('fulfillments with tracking', ['fulfillmentsCreate', 'ordersFulfillmentsCreate']),
  ...rulesOf('stock records', ['stockrecordsCreate']),
  ...rulesOf('subscriptions: create, lines, retry', ['subscriptionsCreate', 'subscriptionsLinesCreate', 'subscriptionsLinesUpdate', 'subscriptionsLinesDestroy', 'subscriptionsRetryCreate']),
  ...rulesOf('disputes: resolve', ['disputesResolveCreate']),
};

function rulesOf(rule: string, ids: OperationId[]): Partial<Record<OperationId, string>> {
  return Object.fromEntries(ids.map((id) => [id, rule]));
}
