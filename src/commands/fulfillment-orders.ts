// `store-admin fulfillment-orders …`
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addOperationCommand } from './define.js';

export function register(fulfillmentOrders: Command, ctx: Context): void {
  addOperationCommand(fulfillmentOrders, ctx, {
    name: 'reject-cancellation',
    operation: 'cancellationRequestReject',
    args: [['id', 'id', 'fulfillment order id']],
    fields: [{ key: 'message', short: 'm', help: 'why the request is rejected' }],
    // The merchant's request is refused for good: no command takes the refusal back.
    confirm: ({ params }) => `Reject the cancellation request of fulfillment order ${params.id}?`,
    view: 'fulfillmentOrder',
    progress: 'Rejecting the cancellation request…',
    examples: [
      'store-admin fulfillment-orders reject-cancellation 401',
      'store-admin fulfillment-orders reject-cancellation 401 --message "Already handed to the carrier" --yes',
    ],
  });
}
