// An order's payments through the CLI against the seeded sandbox: authorizations captured (an
// order's, or one transaction in part), payments recorded from outside the store, the outstanding
// balance collected, orders canceled (voiding, refunding, canceling what was to ship), cards
// verified; and each refusal. Answers and events are held to the reference by the harness.
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/sandbox/kinds.js';
import { useOrderSandbox } from './order-store.js';

describe('capturing authorized payments', () => {
  const s = useOrderSandbox();

  it("captures an order's authorization in full: a debit whose parent it is, and the order paid", async () => {
    const captured = await s.cli('POST', '/orders/9947/capture/');
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.json).toMatchObject({ number: '9947', payment_status: 'paid', total_outstanding: '0.00' });
    expect(captured.json.transactions.map((t: Rec) => [t.type, t.amount, t.parent_id])).toEqual([
      ['authorize', '490.80', null],
      ['debit', '490.80', 514],
    ]);
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.created', 'order.updated']);
    expect((await s.cli('POST', '/orders/9947/capture/')).stderr).toContain('Order 9947 has no authorized payment to capture (payment status paid).');
  });

  it('captures what a partial void left: the order is partly paid', async () => {
    const captured = await s.cli('POST', '/orders/9960/capture/');
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.json).toMatchObject({ payment_status: 'partially_paid', total_outstanding: '47.71' });
    expect(captured.json.transactions.at(-1)).toMatchObject({ type: 'debit', amount: '95.41', parent_id: 531 });
  });

  it('refuses an expired authorization, a canceled order and an order that does not exist', async () => {
    expect((await s.cli('POST', '/orders/9950/capture/')).stderr).toContain('The authorization of order 9950 has expired and can no longer be captured; ask the customer to pay again.');
    expect((await s.cli('POST', '/orders/9957/capture/')).stderr).toContain('Order 9957 is canceled; its payments cannot be captured.');
    expect((await s.cli('POST', '/orders/123/capture/')).stderr).toContain('Not found.');
  });

  it('captures part of one authorization, which releases the rest', async () => {
    const tooMuch = await s.cli('POST', '/transactions/541/capture/', { amount: '116.41' });
    expect(tooMuch.stderr).toContain('Authorization 541 holds 116.40; 116.41 cannot be captured.');
    const captured = await s.cli('POST', '/transactions/541/capture/', { amount: '100.00' });
    expect(captured.code, captured.stderr).toBe(0);
    expect(captured.json).toMatchObject({ type: 'debit', amount: '100.00', parent_id: 541, order: '9969', amount_available_for_refund: '100.00' });
    expect(s.record('orders', '9969')).toMatchObject({ payment_status: 'partially_paid', total_outstanding: '16.40' });
    expect((await s.cli('POST', '/transactions/541/capture/', {})).stderr).toContain('Authorization 541 has nothing left to capture: it was captured or voided.');
    expect((await s.cli('POST', '/transactions/536/capture/', {})).stderr).toContain('Transaction 536 is a debit, not an authorization: only an authorization can be captured.');
    expect((await s.cli('POST', '/transactions/517/capture/', {})).stderr).toContain('Authorization 517 has expired and can no longer be captured.');
    expect((await s.cli('POST', '/transactions/99999/capture/', {})).stderr).toContain('Not found.');
  });
});

describe('payments recorded and collected', () => {
  const s = useOrderSandbox();

  it('marks an order paid with a payment made outside the store, for what is outstanding', async () => {
    const paid = await s.cli('POST', '/orders/9959/mark-as-paid/', { external_payment_method: 'cash' });
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.json).toMatchObject({ payment_status: 'paid', total_outstanding: '0.00' });
    expect(paid.json.transactions.at(-1)).toMatchObject({ type: 'debit', amount: '39.00', is_external: true, payment_method: 'cash', parent_id: null });
    expect((await s.cli('POST', '/orders/9959/mark-as-paid/', {})).stderr).toContain('Order 9959 has nothing outstanding to mark as paid (payment status paid).');
    expect((await s.cli('POST', '/orders/9969/mark-as-paid/', {})).stderr).toContain(
      'Order 9969 has an authorized payment waiting: capture it (POST /orders/9969/capture/) rather than record a payment made elsewhere.',
    );
    expect((await s.cli('POST', '/orders/9958/mark-as-paid/', {})).stderr).toContain('Order 9958 is canceled; nothing is owed on it.');
  });

  it('collects the outstanding balance with the payment method the order was first tried with', async () => {
    const collected = await s.cli('POST', '/orders/9946/collect-payment/', { send_payment_notification: true });
    expect(collected.code, collected.stderr).toBe(0);
    expect(collected.json).toMatchObject({ payment_status: 'paid', total_outstanding: '0.00' });
    const [failed, charge] = collected.json.transactions as Rec[];
    expect(charge).toMatchObject({ type: 'debit', status: 'succeeded', amount: '153.50', payment_details: failed!.payment_details, payment_method: failed!.payment_method });
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.created', 'order.updated']);
    expect((await s.cli('POST', '/orders/9946/collect-payment/', {})).stderr).toContain('Order 9946 has nothing outstanding to collect (payment status paid).');
    expect((await s.cli('POST', '/orders/9969/collect-payment/', {})).stderr).toContain('capture it (POST /orders/9969/capture/) instead of charging the customer again.');
  });
});

