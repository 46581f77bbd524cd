// `webhooks trigger <event>`: a real change to the sandbox's seeded data that emits the event, as
// a fixture would, and never against a real store. An event that no change in the sandbox's API
// causes (a new customer, an updated fulfillment, …) is sent with a seeded object of its kind and
// nothing changed. --set edits the request that makes a change, the one a user would send, so the
// payload shows it. Says what it did and which webhooks it reached, and warns when none subscribes.
import { ApiError, StoreAdminError, UsageError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import type { ZodMiniType } from 'zod/mini';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import { advanceToNextChange, resetCommand, sandboxWebhooks, sendSandboxSample } from './sandbox-admin.js';

interface Change {
  /** What the change did, in a sentence. */
  did: string;
  object_id: string | number;
}

type Body = Record<string, unknown>;

interface Fixture {
  /** The events the change emits (renewing a subscription also creates an order and a payment). */
  emits: readonly string[];
  /** The request whose body `--set` edits: the change itself, or the change to the object it starts from. */
  sets: 'subscriptionsPartialUpdate' | 'ordersNotesCreate' | 'usersNotesCreate' | 'disputesCreate' | 'exportsCreate';
  /** That request's body without --set. */
  body: Body;
  /** The object that request changes, read from the store first: a dotted --set starts from its field, which the reference takes whole (an address). */
  start?: (client: StoreClient) => Promise<Body>;
  run(client: StoreClient, body: Body, edited: boolean, signal: AbortSignal): Promise<Change>;
}

/**
 * The objects of the sandbox's seed data the changes start from, named here as a user would name
 * them (a test holds them to the seed): the first order, its customer, its payment (a dispute is
 * opened on it), the active subscription, and the subscriptions tried in turn for a renewal. Only
 * an active one renews; the others follow if an earlier run canceled the first, or changed its status.
 */
export const FIXTURES = { order: '10001', customer: 1, transaction: 501, subscription: 1, renewable: [1, 2, 4] } as const;
const { order: ORDER, customer: CUSTOMER, transaction: TRANSACTION, subscription: SUBSCRIPTION, renewable: RENEWABLE } = FIXTURES;

/** The subscription the changes start from, as the store has it. */
async function readSubscription(client: StoreClient): Promise<Body> {
  return (await client.subscriptions.get({ params: { id: SUBSCRIPTION } })) as Body;
}

const NOTE = { message: 'Note added by store-admin webhooks trigger' };
/** Changes the clock may pass on its way to a new export's moment (renewals due before it). */
const MAX_CLOCK_MOVES = 20;
// The renewal order is made from the subscription: --set changes the subscription first.
const RENEWAL = { emits: ['order.created', 'transaction.created', 'subscription.updated'], sets: 'subscriptionsPartialUpdate', body: {}, start: readSubscription, run: renewOne } as const;
const DISPUTE = { emits: ['dispute.created', 'transaction.updated', 'order.updated'], sets: 'disputesCreate', body: { transaction: TRANSACTION, type: 'chargeback' }, run: disputeOne } as const;

/** One change per event the sandbox can emit; the operation behind it lists the event in events.ts. */
export const TRIGGERS = new Map<string, Fixture>(Object.entries({
  'order.created': RENEWAL,
  'transaction.created': RENEWAL,
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
  'order.updated': {
    emits: ['order.updated'],
    sets: 'ordersNotesCreate',
    body: NOTE,
    run: async (client, body) => {
      await client.orders.addNote({ params: { number: ORDER }, body });
      return { did: `Added a note to order ${ORDER}`, object_id: ORDER };
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
  'transaction.updated': DISPUTE,
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
} satisfies Record<string, Fixture>));

/** Every event the command takes: those a change causes first, then those sent with a seeded object. */
export const TRIGGERABLE_EVENTS: readonly string[] = [...TRIGGERS.keys(), ...WEBHOOK_EVENTS.filter((event) => !TRIGGERS.has(event))];

/**
 * The fixture's body with each `path=value` of --set applied, checked against the request's own
 * schema: a path the object does not have, or a value the schema refuses, is a UsageError (exit 2)
 * before anything is sent. A value is taken as text, or as JSON (12, true, null, {…}) when the
 * schema refuses the text and takes that.
 */
export async function bodyWithSets(event: string, fixture: Fixture, sets: readonly string[], start?: Body): Promise<Body> {
  const { loadOperation } = await import('../api/operations.js');
  const op = await loadOperation(fixture.sets);
  const schema = ((await op.schemas()) as { body: ZodMiniType }).body;
  const { toFieldIssues } = await import('../api/validate.js');
  const body: Body = structuredClone(fixture.body);
  for (const pair of sets) {
    const at = pair.indexOf('=');
    const path = (at < 0 ? '' : pair.slice(0, at)).trim().split('.');
    if (path.some((part) => !/^[A-Za-z_][\w-]*$/.test(part))) throw new UsageError(`--set takes path=value, such as shipping_price=9.50 or billing_address.line4=Oslo (got "${pair}")`);
    const text = pair.slice(at + 1);
    if (path.length > 2) throw unknownPath(event, op.command, path.join('.'));
    // The reference takes an object field whole: a dotted path starts from the object as the store has it.
    if (path.length === 2 && body[path[0]!] === undefined && start?.[path[0]!] && typeof start[path[0]!] === 'object') body[path[0]!] = structuredClone(start[path[0]!]);
    const issuesWith = (value: unknown) => {
      setAt(body, path, value);
      const parsed = schema.safeParse(body);
      // The issues of the path set, or of an object on the way to it (or of the whole body).
      return parsed.success ? [] : toFieldIssues('', parsed.error.issues, body).filter((i) => i.path.length <= path.length && i.path.every((key, n) => key === path[n]));
    };
    let issues = issuesWith(text);
    if (issues.length > 0) {
      const json = asJson(text);
      if (json !== undefined && issuesWith(json.value).length === 0) issues = [];
      else issuesWith(text);
    }
    const unknown = issues.find((i) => /^unknown field/.test(i.message));
    if (unknown) throw unknownPath(event, op.command, path.join('.'));
    if (issues.length > 0) throw new UsageError(`--set ${path.join('.')}: ${issues[0]!.message} (got "${text}"); nothing was sent`);
  }
  return body;
}

function unknownPath(event: string, command: string, path: string) {
  return new UsageError(`--set ${path}: ${event}'s change (${command}) has no field ${path}; nothing was sent`, {
    hint: `store-admin ${command} --help lists its fields`,
  });
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
  if (!fixture && !TRIGGERABLE_EVENTS.includes(event)) {
    throw new UsageError(`The sandbox cannot trigger "${event}"`, { hint: `It can trigger: ${TRIGGERABLE_EVENTS.join(', ')}` });
  }
  if (ctx.options.dryRun) throw new UsageError('webhooks trigger makes a real change in the sandbox; it has no --dry-run');
  if (!fixture && sets.length > 0) {
    throw new UsageError(`--set changes the object through the API, and no request of the API causes ${event}: it is sent with a seeded object as it is`);
  }
  const client = await ctx.client();
  // Checked before anything is sent: a bad --set changes nothing. A dotted --set starts from the
  // object as the store has it (a read, which changes nothing).
  const start = fixture?.start && sets.some((set) => set.split('=')[0]!.includes('.')) ? await fixture.start(client) : undefined;
  const body = fixture ? await bodyWithSets(event, fixture, sets, start) : {};
  const before = await sandboxWebhooks(client, 'webhooks trigger');
  if (!fixture) {
    const sent = await sendSandboxSample(client, event);
    if (sent.webhooks.length === 0) ctx.output.prose(noSubscriber(event));
    return { event, did: `Sent ${event} with ${sent.said}: no change in the sandbox's API causes it, so nothing was changed`, object_id: '', emitted: [event], webhooks: sent.webhooks };
  }
  const reached = before.filter((w) => w.active && w.events.includes(event)).map((w) => w.id);
  const change = await fixture.run(client, body, sets.length > 0, ctx.signal).catch(async (error: unknown) => {
    if (error instanceof Exhausted) error.hint = `Restore the seed data: ${await resetCommand(ctx)}`;
    throw error;
  });
  if (reached.length === 0) ctx.output.prose(noSubscriber(event));
  return { event, ...change, emitted: fixture.emits, webhooks: reached };
}
