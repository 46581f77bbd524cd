// `store-admin fulfillment-orders …`
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { addOperationCommand } from './define.js';

export function register(fulfillmentOrders: Command, io: IO): void {
  addOperationCommand(fulfillmentOrders, io, {
    name: 'reject-cancellation',
    operation: 'fulfillmentOrders.rejectCancellation',
    args: [['id', 'id', 'fulfillment order id']],
    options: (command) => command.option('-m, --message <text>', 'why the request is rejected'),
    body: async (opts) => (opts.message === undefined ? {} : { message: opts.message }),
    view: 'fulfillmentOrder',
    progress: 'Rejecting the cancellation request…',
    examples: [
      'store-admin fulfillment-orders reject-cancellation 401',
      'store-admin fulfillment-orders reject-cancellation 401 --message "Already handed to the carrier"',
    ],
  });
}
