// THE operation table: the only place a path, method, API version or scope is written.
// The client, the commands, the sandbox's router and the docs all read it. Schemas load lazily
// so that a command pays only for the operation it runs.
import type { ZodMiniType } from 'zod/mini';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** `id`: a positive 32-bit integer; `string`: any non-empty text. */
export type ParamKind = 'id' | 'string';

export interface OperationSchemas {
  body?: ZodMiniType;
  /** Query parameters, as the text they travel as; unknown ones are refused before sending. */
  query?: ZodMiniType;
  response: ZodMiniType;
  /** Reshapes an answer the platform may send in several forms (4.7). */
  normalize?: (body: unknown) => unknown;
}

export interface Operation {
  method: Method;
  /** Relative to `{base_url}/api/admin`, with `{name}` placeholders. */
  path: string;
  /** The X-Store-API-Version value the client sends (the one the spec states). */
  version: string;
  /**
   * Other versions in which the platform's reference has the operation, unchanged: the store
   * accepts these too (see versionsOf).
   */
  otherVersions?: readonly string[];
  /** Every one of these is needed (4.9 names two); empty means a bare token suffices. */
  scopes: readonly string[];
  /** Path parameters in the order they appear in `path`. */
  params: Readonly<Record<string, ParamKind>>;
  summary: string;
  /**
   * The kind of object the answer is, as webhook events name it (`order`, `subscription`, …): a
   * delivery's `data` takes the shape of this answer at the webhook's API version (sandbox/payloads.ts).
   */
  object?: string;
  /** The status the platform answers on success (clients accept any 2xx). */
  success: number;
  /**
   * Spec section, for docs and errors; `ref` marks an operation taken from the platform's
   * published API reference because our spec does not describe it (see sourceOf).
   */
  section: string;
  /**
   * The change cannot be undone: it removes, ends or refuses something, or bills a customer. Its
   * command asks first at a terminal and needs --yes without one (see `help exit-codes`).
   */
  irreversible?: true;
  schemas: () => Promise<OperationSchemas>;
}

