// What can be done next to a fulfillment order, as its `supported_actions` say: it follows from
// its status and where its request to the fulfillment service stands. The names are those of the
// fulfillment-order operations (hold, move, cancellation_request_accept, …); the seed sets them,
// and a rule that moves a fulfillment order on sets them again from here.

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
 * The actions open to a fulfillment order; null when it has nothing to fulfill (`not_required`),
 * none once it is closed or canceled.
 */
export function supportedActions(status: string, requestStatus: string): FulfillmentOrderAction[] | null {
  switch (status) {
    case 'not_required':
      return null;
    case 'open':
      return requestStatus === 'requested'
        ? ['fulfillment_request_accept', 'fulfillment_request_reject', 'fulfillment_request_cancel']
        : ['create_fulfillment', 'request_fulfillment', 'hold', 'move', 'cancel'];
    case 'processing':
      return requestStatus === 'cancel_requested'
        ? ['cancellation_request_accept', 'cancellation_request_reject', 'cancellation_request_cancel']
        : ['create_fulfillment', 'request_cancellation', 'hold'];
    case 'on_hold':
      return ['release_hold', 'cancel'];
    case 'incomplete':
      return ['create_fulfillment', 'close'];
    default:
      return [];
  }
}
