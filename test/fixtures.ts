// One valid input per operation against the seeded sandbox.
import type { OperationId } from '../src/api/operations.js';
import type { OperationInput } from '../src/api/types.js';

export const validInputs: { [Id in OperationId]: OperationInput<Id> } = {
  'orders.removeLine': { params: { number: '10002', lineId: 105 } },
  'orders.addNote': { params: { number: '10001' }, body: { message: 'Customer called about delivery' } },
  'subscriptions.cancel': { params: { id: 4 }, body: { cancel_reason: 'product_too_expensive' } },
  'subscriptions.renew': { params: { id: 1 } },
  'subscriptions.update': { params: { id: 4 }, body: { interval: 'week', interval_count: 2 } },
  'orders.getFulfillmentEvent': { params: { number: '10001', fulfillmentId: 201, eventId: '301' } },
  'orders.listFulfillmentOrders': { params: { number: '10002' } },
  'customers.addNote': { params: { id: 1 }, body: { message: 'Prefers email' } },
  'fulfillmentOrders.rejectCancellation': { params: { id: 401 }, body: { message: 'Already shipped' } },
  'exports.create': {
    body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' },
  },
  'exports.get': { params: { id: 1 } },
  'exports.download': { params: { id: 1 } },
  'disputes.create': { body: { type: 'chargeback', amount: '19.99', currency: 'USD' } },
  'exports.listTypes': {},
  'categories.get': { params: { id: 1 } },
  'apps.updateSettings': { params: { clientId: 'sandbox-app' }, body: { theme: 'dark' } },
  'webhooks.create': { body: { target: 'https://hooks.example.com/store', events: ['order.created'] } },
  'webhooks.get': { params: { id: 1 } },
  'webhooks.list': { query: { active: 'true' } },
  'webhooks.update': { params: { id: 1 }, body: { events: ['order.created', 'order.updated', 'dispute.created'] } },
  'webhooks.delete': { params: { id: 2 } },
};
