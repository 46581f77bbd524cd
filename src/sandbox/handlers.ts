// What each operation does to the sandbox's state. Every operation of the table has a handler
// here (the type checker insists), and each either returns the response body or throws HttpError.
import type { OperationId } from '../api/operations.js';
import type { OperationParams, OperationParsedBody, OperationParsedQuery } from '../api/types.js';
import { customerObject } from './customers.js';
import { createExport, presentExport } from './exports.js';
import { attribution, billingAddress, shippingAddress } from '../api/schemas/common.js';
import { outbox, type EventsOf } from './events.js';
import { badRequest, HttpError, notFound } from './http-error.js';
import { fromCents, sumCents, toCents } from './money.js';
import { pageOf } from './pages.js';
import { renewSubscription } from './renewal.js';
import { SANDBOX_APP } from './settings.js';
import type { FulfillmentOrder, OrderLine, SandboxState, SubscriptionRecord, Webhook } from './state.js';
import { subscriptionAnswer, subscriptionView, updatedSubscriptionAnswer } from './subscription-views.js';
import { recomputeOrderTotals } from './totals.js';

export interface HandlerContext<Id extends OperationId> {
  state: SandboxState;
  params: OperationParams<Id>;
  body: [OperationParsedBody<Id>] extends [never] ? undefined : OperationParsedBody<Id>;
  /** The known query parameters, checked; unknown ones are ignored, as the platform does. */
  query: [OperationParsedQuery<Id>] extends [never] ? undefined : OperationParsedQuery<Id>;
  /** The request's URL on the sandbox's origin: list pages link to it with another cursor. */
  url: URL;
  /** Items per page of a list. */
  pageSize: number;
  /** The sandbox's own origin, for URLs it hands out. */
  origin: string;
  now: string;
  /** The same moment in ms, on the sandbox's clock (clock.ts). */
  nowMs: number;
  /** How long a new export stays pending. */
  exportDelayMs: number;
  /** A temporary signed link to an export's file. */
  signExportLink: (id: number) => string;
  /** Queues a webhook event; only the events the change's entry in events.ts lists. */
  emit(event: EventsOf<Id>, data: unknown): void;
}

type Handlers = { [Id in OperationId]: (ctx: HandlerContext<Id>) => unknown };

const SANDBOX_AGENT = { email: 'admin@sandbox.example', first_name: 'Sandbox', id: 1, last_name: 'Admin' };

