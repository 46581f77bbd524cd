// What a delivery carries, held to the platform's reference (issue 35): every one of the 23 events,
// made by the real change `webhooks trigger` makes for it (the platform sends no event without
// one), and every event a change through the API sends, delivered to a webhook at each API
// version, validates against the reference's payload for that event and version, envelope
// included (`webhook.store` is the store's name); its data is the object as the Admin API answers
// it at the webhook's version. Skipped without ../shared. Then what counts as delivered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAllOperations, REFERENCE_VERSIONS, type Operation } from '../../src/api/operations.js';
import { createSeed } from '../../src/sandbox/seed.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { memoryStore } from '../../src/sandbox/store.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { EVENT_DATA } from '../../src/sandbox/views.js';
import { advanceClock, FULL_TOKEN, raw, startTestSandbox, until, useSandbox } from '../helpers.js';
import { runInProcess } from '../cli/in-process.js';
import { outcomeLog, startReceiver, type Received, type Receiver } from '../webhooks/receiver.js';
import { inputFor, requestOf } from './inputs.js';
import { complaints, REFERENCE_PRESENT, referenceValidators, VERSIONS } from './reference-answers.js';

const EVENTS = Object.keys(EVENT_DATA);
const STORE_NAME = 'Northwind Outfitters';
/** The webhooks listening, by the path their deliveries arrive at: one per version, and one that names none. */
const LISTENERS = [...VERSIONS.map((version) => ({ path: version, version })), { path: 'default', version: null }];

const ops = await loadAllOperations();
const changes = ops.filter((op) => op.method !== 'GET');