describe('canceling orders', () => {
  const s = useOrderSandbox();

  it('cancels with a full refund: every line and the shipping refunded, the fulfillment order canceled', async () => {
    const canceled = await s.cli('POST', '/orders/9945/cancel/', { cancel_reason: 'Customer changed their mind', full_refund: true });
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(canceled.json).toMatchObject({ status: 'canceled', payment_status: 'refunded', total_incl_tax: '0.00', total_outstanding: '0.00' });
    expect(canceled.json.refunds).toEqual([expect.objectContaining({ note: 'Customer changed their mind', total_refund_amount: '66.00', refund_line_items: [expect.objectContaining({ line_item_id: 111, quantity: 2, restock_type: 'cancel' })] })]);
    expect(canceled.json.lines[0]).toMatchObject({ current_quantity: 0, fulfillable_quantity: 0, editable_quantity: 0 });
    expect(s.record('fulfillmentOrders', 406)).toMatchObject({ status: 'canceled', supported_actions: [] });
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.created', 'transaction.updated', 'order.updated']);
    expect((await s.cli('POST', '/orders/9945/cancel/', { cancel_reason: 'again' })).stderr).toContain('Order 9945 is already canceled.');
  });

  it('cancels an authorized order by voiding the authorization; a paid one keeps its money without full_refund', async () => {
    const voided = await s.cli('POST', '/orders/9969/cancel/', { cancel_reason: 'Fraud check failed' });
    expect(voided.code, voided.stderr).toBe(0);
    expect(voided.json).toMatchObject({ status: 'canceled', payment_status: 'voided', total_outstanding: '0.00' });
    expect(voided.json.transactions.at(-1)).toMatchObject({ type: 'void', amount: '116.40', parent_id: 541 });
    expect(voided.json.lines.map((l: Rec) => [l.current_quantity, l.fulfillable_quantity, l.editable_quantity])).toEqual([
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(s.record('fulfillmentOrders', 430).status).toBe('canceled');
    const kept = await s.cli('POST', '/orders/9967/cancel/', { cancel_reason: 'Duplicate order' });
    expect(kept.json).toMatchObject({ status: 'canceled', payment_status: 'paid', refunds: [] });
  });

  it('cancels an authorized order with a full refund through the void of its authorization', async () => {
    const canceled = await s.cli('POST', '/orders/9947/cancel/', { cancel_reason: 'Out of stock', full_refund: true });
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(canceled.json).toMatchObject({ status: 'canceled', payment_status: 'voided', total_incl_tax: '0.00' });
    expect(canceled.json.refunds).toEqual([expect.objectContaining({ total_refund_amount: '490.80', adjustments: [expect.objectContaining({ type: 'refund_shipping' })], transactions: [expect.objectContaining({ type: 'void', amount: '490.80', parent_id: 514 })] })]);
    // An expired authorization has lapsed already: nothing to void, nothing to refund.
    const lapsed = await s.cli('POST', '/orders/9950/cancel/', { cancel_reason: 'Never paid', full_refund: true });
    expect(lapsed.json).toMatchObject({ status: 'canceled', payment_status: 'expired', refunds: [], total_outstanding: '0.00' });
  });

  it('refuses an order with shipped items or work in a location’s hands, changing nothing', async () => {
    const before = JSON.stringify(s.store.state.records);
    expect((await s.cli('POST', '/orders/9964/cancel/', { cancel_reason: 'late' })).stderr).toMatch(/Order 9964 has shipped items \(fulfillment \d+\) and cannot be canceled; refund what comes back instead \(POST \/orders\/9964\/refund\/\)\./);
    expect((await s.cli('POST', '/orders/9951/cancel/', { cancel_reason: 'late', full_refund: true })).stderr).toContain(
      'Fulfillment order 412 of order 9951 is with its location (processing, request accepted): request its cancellation first (POST /fulfillment-orders/412/cancellation-request/) and cancel the order once the location accepts.',
    );
    expect((await s.cli('POST', '/orders/9951/cancel/', {})).stderr).toContain('cancel_reason: This field is required.');
    expect(JSON.stringify(s.store.state.records)).toBe(before);
  });
});

describe('verifying a card', () => {
  const s = useOrderSandbox();
  const user = { email: 'new.buyer@example.com', first_name: 'New', last_name: 'Buyer' };

  it("answers the gateway that would take the card: the store's best, or the one named", async () => {
    const verified = await s.cli('POST', '/transactions/verify/', { card_token: 'tok_visa', currency: 'USD', user });
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json).toEqual({ card_token: 'tok_visa', preferred_payment_gateway: { id: 1, name: 'Stripe', gateway_type: 'stripe' }, user });
    expect((await s.cli('POST', '/transactions/verify/', { card_token: 'tok_visa', currency: 'EUR', user, payment_gateway: 2 })).json.preferred_payment_gateway).toEqual({ id: 2, name: 'PayPal', gateway_type: 'paypal' });
    expect(s.events()).toEqual([]);
  });

  it('refuses a currency the store does not take, an inactive gateway and a group with none that fits', async () => {
    expect((await s.cli('POST', '/transactions/verify/', { card_token: 't', currency: 'GBP', user })).stderr).toContain('The store takes USD and EUR, not "GBP".');
    expect((await s.cli('POST', '/transactions/verify/', { card_token: 't', currency: 'EUR', user, payment_gateway: 3 })).stderr).toContain('Gateway 3 (Klarna) is not active.');
    expect((await s.cli('POST', '/transactions/verify/', { card_token: 't', currency: 'EUR', user, payment_gateway_group: 2 })).stderr).toContain('No active gateway of group 2 takes EUR by bankcard.');
    expect((await s.cli('POST', '/transactions/verify/', { card_token: 't', currency: 'EUR', user, payment_gateway: 77 })).stderr).toContain('Invalid pk "77" - object does not exist.');
  });
});