export const handlers: Handlers = {
  'orders.removeLine': ({ state, params, now, emit }) => {
    const order = findOrder(state, params.number);
    const lines = order.lines ?? [];
    const line = lines.find((l) => l.id === params.lineId);
    if (!line) throw notFound(`Line ${params.lineId} of order ${params.number}`);
    if (lines.length === 1) throw badRequest('An order must keep at least one line; cancel the order instead.');
    checkRemovable(line);
    // A fulfillment order is never left with nothing to fulfil: the store refuses rather than guess
    // whether to cancel it (a fulfillment service may already be working on it).
    const holding = Object.values(state.fulfillmentOrders).filter(
      (fo) => fo.order_number === order.number && (fo.line_items ?? []).some((i) => i.order_line_id === line.id),
    );
    const emptied = holding.find((fo) => (fo.line_items ?? []).every((i) => i.order_line_id === line.id));
    if (emptied) {
      throw badRequest(`Line ${line.id} is the last line of fulfillment order ${emptied.id}, which cannot be left empty; cancel the fulfillment order instead.`);
    }
    order.lines = lines.filter((l) => l !== line);
    for (const fo of holding) fo.line_items = (fo.line_items ?? []).filter((i) => i.order_line_id !== line.id);
    order.updated_at = now;
    recomputeOrderTotals(order);
    emit('order.updated', order);
    return order;
  },

  'orders.addNote': ({ state, params, body, now, emit }) => {
    const order = findOrder(state, params.number);
    const note = { ...newNote(state, body.message), date_created: now, date_updated: now };
    (state.orderNotes[params.number] ??= []).push(note);
    emit('order.updated', order);
    return note;
  },

  'subscriptions.cancel': ({ state, params, body, emit }) => {
    const subscription = findSubscription(state, params.id);
    if (subscription.status === 'canceled') throw badRequest(`Subscription ${params.id} is already canceled.`);
    subscription.status = 'canceled';
    subscription.cancel_reason = body.cancel_reason;
    subscription.cancel_reason_other_message = body.cancel_reason_other_message ?? '';
    emit('subscription.updated', subscriptionView(subscription));
    return subscriptionAnswer(subscription);
  },

  'subscriptions.renew': ({ state, params, now, emit }) => {
    const subscription = findSubscription(state, params.id);
    // The platform renews only active subscriptions; a past_due one's payment is retried by its retry operation.
    if (subscription.status !== 'active') throw badRequest(renewRefusal(params.id, subscription.status));
    renewSubscription(state, subscription, now, emit);
    return subscriptionAnswer(subscription);
  },

  'subscriptions.update': ({ state, params, body, emit }) => {
    const subscription = findSubscription(state, params.id);
    const { attribution: sentAttribution, billing_address, shipping_address, shipping_price, ...rest } = body;
    Object.assign(subscription, rest);
    // Like a store's serializer: a sent object updates the fields it names, and money comes back
    // written out in full ("0.50" for ".5").
    if (sentAttribution !== undefined) subscription.attribution = merged(attribution, subscription.attribution, sentAttribution);
    if (billing_address !== undefined) subscription.billing_address = billing_address && merged(billingAddress, subscription.billing_address, billing_address);
    if (shipping_address !== undefined) subscription.shipping_address = shipping_address && merged(shippingAddress, subscription.shipping_address, shipping_address);
    if (shipping_price !== undefined) subscription.shipping_price = shipping_price === null ? null : fromCents(toCents(shipping_price));
    subscription.total = fromCents(
      sumCents(subscription.lines.map((l) => fromCents(toCents(l.price) * (l.quantity ?? 1)))) +
        toCents(subscription.shipping_price),
    );
    emit('subscription.updated', subscriptionView(subscription));
    return updatedSubscriptionAnswer(subscription);
  },

  'orders.getFulfillmentEvent': ({ state, params }) => {
    const order = findOrder(state, params.number);
    if (!(order.fulfillments ?? []).some((f) => f.id === params.fulfillmentId)) {
      throw notFound(`Fulfillment ${params.fulfillmentId} of order ${params.number}`);
    }
    const event = state.fulfillmentEvents[params.eventId];
    if (!event || event.fulfillment !== params.fulfillmentId || event.order !== params.number) {
      throw notFound(`Event ${params.eventId} of fulfillment ${params.fulfillmentId}`);
    }
    return event;
  },

  'orders.listFulfillmentOrders': ({ state, params }) => {
    findOrder(state, params.number);
    return Object.values(state.fulfillmentOrders)
      .filter((fo) => fo.order_number === params.number)
      .map((fo) => withLineShape(fo, 'retrieval'));
  },

  'customers.addNote': ({ state, params, body, now, emit }) => {
    const customer = state.customers[params.id];
    if (!customer) throw notFound(`Customer ${params.id}`);
    const note = { ...newNote(state, body.message), created_at: now, updated_at: now };
    customer.notes.push(note);
    emit('customer.updated', customerObject(state, params.id));
    return note;
  },

  'fulfillmentOrders.rejectCancellation': ({ state, params, now }) => {
    const fo = state.fulfillmentOrders[params.id];
    if (!fo) throw notFound(`Fulfillment order ${params.id}`);
    if (fo.request_status !== 'cancel_requested') {
      throw badRequest(`Fulfillment order ${params.id} has no pending cancellation request.`);
    }
    fo.request_status = 'cancel_rejected';
    fo.supported_actions = (fo.supported_actions ?? []).filter((a) => !String(a).startsWith('cancellation_request'));
    fo.updated_at = now;
    // No published event is about a fulfillment order, and nothing about a fulfillment changed.
    return withLineShape(fo, 'reject');
  },

  'exports.create': ({ state, body, origin, now, nowMs, exportDelayMs }) => {
    if (Date.parse(body.date_from) > Date.parse(body.date_to)) {
      throw new HttpError(400, { non_field_errors: ['date_from must not be after date_to.'] });
    }
    const fields = { created_at: now, date_from: body.date_from, date_to: body.date_to, type: body.type };
    return presentExport(createExport(state, fields, nowMs, exportDelayMs), origin);
  },

  'exports.get': ({ state, params, origin }) => presentExport(findExport(state, params.id), origin),

  'exports.download': ({ state, params, signExportLink }) => {
    const found = findExport(state, params.id);
    if (found.status !== 'available') {
      throw badRequest(`Export ${params.id} is still ${String(found.status)}; its file can be downloaded once its status is "available".`);
    }
    return { url: signExportLink(found.id) };
  },

  'disputes.create': ({ state, body, now, emit }) => {
    const found = body.transaction == null ? undefined : findTransaction(state, body.transaction);
    if (body.transaction != null && !found) {
      throw new HttpError(400, { transaction: [`Invalid pk "${body.transaction}" - object does not exist.`] });
    }
    if (found) {
      found.transaction.is_disputed = true;
      const order = state.orders[found.orderNumber]!;
      order.updated_at = now;
      emit('transaction.updated', found.transaction);
      emit('order.updated', order);
    }
    const id = ++state.lastIds.dispute;
    const amount = body.amount != null ? fromCents(toCents(body.amount)) : (found?.transaction.amount ?? null);
    const currency = body.currency ?? found?.transaction.currency ?? null;
    const dispute = {
      id,
      amount,
      arn: body.arn ?? null,
      case_number: body.case_number ?? null,
      currency,
      date_created: now,
      happened_at: body.happened_at ?? now,
      metadata: body.metadata ?? {},
      order: found ? Number(found.orderNumber) : null,
      report_amount: amount,
      report_currency: currency,
      resolution: body.resolution ?? null,
      resolution_other_message: body.resolution_other_message ?? null,
      status: 'new',
      transaction: body.transaction ?? null,
      type: body.type ?? 'chargeback',
    };
    state.disputes[id] = dispute;
    emit('dispute.created', dispute);
    return dispute;
  },

  'exports.listTypes': ({ state }) => ({ types: state.exportTypes }),

  'categories.get': ({ state, params }) => {
    const category = state.categories[params.id];
    if (!category) throw notFound(`Category ${params.id}`);
    return category;
  },

  'apps.updateSettings': ({ state, params, body }) => {
    const settings = state.appSettings[params.clientId];
    if (!settings) throw notFound(`App ${params.clientId}`);
    Object.assign(settings, body);
    return settings;
  },

  'webhooks.create': ({ state, body, now }) => {
    checkDeliveryTarget(body.target);
    const id = ++state.lastIds.webhook;
    const webhook = {
      id,
      active: body.active ?? true,
      api_version: body.api_version ?? null,
      created_at: now,
      updated_at: now,
      next_check_date: null,
      events: body.events,
      name: body.name ?? null,
      secret_key: body.secret_key ?? null,
      target: body.target,
      warning_count: 0,
    };
    state.webhooks[id] = webhook;
    return webhook;
  },

  'webhooks.get': ({ state, params }) => findWebhook(state, params.id),

  'webhooks.list': ({ state, query, url, pageSize }) => {
    const active = query.active === undefined ? undefined : query.active === 'true';
    const matching = Object.values(state.webhooks)
      .filter((w) => (query.name === undefined || w.name === query.name) && (active === undefined || w.active === active))
      .sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    return pageOf(matching, url, pageSize);
  },

  'webhooks.update': ({ state, params, body, now }) => {
    const webhook = findWebhook(state, params.id);
    if (body.target !== undefined) checkDeliveryTarget(body.target);
    Object.assign(webhook, body, { updated_at: now });
    return webhook;
  },

  'webhooks.delete': ({ state, params }) => {
    findWebhook(state, params.id);
    delete state.webhooks[params.id];
    // Deliveries still queued for it have nowhere to go.
    state.webhookOutbox = outbox(state).filter((d) => d.webhook !== params.id);
    return undefined;
  },
};

