// `store-admin subscriptions …`: what the table's commands for subscriptions need beyond their
// facts, and the jobs of the platform's bulk subscription guide (src/jobs/subscriptions.ts), over
// a CSV of ids, the ids given or what the list's filters select.
import type { Command } from 'commander';
import { CANCEL_REASONS, INTERVALS, SUBSCRIPTION_STATUSES } from '../api/enums.js';
import type { Context } from '../context.js';
import type { FlagsOf, FlagTable, Options } from '../options.js';
import type { BodyField, OperationCommand } from '../run/spec.js';
import { addJobCommand, selectionOf } from './job-command.js';
import { refine, type GroupTable } from './table-commands.js';

const cancelFields: readonly BodyField<'subscriptionsCancelCreate'>[] = [
  {
    key: 'cancel_reason',
    flag: 'reason',
    help: 'why it is canceled',
    choices: CANCEL_REASONS,
    labels: { cancel_recurring: 'Cancel recurring billing', disputed_cancel_recurring: 'Disputed: cancel recurring billing' },
    prompt: { message: 'Why is it canceled?' },
  },
  {
    key: 'cancel_reason_other_message',
    flag: 'other-message',
    help: 'free-text explanation (with --reason other)',
    prompt: { message: 'Explain the reason:', when: (body) => body.cancel_reason === 'other', optional: true },
  },
  { key: 'send_cancel_notification', flag: 'no-notify', kind: 'switch', help: 'do not send the customer a cancellation notice', sets: false, otherwise: true },
];

const updateFields: readonly BodyField<'subscriptionsPartialUpdate'>[] = [
  { key: 'interval', help: 'billing interval', choices: INTERVALS },
  { key: 'interval_count', kind: 'integer', help: 'intervals between renewals' },
  { key: 'status', help: 'new status', choices: SUBSCRIPTION_STATUSES },
  { key: 'next_renewal_date', kind: 'date', help: 'next renewal' },
  { key: 'shipping_code', help: 'shipping method code' },
  { key: 'shipping_price', help: 'shipping price' },
  { key: 'is_test', kind: 'switch', help: 'mark as a test subscription', sets: true, negatedHelp: 'mark as a real subscription' },
  { key: 'attribution', kind: 'object', help: 'attribution object' },
  { key: 'billing_address', kind: 'object', help: 'billing address object' },
  { key: 'shipping_address', kind: 'object', help: 'shipping address object' },
  { key: 'payment_details', kind: 'object', help: 'payment details object' },
];

export const refinements = [
  refine({
    operation: 'subscriptionsCancelCreate',
    args: [['id', 'id', 'subscription id']],
    fields: cancelFields,
    confirm: ({ params, body }) => {
      const { cancel_reason, send_cancel_notification } = body;
      const notice = send_cancel_notification ? 'the customer will be notified' : 'the customer will not be notified';
      return `Cancel subscription ${params.id} (reason: ${cancel_reason}); ${notice}.`;
    },
    view: 'subscription',
    progress: 'Canceling the subscription…',
    examples: [
      'store-admin subscriptions cancel 1 --reason product_too_expensive',
      'store-admin subscriptions cancel 1 --reason other --other-message "Moving abroad" --no-notify --yes',
    ],
  }),
  refine({
    operation: 'subscriptionsRenewCreate',
    args: [['id', 'id', 'subscription id']],
    confirm: ({ params }) => `Renew subscription ${params.id} now? This creates a renewal order and charges the customer's saved card the subscription's total.`,
    view: 'subscription',
    progress: 'Renewing the subscription…',
    note: (data) => renewalCharge(data),
    examples: ['store-admin subscriptions renew 2', 'store-admin subscriptions renew 2 --yes --query next_renewal_date'],
  }),
  refine({
    operation: 'subscriptionsPartialUpdate',
    args: [['id', 'id', 'subscription id']],
    description: 'Change some fields of a subscription (only the fields given are sent)',
    fields: updateFields,
    data: true,
    requireSome: 'at least one field flag, or fields in --data',
    confirmsWhen: { when: 'with --status canceled', example: 'store-admin subscriptions update 1 --status canceled' },
    // Setting the status to canceled cancels as surely as `subscriptions cancel`, which asks first;
    // any other status change is worth a second look on a terminal.
    confirm: ({ params, body: { status } }) => {
      if (status === 'canceled') return `Set subscription ${params.id} to canceled?`;
      return status === undefined ? undefined : { review: `Set subscription ${params.id} to ${status}?` };
    },
    view: 'subscription',
    progress: 'Updating the subscription…',
    examples: [
      'store-admin subscriptions update 1 --interval week --interval-count 2',
      'store-admin subscriptions update 1 --shipping-price 4.99 --next-renewal-date 2026-03-01',
      'store-admin subscriptions update 1 --shipping-address @address.json --shipping-code null',
    ],
  }),
  refine({ operation: 'subscriptionsRetrieve', view: 'subscription' }),
];

