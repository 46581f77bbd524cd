// A valid request for every operation of the reference, at every version it has, against the
// seeded store: path parameters name seeded records (the anchors where there are some), and a
// write's body holds the fields its request schema requires at that version, each given a value
// of its type (a link names a seeded record), with what the operation needs to make sense on top
// (a webhook's reachable target, a fulfillment order that can be held).
import type * as z from 'zod/mini';
import type { Operation, OperationId, OperationSchemas } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';

type Schema = z.ZodMiniType;
type Def = {
  type: string;
  innerType?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  options?: Schema[];
  entries?: Record<string, string>;
  values?: unknown[];
  format?: string;
  checks?: { _zod: { def: { check: string; format?: string; minimum?: number; maximum?: number } } }[];
};

export interface Input {
  params: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
}

/** The seeded record each path names, by the path's first segment (where `{id}` is the only parameter). */
const ITEM_OF: Record<string, string | number> = {
  carts: 1,
  categories: 1,
  users: 1,
  disputes: 1,
  exports: 1,
  'fulfillment-orders': 401,
  'gateway-groups': 1,
  gateways: 1,
  'gift-cards': 1,
  locations: 1,
  metadata: 1,
  pages: 1,
  products: 1001,
  'shipping-methods': 1,
  stockrecords: 3101,
  subscriptions: 1,
  themes: 1,
  tickettypes: 1,
  tickets: 1,
  transactions: 501,
  webhooks: 1,
};

/** Paths whose parameters name other records than ITEM_OF's: an order's removable line, a product's price. */
const PARAMS_BY_PATH: Record<string, Record<string, string | number>> = {
  '/orders/{number}/lines/{lineId}/': { number: '10002', lineId: 105 },
  '/orders/{number}/lines/': { number: '10002' },
  '/orders/{number}/fulfillments/{fulfillmentId}/': { number: '10001', fulfillmentId: 201 },
  '/orders/{number}/fulfillments/{fulfillmentId}/events/': { number: '10001', fulfillmentId: 201 },
  '/orders/{number}/fulfillments/{fulfillmentId}/events/{eventId}/': { number: '10001', fulfillmentId: 201, eventId: 302 },
  '/orders/{number}/fulfillment-orders/': { number: '10002' },
  '/fulfillment-orders/{id}/fulfillments/': { id: 403 },
  '/users/{id}/addresses/{addressId}/': { id: 1, addressId: 12 },
  '/products/{id}/images/{imageId}/': { id: 1001, imageId: 5001 },
  // A price belongs to a product's variant (a child product at 2023-02-10).
  '/products/{id}/prices/': { id: 2101 },
  '/products/{id}/prices/{currency}/': { id: 2101, currency: 'EUR' },
  '/products/children/{id}/': { id: 2102 },
  '/products/variants/{id}/': { id: 2102 },
  '/subscriptions/{id}/lines/{lineId}/': { id: 2, lineId: 703 },
  '/apps/{clientId}/': { clientId: 'sandbox-app' },
  // Orders in the state each action of the payment rules takes: authorized, owing, unshipped.
  '/orders/{number}/capture/': { number: '9947' },
  '/orders/{number}/collect-payment/': { number: '9946' },
  '/orders/{number}/mark-as-paid/': { number: '9959' },
  '/orders/{number}/cancel/': { number: '9969' },
  '/orders/{number}/refund/': { number: '9964' },
  '/orders/{number}/refund/calculate/': { number: '9964' },
  // An authorization, to capture.
  '/transactions/{id}/capture/': { id: 541 },
  // The emptied pop-up: a location that holds stock may not be removed.
  '/locations/{id}/': { id: 3 },
};

/**
 * Writes that act on a record in a state the path's anchor is not in (the seed has fulfillment
 * orders in every status and request status): the one each operation's rule takes.
 */
const PARAMS_BY_OPERATION: Partial<Record<OperationId, Record<string, string | number>>> = {
  // Open, nothing requested yet: fulfilled, requested from its location, held or moved.
  fulfillmentsCreate: { id: 406 },
  ordersFulfillmentsCreate: { number: '9945' },
  fulfillmentRequestSend: { id: 406 },
  fulfillmentOrdersHold: { id: 406 },
  fulfillmentOrdersMove: { id: 406 },
  // Its fulfillment request awaits the location.
  fulfillmentRequestAccept: { id: 402 },
  fulfillmentRequestReject: { id: 402 },
  fulfillmentRequestCancel: { id: 402 },
  fulfillmentOrdersReleaseHold: { id: 411 },
  // Accepted by its location and being processed: closed, or its cancellation requested.
  fulfillmentOrdersClose: { id: 412 },
  cancellationRequestSend: { id: 412 },
  // Past due: a renewal to try again.
  subscriptionsRetryCreate: { id: 2 },
};

