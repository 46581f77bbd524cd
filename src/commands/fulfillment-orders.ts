// `store-admin fulfillment-orders …`: what the table's commands for fulfillment orders need beyond
// their facts, and `fulfillment-orders fulfill`, the job that fulfils orders with tracking from a
// CSV (src/jobs/fulfil.ts).
import type { Command } from 'commander';
import { CARRIERS } from '../api/enums.js';
import type { Context } from '../context.js';
import type { FlagTable } from '../options.js';
import { addJobCommand } from './job-command.js';
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

const fulfilFlags = {
  trackingCode: { flags: '--tracking-code <code>', help: "the tracking code of the orders given as arguments (a file's lines carry their own)" },
  carrier: { flags: '--carrier <carrier>', help: `their carrier, as the platform names it (a file's lines carry their own): ${CARRIERS.join(', ')}` },
  notify: { flags: '--no-notify', help: "do not e-mail the customers that their orders have shipped (a file's notify column says so per line)" },
} as const satisfies FlagTable;

export function register(group: Command, ctx: Context): void {
  addJobCommand(group, ctx, {
    name: 'fulfill',
    description: "Fulfil orders with their tracking from a CSV (order_number,tracking_code,carrier[,notify]): each order's processing fulfillment order, else its open one",
    keys: { label: 'number', description: 'order number, e.g. 10001, with --tracking-code and --carrier (or --each FILE)' },
    flags: fulfilFlags,
    learnMore: [
      'Reads: GET /orders/{number}/fulfillment-orders/ for each line (scope orders:read)',
      'Changes: POST /fulfillment-orders/{id}/fulfillments/ with tracking_info [{carrier, tracking_code}] and notify (scope fulfillment_orders:write); the answer names the carrier tracking_carrier',
    ],
    examples: [
      'store-admin fulfillment-orders fulfill --each tracking.csv --plan plan.csv --plan-only',
      'store-admin fulfillment-orders fulfill --apply-plan plan.csv --report fulfilled.csv --yes',
      'store-admin fulfillment-orders fulfill 10002 --tracking-code 1Z999AA10123456784 --carrier ups',
      'store-admin fulfillment-orders fulfill --each tracking.csv --resume',
    ],
    confirmExample: 'store-admin fulfillment-orders fulfill 10000 --tracking-code 1Z999 --carrier ups',
    run: async (ctx, opts, keys) => {
      const [{ runJob }, { fulfilJob, fulfilSettings }] = await Promise.all([import('../jobs/run.js'), import('../jobs/fulfil.js')]);
      await runJob(fulfilJob, ctx, opts, { keys, settings: () => fulfilSettings(opts), settingFlags: fulfilFlags });
    },
  });
}
