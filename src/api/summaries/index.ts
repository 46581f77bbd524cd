// Each group's summaries (written for people, beside the generated table), loaded with its part
// of the table. Keyed by the table's groups, so a group without its file does not compile.
import type { GroupName } from '../generated/index.js';

export const summariesOf: Record<GroupName, () => Promise<{ summaries: Readonly<Record<string, string>> }>> = {
  'apps': () => import('./apps.js'),
  'assigned-fulfillment-orders': () => import('./assigned-fulfillment-orders.js'),
  'carts': () => import('./carts.js'),
  'categories': () => import('./categories.js'),
  'customers': () => import('./customers.js'),
  'disputes': () => import('./disputes.js'),
  'exports': () => import('./exports.js'),
  'fulfillment-orders': () => import('./fulfillment-orders.js'),
  'gateway-groups': () => import('./gateway-groups.js'),
  'gateways': () => import('./gateways.js'),
  'gift-cards': () => import('./gift-cards.js'),
  'locations': () => import('./locations.js'),
  'metadata': () => import('./metadata.js'),
  'orders': () => import('./orders.js'),
  'pages': () => import('./pages.js'),
  'products': () => import('./products.js'),
  'shipping-methods': () => import('./shipping-methods.js'),
  'stock-records': () => import('./stock-records.js'),
  'store': () => import('./store.js'),
  'subscriptions': () => import('./subscriptions.js'),
  'themes': () => import('./themes.js'),
  'ticket-types': () => import('./ticket-types.js'),
  'tickets': () => import('./tickets.js'),
  'transactions': () => import('./transactions.js'),
  'webhooks': () => import('./webhooks.js'),
};