export function paramsFor(op: Pick<Operation, 'id' | 'path'>): Record<string, string | number> {
  const own = PARAMS_BY_OPERATION[op.id];
  if (own) return { ...own };
  const exact = PARAMS_BY_PATH[op.path] ?? PARAMS_BY_PATH[op.path.replace(/[a-z-]+\/$/, '')];
  if (exact) return { ...exact };
  const params: Record<string, string | number> = {};
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    if (name === 'clientId') params[name] = 'sandbox-app';
    else if (name === 'number') params[name] = '10001';
    else params[name!] = ITEM_OF[op.path.split('/')[1]!] ?? 1;
  }
  return params;
}

/**
 * The bodies that need more than their required fields to be taken as the platform takes them:
 * records to link, a state to act on, fields that only make sense together. Merged over the
 * sampled body; a function sees the version.
 */
const BODIES: Partial<Record<OperationId, Record<string, unknown> | ((version: string) => Record<string, unknown>)>> = {
  appsSettingsUpdate: { theme: 'dark', sync_interval_minutes: 30 },
  appsSettingsPartialUpdate: { theme: 'dark' },
  cartsCreate: { user: { id: 1 }, lines: [{ product_id: 2101, quantity: 1 }] },
  cartsUpdate: { lines: [{ product_id: 2102, quantity: 2 }] },
  categoriesCreate: { name: 'Winter sale', slug: 'winter-sale' },
  categoriesUpdate: { name: 'Apparel and layers', slug: 'apparel' },
  disputesCreate: { transaction: 503, type: 'chargeback' },
  disputesResolveCreate: { resolution: 'won' },
  disputesNotesCreate: { message: 'Sent the tracking page to the bank.' },
  exportsCreate: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' },
  fulfillmentOrdersHold: { reason: 'awaiting_payment', reason_notes: 'Waiting for the bank transfer.' },
  fulfillmentOrdersMove: { new_location_id: 2 },
  giftCardsCreate: { currency: 'USD', initial: '25.00', user: { email: 'daniel.okafor@example.net' } },
  locationsCreate: { name: 'Austin Store', address: { country: 'US', line1: '2207 Riverside Drive', line4: 'Austin', postcode: '78741', state: 'TX' } },
  locationsUpdate: { name: 'Portland Warehouse', address: { country: 'US', line1: '2200 NW Front Avenue', line4: 'Portland', postcode: '97209', state: 'OR' } },
  metadataCreate: { key: 'packing_note', name: 'Packing note', object: 'order', type: 'text' },
  metadataUpdate: { name: 'Gift message', object: 'order' },
  ordersCreate: { user: { id: 1 }, lines: [{ product_id: 2101, quantity: 1 }], use_default_shipping_address: true, billing_same_as_shipping_address: true, payment_method: 'card_token', payment_details: { card_token: 'tok_visa' } },
  ordersCancelCreate: { cancel_reason: 'Fraud check failed' },
  ordersMarkAsPaidCreate: { external_payment_method: 'cash' },
  ordersRefundCalculateCreate: { refund_lines: [{ line_id: 149, quantity: 1 }], refund_shipping: { full_refund: true } },
  ordersLinesCreate: { product_id: 2104, quantity: 1 },
  ordersLinesPartialUpdate: { quantity: 3 },
  ordersAddLineItemsCreate: { lines: [{ product_id: 2104, quantity: 1, is_upsell: true }] },
  ordersNotesCreate: { message: 'Customer called about delivery' },
  ordersFulfillmentsEventsCreate: { status: 'in_transit', message: 'Left the sorting centre.' },
  ordersRefundCreate: (version) => (version === '2023-02-10' ? { amount: '10.00' } : { refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'return' }], transactions: [{ id: 536, amount: '10.00' }] }),
  pagesCreate: { title: 'Shipping and returns', content: '<p>Free returns within 30 days.</p>' },
  pagesUpdate: { title: 'About us', content: '<p>Outdoor layers made in Portland.</p>' },
  productsPricesCreate: { currency: 'GBP', price: '25.00' },
  // The emptied pop-up: every variant has stock at the other two.
  stockrecordsCreate: { location_id: 3, num_in_stock: 10 },
  subscriptionsCreate: { user: { id: 1 }, interval: 'month', interval_count: 1, lines: [{ product_id: 2104, quantity: 1 }], next_renewal_date: '2026-03-01T08:00:00Z', use_default_shipping_address: true, use_default_billing_address: true, payment_method: 'card_token', payment_details: { card_token: 'tok_visa' } },
  subscriptionsCancelCreate: { cancel_reason: 'product_too_expensive' },
  subscriptionsLinesCreate: { product_id: 2104, quantity: 1 },
  subscriptionsLinesUpdate: { quantity: 3 },
  themesCreate: { name: 'Summit' },
  themesTemplatesCreate: { name: 'product.html', theme: 1 },
  ticketsCreate: { subject: 'Where is my parcel?', requester: 1 },
  ticketsCommentsCreate: { body: 'We are looking into it.' },
  transactionsCaptureCreate: { amount: '50.00' },
  transactionsRefundCreate: { amount: '10.00' },
  transactionsVerifyCreate: { user: { email: 'maya.lindqvist@example.com' }, currency: 'USD', card_token: 'tok_visa' },
  usersCreate: { email: 'new.customer@example.com', first_name: 'Noor', last_name: 'Haddad' },
  usersAddressesCreate: { country: 'US', line1: '500 Congress Avenue', line4: 'Austin', postcode: '78701', state: 'TX' },
  usersAddressesUpdate: { country: 'US', line1: '1550 Larimer Street', line4: 'Denver', postcode: '80202', state: 'CO' },
  usersNotesCreate: { message: 'Prefers email' },
  webhooksCreate: { target: 'https://hooks.example.com/store', events: ['order.created'] },
  webhooksUpdate: { target: 'https://hooks.example.com/store', events: ['order.created', 'order.updated'] },
  webhooksPartialUpdate: { events: ['order.created', 'order.updated', 'dispute.created'] },
};

