// An order's payment status and what it owes follow from its transactions (src/sandbox/payments.ts)
// the same way for every seeded order as for the orders the rules change.
import { describe, expect, it } from 'vitest';
import { SEED_MOMENT } from '../../src/sandbox/clock.js';
import { paymentStatus, transactionsOf } from '../../src/sandbox/payments.js';
import { buildRecords } from '../../src/sandbox/seed/index.js';

describe('payment status from transactions', () => {
  it('is the status every seeded order was built with', () => {
    const { records } = buildRecords({ now: SEED_MOMENT });
    const orders = Object.values(records.orders);
    const differing = orders.filter((order) => paymentStatus(order, transactionsOf(records, order.number)) !== order.payment_status);
    expect(differing.map((order) => `${String(order.number)}: ${String(order.payment_status)}`)).toEqual([]);
    expect(new Set(orders.map((order) => order.payment_status)).size).toBe(10);
  });
});
