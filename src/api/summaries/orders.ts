// What each orders operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/orders/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  ordersList: 'List orders, filtered by status, dates, products and more',
  ordersCreate: 'Create an order with lines, a customer and a payment',
  ordersRetrieve: 'Show an order with its lines and totals',
  ordersUpdate: "Replace an order's addresses, status, tags and metadata",
  ordersPartialUpdate: 'Change some fields of an order',
  ordersAddLineItemsCreate: 'Add line items to an order and charge for them',
  ordersCancelCreate: 'Cancel an order, refunding it in full if asked',
  ordersCaptureCreate: "Capture an order's authorized payment",
  ordersCollectPaymentCreate: "Charge an order's outstanding balance",
  ordersFulfillmentOrdersRetrieve: 'List the fulfillment orders of an order',
  ordersFulfillmentsRetrieve: 'List the fulfillments of an order',
  ordersFulfillmentsCreate: "Fulfill an order's lines, with carrier and tracking",
  ordersFulfillmentRetrieve: 'Show one fulfillment of an order',
  ordersFulfillmentsEventsList: 'List the tracking events of a fulfillment',
  ordersFulfillmentsEventsCreate: 'Record a tracking event on a fulfillment',
  ordersFulfillmentsEventsRetrieve: 'Show one event of a fulfillment',
  ordersFulfillmentsEventsDestroy: 'Delete an event of a fulfillment',
  ordersLinesCreate: 'Add a line to an order',
  ordersLinesPartialUpdate: "Change a line's quantity or metadata",
  ordersLinesDestroy: 'Remove a line from an order; answers the order after removal',
  ordersMarkAsPaidCreate: 'Mark an order as paid outside the platform',
  ordersNotesList: 'List the notes on an order',
  ordersNotesCreate: 'Add a note to an order',
  ordersRefundCreate: "Refund an order's lines, shipping or an amount",
  ordersRefundCalculateCreate: 'Work out what a refund of lines and shipping would return',
};
