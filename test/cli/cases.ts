// One valid command line per operation: proves each operation is reachable from a command.
import type { OperationId } from '../../src/api/operations.js';

export const commandLines: Record<OperationId, string[]> = {
  'orders.removeLine': ['orders', 'remove-line', '10002', '105', '--yes'],
  'orders.addNote': ['orders', 'add-note', '10001', '--message', 'hello'],
  'subscriptions.cancel': ['subscriptions', 'cancel', '2', '--reason', 'other', '--yes'],
  'subscriptions.renew': ['subscriptions', 'renew', '1', '--yes'],
  'subscriptions.update': ['subscriptions', 'update', '1', '--interval', 'month'],
  'orders.getFulfillmentEvent': ['orders', 'fulfillment-event', '10001', '201', '301'],
  'orders.listFulfillmentOrders': ['orders', 'fulfillment-orders', '10001'],
  'customers.addNote': ['customers', 'add-note', '1', '--message', 'hi'],
  'fulfillmentOrders.rejectCancellation': ['fulfillment-orders', 'reject-cancellation', '401', '--yes'],
  'exports.create': ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31'],
  'exports.get': ['exports', 'get', '1'],
  'exports.download': ['exports', 'download', '1', '--output-file', '-'],
  'disputes.create': ['disputes', 'create', '--type', 'chargeback'],
  'exports.listTypes': ['exports', 'types'],
  'categories.get': ['categories', 'get', '1'],
  'apps.updateSettings': ['apps', 'update-settings', 'sandbox-app', '--set', 'a=1'],
  'webhooks.create': ['webhooks', 'create', '--target', 'https://h.example.com/x', '--event', 'order.created', '--secret-key', 'topsecret'],
  'webhooks.get': ['webhooks', 'get', '1'],
  'webhooks.list': ['webhooks', 'list', '--all'],
  'webhooks.update': ['webhooks', 'update', '1', '--inactive'],
  'webhooks.delete': ['webhooks', 'delete', '2', '--yes'],
};
