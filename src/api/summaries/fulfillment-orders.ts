// What each fulfillment-orders operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/fulfillment-orders/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  fulfillmentOrdersList: 'List fulfillment orders, filtered by order, location, status and date',
  fulfillmentOrdersRetrieve: 'Show a fulfillment order',
  availableLocationsRetrieve: 'List the locations a fulfillment order can move to',
  fulfillmentOrdersCancel: 'Cancel a fulfillment order',
  cancellationRequestSend: 'Ask the fulfilling location to cancel a fulfillment order',
  cancellationRequestAccept: 'Accept the pending cancellation request of a fulfillment order',
  cancellationRequestCancel: 'Withdraw a cancellation request you sent',
  cancellationRequestReject: 'Reject the pending cancellation request of a fulfillment order',
  fulfillmentOrdersClose: 'Close a fulfillment order, leaving what is left unfulfilled',
  fulfillmentRequestSend: 'Ask the fulfilling location to fulfill a fulfillment order',
  fulfillmentRequestAccept: 'Accept the pending fulfillment request of a fulfillment order',
  fulfillmentRequestCancel: 'Withdraw a fulfillment request you sent',
  fulfillmentRequestReject: 'Reject the pending fulfillment request of a fulfillment order',
  fulfillmentsRetrieve: 'List the fulfillments of a fulfillment order',
  fulfillmentsCreate: 'Fulfill lines of a fulfillment order, with tracking',
  fulfillmentOrdersHold: 'Put a fulfillment order on hold, with a reason',
  fulfillmentOrdersMove: "Move a fulfillment order's lines to another location",
  fulfillmentOrdersReleaseHold: 'Release a fulfillment order from hold',
};
