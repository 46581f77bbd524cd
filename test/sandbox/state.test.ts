// Real state changes in the sandbox, seen through later reads over HTTP and in the store's records.
// (How an order's lines change is held by the order-line tests.)
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { sumCents, toCents } from '../../src/sandbox/money.js';
import { addInterval } from '../../src/sandbox/renewal.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { useSandbox } from '../helpers.js';

const store = memoryStore();
const records = () => store.state.records;
/** An answer, read as the record it is. */
const as = (answer: unknown) => answer as Rec & Record<string, any>;
const refusal = (call: Promise<unknown>) => call.then(() => undefined, (error: unknown) => error as ApiError);

describe('sandbox state changes', () => {
  const ctx = useSandbox({ store });

  it('stores order and customer notes with the next ids of their kinds', async () => {
    const [orderNotes, userNotes] = [store.state.lastIds.orderNotes!, store.state.lastIds.userNotes!];
    const note = as(await ctx.client.orders.addNote({ params: { number: '10002' }, body: { message: 'Gift wrap' } }));
    expect(note).toMatchObject({ id: orderNotes + 1, message: 'Gift wrap' });
    expect(records().orderNotes[String(note.id)]).toMatchObject({ order_number: '10002', message: 'Gift wrap' });
    const customerNote = as(await ctx.client.customers.addNote({ params: { id: 2 }, body: { message: 'VIP' } }));
    expect(customerNote.id).toBe(userNotes + 1);
    expect(records().userNotes[String(customerNote.id)]).toMatchObject({ user_id: 2, message: 'VIP' });
  });

  it('cancels a subscription once', async () => {
    const canceled = as(await ctx.client.subscriptions.cancel({ params: { id: 1 }, body: { cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad' } }));
    expect(canceled).toMatchObject({ status: 'canceled', cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad' });
    expect(records().subscriptions['1']).toMatchObject({ status: 'canceled', next_renewal_date: null });
    expect((await refusal(ctx.client.subscriptions.cancel({ params: { id: 1 }, body: { cancel_reason: 'other' } })))?.status).toBe(400);
    expect((await refusal(ctx.client.subscriptions.renew({ params: { id: 3 } })))?.message).toBe('Subscription 3 is canceled and cannot be renewed.');
  });

  it('renews: a new order, one more order counted, the next renewal moved on, status active', async () => {
    // Only an active subscription renews (subscription 2 starts past_due). Its renewal date goes
    // ahead of the sandbox's clock first: an active subscription whose date has passed renews at once.
    await ctx.client.subscriptions.update({ params: { id: 2 }, body: { status: 'active', next_renewal_date: '2026-03-01T12:00:00Z' } });
    const before = structuredClone(records().subscriptions['2']!);
    const ordersBefore = as(await ctx.client.subscriptions.get({ params: { id: 2 } })).num_orders as number;
    const renewed = as(await ctx.client.subscriptions.renew({ params: { id: 2 } }));
    expect(renewed.status).toBe('active');
    expect(renewed.num_orders).toBe(ordersBefore + 1);
    expect(renewed.next_renewal_date).toBe(addInterval(String(before.next_renewal_date), String(before.interval), Number(before.interval_count)));
    const newest = (renewed.orders as Rec[]).at(-1)!;
    const order = records().orders[String(newest.order_number)]!;
    expect(order.subscriptions).toEqual([{ billing_cycle: newest.billing_cycle, id: 2 }]);
    expect(order.lines).toHaveLength((before.lines as Rec[]).length);
    // Charged for its lines and the subscription's shipping: a total the lines and shipping add up to, not nothing.
    expect(toCents(order.total_incl_tax)).toBe(sumCents((order.lines as Rec[]).map((line) => line.price_incl_tax)) + toCents(before.shipping_price));
    expect(toCents(order.total_incl_tax)).toBeGreaterThan(toCents(before.shipping_price));
    // Paid by a new charge on the subscription's card, for its cycle.
    const charges = Object.values(records().transactions).filter((t) => t.order === order.number);
    expect(charges).toEqual([expect.objectContaining({ type: 'debit', status: 'succeeded', amount: order.total_incl_tax, subscription_id: 2, billing_cycle: newest.billing_cycle })]);
  });

  it('applies a partial update and answers in the 2024-04-01 line shape, with the total kept right', async () => {
    const updated = as(await ctx.client.subscriptions.update({ params: { id: 4 }, body: { interval: 'week', interval_count: 3, shipping_price: '7.50', status: 'active', shipping_code: null } }));
    // A null shipping_code names no method: the store picks one (nothing of this membership ships), and the price given stays.
    expect(updated).toMatchObject({ interval: 'week', interval_count: 3, shipping_price: '7.50', status: 'active', shipping_code: 'no_shipping' });
    expect(updated.lines[0]).toHaveProperty('product_title');
    expect(updated.lines[0]).not.toHaveProperty('stockrecord');
    const lines = records().subscriptions['4']!.lines as Rec[];
    expect(toCents(updated.total)).toBe(lines.reduce((sum, l) => sum + toCents(l.price) * Number(l.quantity ?? 1), 0) + 750);
  });

  it('rejects a pending cancellation request once', async () => {
    const rejected = as(await ctx.client.fulfillmentOrders.rejectCancellation({ params: { id: 401 }, body: { message: 'Shipped' } }));
    expect(rejected.request_status).toBe('cancel_rejected');
    // The fulfillment service's answer is no merchant request: the merchant's request stays the last, and work goes on.
    expect(rejected.merchant_requests.map((r: Rec) => r.type)).toEqual(['cancel_request']);
    expect(rejected.status).toBe('processing');
    expect(rejected.line_items[0]).toHaveProperty('total_discount');
    expect((await refusal(ctx.client.fulfillmentOrders.rejectCancellation({ params: { id: 401 }, body: {} })))?.status).toBe(400);
    const [listed] = (await ctx.client.orders.fulfillmentOrders({ params: { number: '10002' } })) as Rec[];
    expect(listed?.request_status).toBe('cancel_rejected');
  });

  it('stores exports pending, each with the next id and its API URL', async () => {
    const created = as(await ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-12-31T00:00:00Z' } }));
    expect(created).toMatchObject({ status: 'pending', type: 'order_list', url: `${ctx.sandbox.url}/api/admin/exports/${created.id}/` });
    const next = as(await ctx.client.exports.create({ body: { type: 'customer_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-12-31T00:00:00Z' } }));
    expect(next.id).toBe(created.id + 1);
    expect(records().exports[String(next.id)]).toMatchObject({ status: 'pending', type: 'customer_list' });
    const backwards = await refusal(ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-02-01T00:00:00Z', date_to: '2026-01-01T00:00:00Z' } }));
    expect(backwards?.message).toBe('date_from must not be after date_to.');
  });

  it('ties a dispute to its transaction and order', async () => {
    const charge = records().transactions['503']!;
    expect(charge.order).toBe('10002');
    const dispute = as(await ctx.client.disputes.create({ body: { transaction: 503, type: 'alert' } }));
    expect(dispute).toMatchObject({ status: 'new', type: 'alert', transaction: 503, order: 10002, amount: charge.amount });
    expect(records().transactions['503']!.is_disputed).toBe(true);
    const unknown = await refusal(ctx.client.disputes.create({ body: { transaction: 999999 } }));
    expect(unknown?.status).toBe(400);
    expect(unknown?.message).toMatch(/^transaction: /);
  });

  it('merges app settings', async () => {
    const before = structuredClone(records().apps['sandbox-app']!.settings as Rec);
    const merged = await ctx.client.apps.updateSettings({ params: { clientId: 'sandbox-app' }, body: { theme: 'dark', limit: 5 } });
    expect(merged).toEqual({ ...before, theme: 'dark', limit: 5 });
    expect(records().apps['sandbox-app']!.settings).toEqual(merged);
  });

  it('stores webhooks and reads them back', async () => {
    const created = as(await ctx.client.webhooks.create({ body: { target: 'https://hooks.example.com/x', events: ['order.created', 'custom.thing'], name: 'Mine', secret_key: 's3cret' } }));
    expect(created).toMatchObject({ active: true, warning_count: 0, name: 'Mine' });
    expect(await ctx.client.webhooks.get({ params: { id: created.id } })).toEqual(created);
    expect(records().webhooks[String(created.id)]).toMatchObject({ target: 'https://hooks.example.com/x', secret_key: 's3cret' });
  });
});

describe('calendar steps', () => {
  it.each([
    ['2026-01-31T10:00:00Z', 'month', 1, '2026-02-28T10:00:00Z'],
    ['2026-01-15T00:00:00Z', 'week', 2, '2026-01-29T00:00:00Z'],
    ['2026-03-01T00:00:00Z', 'day', 1, '2026-03-02T00:00:00Z'],
    ['2024-02-29T00:00:00Z', 'year', 1, '2025-02-28T00:00:00Z'],
    ['2026-11-30T00:00:00Z', 'month', 3, '2027-02-28T00:00:00Z'],
  ])('%s + %s × %i', (from, interval, count, expected) => {
    expect(addInterval(from, interval, count)).toBe(expected);
  });
});
