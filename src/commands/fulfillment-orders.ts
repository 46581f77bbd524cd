// `store-admin fulfillment-orders …`: what the table's commands for fulfillment orders need beyond their facts.
import { refine } from './table-commands.js';

export const refinements = [
  refine({
    operation: 'cancellationRequestReject',
    args: [['id', 'id', 'fulfillment order id']],
    fields: [{ key: 'message', short: 'm', help: 'why the request is rejected' }],
    // The merchant's request is refused for good: no command takes the refusal back.
    confirm: ({ params }) => `Reject the cancellation request of fulfillment order ${params.id}?`,
    view: 'fulfillmentOrder',
    progress: 'Rejecting the cancellation request…',
    examples: [
      'store-admin fulfillment-orders cancellation-request-reject 401',
      'store-admin fulfillment-orders cancellation-request-reject 401 --message "Already handed to the carrier" --yes',
    ],
  }),
  refine({ operation: 'fulfillmentOrdersRetrieve', view: 'fulfillmentOrder' }),
];
