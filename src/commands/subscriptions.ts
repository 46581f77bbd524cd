// `store-admin subscriptions …`
import { Option, type Command } from 'commander';
import { CANCEL_REASONS, INTERVALS, SUBSCRIPTION_STATUSES } from '../api/enums.js';
import type { IO } from '../io.js';
import { buildBody, dataOption, objectOption, requireSomething, type FieldFlag } from './body.js';
import { addOperationCommand } from './define.js';
import { dateTime, integerOrText, orNull } from './values.js';

const nullableDate = (value: string) => (value === 'null' ? null : dateTime(value));

const updateFields: readonly FieldFlag[] = [
  { field: 'interval', key: 'interval' },
  { field: 'interval_count', key: 'intervalCount', convert: integerOrText },
  { field: 'status', key: 'status' },
  { field: 'next_renewal_date', key: 'nextRenewalDate', convert: nullableDate },
  { field: 'shipping_code', key: 'shippingCode', convert: orNull },
  { field: 'shipping_price', key: 'shippingPrice', convert: orNull },
  { field: 'is_test', key: 'isTest' },
  { field: 'attribution', key: 'attribution', object: 'required' },
  { field: 'billing_address', key: 'billingAddress', object: 'nullable' },
  { field: 'shipping_address', key: 'shippingAddress', object: 'nullable' },
  { field: 'payment_details', key: 'paymentDetails', object: 'nullable' },
];

export function register(subscriptions: Command, io: IO): void {
  addOperationCommand(subscriptions, io, {
    name: 'cancel',
    operation: 'subscriptions.cancel',
    args: [['id', 'id', 'subscription id']],
    options: (command) =>
      command
        .addOption(new Option('--reason <reason>', 'why it is canceled').choices(CANCEL_REASONS))
        .option('--other-message <text>', 'free-text explanation (with --reason other)')
        .option('--no-notify', 'do not send the customer a cancellation notice'),
    flags: { cancel_reason: '--reason', cancel_reason_other_message: '--other-message', send_cancel_notification: '--no-notify' },
    body: async (opts, ctx) => ({
      cancel_reason:
        opts.reason ?? (await ctx.prompt.select({ flag: '--reason', message: 'Why is it canceled?', choices: CANCEL_REASONS })),
      ...(opts.otherMessage !== undefined ? { cancel_reason_other_message: opts.otherMessage } : {}),
      send_cancel_notification: opts.notify !== false,
    }),
    confirm: ({ params, body }) => {
      const { cancel_reason, send_cancel_notification } = body as { cancel_reason: string; send_cancel_notification: boolean };
      const notice = send_cancel_notification ? 'the customer will be notified' : 'the customer will not be notified';
      return `Cancel subscription ${params.id} (reason: ${cancel_reason}); ${notice}.`;
    },
    view: 'subscription',
    progress: 'Canceling the subscription…',
    examples: [
      'store-admin subscriptions cancel 1 --reason product_too_expensive',
      'store-admin subscriptions cancel 1 --reason other --other-message "Moving abroad" --no-notify --yes',
    ],
  });

  addOperationCommand(subscriptions, io, {
    name: 'renew',
    operation: 'subscriptions.renew',
    args: [['id', 'id', 'subscription id']],
    confirm: ({ params }) => `Renew subscription ${params.id} now? This creates a renewal order for the customer.`,
    view: 'subscription',
    progress: 'Renewing the subscription…',
    examples: ['store-admin subscriptions renew 2', 'store-admin subscriptions renew 2 --yes --query next_renewal_date'],
  });

  addOperationCommand(subscriptions, io, {
    name: 'update',
    operation: 'subscriptions.update',
    args: [['id', 'id', 'subscription id']],
    description: 'Change some fields of a subscription (only the fields given are sent)',
    options: (command) => {
      command
        .addOption(new Option('--interval <interval>', 'billing interval').choices(INTERVALS))
        .option('--interval-count <n>', 'intervals between renewals, at least 1')
        .addOption(new Option('--status <status>', 'new status').choices(SUBSCRIPTION_STATUSES))
        .option('--next-renewal-date <date>', 'ISO 8601 date-time or plain date (UTC midnight), or null')
        .option('--shipping-code <code>', 'shipping method code, or null')
        .option('--shipping-price <amount>', 'decimal, up to 7 digits and 2 decimals, or null')
        .option('--is-test', 'mark as a test subscription')
        .option('--no-is-test', 'mark as a real subscription');
      objectOption(command, 'attribution', 'attribution object', false);
      objectOption(command, 'billing-address', 'billing address object', true);
      objectOption(command, 'shipping-address', 'shipping address object', true);
      objectOption(command, 'payment-details', 'payment details object', true);
      dataOption(command);
    },
    body: async (opts, ctx) =>
      requireSomething(await buildBody(opts, ctx, updateFields), 'at least one field flag or --data'),
    // Setting the status to canceled cancels as surely as `subscriptions cancel`, which asks first.
    confirm: ({ params, body }) =>
      (body as { status?: string }).status === 'canceled' ? `Set subscription ${params.id} to canceled?` : undefined,
    view: 'subscription',
    progress: 'Updating the subscription…',
    examples: [
      'store-admin subscriptions update 1 --interval week --interval-count 2',
      'store-admin subscriptions update 1 --shipping-price 4.99 --next-renewal-date 2026-03-01',
      'store-admin subscriptions update 1 --shipping-address @address.json --shipping-code null',
    ],
  });
}