/** What a renewal charged, read from the answer: the subscription's total, on the saved card, for the order it made. */
function renewalCharge(data: unknown): string | undefined {
  const { total, currency, orders } = (data ?? {}) as { total?: unknown; currency?: unknown; orders?: unknown };
  if (typeof total !== 'string' && typeof total !== 'number') return undefined;
  const latest = Array.isArray(orders) ? (orders.at(-1) as { order_number?: unknown } | undefined)?.order_number : undefined;
  return `Charged ${total}${typeof currency === 'string' ? ` ${currency}` : ''}, the subscription's total, to the customer's saved card${latest === undefined ? '' : ` for order ${String(latest)}`}.`;
}

const cohortFlags = {
  shift: {
    days: { flags: '--days <n>', help: 'move each next renewal by N days (negative: earlier; --days=-3), keeping its time of day' },
    toDate: { flags: '--to-date <day>', help: 'move each next renewal to this day (YYYY-MM-DD), keeping its time of day' },
  },
  cancel: {
    reason: { flags: '--reason <reason>', help: `why the cohort is canceled: ${CANCEL_REASONS.join(', ')}` },
    otherMessage: { flags: '--other-message <text>', help: 'free-text explanation (with --reason other)' },
    notify: { flags: '--notify', help: 'e-mail each customer the cancellation (by default none is sent)' },
  },
  gateway: {
    to: { flags: '--to <gateway-id>', help: 'the payment gateway the card subscriptions move to (see: store-admin gateways list)' },
  },
  retry: {
    retryGateway: { flags: '--retry-gateway <id>', help: "retry on this payment gateway instead of the subscription's own" },
  },
} as const satisfies Record<string, FlagTable>;

type Cohort = keyof typeof cohortFlags;

const LIST_HINT = 'Reads: GET /subscriptions/{id}/ for each; with list filters, GET /subscriptions/ first';

