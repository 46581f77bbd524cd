// The seeded store (src/sandbox/seed/) as a whole: the same options build the same bytes; it shows
// every status the platform's orders, fulfillment orders, subscriptions, parcels, payments and
// disputes can be in; its money adds up; every link leads to a record; the records the docs and
// tests name are there as they say; and a store of 10,000 orders builds and holds together.
import { describe, expect, it } from 'vitest';
import { applyOrderTotals, lineAmounts, subscriptionTotal } from '../../src/sandbox/amounts.js';
import { SEED_MOMENT } from '../../src/sandbox/clock.js';
import { KIND_NAMES, type Rec, type Records } from '../../src/sandbox/kinds.js';
import { fromCents, sumCents, toCents } from '../../src/sandbox/money.js';
import { paidCents, transactionsOf } from '../../src/sandbox/payments.js';
import { ANCHOR_IDS } from '../../src/sandbox/seed/anchors.js';
import { buildRecords, DEFAULT_SIZE } from '../../src/sandbox/seed/index.js';
import { SALES_TAX } from '../../src/sandbox/seed/store-facts.js';
import { supportedActions } from '../../src/sandbox/supported-actions.js';

const DAY = 86_400_000;
const seed = buildRecords({ now: SEED_MOMENT });
const { records } = seed;
const all = (kind: keyof Records) => Object.values(records[kind]);
/** The distinct values of a field among records, sorted (null and '' included). */
const valuesOf = (items: Rec[], read: (item: Rec) => unknown) => [...new Set(items.map(read))].sort((a, b) => String(a).localeCompare(String(b)));
const sorted = (values: unknown[]) => [...values].sort((a, b) => String(a).localeCompare(String(b)));

describe('the seeded store is built, not written', () => {
  it('is the same, byte for byte, each time it is built from the same options', () => {
    expect(JSON.stringify(buildRecords({ now: SEED_MOMENT }))).toBe(JSON.stringify(seed));
  });

  it('moves every date with its moment and nothing else', () => {
    const later = JSON.stringify(buildRecords({ now: SEED_MOMENT + 3 * DAY }));
    const shiftedBack = later.replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"/g, (_, iso: string) => `"${new Date(Date.parse(iso) - 3 * DAY).toISOString().replace('.000Z', 'Z')}"`);
    expect(shiftedBack).toBe(JSON.stringify(seed));
  });

  it('holds records of every kind, and the next key of each numbered kind after its highest', () => {
    expect(KIND_NAMES.filter((kind) => all(kind).length === 0)).toEqual([]);
    expect(seed.lastIds.orders).toBe(10003);
    expect(seed.lastIds.webhooks).toBe(2);
    expect(seed.lastIds.exports).toBe(2);
    for (const kind of ['transactions', 'fulfillmentOrders', 'subscriptions', 'users'] as const) {
      expect(seed.lastIds[kind], kind).toBe(Math.max(...Object.keys(records[kind]).map(Number)));
    }
  });
});

