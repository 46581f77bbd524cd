// An order's changes move its stock, through the CLI against the seeded store: units a line gains
// wait allocated at their fulfillment order's location, units it loses and an order canceled give
// them back, so `num_allocated` and `net_stock_level` keep telling what can still be sold.
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/sandbox/kinds.js';
import { createSeed } from '../../src/sandbox/seed.js';
import { useFulfillmentSandbox } from './fulfillment-store.js';

describe("an order's stock", () => {
  const s = useFulfillmentSandbox(createSeed);
  /** A seeded order whose one fulfillment order is open and unrequested, with a tracked stock record. */
  const openOrder = () => {
    const { records } = s.store.state;
    const fo = Object.values(records.fulfillmentOrders).find(
      (candidate) =>
        candidate.status === 'open' &&
        candidate.request_status === 'pending' &&
        Object.values(records.fulfillmentOrders).filter((other) => other.order_number === candidate.order_number && other.status !== 'closed').length === 1 &&
        (candidate.line_items as Rec[]).every((item) => records.stockrecords[String(item.stockrecord_id)]?.num_in_stock != null),
    )!;
    const item = (fo.line_items as Rec[])[0]!;
    return { number: String(fo.order_number), fo, item, stockrecord: () => records.stockrecords[String(item.stockrecord_id)]! };
  };

  it('gives back what a canceled order held', async () => {
    const { number, fo } = openOrder();
    const held = new Map((fo.line_items as Rec[]).map((item) => [String(item.stockrecord_id), 0]));
    for (const item of fo.line_items as Rec[]) held.set(String(item.stockrecord_id), held.get(String(item.stockrecord_id))! + Number(item.fulfillable_quantity));
    const before = Object.fromEntries([...held.keys()].map((id) => [id, Number(s.record('stockrecords', id).num_allocated)]));
    const canceled = await s.cli('POST', `/orders/${number}/cancel/`, { cancel_reason: 'Customer changed their mind', full_refund: false });
    expect(canceled.code, canceled.stderr).toBe(0);
    for (const [id, units] of held) expect(s.record('stockrecords', id).num_allocated, `stock record ${id}`).toBe(Math.max(0, before[id]! - units));
    expect(s.record('fulfillmentOrders', fo.id as number).status).toBe('canceled');
  });

  it('allocates the units a line gains and releases those it loses', async () => {
    const { number, item, stockrecord } = openOrder();
    const before = Number(stockrecord().num_allocated);
    const line = (s.record('orders', number).lines as Rec[]).find((candidate) => candidate.id === item.order_line_id)!;
    const quantity = Number(line.current_quantity);
    const more = await s.cli('PATCH', `/orders/${number}/lines/${String(line.id)}/`, { quantity: quantity + 2 });
    expect(more.code, more.stderr).toBe(0);
    expect(stockrecord().num_allocated).toBe(before + 2);
    const fewer = await s.cli('PATCH', `/orders/${number}/lines/${String(line.id)}/`, { quantity });
    expect(fewer.code, fewer.stderr).toBe(0);
    expect(stockrecord().num_allocated).toBe(before);
    expect((await s.cli('GET', `/stockrecords/${String(item.stockrecord_id)}/`)).json).toMatchObject({ num_allocated: before, net_stock_level: Number(stockrecord().num_in_stock) - before });
  });
});