export function register(subscriptions: Command, ctx: Context, table: GroupTable): void {
  const list = table.spec('subscriptionsList');
  const filters = (list.query ?? []).filter((field) => field.key !== 'cursor');
  const cohort = (name: string, job: Cohort, details: { description: string; examples: string[]; confirmExample: string; learnMore: string }) =>
    addJobCommand(subscriptions, ctx, {
      name,
      description: details.description,
      keys: { label: 'id', description: 'subscription id (one or more; or --each FILE, or list filters)' },
      flags: cohortFlags[job],
      filters,
      learnMore: [details.learnMore, LIST_HINT],
      examples: details.examples,
      confirmExample: details.confirmExample,
      run: (ctx, opts, keys) => runCohort(job, ctx, opts, keys, { ...list, query: filters }),
    });
  cohort('shift-renewals', 'shift', {
    description: "Move a cohort's next renewal dates by some days, or to one day, each keeping its time of day and offset",
    learnMore: 'Changes: PATCH /subscriptions/{id}/ with next_renewal_date (scope subscriptions:write)',
    examples: [
      'store-admin subscriptions shift-renewals --status active --next-renewal-date-from 2026-03-01 --next-renewal-date-to 2026-03-07 --days 7',
      'store-admin subscriptions shift-renewals --each cohort.csv --to-date 2026-04-01 --plan plan.csv --plan-only',
      'store-admin subscriptions shift-renewals --apply-plan plan.csv --report shifted.csv --yes',
    ],
    confirmExample: 'store-admin subscriptions shift-renewals 1 --days 7',
  });
  cohort('cancel-cohort', 'cancel', {
    description: 'Cancel a cohort of subscriptions with one reason, without e-mailing the customers (unless --notify)',
    learnMore: 'Changes: POST /subscriptions/{id}/cancel/ (scope subscriptions:write)',
    examples: [
      'store-admin subscriptions cancel-cohort --each churn-risk.csv --reason other --other-message "Product discontinued"',
      'store-admin subscriptions cancel-cohort --status past_due --date-to 2025-12-31 --reason recurring_payment_declined --report canceled.csv --yes',
    ],
    confirmExample: 'store-admin subscriptions cancel-cohort 1 --reason other',
  });
  cohort('move-gateway', 'gateway', {
    description: 'Move card subscriptions to another payment gateway (one being retired, say): their next renewals are charged there',
    learnMore: 'Changes: PATCH /subscriptions/{id}/ with payment_details.payment_gateway (scope subscriptions:write); reads GET /gateways/{id}/ once',
    examples: [
      'store-admin subscriptions move-gateway --gateway 1 --status active --to 4 --plan plan.csv --plan-only',
      'store-admin subscriptions move-gateway --each cards.csv --to 4 --report moved.csv --yes',
    ],
    confirmExample: 'store-admin subscriptions move-gateway 1 --to 4',
  });
  cohort('retry-past-due', 'retry', {
    description: 'Retry the renewals of past-due subscriptions (all of them unless ids, a file or filters name some), on another gateway if asked',
    learnMore: 'Changes: POST /subscriptions/{id}/retry/ (scope subscriptions:write)',
    examples: [
      'store-admin subscriptions retry-past-due --plan-only',
      'store-admin subscriptions retry-past-due --retry-gateway 4 --report retried.csv --yes',
      'store-admin subscriptions retry-past-due --each declined.csv',
    ],
    confirmExample: 'store-admin subscriptions retry-past-due 2',
  });
}

/** Runs a cohort job over the ids given, a file, a plan, or what the list's filters select. */
async function runCohort(name: Cohort, ctx: Context, given: Options, keys: string[], list: OperationCommand): Promise<void> {
  const [{ runJob }, jobs, { queryOf }] = await Promise.all([import('../jobs/run.js'), import('../jobs/subscriptions.js'), import('../run/body.js')]);
  const filters = list.query ?? [];
  // With nothing else naming them, the past-due subscriptions are the ones retried.
  const named = keys.length > 0 || given.each !== undefined || given.applyPlan !== undefined || selectionOf(filters, given) !== undefined;
  const opts: Options = name === 'retry' && !named ? { ...given, status: ['past_due'] } : given;
  const selection = selectionOf(filters, opts);
  const query = selection === undefined ? undefined : await queryOf(list, opts, ctx);
  const select = query && (async (records: import('../jobs/run.js').ListRecords) => (await records('subscriptionsList', query)).map((record) => String(record.id)));
  const cohort = {
    keys,
    settingFlags: cohortFlags[name],
    ...(selection !== undefined && select ? { selection, select } : {}),
  };
  switch (name) {
    case 'shift':
      return runJob(jobs.shiftJob, ctx, opts, { ...cohort, settings: () => jobs.shiftSettings(opts as FlagsOf<typeof cohortFlags.shift>) });
    case 'cancel':
      return runJob(jobs.cancelJob, ctx, opts, { ...cohort, settings: () => jobs.cancelSettings(opts as FlagsOf<typeof cohortFlags.cancel>) });
    case 'gateway':
      return runJob(jobs.gatewayJob, ctx, opts, { ...cohort, settings: () => jobs.gatewaySettings(opts as FlagsOf<typeof cohortFlags.gateway>) });
    case 'retry':
      return runJob(jobs.retryJob, ctx, opts, { ...cohort, settings: () => jobs.retrySettings(opts as FlagsOf<typeof cohortFlags.retry>) });
  }
}
