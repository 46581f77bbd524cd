// What the table says beyond the platform's published reference (src/api/generated/): the spec's
// refinements of its sixteen operations (their version, section, old names, constraints), which
// changes cannot be undone, and how some answers are read. Written once, here; the generated
// facts are never edited.
import type { GeneratedId } from './generated/index.js';

export interface Refinement {
  /** The spec's section (`4.3`); absent for operations only the reference describes. */
  section?: string;
  /** The X-Store-API-Version sent by default, where the spec fixes one (else the newest stable version that has it). */
  version?: string;
  /** Every scope is needed, not any one of them (spec 4.9 names two in one requirement). */
  allScopes?: true;
  /** The operation's id in earlier releases of this tool (history and run journals name it). */
  renamed?: string;
  /** Earlier command names that keep working. */
  aliases?: readonly string[];
  /** One line for people; otherwise read from the command (`Replace a cart`). */
  summary?: string;
}

export const refinements = {
  ordersLinesDestroy: { summary: 'Remove a line from an order; answers the order after removal', section: '4.1', version: '2024-04-01', renamed: 'ordersLinesDestroy', aliases: ['orders remove-line'] },
  ordersNotesCreate: { summary: 'Add a note to an order', section: '4.2', version: 'unstable', renamed: 'ordersNotesCreate', aliases: ['orders add-note'] },
  subscriptionsCancelCreate: { summary: 'Cancel a subscription', section: '4.3', version: '2023-02-10', renamed: 'subscriptionsCancelCreate' },
  subscriptionsRenewCreate: { summary: 'Renew a subscription now, creating a renewal order', section: '4.4', version: '2023-02-10', renamed: 'subscriptionsRenewCreate' },
  subscriptionsPartialUpdate: { summary: 'Change some fields of a subscription', section: '4.5', version: '2024-04-01', renamed: 'subscriptionsPartialUpdate' },
  ordersFulfillmentsEventsRetrieve: { summary: 'Show one event of a fulfillment', section: '4.6', version: '2023-02-10', renamed: 'ordersFulfillmentsEventsRetrieve', aliases: ['orders fulfillment-event'] },
  ordersFulfillmentOrdersRetrieve: { summary: 'List the fulfillment orders of an order', section: '4.7', version: '2023-02-10', renamed: 'ordersFulfillmentOrdersRetrieve' },
  usersNotesCreate: { summary: 'Add a note to a customer', section: '4.8', version: '2024-04-01', renamed: 'usersNotesCreate', aliases: ['customers add-note'] },
  cancellationRequestReject: { summary: 'Reject the pending cancellation request of a fulfillment order',
    section: '4.9',
    version: '2024-04-01',
    allScopes: true,
    renamed: 'cancellationRequestReject',
    aliases: ['fulfillment-orders reject-cancellation'],
  },
  exportsCreate: { summary: 'Create a data export for a date range', section: '4.10', version: '2024-04-01', renamed: 'exportsCreate' },
  disputesCreate: { summary: 'Record a dispute (alert or chargeback)', section: '4.11', version: '2024-04-01', renamed: 'disputesCreate' },
  exportsTypesRetrieve: { summary: 'List the types of export', section: '4.12', version: '2024-04-01', renamed: 'exportsTypesRetrieve' },
  categoriesRetrieve: { summary: 'Show a product category', section: '4.13', version: '2024-04-01', renamed: 'categoriesRetrieve' },
  appsSettingsPartialUpdate: { summary: "Merge keys into an app's settings", section: '4.14', version: '2024-04-01', renamed: 'appsSettingsPartialUpdate', aliases: ['apps update-settings'] },
  webhooksCreate: { summary: 'Register a webhook', section: '4.15', version: '2024-04-01', renamed: 'webhooksCreate' },
  webhooksRetrieve: { summary: 'Show a webhook', section: '4.16', version: '2024-04-01', renamed: 'webhooksRetrieve' },
  exportsRetrieve: { summary: 'Show an export and its status (pending or available)', renamed: 'exportsRetrieve' },
  exportsDownloadRetrieve: { summary: "Get a temporary signed link to an available export's file", renamed: 'exportsDownloadRetrieve' },
  webhooksList: { summary: "List the store's webhooks, a page at a time", renamed: 'webhooksList' },
  webhooksPartialUpdate: { summary: 'Change some fields of a webhook', renamed: 'webhooksPartialUpdate' },
  webhooksDestroy: { summary: 'Delete a webhook: the store stops sending its events', renamed: 'webhooksDestroy' },
} as const satisfies Partial<Record<GeneratedId, Refinement>>;

/**
 * The changes that cannot be undone besides every DELETE: they end, refuse, move or bill
 * something. Their commands ask first at a terminal and need --yes without one.
 */
export const IRREVERSIBLE: ReadonlySet<GeneratedId> = new Set<GeneratedId>([
  'ordersCancelCreate',
  'ordersCaptureCreate',
  'ordersCollectPaymentCreate',
  'ordersMarkAsPaidCreate',
  'ordersRefundCreate',
  'subscriptionsCancelCreate',
  'subscriptionsRenewCreate',
  'subscriptionsRetryCreate',
  'fulfillmentOrdersCancel',
  'fulfillmentOrdersClose',
  'fulfillmentOrdersMove',
  'cancellationRequestAccept',
  'cancellationRequestReject',
  'fulfillmentRequestReject',
  'fulfillmentsCreate',
  'ordersFulfillmentsCreate',
  'transactionsCaptureCreate',
  'transactionsRefundCreate',
  'giftCardsDeactivate',
  'disputesResolveCreate',
]);

/**
 * Operations the reference declares as answering one object although they list several (as it
 * says of ordersFulfillmentOrdersRetrieve, spec 4.7): their answer is read as a list, whether a
 * store sends a bare object, a bare array or a `{results: […]}` page.
 */
export const ANSWERS_MANY: ReadonlySet<GeneratedId> = new Set<GeneratedId>([
  'ordersFulfillmentOrdersRetrieve',
  'ordersFulfillmentsRetrieve',
  'ordersFulfillmentsEventsList',
  'fulfillmentsRetrieve',
  'productsImageList',
  'productsVariantList',
  'productsPricesList',
  'productsChildrenList',
  'usersOrdersRetrieve',
  'usersSubscriptionsRetrieve',
]);
