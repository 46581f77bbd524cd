// `store-admin orders …`: what the table's commands for orders need beyond their facts, and
// `orders refund`, the refund job (src/jobs/refund.ts), which is the command of the refund operation.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { collect } from '../fields/values.js';
import type { FlagTable } from '../options.js';
import { addJobCommand } from './job-command.js';
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
];

/**
 * The refund operation's command is the job: the platform's guide calculates a refund before
 * making it, and a refund made from a guessed body gives money back that cannot be taken again.
 * The job reads the order, has the store calculate, shows the amounts, asks, and then refunds.
 */
export const jobs = ['ordersRefundCreate'] as const;

const refundFlags = {
  line: { flags: '--line <id[:quantity]>', help: 'refund this line: every unit it has left, or QUANTITY of them (repeatable; without it, every line)', parse: collect },
  shipping: { flags: '--shipping <full|none>', help: 'refund the shipping in full, or not (default: full without --line, none with it)' },
  restock: { flags: '--restock <type>', help: 'shipped units refunded go back in stock (return) or not (no_restock, the default); unshipped ones are canceled' },
  note: { flags: '--note <text>', help: "the refund's note, kept with it in the dashboard" },
  notify: { flags: '--no-notify', help: 'do not e-mail the customer about the refund' },
} as const satisfies FlagTable;

export function register(orders: Command, ctx: Context): void {
  addJobCommand(orders, ctx, {
    name: 'refund',
    description: "Refund orders as the platform's guide does: calculate first, show the amounts per line and the total, then refund on confirmation",
    keys: { label: 'number', description: 'order number, e.g. 10001 (one or more; or --each FILE)' },
    flags: refundFlags,
    operation: 'ordersRefundCreate',
    learnMore: ['First reads: GET /orders/{number}/ and POST /orders/{number}/refund/calculate/ (a calculation, which changes nothing)'],
    examples: [
      'store-admin orders refund 10002',
      'store-admin orders refund 10002 --line 105:1 --restock return --note "Damaged in transit"',
      'store-admin orders refund 10002 --dry-run',
      'store-admin orders refund --each refunds.csv --plan plan.csv --plan-only',
      'store-admin orders refund --apply-plan plan.csv --report refunds-report.csv --yes',
    ],
    confirmExample: 'store-admin orders refund 10002',
    run: async (ctx, opts, keys) => {
      const [{ runJob }, { refundJob, refundSettings }] = await Promise.all([import('../jobs/run.js'), import('../jobs/refund.js')]);
      await runJob(refundJob, ctx, opts, { keys, settings: () => refundSettings(opts), settingFlags: refundFlags });
    },
  });
}
