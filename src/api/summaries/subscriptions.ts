// What each subscriptions operation does, in one line for people: its command's help, the command
// reference and `store-admin operations` show it. Loaded with the group's part of the table.
import type { operations } from '../generated/subscriptions/table.js';

export const summaries: Record<keyof typeof operations, string> = {
  subscriptionsList: 'List subscriptions, filtered by status, renewal date, product and more',
  subscriptionsCreate: 'Create a subscription for a customer',
  subscriptionsRetrieve: 'Show a subscription',
  subscriptionsPartialUpdate: 'Change some fields of a subscription',
  subscriptionsCancelCreate: 'Cancel a subscription',
  subscriptionsLinesCreate: 'Add a line to a subscription',
  subscriptionsLinesUpdate: 'Replace a line of a subscription',
  subscriptionsLinesDestroy: 'Remove a line from a subscription',
  subscriptionsRenewCreate: 'Renew a subscription now, creating a renewal order',
  subscriptionsRetryCreate: 'Retry the failed payment of a past-due subscription',
  subscriptionsTransactionsList: "List a subscription's payment transactions",
};