/** A valid request for `op` at `version`. */
export function inputFor(op: Operation, version: string, schemas: OperationSchemas): Input {
  const input: Input = { params: paramsFor(op) };
  if (!schemas.body) return input;
  const wanted = BODIES[op.id];
  const extra = typeof wanted === 'function' ? wanted(version) : wanted;
  const sampled = sample(schemas.body, '') as Record<string, unknown> | undefined;
  input.body = keepKnown({ ...(sampled ?? {}), ...extra }, schemas.body);
  return input;
}

/** The request as sent: method, path with its parameters, the body as JSON. */
export function requestOf(op: Operation, input: Input): { method: string; path: string; body?: string } {
  const path = fillPath(op.path, input.params) + (input.query ? `?${new URLSearchParams(input.query)}` : '');
  return { method: op.method, path, ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }) };
}

/** Field names that link to a seeded record, and the record they name. */
const LINKS: Record<string, unknown> = {
  product_id: 2101,
  product: 2101,
  variant_id: 2101,
  user: 1,
  user_id: 1,
  location_id: 1,
  new_location_id: 2,
  transaction: 503,
  theme: 1,
  order: 10001,
  requester: 1,
  ticket_type: 1,
  category: 1,
};

/** A value of the schema's type; only the fields it requires, for an object. */
function sample(schema: Schema, name: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
      return undefined;
    case 'nullable':
    case 'default':
      return sample(def.innerType!, name);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape!)) {
        const value = sample(field, key);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array':
      return [sample(def.element!, name)];
    case 'union':
      return sample(def.options![0]!, name);
    case 'enum':
      return Object.values(def.entries!)[0];
    case 'literal':
      return def.values![0];
    case 'boolean':
      return false;
    case 'number': {
      if (name in LINKS && typeof LINKS[name] === 'number') return LINKS[name];
      const min = def.checks?.find((c) => c._zod.def.check === 'greater_than')?._zod.def.minimum;
      return Math.max(1, min ?? 1);
    }
    case 'string':
      return sampleText(def, name);
    case 'record':
      return {};
    case 'unknown':
    case 'any':
      return name in LINKS ? LINKS[name] : 'sample';
    default:
      return undefined;
  }
}

function sampleText(def: Def, name: string): string {
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.format ?? checks.find((c) => c.format !== undefined && c.format !== 'regex')?.format) {
    case 'email':
      return 'sample@example.com';
    case 'datetime':
      return '2026-01-20T10:00:00Z';
    case 'date':
      return '2026-01-20';
    case 'url':
      return 'https://example.com/sample';
    case 'uuid':
      return '6f1c2b1e-4a53-4c1b-9a7e-2f8d0c3b5a10';
  }
  if (checks.some((c) => c.format === 'regex')) return '10.00';
  const max = checks.find((c) => c.check === 'max_length')?.maximum;
  if (name === 'currency' || max === 3) return 'USD';
  return name ? `sample ${name}`.slice(0, max ?? 64) : 'sample';
}

/** Drops what the version's schema does not know (an override written for another version). */
function keepKnown(body: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  let def = defOf(schema);
  while (def.type === 'optional' || def.type === 'nullable') def = defOf(def.innerType!);
  if (def.type !== 'object') return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => key in def.shape!));
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { def: Def }).def;
}
