// An order's lines edited through the CLI against the seeded sandbox, as the platform's
// order-editing guide runs a swap: a line's quantity changed or the line removed (its units
// leaving the fulfillment order, the line staying with nothing left), a new line added (waiting in
// the fulfillment order), the balance collected; line items added after the sale and charged at
// once; and each refusal. Answers and events are held to the reference by the harness.
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/sandbox/kinds.js';
import { useOrderSandbox } from './order-store.js';

describe("editing an order's lines", () => {
  const s = useOrderSandbox();
  const lineOf = (order: Rec, id: number) => (order.lines as Rec[]).find((l) => l.id === id)!;
  const foLines = (id: number) => (s.record('fulfillmentOrders', id).line_items as Rec[]).map((i) => [i.order_line_id, i.quantity, i.fulfillable_quantity]);

  it('changes a quantity down and up: the units, the money and the fulfillment order follow, and the balance is collected', async () => {
    // Line 111: two units at 30.00, 6.00 shipping; paid 66.00.
    const down = await s.cli('PATCH', '/orders/9945/lines/111/', { quantity: 1, reason: 'product swap' });
    expect(down.code, down.stderr).toBe(0);
    expect(lineOf(down.json, 111)).toMatchObject({ quantity: 2, current_quantity: 1, fulfillable_quantity: 1, editable_quantity: 1, price_incl_tax: '30.00', original_price_incl_tax: '60.00' });
    expect(down.json).toMatchObject({ total_incl_tax: '36.00', original_total_incl_tax: '66.00', total_outstanding: '0.00', payment_status: 'paid' });
    expect(foLines(406)).toEqual([[111, 1, '1']]);
    expect(s.events().map((e) => e.event_type)).toEqual(['order.updated']);

    const up = await s.cli('PATCH', '/orders/9945/lines/111/', { quantity: 3 });
    expect(lineOf(up.json, 111)).toMatchObject({ quantity: 4, current_quantity: 3, fulfillable_quantity: 3, editable_quantity: 3, price_incl_tax: '90.00' });
    expect(up.json).toMatchObject({ total_incl_tax: '96.00', total_outstanding: '30.00', payment_status: 'partially_paid' });
    expect(foLines(406)).toEqual([[111, 3, '3']]);
    const collected = await s.cli('POST', '/orders/9945/collect-payment/', {});
    expect(collected.json).toMatchObject({ total_outstanding: '0.00', payment_status: 'paid' });
  });

  it('refuses a quantity below what can change, and any change to a line with nothing editable', async () => {
    Object.assign(lineOf(s.record('orders', '9945'), 111), { editable_quantity: 1 });
    const before = JSON.stringify(s.store.state.records);
    expect((await s.cli('PATCH', '/orders/9945/lines/111/', { quantity: 0 })).stderr).toContain('Line 111 has 2 units, of which 1 can still change: its quantity can go down to 1, not 0.');
    expect((await s.cli('PATCH', '/orders/9964/lines/149/', { quantity: 3 })).stderr).toContain(
      'Line 149 has no editable quantity left (fulfilled, with a fulfilment location, refunded or removed); add a new line instead (POST /orders/9964/lines/).',
    );
    expect((await s.cli('PATCH', '/orders/9957/lines/134/', { quantity: 1 })).stderr).toContain('Order 9957 is canceled; its lines cannot change.');
    expect((await s.cli('PATCH', '/orders/9945/lines/149/', { quantity: 1 })).stderr).toContain('Not found.');
    expect(JSON.stringify(s.store.state.records)).toBe(before);
  });

  it('removes a whole line: it stays on the order with nothing left, and leaves its fulfillment order', async () => {
    const removed = await s.cli('DELETE', '/orders/9963/lines/148/');
    expect(removed.code, removed.stderr).toBe(0);
    expect(lineOf(removed.json, 148)).toMatchObject({ quantity: 1, current_quantity: 0, fulfillable_quantity: 0, editable_quantity: 0, price_incl_tax: '0.00', total_cost: '0.00' });
    expect(foLines(424).map(([line]) => line)).toEqual([146, 147]);
    // Deleting it again finds nothing to delete.
    expect((await s.cli('DELETE', '/orders/9963/lines/148/')).stderr).toContain('Not found.');
    // The only line of its fulfillment order: the fulfillment order is canceled with it.
    const only = await s.cli('DELETE', '/orders/9989/lines/193/');
    expect(only.json).toMatchObject({ total_incl_tax: only.json.shipping_incl_tax });
    expect(s.record('fulfillmentOrders', 449)).toMatchObject({ status: 'canceled', line_items: [] });
  });

  it('refuses to remove a line with units that cannot change', async () => {
    expect((await s.cli('DELETE', '/orders/9964/lines/149/')).stderr).toContain('Line 149 has no editable quantity left (fulfilled, with a fulfilment location, refunded or removed) and cannot be removed.');
    Object.assign(lineOf(s.record('orders', '9945'), 111), { editable_quantity: 1 });
    expect((await s.cli('DELETE', '/orders/9945/lines/111/')).stderr).toContain(
      'Only 1 of the 2 units of line 111 can still change (the rest are fulfilled, with a fulfilment location, refunded or removed); set its quantity to 1 instead of removing it.',
    );
  });

  it('adds a line at the catalogue price or the one given, waiting in the fulfillment order still open to changes', async () => {
    const added = await s.cli('POST', '/orders/9945/lines/', { product_id: 2104, quantity: 2, reason: 'product swap' });
    expect(added.code, added.stderr).toBe(0);
    const line = added.json.lines.at(-1);
    expect(line).toMatchObject({ variant_id: 2104, quantity: 2, current_quantity: 2, fulfillable_quantity: 2, editable_quantity: 2, is_upsell: false });
    expect(foLines(406)).toEqual([
      [111, 2, '2'],
      [line.id, 2, '2'],
    ]);
    expect(added.json.total_outstanding).toBe(line.price_incl_tax);
    const priced = await s.cli('POST', '/orders/9945/lines/', { product_id: 2104, quantity: 1, price: '10.00' });
    expect(priced.json.lines.at(-1)).toMatchObject({ unit_cost: '10.00', price_incl_tax: '10.00', price_excl_tax: '8.33' });
    // The catalogue's price as it is now, changed since the last line.
    s.store.state.records.productPrices['2104/USD']!.price = '9.99';
    const repriced = await s.cli('POST', '/orders/9945/lines/', { product_id: 2104, quantity: 1 });
    expect(repriced.json.lines.at(-1)).toMatchObject({ unit_cost: '9.99' });
    // The location has order 9951's fulfillment order in hand: what is added waits in a new one.
    const later = await s.cli('POST', '/orders/9951/lines/', { product_id: 2104, quantity: 1 });
    const fos = Object.values(s.store.state.records.fulfillmentOrders).filter((fo) => fo.order_number === '9951');
    expect(fos.map((fo) => [fo.status, (fo.line_items as Rec[]).map((i) => i.order_line_id)])).toEqual([
      ['processing', [120, 121, 122]],
      ['open', [later.json.lines.at(-1).id]],
    ]);
  });

  it('leaves what a line adds owed, which an order paid outside the store cannot have collected by card', async () => {
    // Order 9966 was paid outside the store; a line added makes it owe something.
    const added = await s.cli('POST', '/orders/9966/lines/', { product_id: 2104, quantity: 1 });
    expect(added.code, added.stderr).toBe(0);
    expect(added.json.total_outstanding).not.toBe('0.00');
    expect((await s.cli('POST', '/orders/9966/collect-payment/', {})).stderr).toContain(
      'Order 9966 has no payment method the store can charge (it was paid outside the store); record a payment made elsewhere with POST /orders/9966/mark-as-paid/.',
    );
  });

  it('refuses a product instead of its variant, an unknown one, one not priced in the currency, and no units', async () => {
    const variant = s.record('variants', 2101);
    const siblings = Object.values(s.store.state.records.variants).filter((v) => v.product_id === variant.product_id).map((v) => v.id);
    expect((await s.cli('POST', '/orders/9945/lines/', { product_id: variant.product_id, quantity: 1 })).stderr).toContain(`${String(variant.product_id)} is a product; a line sells one of its variants (${siblings.join(', ')}).`);
    expect((await s.cli('POST', '/orders/9945/lines/', { product_id: 99999, quantity: 1 })).stderr).toContain('Invalid pk "99999" - object does not exist.');
    delete s.store.state.records.productPrices['2104/EUR'];
    expect((await s.cli('POST', '/orders/9967/lines/', { product_id: 2104, quantity: 1 })).stderr).toContain("Product 2104 has no price in EUR, the order's currency.");
    expect((await s.cli('POST', '/orders/9945/lines/', { product_id: 2104, quantity: 0 })).stderr).toContain('quantity: Ensure this value is greater than or equal to 1.');
    expect((await s.cli('POST', '/orders/9957/lines/', { product_id: 2104, quantity: 1 })).stderr).toContain('Order 9957 is canceled; no line can be added.');
  });
});

