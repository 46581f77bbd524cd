// `webhooks trigger <event>`: a real change to the sandbox's seeded data that emits the event, as a
// fixture would, and never against a real store. Each of the platform's events has its change:
// a request of the API, a change the store's dashboard makes (a gateway, the store's details, an
// app uninstalled: the sandbox takes those on routes of its own), or for cart.abandoned the
// sandbox's clock moved on until an open cart is abandoned. --set edits the request that makes
// the change, the one a user would send, so the payload shows it. Says what it did and which
// webhooks it reached, and warns when none subscribes.
import { ApiError, StoreAdminError, UsageError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';
import type { OperationId } from '../api/operations.js';
import type { Context } from '../context.js';
import type { ZodMiniType } from 'zod/mini';
import { DASHBOARD_CHANGES, dashboardPath, type DashboardChange, type DashboardChangeName } from '../sandbox/dashboard-changes.js';
import { advanceToNextChange, resetCommand, sandboxWebhooks, sandboxWrite } from './sandbox-admin.js';

interface Change {
  /** What the change did, in a sentence. */
  did: string;
  object_id: string | number;
}

type Body = Record<string, unknown>;

interface Fixture {
  /** The events the change emits (renewing a subscription also creates an order and a payment). */
  emits: readonly string[];
  /** The request whose body `--set` edits: an operation of the API or a change of the dashboard; none for a change that takes no body. */
  sets?: OperationId | DashboardChangeName;
  /** That request's body without --set (made afresh each time where it must be new: an e-mail). */
  body?: Body | (() => Body);
  /** The object that request changes, read from the store first: a dotted --set starts from its field, which the reference takes whole (an address). */
  start?: (client: StoreClient) => Promise<Body>;
  run(client: StoreClient, body: Body, edited: boolean, signal: AbortSignal): Promise<Change>;
}

/**
 * The objects of the sandbox's seed data the changes start from, named here as a user would name
 * them (a test holds them to the seed): the first order, its customer, its payment (a dispute is
 * opened on it) and its parcel (tracking events move it on), the active subscription, and the
 * subscriptions tried in turn for a renewal (only an active one renews; the others follow if an
 * earlier run canceled the first, or changed its status); the socks, which products and
 * subscriptions changes start from; the PayPal gateway; the app besides the partner app
 * (uninstalling it leaves the partner app's settings and sign-in alone); the first ticket.
 */
export const FIXTURES = {
  order: '10001',
  customer: 1,
  transaction: 501,
  fulfillment: 201,
  subscription: 1,
  renewable: [1, 2, 4],
  socks: { product: 1004, variant: 2104 },
  gateway: 2,
  app: 'loyalty-points',
  ticket: 1,
} as const;
const { order: ORDER, customer: CUSTOMER, transaction: TRANSACTION, fulfillment: FULFILLMENT, subscription: SUBSCRIPTION, renewable: RENEWABLE, socks: SOCKS, gateway: PAYPAL, app: LOYALTY_APP, ticket: TICKET } = FIXTURES;

/** The subscription the changes start from, as the store has it. */
async function readSubscription(client: StoreClient): Promise<Body> {
  return (await client.subscriptions.get({ params: { id: SUBSCRIPTION } })) as Body;
}

const NOTE = { message: 'Note added by store-admin webhooks trigger' };
/** Changes the clock may pass on its way to the moment an export is ready or a cart abandoned (renewals due before it). */
const MAX_CLOCK_MOVES = 20;
const NEW_PRODUCT = { title: 'Trail Test Bandana' };
// The renewal order is made from the subscription: --set changes the subscription first.
const RENEWAL = { emits: ['order.created', 'transaction.created', 'subscription.updated'], sets: 'subscriptionsPartialUpdate', body: {}, start: readSubscription, run: renewOne } as const;
const DISPUTE = { emits: ['dispute.created', 'transaction.updated', 'order.updated'], sets: 'disputesCreate', body: { transaction: TRANSACTION, type: 'chargeback' }, run: disputeOne } as const;

/** One change per event of the platform; the sandbox's rule for that change emits the event. */
export const TRIGGERS = new Map<string, Fixture>(Object.entries({
  'app.uninstalled': {
    emits: ['app.uninstalled'],
    run: async (client) => {
      await dashboardChange(client, 'uninstallApp', LOYALTY_APP, {}, 'the app loyalty-points is uninstalled already');
      return { did: `Uninstalled the app ${LOYALTY_APP}, as the store's dashboard does`, object_id: LOYALTY_APP };
    },
  },
  'cart.abandoned': { emits: ['cart.abandoned'], run: abandonNextCart },
  'customer.created': {
    emits: ['customer.created'],
    sets: 'usersCreate',
    // A customer's e-mail is theirs alone: each run makes a new one.
    body: () => ({ email: `trigger-${Date.now().toString(36)}@example.com`, first_name: 'Robin', last_name: 'Trailwalker' }),
    run: async (client, body) => {
      const made = (await client.call('usersCreate', { body })) as { id?: number; email?: string };
      return { did: `Created customer ${made.id} (${made.email})`, object_id: made.id ?? '' };
    },
  },
  'customer.updated': {
    emits: ['customer.updated'],
    sets: 'usersNotesCreate',
    body: NOTE,
    run: async (client, body) => {
      await client.customers.addNote({ params: { id: CUSTOMER }, body });
      return { did: `Added a note to customer ${CUSTOMER}`, object_id: CUSTOMER };
    },
  },
  'dispute.created': DISPUTE,
  'dispute.updated': { emits: ['dispute.updated'], sets: 'disputesResolveCreate', body: {}, run: resolveOne },
  'export.created': {
    emits: ['export.created'],
    sets: 'exportsCreate',
    body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' },
    run: async (client, body, _edited, signal) => {
      const created = (await client.exports.create({ body })) as Record<string, string | number | undefined>;
      const id = Number(created.id);
      // As on the platform, the event is sent when the export turns available, not when it is
      // created: the sandbox's clock is moved on to that moment rather than waited for.
      for (let moves = 0; ((await client.exports.get({ params: { id } }, { signal })) as { status?: unknown }).status !== 'available'; moves++) {
        const moved = moves < MAX_CLOCK_MOVES ? await advanceToNextChange(client, 'webhooks trigger') : undefined;
        if (!moved) throw new StoreAdminError(`Export ${created.id} was created but did not turn available, so export.created was not sent`);
      }
      return { did: `Created export ${created.id} (${created.type}, ${created.date_from} to ${created.date_to}) and moved the sandbox's clock on to when it turned available`, object_id: created.id ?? '' };
    },
  },
  'fulfillment.created': {
    emits: ['fulfillment.created', 'order.updated'],
    sets: 'fulfillmentsCreate',
    body: { tracking_info: [{ carrier: 'ups', tracking_code: '1ZTRIGGER0000000001' }], notify: false },
    run: fulfilOne,
  },
  'fulfillment.updated': {
    emits: ['fulfillment.updated'],
    sets: 'ordersFulfillmentsEventsCreate',
    body: { status: 'out_for_delivery', message: 'Out for delivery (sent by store-admin webhooks trigger)' },
    run: async (client, body) => {
      await client.call('ordersFulfillmentsEventsCreate', { params: { number: ORDER, fulfillmentId: FULFILLMENT }, body });
      return { did: `Added a tracking event (${String(body.status)}) to fulfillment ${FULFILLMENT} of order ${ORDER}`, object_id: FULFILLMENT };
    },
  },
  'gateway.created': {
    emits: ['gateway.created'],
    sets: 'addGateway',
    body: { name: 'Braintree', gateway_type: 'braintree', active: false },
    run: async (client, body) => {
      const made = (await dashboardChange(client, 'addGateway', '', body)) as { id?: number; name?: string };
      return { did: `Added the payment gateway ${made.id} (${made.name}), as the store's dashboard does`, object_id: made.id ?? '' };
    },
  },
  'gateway.updated': {
    emits: ['gateway.updated'],
    sets: 'changeGateway',
    body: { name: 'PayPal Checkout' },
    run: async (client, body) => {
      await dashboardChange(client, 'changeGateway', PAYPAL, body);
      return { did: `Changed the payment gateway ${PAYPAL} (${Object.keys(body).join(', ')}), as the store's dashboard does`, object_id: PAYPAL };
    },
  },
  'order.created': RENEWAL,
  'order.updated': {
    emits: ['order.updated'],
    sets: 'ordersNotesCreate',
    body: NOTE,
    run: async (client, body) => {
      await client.orders.addNote({ params: { number: ORDER }, body });
      return { did: `Added a note to order ${ORDER}`, object_id: ORDER };
    },
  },
  'product.created': {
    emits: ['product.created'],
    sets: 'productsCreate',
    body: NEW_PRODUCT,
    run: async (client, body) => {
      const made = (await client.call('productsCreate', { body })) as { id?: number; title?: string };
      return { did: `Created product ${made.id} (${made.title})`, object_id: made.id ?? '' };
    },
  },
  'product.updated': {
    emits: ['product.updated'],
    sets: 'productsPartialUpdate',
    body: { meta_title: 'Merino Trail Socks (3-pack) | Northwind Outfitters' },
    run: async (client, body) => {
      await client.call('productsPartialUpdate', { params: { id: SOCKS.product }, body });
      return { did: `Updated product ${SOCKS.product} (${Object.keys(body).join(', ')})`, object_id: SOCKS.product };
    },
  },
  // A seeded product is in orders and subscriptions: a new one is made to be deleted.
  'product.deleted': {
    emits: ['product.created', 'product.deleted'],
    sets: 'productsCreate',
    body: NEW_PRODUCT,
    run: async (client, body) => {
      const made = (await client.call('productsCreate', { body })) as { id?: number };
      await client.call('productsDestroy', { params: { id: Number(made.id) } });
      return { did: `Created product ${made.id} and deleted it`, object_id: made.id ?? '' };
    },
  },
  'store.updated': {
    emits: ['store.updated'],
    sets: 'changeStore',
    body: { tagline: 'Layers for the trail, the town and the tests.' },
    run: async (client, body) => {
      await dashboardChange(client, 'changeStore', '', body);
      return { did: `Changed the store's details (${Object.keys(body).join(', ')}), as the store's dashboard does`, object_id: '' };
    },
  },
  'subscription.created': {
    emits: ['subscription.created'],
    sets: 'subscriptionsCreate',
    body: () => ({
      user: { email: 'maya.lindqvist@example.com' },
      lines: [{ product_id: SOCKS.variant, quantity: 1 }],
      interval: 'month',
      interval_count: 1,
      next_renewal_date: new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      payment_method: 'card_token',
      payment_details: { card_token: 'test_card' },
      use_default_billing_address: true,
      use_default_shipping_address: true,
    }),
    run: async (client, body) => {
      const made = (await client.call('subscriptionsCreate', { body })) as { id?: number };
      return { did: `Created subscription ${made.id}`, object_id: made.id ?? '' };
    },
  },
  'subscription.updated': {
    emits: ['subscription.updated'],
    sets: 'subscriptionsPartialUpdate',
    body: { is_test: true },
    start: readSubscription,
    run: async (client, body, edited) => {
      await client.subscriptions.update({ params: { id: SUBSCRIPTION }, body });
      const did = edited ? `Updated subscription ${SUBSCRIPTION} (${Object.keys(body).join(', ')})` : `Marked subscription ${SUBSCRIPTION} as a test subscription`;
      return { did, object_id: SUBSCRIPTION };
    },
  },
  'ticket.created': {
    emits: ['ticket.created'],
    sets: 'ticketsCreate',
    body: { subject: 'Where are my socks?', priority: 'medium', comment: { body: 'Opened by store-admin webhooks trigger', is_public: false } },
    run: async (client, body) => {
      const made = (await client.call('ticketsCreate', { body })) as { id?: number };
      return { did: `Opened ticket ${made.id}`, object_id: made.id ?? '' };
    },
  },
  'ticket.updated': {
    emits: ['ticket.updated'],
    sets: 'ticketsCommentsCreate',
    body: { body: 'Comment added by store-admin webhooks trigger', is_public: false },
    run: async (client, body) => {
      await client.call('ticketsCommentsCreate', { params: { id: TICKET }, body });
      return { did: `Added a comment to ticket ${TICKET}`, object_id: TICKET };
    },
  },
  'transaction.created': RENEWAL,
  'transaction.updated': DISPUTE,
} satisfies Record<string, Fixture>));

/** Every event the command takes: each has its change. */
export const TRIGGERABLE_EVENTS: readonly string[] = [...TRIGGERS.keys()];

/** The schema of the request a fixture's --set edits, and how a person names that request. */
async function requestOf(sets: OperationId | DashboardChangeName): Promise<{ schema: ZodMiniType; command: string; hint: string }> {
  if (Object.hasOwn(DASHBOARD_CHANGES, sets)) {
    const change: DashboardChange = DASHBOARD_CHANGES[sets as DashboardChangeName];
    const fields = Object.keys((change.body as unknown as { def: { shape: Body } }).def.shape);
    return { schema: change.body!, command: `the dashboard's "${change.does}"`, hint: `Its fields: ${fields.join(', ')}` };
  }
  const { loadOperation } = await import('../api/operations.js');
  const op = await loadOperation(sets as OperationId);
  return { schema: ((await op.schemas()) as { body: ZodMiniType }).body, command: op.command, hint: `store-admin ${op.command} --help lists its fields` };
}

/**
 * The fixture's body with each `path=value` of --set applied, checked against the request's own
 * schema: a path the object does not have, or a value the schema refuses, is a UsageError (exit 2)
 * before anything is sent. A value is taken as text, or as JSON (12, true, null) when the schema
 * refuses the text and takes that; a JSON object or list ({…}, […]) is taken as one.
 */
export async function bodyWithSets(event: string, fixture: Fixture, sets: readonly string[], start?: Body): Promise<Body> {
  const body: Body = structuredClone(typeof fixture.body === 'function' ? fixture.body() : (fixture.body ?? {}));
  if (sets.length === 0 || !fixture.sets) return body;
  const request = await requestOf(fixture.sets);
  const { schema } = request;
  const { toFieldIssues } = await import('../api/validate.js');
  for (const pair of sets) {
    const at = pair.indexOf('=');
    const path = (at < 0 ? '' : pair.slice(0, at)).trim().split('.');
    if (path.some((part) => !/^[A-Za-z_][\w-]*$/.test(part))) throw new UsageError(`--set takes path=value, such as shipping_price=9.50 or billing_address.line4=Oslo (got "${pair}")`);
    const text = pair.slice(at + 1);
    if (path.length > 2) throw unknownPath(event, request, path.join('.'));
    // The reference takes an object field whole: a dotted path starts from the object as the store has it.
    if (path.length === 2 && body[path[0]!] === undefined) {
      const whole = await startOf(schema, path[0]!, start?.[path[0]!]);
      if (whole) body[path[0]!] = whole;
    }
    const issuesWith = (value: unknown) => {
      setAt(body, path, value);
      const parsed = schema.safeParse(body);
      // The issues of the path set, or of an object on the way to it (or of the whole body).
      return parsed.success ? [] : toFieldIssues('', parsed.error.issues, body).filter((i) => i.path.length <= path.length && i.path.every((key, n) => key === path[n]));
    };
    const json = asJson(text);
    // An object or a list written in JSON is meant as one: a free-form field (metadata) takes text too.
    const first = json !== undefined && typeof json.value === 'object' && json.value !== null ? json.value : text;
    let issues = issuesWith(first);
    if (issues.length > 0 && first === text) {
      if (json !== undefined && issuesWith(json.value).length === 0) issues = [];
      else issuesWith(text);
    }
    const unknown = issues.find((i) => /^unknown field/.test(i.message));
    if (unknown) throw unknownPath(event, request, path.join('.'));
    if (issues.length > 0) throw new UsageError(`--set ${path.join('.')}: ${issues[0]!.message} (got "${text}"); nothing was sent`);
  }
  return body;
}

/** The fields of an object as the store has it that the request takes back (an answered address has an id a request does not take). */
async function startOf(schema: ZodMiniType, name: string, value: unknown): Promise<Body | undefined> {
  const { shapeOf } = await import('../fields/constraints.js');
  const fields = shapeOf(shapeOf(schema)?.[name]);
  if (!fields || value === null || typeof value !== 'object') return undefined;
  return Object.fromEntries(Object.entries(value).filter(([key]) => Object.hasOwn(fields, key)));
}

function unknownPath(event: string, request: { command: string; hint: string }, path: string) {
  return new UsageError(`--set ${path}: ${event}'s change (${request.command}) has no field ${path}; nothing was sent`, { hint: request.hint });
}

function setAt(body: Body, path: string[], value: unknown) {
  let object = body;
  for (const key of path.slice(0, -1)) {
    const next = object[key];
    object = object[key] = next !== null && typeof next === 'object' && !Array.isArray(next) ? (next as Body) : {};
  }
  object[path.at(-1)!] = value;
}

function asJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** A change the store's dashboard makes, through the sandbox's route for it; a record already gone means the seed is used up. */
async function dashboardChange(client: StoreClient, name: DashboardChangeName, key: string | number, body: Body, gone?: string): Promise<Body> {
  const change = DASHBOARD_CHANGES[name];
  const answer = await sandboxWrite<{ object?: Body }>(client, dashboardPath(name, key), body, change.method, gone ? () => exhausted(gone) : undefined);
  return answer.object ?? {};
}

/** Renewing a subscription creates an order, paid by a new transaction; --set changes the active subscription first. */
async function renewOne(client: StoreClient, body: Body, edited: boolean): Promise<Change> {
  if (edited) await client.subscriptions.update({ params: { id: SUBSCRIPTION }, body });
  for (const id of RENEWABLE) {
    try {
      const renewed = (await client.subscriptions.renew({ params: { id } })) as { orders?: { order_number?: string }[] };
      const order = renewed.orders?.at(-1)?.order_number;
      return { did: `Renewed subscription ${id}, which created order ${order}`, object_id: order ?? id };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400)) throw error;
    }
  }
  throw exhausted('no seeded subscription can be renewed any more');
}