describe('the seeded store shows every state the reference lists', () => {
  const orders = all('orders');
  const fos = all('fulfillmentOrders');

  it(`has ${DEFAULT_SIZE} orders, in every status, fulfillment status and payment status`, () => {
    expect(orders).toHaveLength(DEFAULT_SIZE);
    expect(valuesOf(orders, (o) => o.status)).toEqual(['archived', 'canceled', 'open']);
    expect(valuesOf(orders, (o) => o.fulfillment_status)).toEqual(sorted(['not_required', 'unfulfilled', 'on_hold', 'rejected', 'processing', 'fulfilled', 'incomplete']));
    expect(valuesOf(orders, (o) => o.payment_status)).toEqual(
      sorted(['pending', 'authorized', 'expiring', 'expired', 'paid', 'voided', 'refunded', 'partially_paid', 'partially_refunded', 'partially_voided']),
    );
    expect(valuesOf(orders, (o) => o.currency)).toEqual(['EUR', 'USD']);
    expect(valuesOf(orders, (o) => o.source)).toEqual(sorted(['admin_api', 'checkout', 'dashboard', 'subscription']));
  });

  it('has orders with lines, fulfillments with tracking, transactions and refunds', () => {
    expect(orders.every((o) => (o.lines as Rec[]).length > 0)).toBe(true);
    const fulfillments = all('fulfillments');
    expect(fulfillments.every((f) => f.tracking_code && f.tracking_link && f.tracking_carrier)).toBe(true);
    expect(valuesOf(fulfillments, (f) => f.delivery_status)).toEqual(
      sorted([null, '', 'tracking_added', 'in_transit', 'out_for_delivery', 'attempted_delivery', 'failed_delivery', 'delivered', 'delayed']),
    );
    expect(valuesOf(fulfillments, (f) => f.status)).toEqual(['canceled', 'success']);
    expect(valuesOf(all('fulfillmentEvents'), (e) => e.status)).toEqual(
      sorted(['label_printed', 'label_purchased', 'confirmed', 'ready_for_pickup', 'carrier_picked_up', 'picked_up', 'in_transit', 'out_for_delivery', 'attempted_delivery', 'failure', 'delivered', 'delayed']),
    );
    const transactions = all('transactions');
    expect(valuesOf(transactions, (t) => t.type)).toEqual(['authorize', 'debit', 'refund', 'void']);
    expect(valuesOf(transactions, (t) => t.status)).toEqual(['failed', 'succeeded']);
    expect(transactions.some((t) => t.order === null)).toBe(true);
    expect(orders.filter((o) => (o.refunds as Rec[]).length > 0).length).toBeGreaterThanOrEqual(4);
  });

  it('has fulfillment orders in every status and request status, their actions following from both', () => {
    expect(valuesOf(fos, (fo) => fo.status)).toEqual(sorted(['not_required', 'open', 'processing', 'on_hold', 'incomplete', 'closed', 'canceled']));
    expect(valuesOf(fos, (fo) => fo.request_status)).toEqual(sorted(['pending', 'requested', 'accepted', 'rejected', 'cancel_requested', 'cancel_accepted', 'cancel_rejected', 'closed']));
    for (const fo of fos) expect(fo.supported_actions, `fulfillment order ${String(fo.id)}`).toEqual(supportedActions(String(fo.status), String(fo.request_status)));
    // On hold means a hold; a cancellation asked for means the merchant's request.
    expect(fos.filter((fo) => fo.status === 'on_hold').every((fo) => (fo.fulfillment_holds as Rec[]).length > 0)).toBe(true);
    expect(fos.filter((fo) => fo.status !== 'on_hold').every((fo) => !(fo.fulfillment_holds as Rec[] | null)?.length)).toBe(true);
    expect(valuesOf(fos.flatMap((fo) => (fo.fulfillment_holds ?? []) as Rec[]), (h) => h.reason)).toEqual(sorted(['address_incorrect', 'out_of_stock', 'high_risk', 'awaiting_payment', 'other']));
    const canceling = fos.filter((fo) => String(fo.request_status).startsWith('cancel'));
    expect(canceling.every((fo) => (fo.merchant_requests as Rec[]).some((r) => r.type === 'cancel_request'))).toBe(true);
  });

  it('has customers with addresses and notes, and subscriptions in every status', () => {
    const users = all('users');
    expect(users.filter((u) => all('addresses').some((a) => a.user_id === u.id)).length).toBeGreaterThan(users.length / 2);
    expect(all('userNotes').length).toBeGreaterThan(3);
    expect(valuesOf(users, (u) => u.language)).toEqual(sorted([null, '', 'en', 'fr', 'th', 'de', 'sv', 'no', 'it', 'es', 'nl', 'pt', 'da', 'fi']));
    expect(valuesOf(users, (u) => u.user_type)).toEqual(['customer', 'lead']);
    expect(valuesOf(all('subscriptions'), (s) => s.status)).toEqual(sorted(['active', 'past_due', 'canceled', 'retrying', 'paused']));
  });

  it('has products with variants, a price in both currencies and stock at both locations for each variant', () => {
    const variants = all('variants');
    expect(all('products').filter((p) => variants.filter((v) => v.product_id === p.id).length > 1).length).toBeGreaterThanOrEqual(2);
    for (const variant of variants) {
      expect(valuesOf(all('productPrices').filter((p) => p.product_id === variant.id), (p) => p.currency), `variant ${String(variant.id)}`).toEqual(['EUR', 'USD']);
      expect(valuesOf(all('stockrecords').filter((s) => s.variant_id === variant.id), (s) => s.location_id), `variant ${String(variant.id)}`).toEqual([1, 2]);
    }
    expect(valuesOf(variants, (v) => v.inventory_availability)).toEqual(sorted([null, '', 'in_stock', 'low_stock', 'out_of_stock', 'untracked']));
  });

  it('has disputes in every status, type and resolution, carts (some abandoned) and gift cards in every state', () => {
    const disputes = all('disputes');
    expect(valuesOf(disputes, (d) => d.status)).toEqual(['new', 'open', 'resolved']);
    expect(valuesOf(disputes, (d) => d.type)).toEqual(['alert', 'chargeback']);
    expect(valuesOf(disputes, (d) => d.resolution)).toEqual(
      sorted([null, '', 'could_not_find_order', 'declined_or_canceled_nothing_to_do', 'issued_full_refund', 'issued_refund_for_remaining_amount', '3ds_authorized_successfully', 'previously_refunded_nothing_to_do', 'unable_to_refund_merchant_account_closed', 'won', 'lost', 'accepted', 'other']),
    );
    expect(valuesOf(all('carts'), (c) => c.abandoned)).toEqual([false, true]);
    const state = (card: Rec) => (card.disabled_at ? 'disabled' : card.expired_at ? 'expired' : 'active');
    expect(valuesOf(all('giftCards'), state)).toEqual(['active', 'disabled', 'expired']);
  });
});

