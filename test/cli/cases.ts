// One valid command line per operation that has a command: proves each is reachable from one.
import type { OperationId } from '../../src/api/operations.js';

export const commandLines = {
  'ordersLinesDestroy': ['orders', 'remove-line', '10002', '105', '--yes'],
  'ordersNotesCreate': ['orders', 'add-note', '10001', '--message', 'hello'],
  'subscriptionsCancelCreate': ['subscriptions', 'cancel', '2', '--reason', 'other', '--yes'],
  'subscriptionsRenewCreate': ['subscriptions', 'renew', '1', '--yes'],
  'subscriptionsPartialUpdate': ['subscriptions', 'update', '1', '--interval', 'month'],
  'ordersFulfillmentsEventsRetrieve': ['orders', 'fulfillment-event', '10001', '201', '301'],
  'ordersFulfillmentOrdersRetrieve': ['orders', 'fulfillment-orders', '10001'],
  'usersNotesCreate': ['customers', 'add-note', '1', '--message', 'hi'],
  'cancellationRequestReject': ['fulfillment-orders', 'reject-cancellation', '401', '--yes'],
  'exportsCreate': ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31'],
  'exportsRetrieve': ['exports', 'get', '1'],
  'exportsDownloadRetrieve': ['exports', 'download', '1', '--output-file', '-'],
  'disputesCreate': ['disputes', 'create', '--type', 'chargeback'],
  'exportsTypesRetrieve': ['exports', 'types'],
  'categoriesRetrieve': ['categories', 'get', '1'],
  'appsSettingsPartialUpdate': ['apps', 'update-settings', 'sandbox-app', '--set', 'a=1'],
  'webhooksCreate': ['webhooks', 'create', '--target', 'https://h.example.com/x', '--event', 'order.created', '--secret-key', 'topsecret'],
  'webhooksRetrieve': ['webhooks', 'get', '1'],
  'webhooksList': ['webhooks', 'list', '--all'],
  'webhooksPartialUpdate': ['webhooks', 'update', '1', '--inactive'],
  'webhooksDestroy': ['webhooks', 'delete', '2', '--yes'],
} satisfies { [Id in OperationId]?: string[] };

export const commandIds = Object.keys(commandLines) as (keyof typeof commandLines)[];
