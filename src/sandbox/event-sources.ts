// Which operation's answer each kind of event object takes: a delivery's `data` is the object as
// the Admin API answers it at the webhook's version (platform facts, "Webhook deliveries").
import { operation, type OperationId } from '../api/operations.js';

export const eventSources: Record<string, OperationId> = {
  app: 'appsRetrieve',
  cart: 'cartsRetrieve',
  customer: 'usersRetrieve',
  dispute: 'disputesRetrieve',
  export: 'exportsRetrieve',
  fulfillment: 'ordersFulfillmentRetrieve',
  gateway: 'gatewaysRetrieve',
  order: 'ordersRetrieve',
  product: 'productsRetrieve',
  store: 'storeDetail',
  subscription: 'subscriptionsRetrieve',
  ticket: 'ticketsRetrieve',
  transaction: 'transactionsRetrieve',
};

/** The path of an event source's operation (its group is loaded with the sandbox's table). */
export function operationPath(id: OperationId): string {
  return operation(id).path;
}
