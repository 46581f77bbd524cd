// `store-admin fulfillment-orders …`: what the table's commands for fulfillment orders need beyond
// their facts, `fulfillment-orders move`, the move job (src/jobs/move.ts), and
// `fulfillment-orders fulfill`, the job that fulfils orders with tracking from a CSV
// (src/jobs/fulfil.ts).
import type { Command } from 'commander';
import { CARRIERS } from '../api/enums.js';
import type { Context } from '../context.js';
import type { FlagTable } from '../options.js';
import { addJobCommand, WAIT_TIMEOUT } from './job-command.js';
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

/**
 * The move operation's command is the job: the platform's guide checks the locations that can take
 * the lines first, and moves what a location has accepted only once it accepts its cancellation.
 */
export const jobs = ['fulfillmentOrdersMove'] as const;

const moveFlags = {
  to: { flags: '--to <location>', help: 'the id of the location the fulfillment orders move to (see: store-admin locations list)' },
  sku: { flags: '--sku <sku...>', help: "the orders whose open fulfillment orders have a line of one of these SKUs (and only those fulfillment orders)" },
  from: { flags: '--from <location>', help: 'the orders with a fulfillment order still to fulfil at this location (and only those fulfillment orders)' },
} as const satisfies FlagTable;

const fulfilFlags = {
  trackingCode: { flags: '--tracking-code <code>', help: "the tracking code of the orders given as arguments (a file's lines carry their own)" },
  carrier: { flags: '--carrier <carrier>', help: `their carrier, as the platform names it (a file's lines carry their own): ${CARRIERS.join(', ')}` },
  notify: { flags: '--no-notify', help: "do not e-mail the customers that their orders have shipped (a file's notify column says so per line)" },
} as const satisfies FlagTable;

export function register(fulfillmentOrders: Command, ctx: Context): void {
  addJobCommand(fulfillmentOrders, ctx, {
    name: 'move',
    description: "Move orders' fulfillment orders to another location that can take their lines, requesting cancellation first where a location has accepted one",
    keys: { label: 'number', description: 'order number, e.g. 10001 (one or more; or --each FILE, --sku or --from)' },
    flags: moveFlags,
    operation: 'fulfillmentOrdersMove',
    waits: true,
    learnMore: [
      'First reads: GET /locations/{id}/ once, GET /orders/{number}/fulfillment-orders/ and GET /fulfillment-orders/{id}/available-locations/; with --sku or --from, GET /fulfillment-orders/ first',
      `Where a location has accepted one: POST /fulfillment-orders/{id}/cancellation-request/, then waits until the location accepts (up to --wait-timeout, default ${WAIT_TIMEOUT}; exit 5 after)`,
    ],
    examples: [
      'store-admin fulfillment-orders move --each orders.csv --to 2 --plan plan.csv --plan-only',
      'store-admin fulfillment-orders move --from 1 --to 2 --report moved.csv --yes',
      'store-admin fulfillment-orders move --sku MUG TEE-M --to 2 --wait-timeout 10m',
      'store-admin fulfillment-orders move --apply-plan plan.csv --report moved.csv --yes',
    ],
    confirmExample: 'store-admin fulfillment-orders move 9967 --to 1',
    run: async (ctx, opts, keys) => {
      const [{ runJob }, { moveJob, moveSettings, selectionOf }, { durationMs }] = await Promise.all([import('../jobs/run.js'), import('../jobs/move.js'), import('../polling.js')]);
      const flags = opts as { to?: string; sku?: string[]; from?: string; waitTimeout?: number };
      // How long a line waits is no part of how it is changed: a resume may wait longer.
      const job = { ...moveJob, waitTimeoutMs: () => flags.waitTimeout ?? durationMs(WAIT_TIMEOUT)! };
      const named = flags.sku !== undefined || flags.from !== undefined ? moveSettings(flags) : undefined;
      const selection = named && selectionOf(named);
      const select = async (list: import('../jobs/run.js').ListRecords) => {
        const query = { ...(named!.sku ? { sku: named!.sku } : {}), ...(named!.from !== undefined ? { location_id: String(named!.from) } : {}), status: ['open', 'processing', 'on_hold'] };
        const numbers = (await list('fulfillmentOrdersList', query)).map((fo) => String(fo.order_number ?? ''));
        return [...new Set(numbers.filter(Boolean))];
      };
      await runJob(job, ctx, opts, { keys, settings: () => moveSettings(flags), settingFlags: moveFlags, ...(selection ? { selection, select } : {}) });
    },
  });
  addJobCommand(fulfillmentOrders, ctx, {
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