describe("the seeded store's money is computed", () => {
  const orders = all('orders');

  it("has each line's amounts follow from its unit price, quantity and discount, tax included: at placement, and for the units it still has", () => {
    const amountsOf = (line: Rec, currency: unknown, quantity: number, discount: number) => {
      const { tax_lines: _tax, report_values: _report, ...money } = lineAmounts({ unitCost: String(line.unit_cost), quantity, discount: fromCents(discount), currency: String(currency), tax: SALES_TAX });
      return money;
    };
    for (const order of orders) {
      for (const line of order.lines as Rec[]) {
        const [quantity, current, discount] = [Number(line.quantity), Number(line.current_quantity), toCents(line.original_total_discount)];
        const placed = Object.entries(amountsOf(line, order.currency, quantity, discount)).filter(([field]) => field.startsWith('original_'));
        const left = Object.entries(amountsOf(line, order.currency, current, Math.round((discount * current) / quantity))).filter(([field]) => !field.startsWith('original_'));
        expect(line, `line ${String(line.id)} of order ${String(order.number)}`).toMatchObject(Object.fromEntries([...left, ...placed]));
      }
    }
  });

  it("has each order's totals follow from its lines, shipping and what its payments brought in", () => {
    for (const order of orders) {
      const again: Rec = JSON.parse(JSON.stringify(order)) as Rec;
      applyOrderTotals(again, paidCents(order, transactionsOf(records, order.number)));
      const totals = ['total_excl_tax', 'total_incl_tax', 'total_tax', 'total_discount', 'total_cost', 'total_outstanding'];
      expect(Object.fromEntries(totals.map((f) => [f, order[f]])), `order ${String(order.number)}`).toEqual(Object.fromEntries(totals.map((f) => [f, again[f]])));
    }
  });

  it('refunds what their lines and adjustments say, through one refund transaction each', () => {
    for (const order of orders) {
      for (const refund of order.refunds as Rec[]) {
        const parts = [...(refund.refund_line_items as Rec[]).map((l) => l.amount_incl_tax), ...(refund.adjustments as Rec[]).map((a) => a.amount_incl_tax)];
        expect(refund.total_refund_amount, `refund ${String(refund.id)}`).toBe(fromCents(sumCents(parts)));
        expect(all('transactions').filter((t) => t.refund_id === refund.id).map((t) => t.amount)).toEqual([refund.total_refund_amount]);
      }
    }
  });

  it("has each subscription's total follow from its lines and shipping", () => {
    for (const s of all('subscriptions')) expect(s.total, `subscription ${String(s.id)}`).toBe(subscriptionTotal(s.lines as Rec[], String(s.shipping_price)));
  });
});

