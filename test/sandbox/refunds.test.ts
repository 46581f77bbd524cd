// Refunds through the CLI against the seeded sandbox, as the platform's guide runs them: calculate
// (which changes nothing), then create with what it said; the lines, shipping, transactions,
// totals and payment status after it; the refusals of what the platform forbids; money refunded
// alone (2023-02-10's refund, a transaction's refund). Answers and events are held to the
// reference by the store's harness.
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/sandbox/kinds.js';
import { sumCents, toCents } from '../../src/sandbox/money.js';
import { useOrderSandbox } from './order-store.js';

describe('order refunds: calculate, then create', () => {
  const s = useOrderSandbox();
  const line = (number: string, id: number) => (s.record('orders', number).lines as Rec[]).find((l) => l.id === id)!;

  it('calculates a refund from what the lines and shipping cost, with the charge it goes back through, and changes nothing', async () => {
    const before = JSON.stringify(s.store.state.records);
    const calc = await s.cli('POST', '/orders/9964/refund/calculate/', { refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'return' }], refund_shipping: { amount_excl_tax: '2.00' } });
    expect(calc.code, calc.stderr).toBe(0);
    const hoodies = line('9964', 149);
    const unit = toCents(hoodies.price_incl_tax) / 2;
    expect(calc.json.refund_lines).toEqual([
      expect.objectContaining({ line_id: 149, quantity: 1, restock_type: 'return', refundable_quantity: 2, amount_incl_tax: (unit / 100).toFixed(2), sku: hoodies.sku, variant_id: 2115 }),
    ]);
    expect(calc.json.refund_shipping).toMatchObject({ amount_excl_tax: '2.00', amount_incl_tax: '2.40', total_tax: '0.40', currency: 'USD', refundable_amount: s.record('orders', '9964').shipping_incl_tax });
    const total = unit + 240;
    expect(calc.json).toMatchObject({ amount_incl_tax: (total / 100).toFixed(2), currency: 'USD' });
    expect(calc.json.transactions).toEqual([expect.objectContaining({ id: 536, type: 'debit', amount: (total / 100).toFixed(2), refundable_amount: '321.00', gateway_name: 'Stripe', payment_method: 'bankcard' })]);
    expect(JSON.stringify(s.store.state.records)).toBe(before);
  });

  it('creates the refund the calculation described: the line keeps what is left, the order its totals, the charge what is not refunded', async () => {
    const body = { refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'return' }], refund_shipping: { amount_excl_tax: '2.00' } };
    const calc = (await s.cli('POST', '/orders/9964/refund/calculate/', body)).json;
    const made = await s.cli('POST', '/orders/9964/refund/', { ...body, note: 'Wrong size', transactions: calc.transactions.map((t: Rec) => ({ id: t.id, amount: t.amount })) });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ order_number: '9964', note: 'Wrong size', total_refund_amount: calc.amount_incl_tax, total_return_incl_tax: calc.refund_lines[0].amount_incl_tax });
    expect(made.json.refund_line_items).toEqual([expect.objectContaining({ line_item_id: 149, quantity: 1, restock_type: 'return' })]);
    expect(made.json.adjustments).toEqual([expect.objectContaining({ type: 'refund_shipping', amount_incl_tax: '2.40', amount_excl_tax: '2.00' })]);
    expect(made.json.transactions).toEqual([expect.objectContaining({ type: 'refund', amount: calc.amount_incl_tax, parent_id: 536 })]);

    const order = (await s.cli('GET', '/orders/9964/')).json;
    expect(order.payment_status).toBe('partially_refunded');
    expect(order.lines.find((l: Rec) => l.id === 149)).toMatchObject({ quantity: 2, current_quantity: 1, fulfillable_quantity: 0, editable_quantity: 0 });
    expect(toCents(order.total_incl_tax)).toBe(32100 - toCents(calc.amount_incl_tax));
    expect(order.total_incl_tax).toBe((sumCents(order.lines.map((l: Rec) => l.price_incl_tax)) / 100 + Number(order.shipping_incl_tax)).toFixed(2));
    expect(order).toMatchObject({ original_total_incl_tax: '321.00', total_outstanding: '0.00', refunds: [{ id: made.json.id }] });
    expect((await s.cli('GET', '/transactions/536/')).json.amount_available_for_refund).toBe(((32100 - toCents(calc.amount_incl_tax)) / 100).toFixed(2));
    // The parcel that shipped it counts it returned.
    const parcel = Object.values(s.store.state.records.fulfillments).find((f) => f.order_number === '9964')!;
    expect((parcel.line_items as Rec[]).find((i) => i.order_line_id === 149)).toMatchObject({ returned_quantity: '1', returnable_quantity: '1' });
    expect(s.events().map((e) => [e.event_type, e.data.id ?? e.data.number])).toEqual([
      ['transaction.created', made.json.transactions[0].id],
      ['transaction.updated', 536],
      ['order.updated', '9964'],
    ]);
    expect(s.events()[1]!.data.amount_available_for_refund).toBe(((32100 - toCents(calc.amount_incl_tax)) / 100).toFixed(2));

    // The rest, shipping and all: refunded.
    const rest = await s.cli('POST', '/orders/9964/refund/', {
      refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'no_restock' }, { line_id: 150, quantity: 1, restock_type: 'no_restock' }],
      refund_shipping: { full_refund: true },
      transactions: [{ id: 536, amount: (await s.cli('GET', '/transactions/536/')).json.amount_available_for_refund }],
    });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.json.adjustments.map((a: Rec) => a.type)).toEqual(['refund_shipping']);
    expect(s.record('orders', '9964')).toMatchObject({ payment_status: 'refunded', total_incl_tax: '0.00', shipping_incl_tax: '0.00', original_shipping_incl_tax: '6.00', total_outstanding: '0.00' });
  });

  it('cancels unfulfilled units out of their fulfillment order', async () => {
    // Two units at 30.00 (after their discount), and 6.00 shipping.
    const made = await s.cli('POST', '/orders/9945/refund/', { refund_lines: [{ line_id: 111, quantity: 1, restock_type: 'cancel' }], transactions: [{ id: 512, amount: '30.00' }] });
    expect(made.code, made.stderr).toBe(0);
    expect(line('9945', 111)).toMatchObject({ current_quantity: 1, fulfillable_quantity: 1, editable_quantity: 1, price_incl_tax: '30.00' });
    expect(s.record('fulfillmentOrders', 406)).toMatchObject({ status: 'open', line_items: [{ order_line_id: 111, quantity: 1, fulfillable_quantity: '1', price_incl_tax: '30.00' }] });
    expect(s.record('orders', '9945')).toMatchObject({ total_incl_tax: '36.00', total_outstanding: '0.00', payment_status: 'partially_refunded' });
    // The last unit too: the fulfillment order has nothing left and is canceled.
    await s.cli('POST', '/orders/9945/refund/', { refund_lines: [{ line_id: 111, quantity: 1, restock_type: 'cancel' }], transactions: [{ id: 512, amount: '30.00' }] });
    expect(s.record('fulfillmentOrders', 406)).toMatchObject({ status: 'canceled', line_items: [], supported_actions: [] });
  });

  it('records money given back beyond the goods as the refund’s discrepancy, owed by nobody', async () => {
    const made = await s.cli('POST', '/orders/9945/refund/', { refund_lines: [{ line_id: 111, quantity: 1, restock_type: 'cancel' }], transactions: [{ id: 512, amount: '40.00' }] });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ total_refund_amount: '40.00', total_return_incl_tax: '30.00', adjustments: [{ type: 'refund_discrepancy', amount_incl_tax: '10.00' }] });
    expect(s.record('orders', '9945')).toMatchObject({ total_incl_tax: '36.00', total_outstanding: '0.00', payment_status: 'partially_refunded' });
  });

  it('refuses an unknown line, more than is left, the wrong restock, too much shipping or money, and a payment of another order, changing nothing', async () => {
    const before = JSON.stringify(s.store.state.records);
    const refusal = async (body: Rec) => {
      const r = await s.cli('POST', '/orders/9964/refund/', { transactions: [], ...body });
      expect(r.code, r.stdout).not.toBe(0);
      return r.stderr;
    };
    expect(await refusal({ refund_lines: [{ line_id: 999, quantity: 1, restock_type: 'return' }] })).toContain('Line 999 is not a line of order 9964; its lines are 149, 150.');
    expect(await refusal({ refund_lines: [{ line_id: 149, quantity: 3, restock_type: 'return' }] })).toContain('Line 149 has 2 units left to refund; 3 were asked for.');
    expect(await refusal({ refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'cancel' }] })).toContain('0 units of line 149 are unfulfilled (refunded with cancel); the other 2 are refunded with return or no_restock.');
    expect(await refusal({ refund_shipping: { amount_excl_tax: '9.00' } })).toContain('5.00 of the shipping (tax excluded) is left to refund; 9.00 was asked for.');
    expect(await refusal({ transactions: [{ id: 536, amount: '400.00' }] })).toContain('Transaction 536 has 321.00 left to refund; 400.00 was asked for.');
    expect(await refusal({ transactions: [{ id: 512, amount: '1.00' }] })).toContain('Transaction 512 is not a payment of order 9964.');
    expect(await refusal({})).toContain('Nothing to refund');
    const digital = await s.cli('POST', '/orders/9949/refund/calculate/', { refund_lines: [{ line_id: 118, quantity: 1, restock_type: 'return' }] });
    expect(digital.stderr).toContain('Line 118 is a digital product: its fulfilled units are refunded with no_restock.');
    expect((await s.cli('POST', '/orders/9949/refund/calculate/', { refund_lines: [{ line_id: 118, quantity: 1 }] })).json.refund_lines[0].restock_type).toBe('no_restock');
    expect((await s.cli('POST', '/orders/1/refund/calculate/', {})).stderr).toContain('Not found.');
    expect(JSON.stringify(s.store.state.records)).toBe(before);
  });

  it('refuses a partial refund of a payment never captured, and voids it when the whole order is refunded', async () => {
    const calc = (await s.cli('POST', '/orders/9969/refund/calculate/', { refund_lines: [{ line_id: 158, quantity: 1 }] })).json;
    expect(calc.transactions).toEqual([expect.objectContaining({ id: 541, type: 'authorize', refundable_amount: '116.40' })]);
    const partial = await s.cli('POST', '/orders/9969/refund/', { refund_lines: [{ line_id: 158, quantity: 1, restock_type: 'cancel' }], transactions: calc.transactions.map((t: Rec) => ({ id: t.id, amount: t.amount })) });
    expect(partial.code).not.toBe(0);
    expect(partial.stderr).toContain("Order 9969's payment is authorized but not captured, and an uncaptured payment cannot be refunded in part: capture it first (POST /orders/9969/capture/), or refund the whole order.");
    const lines = [158, 159].map((id) => ({ line_id: id, quantity: 1, restock_type: 'cancel' }));
    const unnamed = await s.cli('POST', '/orders/9969/refund/', { refund_lines: lines, refund_shipping: { full_refund: true }, transactions: [] });
    expect(unnamed.stderr).toContain('Refunding all of order 9969 gives back a payment only authorized: name transaction 541 (116.40) to void it.');
    const whole = await s.cli('POST', '/orders/9969/refund/', { refund_lines: lines, refund_shipping: { full_refund: true }, transactions: [{ id: 541, amount: '116.40' }] });
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.json.transactions).toEqual([expect.objectContaining({ type: 'void', amount: '116.40', parent_id: 541 })]);
    expect(s.record('orders', '9969')).toMatchObject({ payment_status: 'voided', total_incl_tax: '0.00', total_outstanding: '0.00' });
  });

  it('answers 2023-02-10 with the order, refunding an amount over the charges', async () => {
    const made = await s.cli('POST', '/orders/9964/refund/', { amount: '21.00' }, '2023-02-10');
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ number: '9964', payment_status: 'partially_refunded', total_incl_tax: '321.00' });
    expect(made.json.refunds).toEqual([expect.objectContaining({ total_refund_amount: '21.00', refund_line_items: [], adjustments: [expect.objectContaining({ type: 'refund_discrepancy', amount_incl_tax: '21.00' })] })]);
    expect(s.record('orders', '9964').total_outstanding).toBe('0.00');
    expect((await s.cli('POST', '/orders/9964/refund/', { amount: '400.00' }, '2023-02-10')).stderr).toContain('Order 9964 has 300.00 left to refund; 400.00 was asked for.');
  });
});

