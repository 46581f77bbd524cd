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
}

export const refinements = {
  ordersLinesDestroy: { section: '4.1', version: '2024-04-01', renamed: 'orders.removeLine', aliases: ['orders remove-line'] },
  ordersNotesCreate: { section: '4.2', version: 'unstable', renamed: 'orders.addNote', aliases: ['orders add-note'] },
  subscriptionsCancelCreate: { section: '4.3', version: '2023-02-10', renamed: 'subscriptions.cancel' },
  subscriptionsRenewCreate: { section: '4.4', version: '2023-02-10', renamed: 'subscriptions.renew' },
  subscriptionsPartialUpdate: { section: '4.5', version: '2024-04-01', renamed: 'subscriptions.update' },
  ordersFulfillmentsEventsRetrieve: { section: '4.6', version: '2023-02-10', renamed: 'orders.getFulfillmentEvent', aliases: ['orders fulfillment-event'] },
  ordersFulfillmentOrdersRetrieve: { section: '4.7', version: '2023-02-10', renamed: 'orders.listFulfillmentOrders' },
  usersNotesCreate: { section: '4.8', version: '2024-04-01', renamed: 'customers.addNote', aliases: ['customers add-note'] },
  cancellationRequestReject: {
    section: '4.9',
    version: '2024-04-01',
    allScopes: true,
    renamed: 'fulfillmentOrders.rejectCancellation',
    aliases: ['fulfillment-orders reject-cancellation'],
  },
  exportsCreate: { section: '4.10', version: '2024-04-01', renamed: 'exports.create' },
  disputesCreate: { section: '4.11', version: '2024-04-01', renamed: 'disputes.create' },
  exportsTypesRetrieve: { section: '4.12', version: '2024-04-01', renamed: 'exports.listTypes' },
  categoriesRetrieve: { section: '4.13', version: '2024-04-01', renamed: 'categories.get' },
  appsSettingsPartialUpdate: { section: '4.14', version: '2024-04-01', renamed: 'apps.updateSettings', aliases: ['apps update-settings'] },
  webhooksCreate: { section: '4.15', version: '2024-04-01', renamed: 'webhooks.create' },
  webhooksRetrieve: { section: '4.16', version: '2024-04-01', renamed: 'webhooks.get' },
  exportsRetrieve: { renamed: 'exports.get' },
  exportsDownloadRetrieve: { renamed: 'exports.download' },
  webhooksList: { renamed: 'webhooks.list' },
  webhooksPartialUpdate: { renamed: 'webhooks.update' },
  webhooksDestroy: { renamed: 'webhooks.delete' },
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
