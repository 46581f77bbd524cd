// Each order and payment rule answered at every version the reference lists for its operation:
// one change each, through the CLI, its answer and events held to the reference at that version
// by the store's harness.
import { describe, expect, it } from 'vitest';
import { loadOperation, type OperationId } from '../../src/api/operations.js';
import { useOrderSandbox } from './order-store.js';

type Call = [method: string, path: string, body?: unknown];

const placed = { user: { id: 1 }, lines: [{ product_id: 2101, quantity: 1 }], use_default_shipping_address: true, billing_same_as_shipping_address: true, payment_method: 'card_token', payment_details: { card_token: 'tok_visa' } };

/** A change each rule makes, by operation (and by version where the version's request differs). */
const CALLS: Record<string, (version: string) => Call> = {
  ordersCreate: () => ['POST', '/orders/', placed],
  ordersUpdate: () => ['PUT', '/orders/9945/', { tags: ['vip'] }],
  ordersPartialUpdate: () => ['PATCH', '/orders/9945/', { shipping_address: { line1: '4765 Test Lane West' } }],
  ordersAddLineItemsCreate: () => ['POST', '/orders/9945/add-line-items/', { lines: [{ product_id: 2104, quantity: 1, is_upsell: true }] }],
  ordersCancelCreate: () => ['POST', '/orders/9969/cancel/', { cancel_reason: 'Fraud check failed' }],
  ordersCaptureCreate: () => ['POST', '/orders/9947/capture/'],
  ordersCollectPaymentCreate: () => ['POST', '/orders/9946/collect-payment/', {}],
  ordersMarkAsPaidCreate: () => ['POST', '/orders/9959/mark-as-paid/', { external_payment_method: 'cash' }],
  ordersLinesCreate: () => ['POST', '/orders/9945/lines/', { product_id: 2104, quantity: 1 }],
  ordersLinesPartialUpdate: () => ['PATCH', '/orders/9945/lines/111/', { quantity: 3 }],
  ordersLinesDestroy: () => ['DELETE', '/orders/9963/lines/148/'],
  ordersRefundCalculateCreate: () => ['POST', '/orders/9964/refund/calculate/', { refund_lines: [{ line_id: 149, quantity: 1 }], refund_shipping: { full_refund: true } }],
  ordersRefundCreate: (version) =>
    version === '2023-02-10'
      ? ['POST', '/orders/9964/refund/', { amount: '10.00' }]
      : ['POST', '/orders/9964/refund/', { refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'return' }], transactions: [{ id: 536, amount: '10.00' }] }],
  transactionsCaptureCreate: () => ['POST', '/transactions/541/capture/', { amount: '50.00' }],
  transactionsRefundCreate: () => ['POST', '/transactions/536/refund/', { amount: '10.00' }],
  transactionsVerifyCreate: () => ['POST', '/transactions/verify/', { card_token: 'tok_visa', currency: 'USD', user: { email: 'maya.lindqvist@example.com' } }],
};

const pairs = (await Promise.all(Object.keys(CALLS).map(async (id) => (await loadOperation(id as OperationId)).versions.map((version) => [id, version] as const)))).flat();

describe('the order and payment rules at every version', () => {
  const s = useOrderSandbox();

  it.each(pairs)('%s at %s', async (id, version) => {
    const [method, path, body] = CALLS[id]!(version);
    const answered = await s.cli(method, path, body, version);
    expect(answered.code, answered.stderr).toBe(0);
  });
});