/** Every link a record keeps, as `[kind, field, kind it leads to]`. */
const LINKS: [keyof Records, string, keyof Records][] = [
  ['orders', 'user_id', 'users'],
  ['addresses', 'user_id', 'users'],
  ['userNotes', 'user_id', 'users'],
  ['orderNotes', 'order_number', 'orders'],
  ['transactions', 'order', 'orders'],
  ['transactions', 'user_id', 'users'],
  ['transactions', 'subscription_id', 'subscriptions'],
  ['transactions', 'parent_id', 'transactions'],
  ['fulfillments', 'order_number', 'orders'],
  ['fulfillments', 'fulfillment_order_id', 'fulfillmentOrders'],
  ['fulfillments', 'location_id', 'locations'],
  ['fulfillmentEvents', 'fulfillment', 'fulfillments'],
  ['fulfillmentEvents', 'order', 'orders'],
  ['fulfillmentOrders', 'order_number', 'orders'],
  ['fulfillmentOrders', 'location_id', 'locations'],
  ['subscriptions', 'user_id', 'users'],
  ['variants', 'product_id', 'products'],
  ['productImages', 'product_id', 'products'],
  ['productPrices', 'product_id', 'variants'],
  ['stockrecords', 'variant_id', 'variants'],
  ['stockrecords', 'location_id', 'locations'],
  ['carts', 'user_id', 'users'],
  ['giftCards', 'user_id', 'users'],
  ['disputes', 'transaction', 'transactions'],
  ['disputes', 'order', 'orders'],
  ['disputeNotes', 'dispute_id', 'disputes'],
];

function brokenLinks(store: Records): string[] {
  return LINKS.flatMap(([kind, field, target]) =>
    Object.entries(store[kind])
      .filter(([, record]) => record[field] !== null && record[field] !== undefined && !store[target][String(record[field])])
      .map(([key]) => `${kind} ${key}.${field} → no ${target} ${String(store[kind][key]![field])}`),
  );
}

describe("the seeded store's links", () => {
  it('lead to records that are there', () => {
    expect(brokenLinks(records)).toEqual([]);
  });

  it("tie each order's subscription, line, fulfillment and fulfillment-order line to what it names", () => {
    for (const order of all('orders')) {
      for (const s of order.subscriptions as Rec[]) expect(records.subscriptions[String(s.id)], `order ${String(order.number)}`).toBeDefined();
      const lineIds = new Set((order.lines as Rec[]).map((l) => l.id));
      const items = [
        ...all('fulfillments').filter((f) => f.order_number === order.number).flatMap((f) => f.line_items as Rec[]),
        ...all('fulfillmentOrders').filter((fo) => fo.order_number === order.number).flatMap((fo) => fo.line_items as Rec[]),
      ];
      expect(items.filter((item) => !lineIds.has(item.order_line_id)), `order ${String(order.number)}`).toEqual([]);
    }
  });
});

