// @ts-nocheck rewritten with the reference-driven sandbox
// Real state changes in the sandbox, seen through later reads over HTTP.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { addInterval } from '../../src/sandbox/renewal.js';
import { sumCents, toCents } from '../../src/sandbox/money.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { useSandbox } from '../helpers.js';

const store = memoryStore();
const state = () => store.state;

describe('sandbox state changes', () => {
  const ctx = useSandbox({ store });

  it('removing a line recomputes the order totals', async () => {
    const before = structuredClone(state().orders['10002']!);
    const removed = before.lines!.find((l) => l.id === 105)!;
    const order = await ctx.client.orders.removeLine({ params: { number: '10002', lineId: 105 } });
    expect(order.lines?.map((l) => l.id)).toEqual([104]);
    expect(toCents(order.total_incl_tax)).toBe(toCents(before.total_incl_tax) - toCents(removed.price_incl_tax));
    expect(toCents(order.total_excl_tax)).toBe(toCents(before.total_excl_tax) - toCents(removed.price_excl_tax));
    expect(order.original_total_incl_tax).toBe(before.original_total_incl_tax);
    expect(state().fulfillmentOrders['401']!.line_items!.map((i) => i.order_line_id)).toEqual([104]);
    const again = await ctx.client.orders.removeLine({ params: { number: '10002', lineId: 105 } }).catch((e: unknown) => e);
    expect((again as ApiError).status).toBe(404);
  });

  it('removes only a line editable as a whole, never the last line of an order or of a fulfillment order', async () => {
    const refusal = async (number: string, lineId: number) =>
      ((await ctx.client.orders.removeLine({ params: { number, lineId } }).catch((e: unknown) => e)) as ApiError).message;
    const before = structuredClone(state());
    // The hoodie is shipped and the mug cancelled: neither has an editable unit left.
    expect(await refusal('10001', 101)).toBe('Line 101 has no editable quantity left (fulfilled, refunded or cancelled) and cannot be removed.');
    expect(await refusal('10001', 103)).toBe('Line 103 has no editable quantity left (fulfilled, refunded or cancelled) and cannot be removed.');
    // The tees are fully editable but the only line of fulfillment order 402.
    expect(await refusal('10001', 102)).toBe(
      'Line 102 is the last line of fulfillment order 402, which cannot be left empty; cancel the fulfillment order instead.',
    );
    expect(await refusal('10003', 106)).toBe('An order must keep at least one line; cancel the order instead.');
    // A partly fulfilled line: two units, one shipped.
    Object.assign(state().orders['10001']!.lines!.find((l) => l.id === 102)!, { editable_quantity: 1 });
    expect(await refusal('10001', 102)).toBe('Only 1 of the 2 units of line 102 are editable (the rest are fulfilled); it cannot be removed.');
    Object.assign(state().orders['10001']!.lines!.find((l) => l.id === 102)!, { editable_quantity: 2 });
    expect(state().orders).toEqual(before.orders);
    expect(state().fulfillmentOrders).toEqual(before.fulfillmentOrders);
  });

  it('stores order and customer notes with new ids', async () => {
    const note = await ctx.client.orders.addNote({ params: { number: '10002' }, body: { message: 'Gift wrap' } });
    expect(note.message).toBe('Gift wrap');
    expect(state().orderNotes['10002']?.at(-1)?.id).toBe(note.id);
    const customerNote = await ctx.client.customers.addNote({ params: { id: 2 }, body: { message: 'VIP' } });
    expect(customerNote.id).toBe(note.id! + 1);
    expect(state().customers['2']?.notes.at(-1)?.message).toBe('VIP');
  });

  it('cancels a subscription once', async () => {
    const canceled = await ctx.client.subscriptions.cancel({
      params: { id: 1 },
      body: { cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad' },
    });
    expect(canceled).toMatchObject({ status: 'canceled', cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad' });
    expect(state().subscriptions['1']?.status).toBe('canceled');
    const twice = (await ctx.client.subscriptions.cancel({ params: { id: 1 }, body: { cancel_reason: 'other' } }).catch((e: unknown) => e)) as ApiError;
    expect(twice.status).toBe(400);
    const renew = (await ctx.client.subscriptions.renew({ params: { id: 3 } }).catch((e: unknown) => e)) as ApiError;
    expect(renew.message).toBe('Subscription 3 is canceled and cannot be renewed.');
  });

  it('renews: a new order, one more order counted, the next renewal moved on, status active', async () => {
    // Only an active subscription renews (subscription 2 starts past_due). Its renewal date goes
    // ahead of the sandbox's clock first: an active subscription whose date has passed renews at once.
    await ctx.client.subscriptions.update({ params: { id: 2 }, body: { status: 'active', next_renewal_date: '2026-03-01T12:00:00Z' } });
    const before = structuredClone(state().subscriptions['2']!);
    const renewed = await ctx.client.subscriptions.renew({ params: { id: 2 } });
    expect(renewed.status).toBe('active');
    expect(renewed.num_orders).toBe(before.num_orders! + 1);
    expect(renewed.next_renewal_date).toBe(addInterval(before.next_renewal_date!, before.interval!, before.interval_count!));
    const newest = renewed.orders!.at(-1)!;
    const order = state().orders[newest.order_number!]!;
    expect(order.subscriptions).toEqual([{ billing_cycle: newest.billing_cycle, id: 2 }]);
    expect(order.lines).toHaveLength(before.lines.length);
    // Charged for its lines and the subscription's shipping: a total the lines and shipping add up to, not nothing.
    expect(toCents(order.total_incl_tax)).toBe(sumCents(order.lines!.map((line) => line.price_incl_tax)) + toCents(before.shipping_price));
    expect(toCents(order.total_incl_tax)).toBeGreaterThan(toCents(before.shipping_price));
    const list = await ctx.client.orders.fulfillmentOrders({ params: { number: newest.order_number! } });
    expect(list).toEqual([]);
  });

  it('applies a partial update and answers with the flattened line shape', async () => {
    const updated = await ctx.client.subscriptions.update({
      params: { id: 4 },
      body: { interval: 'week', interval_count: 3, shipping_price: '7.50', status: 'active', shipping_code: null },
    });
    expect(updated).toMatchObject({ interval: 'week', interval_count: 3, shipping_price: '7.50', status: 'active', shipping_code: null });
    expect(updated.lines?.[0]).toHaveProperty('product_title');
    expect(updated.lines?.[0]).not.toHaveProperty('stockrecord');
    const lines = state().subscriptions['4']!.lines;
    const expected = lines.reduce((sum, l) => sum + toCents(l.price) * (l.quantity ?? 1), 0) + 750;
    expect(toCents(updated.total)).toBe(expected);
  });

  it('rejects a pending cancellation request once', async () => {
    const rejected = await ctx.client.fulfillmentOrders.rejectCancellation({ params: { id: 401 }, body: { message: 'Shipped' } });
    expect(rejected.request_status).toBe('cancel_rejected');
    // The fulfillment service's answer is no merchant request: the merchant's request stays the last, and work goes on.
    expect(rejected.merchant_requests?.map((r) => r.type)).toEqual(['cancel_request']);
    expect(rejected.status).toBe('processing');
    expect(rejected.line_items?.[0]).toHaveProperty('total_discount');
    const again = (await ctx.client.fulfillmentOrders.rejectCancellation({ params: { id: 401 }, body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(again.status).toBe(400);
    const [listed] = await ctx.client.orders.fulfillmentOrders({ params: { number: '10002' } });
    expect(listed?.request_status).toBe('cancel_rejected');
    expect(listed?.line_items?.[0]).toHaveProperty('price_incl_tax_excl_discounts');
  });

  it('stores exports pending, each with the next id and its API URL', async () => {
    const created = await ctx.client.exports.create({
      body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-12-31T00:00:00Z' },
    });
    expect(created).toMatchObject({ status: 'pending', type: 'order_list', url: `${ctx.sandbox.url}/api/admin/exports/${created.id}/` });
    const next = await ctx.client.exports.create({
      body: { type: 'customer_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-12-31T00:00:00Z' },
    });
    expect(next.id).toBe(created.id! + 1);
    expect(state().exports[String(next.id)]).toMatchObject({ status: 'pending', type: 'customer_list' });
    const backwards = (await ctx.client.exports
      .create({ body: { type: 'order_list', date_from: '2026-02-01T00:00:00Z', date_to: '2026-01-01T00:00:00Z' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(backwards.message).toBe('date_from must not be after date_to.');
  });

  it('ties a dispute to its transaction and order', async () => {
    const order = state().orders['10002']!;
    const transaction = order.transactions![0]!;
    const dispute = await ctx.client.disputes.create({ body: { transaction: transaction.id!, type: 'alert' } });
    expect(dispute).toMatchObject({ status: 'new', type: 'alert', transaction: transaction.id, order: 10002, amount: transaction.amount });
    expect(state().orders['10002']!.transactions![0]!.is_disputed).toBe(true);
    const unknown = (await ctx.client.disputes.create({ body: { transaction: 999999 } }).catch((e: unknown) => e)) as ApiError;
    expect(unknown.status).toBe(400);
    expect(unknown.message).toMatch(/^transaction: /);
  });

  it('merges app settings', async () => {
    const before = structuredClone(state().appSettings['sandbox-app']!);
    const merged = await ctx.client.apps.updateSettings({ params: { clientId: 'sandbox-app' }, body: { theme: 'dark', limit: 5 } });
    expect(merged).toEqual({ ...before, theme: 'dark', limit: 5 });
  });

  it('stores webhooks and reads them back', async () => {
    const created = await ctx.client.webhooks.create({
      body: { target: 'https://hooks.example.com/x', events: ['order.created', 'custom.thing'], name: 'Mine', secret_key: 's3cret' },
    });
    expect(created).toMatchObject({ active: true, warning_count: 0, name: 'Mine' });
    const read = await ctx.client.webhooks.get({ params: { id: created.id! } });
    expect(read).toEqual(created);
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