/** A dispute on the first order's payment (unless --set says otherwise) marks it disputed. */
async function disputeOne(client: StoreClient, body: Body): Promise<Change> {
  const dispute = (await client.disputes.create({ body })) as { id?: number; transaction?: number | null; order?: number | null };
  const on = dispute.transaction == null ? '' : ` on transaction ${dispute.transaction}${dispute.order == null ? '' : ` of order ${dispute.order}`}`;
  return { did: `Opened dispute ${dispute.id}${on}`, object_id: dispute.id ?? '' };
}

/** How a dispute still open ends unless --set says otherwise: a chargeback won, an alert with nothing to do. */
const RESOLUTION_OF: Record<string, string> = { chargeback: 'won', alert: 'declined_or_canceled_nothing_to_do' };

/** Resolves the oldest dispute still open (new or open). */
async function resolveOne(client: StoreClient, body: Body): Promise<Change> {
  for (const status of ['new', 'open']) {
    const page = (await client.call('disputesList', { query: { status } })) as { results?: { id: number; type?: string }[] };
    const dispute = page.results?.at(-1);
    if (!dispute) continue;
    const resolved = (await client.call('disputesResolveCreate', { params: { id: dispute.id }, body: { resolution: RESOLUTION_OF[String(dispute.type)], ...body } })) as { resolution?: string };
    return { did: `Resolved dispute ${dispute.id} (${resolved.resolution})`, object_id: dispute.id };
  }
  throw exhausted('every dispute is resolved already (store-admin webhooks trigger dispute.created opens a new one)');
}

