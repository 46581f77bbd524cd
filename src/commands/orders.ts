// `store-admin orders …`: what the table's commands for orders need beyond their facts.
import { noteFields } from './message.js';
import { refine } from './table-commands.js';

export const refinements = [
  refine({
    operation: 'ordersLinesDestroy',
    args: [
      ['number', 'number', 'order number, e.g. 10001'],
      ['line-id', 'lineId', 'id of the line to remove'],
    ],
    view: 'order',
    progress: 'Removing the line…',
    confirm: ({ params }) => `Remove line ${params.lineId} from order ${params.number}? The order's totals will be recomputed.`,
    examples: ['store-admin orders lines delete 10002 105', 'store-admin orders lines delete 10002 105 --yes --json'],
  }),
  refine({
    operation: 'ordersNotesCreate',
    args: [['number', 'number', 'order number']],
    fields: noteFields,
    view: 'note',
    progress: 'Adding the note…',
    examples: [
      'store-admin orders notes create 10001 --message "Customer asked for gift wrap"',
      'echo "Called the customer" | store-admin orders notes create 10001 --message-file -',
    ],
  }),
  refine({
    operation: 'ordersFulfillmentOrdersRetrieve',
    args: [['number', 'number', 'order number']],
    view: 'fulfillmentOrder',
    progress: 'Fetching fulfillment orders…',
    examples: ['store-admin orders fulfillment-orders 10002', "store-admin orders fulfillment-orders 10002 --query '[].id'"],
  }),
  refine({
    operation: 'ordersFulfillmentsEventsRetrieve',
    args: [
      ['number', 'number', 'order number'],
      ['fulfillment-id', 'fulfillmentId', 'fulfillment id'],
      ['event-id', 'eventId', 'event id'],
    ],
    view: 'fulfillmentEvent',
    progress: 'Fetching the event…',
    examples: ['store-admin orders fulfillments events get 10001 201 301', 'store-admin orders fulfillments events get 10001 201 302 --json'],
  }),
  refine({ operation: 'ordersRetrieve', view: 'order' }),
  refine({
    operation: 'ordersRefundCreate',
    args: [['number', 'number', 'order number']],
    progress: 'Refunding…',
    examples: [
      `store-admin orders refund 10001 --transactions '[{"id": 501, "amount": "12.00"}]' --note "Damaged in transit"`,
      'store-admin orders refund-calculate 10001 --refund-lines @lines.json --json',
      'store-admin orders refund 10001 --data @refund.json --yes',
    ],
  }),
];
