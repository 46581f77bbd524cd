// The sandbox delivers the platform's events to webhooks: envelope, signature, retries, switch-off.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/api/enums.js';
import type { OperationId } from '../../src/api/operations.js';
import type { OperationInput } from '../../src/api/types.js';
import { clockNow, isoSeconds } from '../../src/sandbox/clock.js';
import { MAX_RETRIES } from '../../src/sandbox/settings.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { webhookHmac } from '../../src/api/webhook-signature.js';
import { FULL_TOKEN, until, useSandbox } from '../helpers.js';
import { independentDumps, pythonMissing, pythonSignature } from '../webhooks/python.js';
import { outcomeLog, startReceiver, type Receiver } from '../webhooks/receiver.js';

const SECRET = 'whsec_sandbox_test';

/**
 * Changes and the events each sends (the README's table of them); `answers` marks those whose
 * answer is the object their first event carries at 2024-04-01 (a note's answer is the note, not
 * the order). Two changes are not requests: an export turning available, a renewal falling due.
 */
const CHANGES: { change: string; id?: OperationId; input?: unknown; events: string[]; answers?: true }[] = [
  { change: 'subscriptions renew', id: 'subscriptionsRenewCreate', input: { params: { id: 1 } }, events: ['order.created', 'transaction.created', 'subscription.updated'] },
  { change: 'subscriptions cancel', id: 'subscriptionsCancelCreate', input: { params: { id: 4 }, body: { cancel_reason: 'product_too_expensive' } }, events: ['subscription.updated'] },
  { change: 'subscriptions update', id: 'subscriptionsPartialUpdate', input: { params: { id: 4 }, body: { interval: 'week', interval_count: 2 } }, events: ['subscription.updated'], answers: true },
  { change: 'orders remove-line', id: 'ordersLinesDestroy', input: { params: { number: '10002', lineId: 105 } }, events: ['order.updated'], answers: true },
  { change: 'orders add-note', id: 'ordersNotesCreate', input: { params: { number: '10001' }, body: { message: 'Customer called about delivery' } }, events: ['order.updated'] },
  { change: 'customers add-note', id: 'usersNotesCreate', input: { params: { id: 1 }, body: { message: 'Prefers email' } }, events: ['customer.updated'] },
  { change: 'disputes create', id: 'disputesCreate', input: { body: { transaction: 501 } }, events: ['dispute.created', 'transaction.updated', 'order.updated'], answers: true },
  { change: 'export available', events: ['export.created'], answers: true },
  { change: 'subscription renewal-due', events: ['order.created', 'transaction.created', 'subscription.updated'] },
];

describe("the README's event table", () => {
  // Which real change makes each event is held by webhooks trigger's tests and the payload checks.
  it('names every event the platform publishes, and only those', () => {
    const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const table = readme.slice(readme.indexOf('| Change | Events |'), readme.indexOf('Every one of the 23 events'));
    const named = new Set([...table.matchAll(/`([a-z]+\.[a-z_]+)`/g)].map((m) => m[1]!));
    expect([...named].sort()).toEqual([...WEBHOOK_EVENTS].sort());
    expect(WEBHOOK_EVENTS).toHaveLength(23);
  });
});

