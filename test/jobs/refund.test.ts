// `orders refund`, the built CLI against the sandbox over real HTTP: the store calculates first
// (which changes nothing), the plan shows the amounts per line and the total, and the refund is
// made with the calculation's lines and money on confirmation; --dry-run sends no refund; a part
// of a payment only authorized is refused before anything is sent; every class a line can reach.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useProxiedSandbox } from './recording-proxy.js';

type Rec = Record<string, any>;
const records = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Rec);

describe('orders refund', () => {
  const { ctx, proxy, dir, cli } = useProxiedSandbox();
  const order = async (number: string) => (await ctx.client.call('ordersRetrieve', { params: { number } })) as Rec;
  const calculate = async (number: string, body: Rec) => (await ctx.client.call('ordersRefundCalculateCreate', { params: { number }, body: body as never })) as Rec;
  /** The requests the CLI sent for an order, as `METHOD path`. */
  const sentFor = (number: string, from: number) => proxy.sent.slice(from).filter((r) => r.path.startsWith(`/orders/${number}/`));
  const refundsMade = () => ctx.sandbox.counters.byOperation.ordersRefundCreate?.applied ?? 0;

  it('calculates first, shows the amounts per line and the total, and refunds what the calculation said on --yes', async () => {
    // The store's own calculation of everything 10002 has left: both lines (unshipped: canceled) and the shipping.
    const store = await calculate('10002', { refund_lines: [{ line_id: 104, quantity: 1, restock_type: 'cancel' }, { line_id: 105, quantity: 2, restock_type: 'cancel' }], refund_shipping: { full_refund: true } });
    const from = proxy.sent.length;
    const r = await cli('orders', 'refund', '10002', '--note', 'Customer cancelled', '--yes');
    expect(r.code, r.stderr).toBe(0);
    // Read, calculated, then refunded: in that order, one refund.
    expect(sentFor('10002', from).map((s) => `${s.method} ${s.path}`)).toEqual(['GET /orders/10002/', 'POST /orders/10002/refund/calculate/', 'POST /orders/10002/refund/']);
    const [, calculation, refund] = sentFor('10002', from);
    expect(refund!.body).toEqual({
      ...(calculation!.body as Rec),
      transactions: store.transactions.map((t: Rec) => ({ id: t.id, amount: t.amount })),
      note: 'Customer cancelled',
      send_refund_notification: true,
    });
    // The amounts shown are the store's: per line, the shipping, the total.
    for (const line of store.refund_lines) expect(r.stderr).toMatch(new RegExp(`line ${line.line_id}\\s+${line.sku}\\s+${line.quantity} × cancel\\s+${line.amount_incl_tax.replace('.', '\\.')}`));
    expect(r.stderr).toMatch(new RegExp(`shipping\\s+${store.refund_shipping.amount_incl_tax.replace('.', '\\.')}`));
    expect(store.amount_incl_tax).toBe('84.00');
    expect(r.stderr).toMatch(/total\s+84\.00 USD/);
    expect(r.stderr).toContain('Total: 84.00 USD');
    expect(records(r.stdout)).toEqual([expect.objectContaining({ line: 1, object_id: '10002', class: 'READY', outcome: 'applied', detail: expect.stringMatching(/^refund \d+: 84\.00$/) })]);
    expect(await order('10002')).toMatchObject({ payment_status: 'refunded', total_incl_tax: '0.00', refunds: [expect.objectContaining({ id: expect.any(Number) })] });
  });

  it('--dry-run shows the calculation and sends no refund', async () => {
    const before = await order('10003');
    const made = refundsMade();
    const from = proxy.sent.length;
    const r = await cli('orders', 'refund', '10003', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/line 106\s+\S+\s+1 × cancel\s+21\.60/);
    expect(r.stderr).toMatch(/shipping\s+4\.80/);
    expect(r.stderr).toMatch(/total\s+26\.40 USD/);
    expect(records(r.stdout)).toEqual([expect.objectContaining({ object_id: '10003', class: 'READY', amount: '26.40 USD' })]);
    expect(sentFor('10003', from).map((s) => `${s.method} ${s.path}`)).toEqual(['GET /orders/10003/', 'POST /orders/10003/refund/calculate/']);
    expect(refundsMade()).toBe(made);
    expect(await order('10003')).toEqual(before);
  });

  it('refuses a partial refund of a payment only authorized before anything is sent, and voids the whole order', async () => {
    const from = proxy.sent.length;
    const part = await cli('orders', 'refund', '9969', '--line', '158', '--yes');
    expect(part.code).toBe(1);
    expect(records(part.stdout)).toEqual([expect.objectContaining({ object_id: '9969', class: 'NOT_ALLOWED', outcome: 'skipped', error: expect.stringContaining('an uncaptured payment cannot be refunded in part: capture it first (store-admin orders capture 9969)') })]);
    expect(sentFor('9969', from).filter((s) => s.path === '/orders/9969/refund/')).toEqual([]);
    expect((await order('9969')).payment_status).toBe('authorized');
    // Shipping left out of an authorized order is a part too.
    expect(records((await cli('orders', 'refund', '9969', '--shipping', 'none', '--dry-run')).stdout)[0]).toMatchObject({ class: 'NOT_ALLOWED' });

    // The whole order: the authorization is voided for all it holds.
    const whole = await cli('orders', 'refund', '9969', '--yes');
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).toContain('voiding transaction');
    expect(await order('9969')).toMatchObject({ payment_status: 'voided', total_incl_tax: '0.00' });
  });

  it('--line refunds the units named, --restock returns shipped ones to stock, and the shipping stays', async () => {
    const store = await calculate('9964', { refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'return' }], refund_shipping: { full_refund: false } });
    const from = proxy.sent.length;
    const r = await cli('orders', 'refund', '9964', '--line', '149:1', '--restock', 'return', '--no-notify', '--yes');
    expect(r.code, r.stderr).toBe(0);
    const refund = sentFor('9964', from).find((s) => s.path === '/orders/9964/refund/')!;
    expect(refund.body).toMatchObject({ refund_lines: [{ line_id: 149, quantity: 1, restock_type: 'return' }], refund_shipping: { full_refund: false }, send_refund_notification: false });
    expect(r.stderr).toMatch(new RegExp(`total\\s+${store.amount_incl_tax.replace('.', '\\.')} USD`));
    const after = await order('9964');
    expect(after.payment_status).toBe('partially_refunded');
    expect(after.lines.find((line: Rec) => line.id === 149).current_quantity).toBe(1);
    expect(after.shipping_incl_tax).toBe('6.00');
    // Without --restock, shipped units are refunded without going back to stock.
    const rest = await cli('orders', 'refund', '9964', '--line', '150', '--dry-run');
    expect(rest.stderr).toMatch(/line 150\s+\S+\s+1 × no_restock/);
  });

  it('reaches every class from an --each CSV of order numbers, and a bad --line is refused before anything is read', async () => {
    const file = join(dir, 'refunds.csv');
    // 10001: what it has left after its first refund; 9977: refunded whole; 9968: nothing paid yet;
    // 9945: a line it does not have, then more units than it has, then no line at all.
    writeFileSync(file, 'order_number,lines\n10001,\n9977,\n12345,\n9968,\n9945,999\n9945,111:5\n9945,zz\n');
    const made = refundsMade();
    const report = join(dir, 'refunds-report.csv');
    const r = await cli('orders', 'refund', '--each', file, '--report', report, '--yes');
    expect(r.code).toBe(1);
    const byLine = Object.fromEntries(records(r.stdout).map((row) => [row.line, [row.class, row.outcome]]));
    expect(byLine).toEqual({
      2: ['READY', 'applied'],
      3: ['ALREADY_DONE', 'skipped'],
      4: ['NOT_FOUND', 'skipped'],
      5: ['NOT_ALLOWED', 'skipped'],
      6: ['INVALID', 'skipped'],
      7: ['NOT_ALLOWED', 'skipped'],
      8: ['INVALID', 'skipped'],
    });
    expect(refundsMade()).toBe(made + 1);
    expect(readFileSync(report, 'utf8').split('\n')[0]).toBe('line,object_id,outcome,class,error');
    expect(await order('10001')).toMatchObject({ payment_status: 'refunded', total_incl_tax: '0.00' });

    const before = ctx.sandbox.counters.received;
    const bad = await cli('orders', 'refund', '9945', '--line', '111:x', '--yes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--line: "111:x" is not a line: give its id, or ID:QUANTITY (105:2)');
    expect(ctx.sandbox.counters.received).toBe(before);
  });
});