describe.skipIf(!REFERENCE_PRESENT)("every delivery against the platform's reference", () => {
  const seeded = createSeed();
  const store = memoryStore(structuredClone(seeded));
  let sandbox: Sandbox;
  let receiver: Receiver;
  let validators: Map<string, ReturnType<typeof referenceValidators>>;
  /** Events a change through the API sent, each with the number of deliveries checked. */
  const sent = new Map<string, number>();

  beforeAll(async () => {
    validators = new Map(VERSIONS.map((version) => [version, referenceValidators(version)]));
    receiver = await startReceiver(() => 200);
    // The seeded webhooks point at hosts that never answer: off, so only ours are sent to.
    for (const webhook of Object.values(seeded.records.webhooks)) webhook.active = false;
    for (const [at, { path, version }] of LISTENERS.entries()) {
      const id = 3 + at;
      seeded.records.webhooks[String(id)] = { id, active: true, api_version: version, created_at: '2026-02-01T09:00:00Z', updated_at: '2026-02-01T09:00:00Z', events: EVENTS, name: `every event (${path})`, next_check_date: null, secret_key: null, target: `${receiver.url}/${path}`, warning_count: 0 };
      seeded.lastIds.webhooks = id;
    }
    store.state = structuredClone(seeded);
    sandbox = await startTestSandbox({ token: FULL_TOKEN, store, exportDelaySeconds: 0 });
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
  });

  /** Waits for what the change made due (an export turning available) and for everything queued to be delivered; answers what arrived since `before`. */
  async function deliveredSince(before: number): Promise<Received[]> {
    await until('the exports to be available', () => Object.keys(store.state.exportsReadyAt).length === 0);
    await until('the outbox to empty', () => store.state.webhookOutbox.length === 0, { seen: () => JSON.stringify(store.state.webhookOutbox.map((d) => d.event_type)) });
    return receiver.requests.slice(before);
  }

  /** What the reference finds wrong with a delivery, naming the event, the version and the field. */
  function problemsOf(delivery: Received): string[] {
    const listener = LISTENERS.find(({ path }) => delivery.url.endsWith(`/${path}`))!;
    const version = listener.version ?? REFERENCE_VERSIONS[0];
    const { json } = delivery;
    const where = `${String(json.event_type)} at ${version} (${listener.path})`;
    const validate = validators.get(version)!.delivery(json.event_type);
    if (!validate) return [`${where}: an event the reference does not have`];
    const envelope = [
      ...(JSON.stringify(Object.keys(json)) === JSON.stringify(['api_version', 'data', 'event_id', 'event_type', 'object', 'webhook']) ? [] : [`${where}: envelope keys ${Object.keys(json).join(', ')}`]),
      ...(json.api_version === version ? [] : [`${where}: api_version ${json.api_version}`]),
      ...(json.webhook.store === STORE_NAME ? [] : [`${where}: webhook.store ${json.webhook.store}`]),
      ...(json.object === json.event_type.split('.')[0] ? [] : [`${where}: object ${json.object}`]),
    ];
    return [...envelope, ...complaints(validate, json).map((c) => `${where}: ${c}`)];
  }

  /** The event made by the real change `webhooks trigger` makes for it (an API request, a dashboard change or the clock), through the command. */
  const trigger = (event: string) => runInProcess(['webhooks', 'trigger', event, '--json'], { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN });

  it.each(EVENTS)('%s, from the change webhooks trigger makes, validates at every version', async (event) => {
    const before = receiver.requests.length;
    const run = await trigger(event);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const arrived = await deliveredSince(before);
    // The change may send other events beside it (a renewal's order and charge): each is checked too.
    const ofEvent = arrived.filter((r) => r.json.event_type === event);
    expect(ofEvent.map((r) => r.url.split('/').at(-1)).sort()).toEqual(LISTENERS.map(({ path }) => path).sort());
    expect(arrived.flatMap(problemsOf).join('\n')).toBe('');
  });

  it.each(changes.map((op) => [op.id, op] as [string, Operation]))('%s: what it sends validates at every version', async (_id, op) => {
    store.state = structuredClone(seeded);
    const before = receiver.requests.length;
    const { method, path, body } = requestOf(op, inputFor(op, op.version, await op.schemas(op.version)));
    const answered = await raw(sandbox, method, path, { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': op.version, 'content-type': 'application/json' }, ...(body ? { body } : {}) });
    expect(answered.status, JSON.stringify(answered.body)).toBeLessThan(300);
    const arrived = await deliveredSince(before);
    for (const delivery of arrived) sent.set(delivery.json.event_type, (sent.get(delivery.json.event_type) ?? 0) + 1);
    expect(arrived.flatMap(problemsOf).join('\n')).toBe('');
  });

  it('a change sends its object as the Admin API answers it at the webhook version', async () => {
    store.state = structuredClone(seeded);
    const headers = { authorization: `Bearer ${FULL_TOKEN}`, 'content-type': 'application/json' };
    let before = receiver.requests.length;
    // A customer's note: customer.updated carries the customer, not a buyer recorded on an order.
    await raw(sandbox, 'POST', '/users/1/notes/', { headers: { ...headers, 'x-store-api-version': '2024-04-01' }, body: JSON.stringify({ message: 'VIP' }) });
    for (const delivery of await deliveredSince(before)) {
      const version = delivery.json.api_version as string;
      const shown = await raw(sandbox, 'GET', '/users/1/', { headers: { ...headers, 'x-store-api-version': version } });
      expect(delivery.json.data, `customer.updated at ${version}`).toEqual(shown.body);
    }
    // A dispute on a charge: the charge is marked disputed, and its order changes with it.
    before = receiver.requests.length;
    await raw(sandbox, 'POST', '/disputes/', { headers: { ...headers, 'x-store-api-version': '2024-04-01' }, body: JSON.stringify({ transaction: 503 }) });
    const disputed = (await deliveredSince(before)).filter((r) => r.url.endsWith('/2024-04-01'));
    expect(disputed.map((r) => r.json.event_type).sort()).toEqual(['dispute.created', 'order.updated', 'transaction.updated']);
    expect(disputed.find((r) => r.json.event_type === 'transaction.updated')!.json.data).toMatchObject({ id: 503, is_disputed: true });
    expect(disputed.find((r) => r.json.event_type === 'order.updated')!.json.data).toMatchObject({ number: '10002' });
    // A renewal: its order, and the charge that paid it, as each is read afterwards.
    before = receiver.requests.length;
    await raw(sandbox, 'POST', '/subscriptions/1/renew/', { headers: { ...headers, 'x-store-api-version': '2024-04-01' } });
    const renewal = (await deliveredSince(before)).filter((r) => r.url.endsWith('/default'));
    expect(renewal.map((r) => r.json.event_type)).toEqual(['order.created', 'transaction.created', 'subscription.updated']);
    const charge = renewal[1]!.json.data as Rec;
    expect(charge.order).toBe(renewal[0]!.json.data.number);
    expect(charge).toEqual((await raw(sandbox, 'GET', `/transactions/${String(charge.id)}/`, { headers: { ...headers, 'x-store-api-version': '2024-04-01' } })).body);
  });

  it('every event but the dashboard’s and the clock’s comes from a change through the API', () => {
    const elsewhere = ['app.uninstalled', 'cart.abandoned', 'gateway.created', 'gateway.updated', 'store.updated'];
    expect([...sent.keys()].sort()).toEqual(EVENTS.filter((event) => !elsewhere.includes(event)).sort());
  });
});

describe('what counts as delivered', () => {
  const log = outcomeLog();
  const ctx = useSandbox({ webhooks: { onDelivery: log.onDelivery } });

  it('only a 200: a 204 (or any other 2xx) is retried', async () => {
    const receiver = await startReceiver((n) => [204, 202, 200][n] ?? 200);
    const { id } = (await ctx.client.webhooks.create({ body: { target: receiver.url, events: ['customer.updated'] } })) as { id: number };
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