describe('line items added after the sale', () => {
  const s = useOrderSandbox();

  it("charges what they cost at once, on the order's first payment method, on the gateway named", async () => {
    const added = await s.cli('POST', '/orders/9945/add-line-items/', { lines: [{ product_id: 2104, quantity: 1, is_upsell: true }], payment_details: { payment_gateway: 2 } });
    expect(added.code, added.stderr).toBe(0);
    const line = added.json.lines.at(-1);
    expect(line).toMatchObject({ variant_id: 2104, is_upsell: true });
    expect(added.json).toMatchObject({ payment_status: 'paid', total_outstanding: '0.00' });
    const charge = added.json.transactions.at(-1);
    expect(charge).toMatchObject({ type: 'debit', amount: line.price_incl_tax, payment_method: 'bankcard', payment_details: { gateway: { id: 2, name: 'PayPal' }, card_token: s.record('transactions', 512).payment_details && (s.record('transactions', 512).payment_details as Rec).card_token } });
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.created', 'order.updated']);
  });

  it('starts a subscription for a line that asks for one, kept on the same card', async () => {
    const added = await s.cli('POST', '/orders/9945/add-line-items/', { lines: [{ product_id: 2104, quantity: 1, subscription: { interval: 'month', interval_count: 1 } }] });
    expect(added.code, added.stderr).toBe(0);
    const [link] = added.json.subscriptions;
    const subscription = s.record('subscriptions', link.id);
    expect(subscription).toMatchObject({ status: 'active', interval: 'month', user_id: added.json.user.id, payment_details: s.record('transactions', 512).payment_details });
    expect(subscription.shipping_address).toEqual(added.json.shipping_address);
    expect(s.events().map((e) => e.event_type)).toEqual(['subscription.created', 'transaction.created', 'order.updated']);
  });

  it('refuses an order that takes none, or one first paid in a way the store cannot charge again', async () => {
    expect((await s.cli('POST', '/orders/9949/add-line-items/', { lines: [{ product_id: 2104, quantity: 1 }] })).stderr).toContain(
      'Order 9949 takes no post-purchase line items (supports_post_purchase_upsells is false); add lines with POST /orders/9949/lines/ and collect the payment.',
    );
    expect((await s.cli('POST', '/orders/9966/add-line-items/', { lines: [{ product_id: 2104, quantity: 1 }] })).stderr).toContain(
      'Order 9966 was not paid by card or PayPal, which the store could charge again without the customer; add lines with POST /orders/9966/lines/ instead.',
    );
    expect((await s.cli('POST', '/orders/9945/add-line-items/', { lines: [{ product_id: 2104, quantity: 1 }, { product_id: 1, quantity: 1 }] })).stderr).toContain('lines: 1: product_id: Invalid pk "1" - object does not exist.');
  });
});
