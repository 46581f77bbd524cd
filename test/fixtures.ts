// One valid input per operation the sandbox serves, against its seeded data.
import type { OperationId } from '../src/api/operations.js';
import type { OperationInput } from '../src/api/types.js';

export const validInputs = {
  'ordersLinesDestroy': { params: { number: '10002', lineId: 105 } },
  'ordersNotesCreate': { params: { number: '10001' }, body: { message: 'Customer called about delivery' } },
  'subscriptionsCancelCreate': { params: { id: 4 }, body: { cancel_reason: 'product_too_expensive' } },
  'subscriptionsRenewCreate': { params: { id: 1 } },
  'subscriptionsPartialUpdate': { params: { id: 4 }, body: { interval: 'week', interval_count: 2 } },
  'ordersFulfillmentsEventsRetrieve': { params: { number: '10001', fulfillmentId: 201, eventId: '301' } },
  'ordersFulfillmentOrdersRetrieve': { params: { number: '10002' } },
  'usersNotesCreate': { params: { id: 1 }, body: { message: 'Prefers email' } },
  'cancellationRequestReject': { params: { id: 401 }, body: { message: 'Already shipped' } },
  'exportsCreate': {
    body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' },
  },
  'exportsRetrieve': { params: { id: 1 } },
  'exportsDownloadRetrieve': { params: { id: 1 } },
  'disputesCreate': { body: { type: 'chargeback', amount: '19.99', currency: 'USD' } },
  'exportsTypesRetrieve': {},
  'categoriesRetrieve': { params: { id: 1 } },
  'appsSettingsPartialUpdate': { params: { clientId: 'sandbox-app' }, body: { theme: 'dark' } },
  'webhooksCreate': { body: { target: 'https://hooks.example.com/store', events: ['order.created'] } },
  'webhooksRetrieve': { params: { id: 1 } },
  // By name: the sandbox on this branch refuses the active filter (test/cli/webhooks-manage.test.ts).
  'webhooksList': { query: { name: 'Order sync to warehouse system' } },
  'webhooksPartialUpdate': { params: { id: 1 }, body: { events: ['order.created', 'order.updated', 'dispute.created'] } },
  'webhooksDestroy': { params: { id: 2 } },
} satisfies { [Id in OperationId]?: OperationInput<Id> };

/** The operations the sandbox serves (each with its valid input above); the others answer 501 for now. */
export type ServedId = keyof typeof validInputs;
export const servedIds = Object.keys(validInputs) as ServedId[];

/**
 * A new monthly subscription to the seeded store's sock club (variant 2104, sold monthly) for a
 * customer the store makes from `email`, renewing with a card token, shipped and billed to one
 * address.
 */
export const sockClubSubscription = (email: string) => ({
  interval: 'month',
  interval_count: 1,
  lines: [{ product_id: 2104, quantity: 1 }],
  next_renewal_date: '2026-03-01T00:00:00Z',
  payment_method: 'card_token',
  payment_details: { card_token: 'tok_sock_club_monthly' },
  user: { email },
  shipping_address: { first_name: 'Ada', last_name: 'Lovelace', line1: '1 Main St', line4: 'Springfield', country: 'US' },
  billing_same_as_shipping_address: true,
});