/** Loads once: a bulk run asks for an operation's schemas thousands of times. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

const orders = () => import('./schemas/orders.js');
const subscriptions = () => import('./schemas/subscriptions.js');

export const operations = {
  'orders.removeLine': {
    section: '4.1',
    method: 'DELETE',
    path: '/orders/{number}/lines/{lineId}/',
    version: '2024-04-01',
    scopes: ['orders:write'],
    params: { number: 'string', lineId: 'id' },
    summary: 'Remove a line from an order; answers the order after removal',
    object: 'order',
    success: 200,
    irreversible: true,
    schemas: once(async () => (await orders()).removeLine),
  },
  'orders.addNote': {
    section: '4.2',
    method: 'POST',
    path: '/orders/{number}/notes/',
    version: 'unstable',
    scopes: ['orders:write'],
    params: { number: 'string' },
    summary: 'Add a note to an order',
    success: 200,
    schemas: once(async () => (await orders()).addNote),
  },
  'subscriptions.cancel': {
    section: '4.3',
    method: 'POST',
    path: '/subscriptions/{id}/cancel/',
    version: '2023-02-10',
    otherVersions: ['2024-04-01'],
    scopes: ['subscriptions:write'],
    params: { id: 'id' },
    summary: 'Cancel a subscription',
    object: 'subscription',
    success: 200,
    irreversible: true,
    schemas: once(async () => (await subscriptions()).cancel),
  },
  'subscriptions.renew': {
    section: '4.4',
    method: 'POST',
    path: '/subscriptions/{id}/renew/',
    version: '2023-02-10',
    otherVersions: ['2024-04-01'],
    scopes: ['subscriptions:write'],
    params: { id: 'id' },
    summary: 'Renew a subscription now, creating a renewal order',
    object: 'subscription',
    success: 200,
    irreversible: true,
    schemas: once(async () => (await subscriptions()).renew),
  },
  'subscriptions.update': {
    section: '4.5',
    method: 'PATCH',
    path: '/subscriptions/{id}/',
    version: '2024-04-01',
    scopes: ['subscriptions:write'],
    params: { id: 'id' },
    summary: 'Change some fields of a subscription',
    object: 'subscription',
    success: 200,
    schemas: once(async () => (await subscriptions()).update),
  },
  'orders.getFulfillmentEvent': {
    section: '4.6',
    method: 'GET',
    path: '/orders/{number}/fulfillments/{fulfillmentId}/events/{eventId}/',
    version: '2023-02-10',
    otherVersions: ['2024-04-01'],
    scopes: ['orders:read'],
    params: { number: 'string', fulfillmentId: 'id', eventId: 'string' },
    summary: 'Show one event of a fulfillment',
    success: 200,
    schemas: once(async () => (await orders()).getFulfillmentEvent),
  },
  'orders.listFulfillmentOrders': {
    section: '4.7',
    method: 'GET',
    path: '/orders/{number}/fulfillment-orders/',
    version: '2023-02-10',
    otherVersions: ['2024-04-01'],
    scopes: ['orders:read'],
    params: { number: 'string' },
    summary: 'List the fulfillment orders of an order',
    success: 200,
    schemas: once(async () => (await orders()).listFulfillmentOrders),
  },
  'customers.addNote': {
    section: '4.8',
    method: 'POST',
    path: '/users/{id}/notes/',
    version: '2024-04-01',
    scopes: ['users:write'],
    params: { id: 'id' },
    summary: 'Add a note to a customer',
    success: 200,
    schemas: once(async () => (await orders()).addCustomerNote),
  },
  'fulfillmentOrders.rejectCancellation': {
    section: '4.9',
    method: 'POST',
    path: '/fulfillment-orders/{id}/cancellation-request/reject/',
    version: '2024-04-01',
    scopes: ['fulfillment_service:write', 'fulfillment_orders:write'],
    params: { id: 'id' },
    summary: 'Reject the pending cancellation request of a fulfillment order',
    success: 200,
    irreversible: true,
    schemas: once(async () => (await orders()).rejectCancellation),
  },
  'exports.create': {
    section: '4.10',
    method: 'POST',
    path: '/exports/',
    version: '2024-04-01',
    scopes: ['exports:write'],
    params: {},
    summary: 'Create a data export for a date range',
    object: 'export',
    success: 201,
    schemas: once(async () => (await import('./schemas/exports.js')).create),
  },
  'exports.get': {
    // Not in our spec: the platform's published reference and export guide (poll until available).
    section: 'ref',
    method: 'GET',
    path: '/exports/{id}/',
    version: '2024-04-01',
    scopes: ['exports:read'],
    params: { id: 'id' },
    summary: 'Show an export and its status (pending or available)',
    object: 'export',
    success: 200,
    schemas: once(async () => (await import('./schemas/exports.js')).get),
  },
  'exports.download': {
    // Not in our spec: the platform's published reference; the answer is a temporary signed link.
    section: 'ref',
    method: 'GET',
    path: '/exports/{id}/download/',
    version: '2024-04-01',
    scopes: ['exports:read'],
    params: { id: 'id' },
    summary: "Get a temporary signed link to an available export's file",
    success: 200,
    schemas: once(async () => (await import('./schemas/exports.js')).download),
  },
  'disputes.create': {
    section: '4.11',
    method: 'POST',
    path: '/disputes/',
    version: '2024-04-01',
    scopes: ['disputes:write'],
    params: {},
    summary: 'Record a dispute (alert or chargeback)',
    object: 'dispute',
    success: 201,
    schemas: once(async () => (await import('./schemas/disputes.js')).create),
  },
  'exports.listTypes': {
    section: '4.12',
    method: 'GET',
    path: '/exports/types/',
    version: '2024-04-01',
    scopes: ['exports:read'],
    params: {},
    summary: 'List the types of export',
    success: 200,
    schemas: once(async () => (await import('./schemas/exports.js')).listTypes),
  },
  'categories.get': {
    section: '4.13',
    method: 'GET',
    path: '/categories/{id}/',
    version: '2024-04-01',
    scopes: ['catalogue:read'],
    params: { id: 'id' },
    summary: 'Show a product category',
    success: 200,
    schemas: once(async () => (await import('./schemas/catalogue.js')).get),
  },
  'apps.updateSettings': {
    section: '4.14',
    method: 'PATCH',
    path: '/apps/{clientId}/settings/',
    version: '2024-04-01',
    scopes: [],
    params: { clientId: 'string' },
    summary: "Merge keys into an app's settings",
    success: 200,
    schemas: once(async () => (await import('./schemas/apps.js')).updateSettings),
  },
  'webhooks.create': {
    section: '4.15',
    method: 'POST',
    path: '/webhooks/',
    version: '2024-04-01',
    scopes: ['webhooks:write'],
    params: {},
    summary: 'Register a webhook',
    success: 201,
    schemas: once(async () => (await import('./schemas/webhooks.js')).create),
  },
  'webhooks.get': {
    section: '4.16',
    method: 'GET',
    path: '/webhooks/{id}/',
    version: '2024-04-01',
    scopes: ['webhooks:read'],
    params: { id: 'id' },
    summary: 'Show a webhook',
    success: 200,
    schemas: once(async () => (await import('./schemas/webhooks.js')).get),
  },
  'webhooks.list': {
    // Not in our spec: the platform's published reference (cursor pagination, filters name and active).
    section: 'ref',
    method: 'GET',
    path: '/webhooks/',
    version: '2024-04-01',
    scopes: ['webhooks:read'],
    params: {},
    summary: "List the store's webhooks, a page at a time",
    success: 200,
    schemas: once(async () => (await import('./schemas/webhooks.js')).list),
  },
  'webhooks.update': {
    // Not in our spec: the platform's published reference.
    section: 'ref',
    method: 'PATCH',
    path: '/webhooks/{id}/',
    version: '2024-04-01',
    scopes: ['webhooks:write'],
    params: { id: 'id' },
    summary: 'Change some fields of a webhook',
    success: 200,
    schemas: once(async () => (await import('./schemas/webhooks.js')).update),
  },
  'webhooks.delete': {
    // Not in our spec: the platform's published reference; the answer is 204 with no body.
    section: 'ref',
    method: 'DELETE',
    path: '/webhooks/{id}/',
    version: '2024-04-01',
    scopes: ['webhooks:write'],
    params: { id: 'id' },
    summary: 'Delete a webhook: the store stops sending its events',
    success: 204,
    irreversible: true,
    schemas: once(async () => (await import('./schemas/webhooks.js')).remove),
  },
} satisfies Record<string, Operation>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

export const operationIds = Object.keys(operations) as OperationId[];

/** Every version in which the store has the operation: the spec's first, then the reference's others. */
export function versionsOf(op: Operation): readonly string[] {
  return op.otherVersions ? [op.version, ...op.otherVersions] : [op.version];
}

/** The versions as help and docs show them: `2023-02-10 (also 2024-04-01, unchanged)`. */
export function describeVersions(op: Operation, mark: (version: string) => string = (version) => version): string {
  const others = op.otherVersions?.map(mark).join(', ');
  return others ? `${mark(op.version)} (also ${others}, unchanged)` : mark(op.version);
}

/** Where an operation's definition comes from, as help and docs show it. */
export function sourceOf(op: Pick<Operation, 'section'>): string {
  return op.section === 'ref' ? "the platform's published reference" : `spec ${op.section}`;
}

