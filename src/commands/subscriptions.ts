// `store-admin subscriptions …`: what the table's commands for subscriptions need beyond their facts.
import { CANCEL_REASONS, INTERVALS, SUBSCRIPTION_STATUSES } from '../api/enums.js';
import type { BodyField } from '../run/spec.js';
import { refine } from './table-commands.js';

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