describe('every change emits its events', () => {
  const log = outcomeLog();
  const ctx = useSandbox({ webhooks: { onDelivery: log.onDelivery }, exportDelaySeconds: 0.2 });
  let receiver: Receiver;
  let webhookId: number;
  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    const created = (await ctx.client.webhooks.create({
      body: { target: receiver.url, events: [...new Set(CHANGES.flatMap((c) => c.events))], secret_key: SECRET, api_version: '2024-04-01' },
    })) as { id: number };
    webhookId = created.id;
  });
  afterAll(() => receiver.close());

  it.each(CHANGES)('$change emits $events', async ({ change, id, input, events, answers }) => {
    const before = receiver.requests.length;
    const result =
      change === 'export available'
        ? await exportTurnedAvailable()
        : change === 'subscription renewal-due'
          ? await renewalFellDue()
          : ((await ctx.client.call(id!, input as OperationInput<typeof id & OperationId>)) as Record<string, unknown>);
    const arrived = (await receiver.received(before + events.length)).slice(before);
    expect(arrived.map((r) => r.json.event_type).sort()).toEqual([...events].sort());
    for (const request of arrived) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(Object.keys(request.json)).toEqual(['api_version', 'data', 'event_id', 'event_type', 'object', 'webhook']);
      expect(request.json.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(request.json.object).toBe(request.json.event_type.split('.')[0]);
      expect(request.json.webhook).toMatchObject({ id: webhookId, target: receiver.url, store: 'Northwind Outfitters' });
      // Signed as the platform signs: the Python re-serialisation, not the bytes sent.
      const signature = request.headers['x-store-signature'];
      expect(signature).toBe(webhookHmac(independentDumps(JSON.parse(request.body.toString('utf8'))), SECRET));
      expect(signature).not.toBe(webhookHmac(request.body, SECRET));
    }
    // `data` is the object as the API answers it: what the change answered, where it answers that
    // object (a subscription's event as a customer's list shows it, with `is_tax_known` too).
    if (answers) expect(arrived.find((r) => r.json.event_type === events[0])!.json.data).toMatchObject(JSON.parse(JSON.stringify(result)));
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(receiver.requests.length);
  });

  /** Not a request: the clock passes an active subscription's renewal date, an hour ahead. */
  async function renewalFellDue(): Promise<Record<string, unknown>> {
    const due = await ctx.sandbox.store.transact((state) => {
      // The store's other subscriptions renew later: only this one falls due now.
      for (const subscription of Object.values(state.records.subscriptions)) if (subscription.status === 'active') subscription.next_renewal_date = isoSeconds(clockNow(state) + 30 * 86_400_000);
      Object.assign(state.records.subscriptions['2']!, { status: 'active', next_renewal_date: isoSeconds(clockNow(state) + 3_600_000) });
      return clockNow(state) + 7_200_000;
    }, true);
    const headers = { authorization: `Bearer ${FULL_TOKEN}`, 'content-type': 'application/json' };
    const clock = await fetch(`${ctx.sandbox.url}/sandbox/clock/`, { method: 'POST', headers, body: JSON.stringify({ to: new Date(due).toISOString() }) });
    expect(((await clock.json()) as { renewals: unknown[] }).renewals).toEqual([expect.objectContaining({ subscription: 2 })]);
    return {};
  }

  /** Not a request: a new export turns available in wall time, and only then is `export.created` sent. */
  async function exportTurnedAvailable(): Promise<Record<string, unknown>> {
    const before = receiver.requests.length;
    const created = (await ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' } })) as { id: number; status: string };
    expect(created.status).toBe('pending');
    expect(receiver.requests.length).toBe(before);
    return until(`export ${created.id} to be available`, async () => {
      const current = (await ctx.client.exports.get({ params: { id: created.id } })) as Record<string, unknown>;
      return current.status === 'available' && current;
    }, { everyMs: 100 });
  }

  it.skipIf(pythonMissing)(`signs each delivery so that Python's own check accepts it${pythonMissing ? ` (skipped: ${pythonMissing})` : ''}`, () => {
    const request = receiver.requests.at(-1)!;
    expect(request.headers['x-store-signature']).toBe(pythonSignature(request.body.toString('utf8'), SECRET));
  });

  it('sends nothing to webhooks that are off or not subscribed', async () => {
    const off = await startReceiver(() => 200);
    await ctx.client.webhooks.create({ body: { target: off.url, events: ['order.updated'], active: false } });
    await ctx.client.webhooks.create({ body: { target: off.url, events: ['dispute.created'] } });
    const before = log.list.length;
    await ctx.client.orders.addNote({ params: { number: '10001' }, body: { message: 'Customer called about delivery' } });
    await log.until((o) => o.length > before && o.some((x) => x.webhook === webhookId && x.event_type === 'order.updated'));
    expect(off.requests).toHaveLength(0);
    await off.close();
  });
});

