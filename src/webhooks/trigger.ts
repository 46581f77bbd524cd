// `webhooks trigger <event>`: a real change to the sandbox's seeded data that emits the event, as
// a fixture would, and never against a real store. An event that no change in the sandbox's API
// causes (a new customer, an updated fulfillment, …) is sent with a seeded object of its kind and
// nothing changed. Says what it did and which webhooks it reached, and warns when none subscribes.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, StoreAdminError, UsageError } from '../api/errors.js';
import type { StoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import { EVENTS_BY_CHANGE, EVENTS_WITHOUT_CHANGE } from '../sandbox/events.js';
import { sandboxWebhooks, sendSandboxSample } from './sandbox-admin.js';

interface Change {
  /** What the change did, in a sentence. */
  did: string;
  object_id: string | number;
}

/** One change per event the sandbox can emit; the operation behind it lists the event in events.ts. */
export const TRIGGERS = new Map<string, { change: keyof typeof EVENTS_BY_CHANGE; run(client: StoreClient): Promise<Change> }>(Object.entries({
  'order.created': { change: 'subscriptions.renew', run: renewOne },
  'transaction.created': { change: 'subscriptions.renew', run: renewOne },
  'subscription.updated': {
    change: 'subscriptions.update',
    run: async (client) => {
      await client.subscriptions.update({ params: { id: 1 }, body: { is_test: true } });
      return { did: 'Marked subscription 1 as a test subscription', object_id: 1 };
    },
  },
  'order.updated': {
    change: 'orders.addNote',
    run: async (client) => {
      await client.orders.addNote({ params: { number: '10001' }, body: { message: 'Note added by store-admin webhooks trigger' } });
      return { did: 'Added a note to order 10001', object_id: '10001' };
    },
  },
  'customer.updated': {
    change: 'customers.addNote',
    run: async (client) => {
      await client.customers.addNote({ params: { id: 1 }, body: { message: 'Note added by store-admin webhooks trigger' } });
      return { did: 'Added a note to customer 1', object_id: 1 };
    },
  },
  'dispute.created': { change: 'disputes.create', run: disputeOne },
  'transaction.updated': { change: 'disputes.create', run: disputeOne },
  'export.created': {
    change: 'export.available',
    run: async (client) => {
      const created = await client.exports.create({
        body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' },
      });
      // As on the platform, the event is sent when the export turns available, not when it is created.
      for (let polls = 0; polls < 240; polls++) {
        if ((await client.exports.get({ params: { id: Number(created.id) } })).status === 'available') break;
        await sleep(500);
      }
      return { did: `Created export ${created.id} (order_list, January 2026) and waited until it was available`, object_id: created.id ?? '' };
    },
  },
}));

/** Renewing a subscription creates an order, paid by a new transaction. */
async function renewOne(client: StoreClient): Promise<Change> {
      // Subscription 1 is active in the seed; the others follow if an earlier run canceled it.
      for (const id of [1, 2, 4]) {
        try {
          const renewed = await client.subscriptions.renew({ params: { id } });
          const order = renewed.orders?.at(-1)?.order_number;
          return { did: `Renewed subscription ${id}, which created order ${order}`, object_id: order ?? id };
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 400)) throw error;
        }
      }
      throw exhausted('no seeded subscription can be renewed any more');
    }

/** A dispute on transaction 501 marks it disputed. */
async function disputeOne(client: StoreClient): Promise<Change> {
      const dispute = await client.disputes.create({ body: { transaction: 501, type: 'chargeback' } });
      return { did: `Opened dispute ${dispute.id} on transaction 501 of order 10001`, object_id: dispute.id ?? '' };
    }

function exhausted(why: string) {
  return new StoreAdminError(`Cannot trigger the event: ${why}`, {
    hint: 'Restore the seed data: store-admin sandbox reset (or restart `store-admin sandbox`)',
  });
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

export async function trigger(ctx: Context, event: string): Promise<TriggerResult> {
  const fixture = TRIGGERS.get(event);
  if (!fixture && !EVENTS_WITHOUT_CHANGE.includes(event)) {
    throw new UsageError(`The sandbox cannot trigger "${event}"`, { hint: `It can trigger: ${[...TRIGGERS.keys(), ...EVENTS_WITHOUT_CHANGE].join(', ')}` });
  }
  if (ctx.options.dryRun) throw new UsageError('webhooks trigger makes a real change in the sandbox; it has no --dry-run');
  const client = await ctx.client();
  const before = await sandboxWebhooks(client, 'webhooks trigger');
  if (!fixture) {
    const sent = await sendSandboxSample(client, event);
    if (sent.webhooks.length === 0) ctx.note(noSubscriber(event));
    return { event, did: `Sent ${event} with ${sent.said}: no change in the sandbox's API causes it, so nothing was changed`, object_id: '', emitted: [event], webhooks: sent.webhooks };
  }
  const reached = before.filter((w) => w.active && w.events.includes(event)).map((w) => w.id);
  const change = await fixture.run(client);
  if (reached.length === 0) ctx.note(noSubscriber(event));
  return { event, ...change, emitted: EVENTS_BY_CHANGE[fixture.change], webhooks: reached };
}