describe('transaction refunds', () => {
  const s = useOrderSandbox();

  it('refunds part of a charge, up to what is available, as a refund of money alone on its order', async () => {
    const made = await s.cli('POST', '/transactions/536/refund/', { amount: '21.00', is_external: true });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ type: 'refund', amount: '21.00', parent_id: 536, is_external: true, order: '9964' });
    expect((await s.cli('GET', '/transactions/536/')).json.amount_available_for_refund).toBe('300.00');
    expect(s.record('orders', '9964')).toMatchObject({ payment_status: 'partially_refunded', total_outstanding: '0.00' });
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.created', 'transaction.updated', 'order.updated']);
    const tooMuch = await s.cli('POST', '/transactions/536/refund/', { amount: '300.01' });
    expect(tooMuch.stderr).toContain('Transaction 536 has 300.00 left to refund (amount_available_for_refund); 300.01 was asked for.');
    expect((await s.cli('POST', '/transactions/536/refund/', { amount: '300.00' })).code).toBe(0);
    expect(s.record('orders', '9964').payment_status).toBe('refunded');
  });

  it('refuses an authorization, a refund, a failed charge and an unknown transaction', async () => {
    expect((await s.cli('POST', '/transactions/541/refund/', { amount: '1.00' })).stderr).toContain('Transaction 541 is an authorization that was not captured: capture it first (POST /transactions/541/capture/), or cancel the order to void it.');
    expect((await s.cli('POST', '/transactions/502/refund/', { amount: '1.00' })).stderr).toContain('Transaction 502 is a refund: only a charge that went through can be refunded.');
    expect((await s.cli('POST', '/transactions/513/refund/', { amount: '1.00' })).stderr).toContain('Transaction 513 is a charge that failed: only a charge that went through can be refunded.');
    expect((await s.cli('POST', '/transactions/99999/refund/', { amount: '1.00' })).stderr).toContain('Not found.');
  });
});