describe('failed deliveries', () => {
  const log = outcomeLog();
  const store = memoryStore();
  // The webhook as each outcome is saved.
  const snapshots: { webhook: number; warning_count: unknown; next_check_date: unknown; active: unknown }[] = [];
  const snapshot = (o: { webhook: number }) => {
    const w = store.state.records.webhooks[String(o.webhook)]!;
    snapshots.push({ webhook: o.webhook, warning_count: w.warning_count, next_check_date: w.next_check_date, active: w.active });
  };
  // Retries a millisecond apart, exports available at once: the schedule runs in about a second.
  const ctx = useSandbox({ store, exportDelaySeconds: 0, webhooks: { backoffMs: 1, onDelivery: (o) => (snapshot(o), log.onDelivery(o)) } });

  it(`are retried ${MAX_RETRIES} times with a rising warning_count, then the webhook is switched off`, async () => {
    const receiver = await startReceiver(() => 500);
    const { id } = (await ctx.client.webhooks.create({ body: { target: receiver.url, events: ['customer.updated'] } })) as { id: number };
    await ctx.client.customers.addNote({ params: { id: 1 }, body: { message: 'Prefers email' } });
    await log.until((o) => o.some((x) => x.webhook === id && x.deactivated));
    const mine = snapshots.filter((s) => s.webhook === id);
    expect(receiver.requests).toHaveLength(MAX_RETRIES + 1);
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(1);
    expect(mine.map((s) => s.warning_count)).toEqual(Array.from({ length: MAX_RETRIES + 1 }, (_, i) => i + 1));
    expect(mine.slice(0, -1).every((s) => typeof s.next_check_date === 'string' && s.active === true)).toBe(true);
    expect(mine.at(-1)).toMatchObject({ active: false, next_check_date: null });
    const shown = await ctx.client.webhooks.get({ params: { id } });
    expect(shown).toMatchObject({ active: false, warning_count: MAX_RETRIES + 1, next_check_date: null });
    expect(store.state.webhookOutbox?.filter((d) => d.webhook === id)).toEqual([]);
    await receiver.close();
  });

  it('a 410 switches the webhook off at once', async () => {
    const receiver = await startReceiver(() => 410);
    const { id } = (await ctx.client.webhooks.create({ body: { target: receiver.url, events: ['dispute.created'] } })) as { id: number };
    await ctx.client.disputes.create({ body: { type: 'chargeback', amount: '19.99', currency: 'USD' } });
    const outcomes = await log.until((o) => o.some((x) => x.webhook === id));
    expect(outcomes.filter((o) => o.webhook === id)).toEqual([expect.objectContaining({ status: 410, ok: false, deactivated: true, failures: 1 })]);
    expect(await ctx.client.webhooks.get({ params: { id } })).toMatchObject({ active: false, warning_count: 1 });
    await ctx.client.disputes.create({ body: { type: 'chargeback', amount: '19.99', currency: 'USD' } });
    expect(receiver.requests).toHaveLength(1);
    await receiver.close();
  });

  it('a refused connection and a reserved host name count as failures', async () => {
    const gone = await startReceiver(() => 200);
    await gone.close();
    const { id } = (await ctx.client.webhooks.create({ body: { target: gone.url, events: ['export.created'] } })) as { id: number };
    await ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' } });
    const refused = await log.until((o) => o.some((x) => x.webhook === id));
    expect(refused.find((o) => o.webhook === id)).toMatchObject({ ok: false, failures: 1, error: expect.stringMatching(/^Connection refused by 127\.0\.0\.1:\d+$/) });
    // The seed's webhook 1 points at a .example host, which never resolves.
    await ctx.client.orders.addNote({ params: { number: '10001' }, body: { message: 'Customer called about delivery' } });
    const reserved = await log.until((o) => o.some((x) => x.webhook === 1));
    expect(reserved.find((o) => o.webhook === 1)?.error).toMatch(/reserved name/);
  });
});

describe('a receiver that does not answer', () => {
  const log = outcomeLog();
  const ctx = useSandbox({ webhooks: { timeoutMs: 100, onDelivery: log.onDelivery } });
  it('fails the attempt after the timeout (20 s on the platform) and counts a warning', async () => {
    const silent = await startReceiver(() => new Promise<number>(() => {}));
    const { id } = (await ctx.client.webhooks.create({ body: { target: silent.url, events: ['order.updated'] } })) as { id: number };
    await ctx.client.orders.removeLine({ params: { number: '10002', lineId: 105 } });
    const [outcome] = (await log.until((o) => o.some((x) => x.webhook === id))).filter((o) => o.webhook === id);
    expect(outcome).toMatchObject({ ok: false, failures: 1, error: expect.stringMatching(/^No complete answer from 127\.0\.0\.1:\d+ within 0\.1 s$/) });
    expect(await ctx.client.webhooks.get({ params: { id } })).toMatchObject({ active: true, warning_count: 1 });
    await silent.close();
  });
});

describe('delivery targets', () => {
  const ctx = useSandbox();
  it('plain http only to this machine; https anywhere; the 255-character rule still holds', async () => {
    const create = (target: string) => ctx.client.webhooks.create({ body: { target, events: ['order.created'] } });
    await expect(create('http://hooks.example.com/store')).rejects.toMatchObject({ status: 400, body: { target: [expect.stringMatching(/http:\/\/ only to this machine/)] } });
    await expect(create('http://10.0.0.8:8080/store')).rejects.toMatchObject({ status: 400 });
    for (const ok of ['http://localhost:3000/h', 'http://127.0.0.1:9/h', 'http://[::1]:9/h', 'https://hooks.example.com/store']) {
      await expect(create(ok)).resolves.toMatchObject({ target: ok });
    }
    await expect(create(`https://example.com/${'a'.repeat(236)}`)).rejects.toThrow(/255/);
  });
});
