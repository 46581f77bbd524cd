// The sandbox's clock: one time for everything the sandbox dates, moved forward on request, with
// everything due on the way run in time order as the platform would: renewals, exports turning
// available, links expiring, deliveries retried until the webhook is switched off. Days pass in
// a request, not in the test's wall time.
import { describe, expect, it } from 'vitest';
import { SEED_MOMENT } from '../../src/sandbox/clock.js';
import { MAX_RETRIES, RETRY_SCHEDULE_MINUTES } from '../../src/sandbox/settings.js';
import type { DeliveryAttempt } from '../../src/sandbox/state.js';
import type { ClockMove } from '../../src/sandbox/scheduler.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { webhookHmac } from '../../src/api/webhook-signature.js';
import { FULL_TOKEN, until, useSandbox } from '../helpers.js';
import { independentDumps } from '../webhooks/python.js';
import { startReceiver } from '../webhooks/receiver.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function sandboxApi(ctx: { sandbox: { url: string } }) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${ctx.sandbox.url}/sandbox/${path}`, {
      method,
      headers: { authorization: `Bearer ${FULL_TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return {
    call,
    now: async () => Date.parse((await call('GET', 'clock/')).body.now),
    advance: async (ms: number): Promise<ClockMove> => {
      const now = Date.parse((await call('GET', 'clock/')).body.now);
      const moved = await call('POST', 'clock/', { to: new Date(now + ms).toISOString() });
      expect(moved.status).toBe(200);
      return moved.body;
    },
    // The log lists the newest first; these tests read it in the order the attempts were made.
    deliveries: async (query = ''): Promise<DeliveryAttempt[]> => (await call('GET', `deliveries/${query}`)).body.deliveries.reverse(),
  };
}

describe("the sandbox's clock", () => {
  const store = memoryStore();
  const ctx = useSandbox({ store, exportDelaySeconds: 3600, linkTtlSeconds: 300 });
  const api = sandboxApi(ctx);

  it("starts at the seed's moment, dates new objects by it, and real time moves it", async () => {
    const first = await api.now();
    expect(first).toBeGreaterThanOrEqual(SEED_MOMENT);
    expect(first - SEED_MOMENT).toBeLessThan(60_000);
    const note = (await ctx.client.customers.addNote({ params: { id: 2 }, body: { message: 'dated by the clock' } })) as { created_at: string };
    expect(Math.abs(Date.parse(note.created_at) - first)).toBeLessThan(60_000);
    expect(await api.now()).toBeGreaterThanOrEqual(first);
  });

  it('advancing 90 days renews a monthly subscription exactly 3 times, each at its date, and a listening app gets the events in order', async () => {
    const receiver = await startReceiver(() => 200);
    const { id } = (await ctx.client.webhooks.create({
      body: { target: receiver.url, events: ['order.created', 'subscription.updated'], secret_key: 'whsec_clock' },
    })) as { id: number };
    const before = structuredClone(store.state.records.subscriptions['1']!);
    const ordersBefore = ((await ctx.client.subscriptions.get({ params: { id: 1 } })) as { num_orders: number }).num_orders;
    const moved = await api.advance(90 * DAY);

    const mine = moved.renewals.filter((r) => r.subscription === 1);
    expect(mine.map((r) => r.at)).toEqual(['2026-02-15T08:00:00Z', '2026-03-15T08:00:00Z', '2026-04-15T08:00:00Z']);
    const after = (await ctx.client.subscriptions.get({ params: { id: 1 } })) as { num_orders: number; next_renewal_date: string };
    expect(after.num_orders).toBe(ordersBefore + 3);
    expect(after.next_renewal_date).toBe('2026-05-15T08:00:00Z');
    expect(before.next_renewal_date).toBe('2026-02-15T08:00:00Z');
    for (const renewal of moved.renewals) expect(store.state.records.orders[renewal.order]!.created_at).toBe(renewal.at);
    // Only active subscriptions renew: the past_due, canceled and retrying ones did not.
    expect(moved.renewals.filter((r) => [2, 3, 4].includes(r.subscription))).toEqual([]);
    // Every renewal is in time order, whichever subscription it was.
    expect(moved.renewals.map((r) => r.at)).toEqual(moved.renewals.map((r) => r.at).sort());

    // The deliveries went out as each renewal happened: order.created, then subscription.updated.
    const arrived = (await receiver.received(2 * moved.renewals.length)).filter((r) => r.json.webhook.id === id);
    expect(arrived.map((r) => r.json.event_type)).toEqual(moved.renewals.flatMap(() => ['order.created', 'subscription.updated']));
    expect(arrived.filter((r) => r.json.event_type === 'order.created').map((r) => r.json.data.number)).toEqual(moved.renewals.map((r) => r.order));
    const sockClub = arrived.filter((r) => r.json.event_type === 'subscription.updated' && r.json.data.id === 1);
    expect(sockClub.map((r) => r.json.data.num_orders)).toEqual([ordersBefore + 1, ordersBefore + 2, ordersBefore + 3]);
    for (const r of arrived) expect(r.headers['x-store-signature']).toBe(webhookHmac(independentDumps(JSON.parse(r.body.toString('utf8'))), 'whsec_clock'));
    const sent = (await api.deliveries(`?webhook=${id}`)).map((d) => d.sent_at);
    expect(sent).toEqual(moved.renewals.flatMap((r) => [r.at, r.at]));
    await receiver.close();
  });

  it('a pending export turns available when the clock passes its delay, and export.created goes out then', async () => {
    const receiver = await startReceiver(() => 200);
    await ctx.client.webhooks.create({ body: { target: receiver.url, events: ['export.created'] } });
    const created = (await ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' } })) as { id: number; created_at: string };
    expect((await api.advance(59 * 60_000)).exports).toEqual([]);
    expect(await ctx.client.exports.get({ params: { id: created.id } })).toMatchObject({ status: 'pending' });
    expect(receiver.requests).toHaveLength(0);
    const moved = await api.advance(2 * 60_000);
    expect(moved.exports.map((e) => e.id)).toEqual([created.id]);
    expect(moved.exports[0]!.at).toBe(iso(Date.parse(created.created_at) + 3600_000));
    const [delivery] = await receiver.received(1);
    expect(delivery!.json).toMatchObject({ event_type: 'export.created', data: { id: created.id, status: 'available' } });
    expect(await ctx.client.exports.get({ params: { id: created.id } })).toMatchObject({ status: 'available' });
    await receiver.close();
  });

  it('a signed link stops working once the clock passes its expiry', async () => {
    const { url } = (await ctx.client.exports.download({ params: { id: 1 } })) as { url: string };
    expect((await fetch(url)).status).toBe(200);
    await api.advance(4 * 60_000);
    expect((await fetch(url)).status).toBe(200);
    await api.advance(2 * 60_000);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Message>Request has expired</Message>');
  });

  it('only moves forward, and refuses what is not a date', async () => {
    const now = await api.now();
    const back = await api.call('POST', 'clock/', { to: iso(now - DAY) });
    expect(back.status).toBe(400);
    expect(back.body.to[0]).toMatch(/^The clock only moves forward, and it reads \d{4}-/);
    expect((await api.call('POST', 'clock/', { to: 'tomorrow' })).status).toBe(400);
    expect(await api.now()).toBeGreaterThanOrEqual(now);
  });
});

describe('the retry schedule, watched to deactivation by advancing the clock', () => {
  const store = memoryStore();
  const ctx = useSandbox({ store });
  const api = sandboxApi(ctx);

  it(`retries ${MAX_RETRIES} times on the schedule, keeps warning_count and next_check_date, then switches the webhook off`, async () => {
    const receiver = await startReceiver(() => 500);
    const { id } = (await ctx.client.webhooks.create({ body: { target: receiver.url, events: ['customer.updated'] } })) as { id: number };
    await ctx.client.customers.addNote({ params: { id: 1 }, body: { message: 'fails everywhere' } });
    await receiver.received(1);
    // The first try has failed: the first retry is planned 5 minutes on.
    const [first] = await until('the first try on the delivery log', async () => {
      const list = await api.deliveries(`?webhook=${id}`);
      return list.length === 1 && list;
    });
    const shown = await ctx.client.webhooks.get({ params: { id } });
    expect(shown).toMatchObject({ active: true, warning_count: 1, next_check_date: first!.next_attempt_at });
    // Five minutes after the failure: after the attempt's own wait for an answer, to the second.
    const wait = Date.parse(first!.next_attempt_at!) - Date.parse(first!.sent_at);
    expect(wait).toBeGreaterThanOrEqual(5 * 60_000);
    expect(wait).toBeLessThanOrEqual(5 * 60_000 + first!.duration_ms + 1000);

    // Day by day: the webhook is still on after one day, off once the schedule has run out.
    const moved = await api.advance(DAY);
    // The retries the schedule puts, one after another, within 24 hours of the first try.
    let at = 0;
    const dueInADay = RETRY_SCHEDULE_MINUTES.filter((minutes) => (at += minutes) <= 24 * 60).length;
    // (The day's renewals of other subscriptions are delivered to the seeded webhooks too.)
    expect(moved.delivery_attempts).toBeGreaterThanOrEqual(dueInADay);
    expect(await api.deliveries(`?webhook=${id}`)).toHaveLength(1 + dueInADay);
    expect(receiver.requests).toHaveLength(1 + dueInADay);
    expect(await ctx.client.webhooks.get({ params: { id } })).toMatchObject({ active: true });
    await api.advance(3 * DAY);
    const attempts = await api.deliveries(`?webhook=${id}`);
    expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: MAX_RETRIES + 1 }, (_, i) => i + 1));
    expect(receiver.requests).toHaveLength(MAX_RETRIES + 1);
    // Each retry came exactly when the schedule said, counted from the failure before it.
    // (To the minute: each wait starts when the attempt before it has had its answer.)
    const gaps = attempts.slice(1).map((a, i) => Math.round((Date.parse(a.sent_at) - Date.parse(attempts[i]!.sent_at)) / 60_000));
    expect(gaps).toEqual([...RETRY_SCHEDULE_MINUTES]);
    expect(attempts.slice(0, -1).every((a) => a.next_attempt_at !== null && !a.deactivated)).toBe(true);
    expect(attempts.at(-1)).toMatchObject({ status: 500, ok: false, next_attempt_at: null, deactivated: true });
    expect(await ctx.client.webhooks.get({ params: { id } })).toMatchObject({
      active: false,
      warning_count: MAX_RETRIES + 1,
      next_check_date: null,
    });
    await receiver.close();
  });
});