describe('the records the docs and tests name', () => {
  it('are all there', () => {
    for (const [kind, keys] of Object.entries(ANCHOR_IDS)) {
      if (!(kind in records)) continue;
      for (const key of keys) expect(records[kind as keyof Records][String(key)], `${kind} ${key}`).toBeDefined();
    }
  });

  it('are as the README tells them', () => {
    const lines = (number: string) => (records.orders[number]!.lines as Rec[]).map((l) => l.id);
    const fosOf = (number: string) => all('fulfillmentOrders').filter((fo) => fo.order_number === number).map((fo) => fo.id);
    expect(lines('10001')).toEqual([101, 102, 103]);
    expect(lines('10002')).toEqual([104, 105]);
    expect(lines('10003')).toEqual([106]);
    expect(records.fulfillments['201']).toMatchObject({ order_number: '10001', tracking_code: '1Z9NW4210345678901' });
    expect(all('fulfillmentEvents').filter((e) => e.fulfillment === 201).map((e) => e.id)).toEqual([301, 302]);
    expect([fosOf('10001'), fosOf('10002'), fosOf('10003')]).toEqual([[402], [401], []]);
    expect(records.fulfillmentOrders['401']).toMatchObject({ status: 'processing', request_status: 'cancel_requested', merchant_requests: [{ type: 'cancel_request' }] });
    expect(records.fulfillmentOrders['402']).toMatchObject({ status: 'open', line_items: [{ order_line_id: 102 }] });
    expect([1, 2, 3, 4].map((id) => records.subscriptions[id]!.status)).toEqual(['active', 'past_due', 'canceled', 'retrying']);
    expect(records.subscriptions['1']).toMatchObject({ next_renewal_date: '2026-02-15T08:00:00Z', total: '28.80' });
    expect(all('webhooks').map((w) => [w.id, w.active])).toEqual([[1, true], [2, false]]);
    expect(records.exports['1']).toMatchObject({ status: 'available', type: 'order_list' });
    expect(Object.keys(records.apps)).toEqual(['sandbox-app', 'loyalty-points']);
    expect(all('gateways').map((g) => [g.id, g.name, g.active])).toEqual([[1, 'Stripe', true], [2, 'PayPal', true], [3, 'Klarna', false], [4, 'Adyen', true]]);
    expect(all('carts').filter((c) => c.status === 'Open' && !c.abandoned).map((c) => [c.id, c.updated_at])).toEqual([[2, '2026-02-02T04:00:00Z'], [5, '2026-02-01T19:00:00Z'], [8, '2026-02-01T10:00:00Z']]);
    // Lines 104 and 105 can go: nothing of them is fulfilled or refunded.
    expect((records.orders['10002']!.lines as Rec[]).map((l) => l.editable_quantity === l.current_quantity)).toEqual([true, true]);
    expect([501, 502, 503, 504].map((id) => [records.transactions[id]!.amount, records.transactions[id]!.is_disputed])).toEqual([['141.00', false], ['12.00', false], ['84.00', false], ['26.40', false]]);
  });
});

describe('a grown store', () => {
  const grown = buildRecords({ now: SEED_MOMENT, size: 10_000 });

  it('has 10,000 orders with their customers, transactions and fulfillment orders, all linked', () => {
    expect(Object.keys(grown.records.orders)).toHaveLength(10_000);
    expect(Object.keys(grown.records.users).length).toBeGreaterThan(3000);
    expect(Object.keys(grown.records.transactions).length).toBeGreaterThan(10_000);
    expect(Object.keys(grown.records.fulfillmentOrders).length).toBeGreaterThan(9000);
    expect(brokenLinks(grown.records)).toEqual([]);
  });

  it('keeps the default store\'s anchors and its next order number', () => {
    expect(grown.records.orders['10001']).toEqual(records.orders['10001']);
    expect(grown.lastIds.orders).toBe(10003);
  });
});