/** Ships what is left of the first open fulfillment order that can be fulfilled, with its tracking. */
async function fulfilOne(client: StoreClient, body: Body): Promise<Change> {
  const page = (await client.call('fulfillmentOrdersList', { query: { status: ['open'] } })) as { results?: { id: number; order_number?: string }[] };
  for (const fo of [...(page.results ?? [])].reverse()) {
    try {
      const made = (await client.call('fulfillmentsCreate', { params: { id: fo.id }, body })) as { id?: number };
      return { did: `Fulfilled fulfillment order ${fo.id} of order ${fo.order_number}: fulfillment ${made.id}`, object_id: made.id ?? '' };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400)) throw error;
    }
  }
  throw exhausted('no open fulfillment order can be fulfilled any more');
}

/** Moves the sandbox's clock on, change by change, until an open cart is abandoned (a day after its last change); with none open, opens one first. */
async function abandonNextCart(client: StoreClient): Promise<Change> {
  const open = (await client.call('cartsList', { query: { abandoned: false } })) as { results?: { status?: string }[] };
  if (!open.results?.some((cart) => cart.status === 'Open')) {
    await client.call('cartsCreate', { body: { user: { email: 'maya.lindqvist@example.com' }, lines: [{ product_id: SOCKS.variant, quantity: 1 }] } });
  }
  for (let moves = 0; moves < MAX_CLOCK_MOVES; moves++) {
    const moved = await advanceToNextChange(client, 'webhooks trigger');
    const cart = moved?.carts?.[0];
    if (cart) return { did: `Moved the sandbox's clock on to ${cart.at}, when cart ${cart.id} had gone a day without a change`, object_id: cart.id };
    if (!moved) break;
  }
  throw exhausted('no open cart was abandoned as the clock moved on');
}