function findWebhook(state: SandboxState, id: number): Webhook {
  const webhook = state.webhooks[id];
  if (!webhook) throw notFound(`Webhook ${id}`);
  return webhook;
}

/** The sandbox delivers for real: plain http only to this machine, never across a network. */
export function checkDeliveryTarget(target: string) {
  const url = new URL(target);
  const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(url.hostname);
  if (url.protocol === 'http:' && !loopback) {
    throw new HttpError(400, { target: ['The sandbox delivers over http:// only to this machine (localhost, 127.0.0.1, [::1]); use https:// elsewhere.'] });
  }
}

/**
 * Only a line that is editable as a whole can be removed: `editable_quantity` says how many of its
 * units may still change (none once fulfilled, refunded or cancelled, fewer once partly fulfilled).
 */
function checkRemovable(line: OrderLine) {
  const editable = Number(line.editable_quantity ?? 0);
  if (editable <= 0) throw badRequest(`Line ${line.id} has no editable quantity left (fulfilled, refunded or cancelled) and cannot be removed.`);
  if (editable < Number(line.current_quantity ?? 0)) {
    throw badRequest(`Only ${editable} of the ${line.current_quantity} units of line ${line.id} are editable (the rest are fulfilled); it cannot be removed.`);
  }
}

const RENEW_REFUSALS = new Map<string, (id: number) => string>([
  // The platform's reference has the operation that does it: POST /subscriptions/{id}/retry/.
  ['past_due', (id) => `is past_due: it is not renewed, its payment is retried (POST /subscriptions/${id}/retry/)`],
  ['retrying', () => 'is retrying its payment; only an active subscription can be renewed'],
  ['canceled', () => 'is canceled and cannot be renewed'],
]);

