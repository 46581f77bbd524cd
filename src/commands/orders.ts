// `store-admin orders …`
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addOperationCommand } from './define.js';
import { noteFields } from './message.js';

export function register(orders: Command, ctx: Context): void {
  addOperationCommand(orders, ctx, {
    name: 'remove-line',
    operation: 'ordersLinesDestroy',
    args: [
      ['number', 'number', 'order number, e.g. 10001'],
      ['line-id', 'lineId', 'id of the line to remove'],
    ],
    view: 'order',
    progress: 'Removing the line…',
    confirm: ({ params }) => `Remove line ${params.lineId} from order ${params.number}? The order's totals will be recomputed.`,
    examples: ['store-admin orders remove-line 10002 105', 'store-admin orders remove-line 10002 105 --yes --json'],
  });

  addOperationCommand(orders, ctx, {
    name: 'add-note',
    operation: 'ordersNotesCreate',
    args: [['number', 'number', 'order number']],
    fields: noteFields,
    view: 'note',
    progress: 'Adding the note…',
    examples: [
      'store-admin orders add-note 10001 --message "Customer asked for gift wrap"',
      'echo "Called the customer" | store-admin orders add-note 10001 --message-file -',
    ],
  });

  addOperationCommand(orders, ctx, {
    name: 'fulfillment-orders',
    operation: 'ordersFulfillmentOrdersRetrieve',
    args: [['number', 'number', 'order number']],
    view: 'fulfillmentOrder',
    progress: 'Fetching fulfillment orders…',
    examples: ['store-admin orders fulfillment-orders 10002', "store-admin orders fulfillment-orders 10002 --query '[].id'"],
  });

  addOperationCommand(orders, ctx, {
    name: 'fulfillment-event',
    operation: 'ordersFulfillmentsEventsRetrieve',
    args: [
      ['number', 'number', 'order number'],
      ['fulfillment-id', 'fulfillmentId', 'fulfillment id'],
      ['event-id', 'eventId', 'event id'],
    ],
    view: 'fulfillmentEvent',
    progress: 'Fetching the event…',
    examples: ['store-admin orders fulfillment-event 10001 201 301', 'store-admin orders fulfillment-event 10001 201 302 --json'],
  });
}