/** The seed's objects are used up: `trigger` adds how to restore them, for the sandbox in use. */
class Exhausted extends StoreAdminError {}

function exhausted(why: string) {
  return new Exhausted(`Cannot trigger the event: ${why}`);
}

function noSubscriber(event: string): string {
  return `warning: no active webhook subscribes to ${event}, so nothing was sent; try: store-admin webhooks listen --register --event ${event}`;
}

export interface TriggerResult extends Change {
  event: string;
  /** Every event the change emitted (renewing a subscription also updates it). */
  emitted: readonly string[];
  /** Active webhooks subscribed to the event, each sent one delivery. */
  webhooks: number[];
}

export async function trigger(ctx: Context, event: string, sets: readonly string[] = []): Promise<TriggerResult> {
  const fixture = TRIGGERS.get(event);
  if (!fixture) throw new UsageError(`The sandbox cannot trigger "${event}"`, { hint: `It can trigger: ${TRIGGERABLE_EVENTS.join(', ')}` });
  if (ctx.options.dryRun) throw new UsageError('webhooks trigger makes a real change in the sandbox; it has no --dry-run');
  if (!fixture.sets && sets.length > 0) {
    throw new UsageError(`--set edits the body of the request that makes the change, and the change behind ${event} takes none; nothing was sent`);
  }
  const client = await ctx.client();
  // Checked before anything is sent: a bad --set changes nothing. A dotted --set starts from the
  // object as the store has it (a read, which changes nothing).
  const start = fixture.start && sets.some((set) => set.split('=')[0]!.includes('.')) ? await fixture.start(client) : undefined;
  const body = await bodyWithSets(event, fixture, sets, start);
  const before = await sandboxWebhooks(client, 'webhooks trigger');
  const reached = before.filter((w) => w.active && w.events.includes(event)).map((w) => w.id);
  const change = await fixture.run(client, body, sets.length > 0, ctx.signal).catch(async (error: unknown) => {
    if (error instanceof Exhausted) error.hint = `Restore the seed data: ${await resetCommand(ctx)}`;
    throw error;
  });
  if (reached.length === 0) ctx.output.prose(noSubscriber(event));
  return { event, ...change, emitted: fixture.emits, webhooks: reached };
}
