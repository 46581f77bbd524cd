// What can be done next to a fulfillment order, as its `supported_actions` say: it follows from
// its status and where its request to the location stands. The names are those of the
// fulfillment-order operations (hold, move, cancellation_request_accept, …). The seed sets them,
// every rule that moves a fulfillment order on sets them again from here, and every rule asks
// here before it acts, so what a client reads is exactly what the store accepts. A refusal says
// what stands in the way, the one step that clears it, and what is supported instead.

export type FulfillmentOrderAction =
  | 'create_fulfillment'
  | 'request_fulfillment'
  | 'fulfillment_request_accept'
  | 'fulfillment_request_reject'
  | 'fulfillment_request_cancel'
  | 'request_cancellation'
  | 'cancellation_request_accept'
  | 'cancellation_request_reject'
  | 'cancellation_request_cancel'
  | 'hold'
  | 'release_hold'
  | 'move'
  | 'close'
  | 'cancel';

/**
 * The actions open to a fulfillment order; null when it has nothing to fulfil (`not_required`),
 * none once it is closed or canceled. Canceling gives back a new open fulfillment order for
 * what was left, so it is offered only where the units are out of the merchant's hands (asked of
 * a location, or left incomplete by one); units still open are held or moved instead.
 */
export function supportedActions(status: string, requestStatus: string): FulfillmentOrderAction[] | null {
  switch (status) {
    case 'not_required':
      return null;
    case 'open':
      return requestStatus === 'requested'
        ? ['fulfillment_request_accept', 'fulfillment_request_reject', 'fulfillment_request_cancel', 'cancel']
        : ['create_fulfillment', 'request_fulfillment', 'hold', 'move'];
    case 'processing':
      // The location may still ship while a cancellation is pending (the platform warns of it).
      return requestStatus === 'cancel_requested'
        ? ['create_fulfillment', 'cancellation_request_accept', 'cancellation_request_reject', 'cancellation_request_cancel', 'cancel']
        : ['create_fulfillment', 'request_cancellation', 'close'];
    case 'on_hold':
      return ['hold', 'release_hold'];
    case 'incomplete':
      return ['create_fulfillment', 'cancel'];
    default:
      return [];
  }
}

interface State {
  id?: unknown;
  status?: unknown;
  request_status?: unknown;
}

/** The refusal of an action the fulfillment order's state does not support now. */
export function refusal(fo: State, doing: string): string {
  const id = String(fo.id);
  const supported = supportedActions(String(fo.status), String(fo.request_status)) ?? [];
  const step = nextStep(String(fo.status), String(fo.request_status))?.replaceAll('{id}', id);
  return [
    `Fulfillment order ${id} cannot ${doing}: it is ${String(fo.status)} (request_status ${String(fo.request_status)}).`,
    ...(step ? [step] : []),
    supported.length > 0 ? `It supports ${supported.join(', ')}.` : 'It supports no action.',
  ].join(' ');
}

/** The one step that takes a fulfillment order out of a state that blocks most actions. */
function nextStep(status: string, requestStatus: string): string | undefined {
  switch (status) {
    case 'open':
      return requestStatus === 'requested' ? 'Its fulfillment request awaits the location: take it back (POST /fulfillment-orders/{id}/fulfillment-request/cancel/) or wait for the answer.' : undefined;
    case 'processing':
      return requestStatus === 'cancel_requested'
        ? 'Its cancellation request awaits the location: wait until it is accepted, or take it back (POST /fulfillment-orders/{id}/cancellation-request/cancel/).'
        : 'Its location is fulfilling it: request cancellation (POST /fulfillment-orders/{id}/cancellation-request/) and wait until the location accepts.';
    case 'on_hold':
      return 'Release the hold first (POST /fulfillment-orders/{id}/release-hold/).';
    case 'incomplete':
      return 'Its location left it incomplete: fulfil the rest, or cancel it (POST /fulfillment-orders/{id}/cancel/) for a new open fulfillment order with what is left.';
    case 'closed':
      return 'Nothing is left to fulfil.';
    default:
      return undefined;
  }
}

/**
 * How a fulfillment order still to be fulfilled stands with its location, as the assigned
 * fulfillment orders list filters it (`assignment_status`); a finished one has none. A rejected
 * cancellation leaves the location's acceptance standing; a rejected request or an accepted
 * cancellation hands the order back unrequested.
 */
export function assignmentStatus(status: unknown, requestStatus: unknown): string | undefined {
  if (status !== 'open' && status !== 'processing' && status !== 'on_hold') return undefined;
  switch (requestStatus) {
    case 'requested':
      return 'fulfillment_requested';
    case 'cancel_requested':
      return 'cancellation_requested';
    case 'accepted':
    case 'cancel_rejected':
      return 'fulfillment_accepted';
    default:
      return 'fulfillment_unrequested';
  }
}