function renewRefusal(id: number, status: unknown): string {
  const why = RENEW_REFUSALS.get(String(status))?.(id) ?? `is ${String(status)}; only an active subscription can be renewed`;
  return `Subscription ${id} ${why}.`;
}

function findExport(state: SandboxState, id: number) {
  const found = state.exports[id];
  if (!found) throw notFound(`Export ${id}`);
  return found;
}

/** `sent` over what is stored, object by object; fields neither names are null, so the answer keeps its documented shape. */
function merged<T>(schema: { shape: Record<string, unknown> }, stored: T | null | undefined, sent: Record<string, unknown>): T {
  const blank = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, null]));
  return deepMerge({ ...blank, ...stored }, sent) as T;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function deepMerge(stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const result = { ...stored };
  for (const [key, value] of Object.entries(sent)) {
    const before = result[key];
    result[key] = isPlainObject(before) && isPlainObject(value) ? deepMerge(before, value) : value;
  }
  return result;
}

/** Order and customer notes share these fields; only the names of their timestamps differ. */
function newNote(state: SandboxState, message: string) {
  return { app: SANDBOX_APP, author: SANDBOX_AGENT, id: ++state.lastIds.note, message };
}

function findOrder(state: SandboxState, number: string) {
  const order = state.orders[number];
  if (!order) throw notFound(`Order ${number}`);
  return order;
}

function findSubscription(state: SandboxState, id: number): SubscriptionRecord {
  const subscription = state.subscriptions[id];
  if (!subscription) throw notFound(`Subscription ${id}`);
  return subscription;
}

function findTransaction(state: SandboxState, id: number) {
  for (const [orderNumber, order] of Object.entries(state.orders)) {
    const transaction = (order.transactions ?? []).find((t) => t.id === id);
    if (transaction) return { orderNumber, transaction };
  }
  return undefined;
}


/** Retrieval responses carry the *_excl_discounts prices; reject responses carry total_discount. */
export function withLineShape(fo: FulfillmentOrder, shape: 'retrieval' | 'reject'): FulfillmentOrder {
  return {
    ...fo,
    line_items: (fo.line_items ?? []).map((item) => {
      const { price_excl_tax_excl_discounts, price_incl_tax_excl_discounts, total_discount, ...rest } = item;
      return shape === 'retrieval'
        ? { ...rest, price_excl_tax_excl_discounts, price_incl_tax_excl_discounts }
        : { ...rest, total_discount };
    }),
  };
}
