// @ts-nocheck rewritten with the reference-driven sandbox
// An export's file holds the records of its date range, as they were when the export became
// available: later changes to the store are not in it.
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/sandbox/store.js';
import { useSandbox } from '../helpers.js';

describe('export files', () => {
  const store = memoryStore();
  const ctx = useSandbox({ store, exportDelaySeconds: 0 });

  async function fileOf(type: string, from: string, to: string) {
    const created = await ctx.client.exports.create({ body: { type: type as 'order_list', date_from: from, date_to: to } });
    // A zero delay: the next request sees it available (and the file made).
    expect((await ctx.client.exports.get({ params: { id: created.id! } })).status).toBe('available');
    return async () => {
      const { url } = await ctx.client.exports.download({ params: { id: created.id! } });
      const lines = (await (await fetch(url!)).text()).trimEnd().split('\n');
      return lines.map((line) => line.split(',')[0]);
    };
  }

  it('hold only the records dated within date_from..date_to, both ends included', async () => {
    expect(await (await fileOf('order_list', '2026-01-13T00:00:00Z', '2026-01-14T00:00:00Z'))()).toEqual(['number', '10002']);
    expect(await (await fileOf('order_list', '2026-01-11T14:32:05Z', '2026-01-15T08:00:12Z'))()).toEqual(['number', '10001', '10002', '10003']);
    expect(await (await fileOf('order_list', '2025-01-01T00:00:00Z', '2025-12-31T23:59:59Z'))()).toEqual(['number']);
    expect(await (await fileOf('subscription_list', '2025-01-01T00:00:00Z', '2025-12-31T23:59:59Z'))()).toEqual(['id', '4']);
    expect(await (await fileOf('customer_list', '2026-01-01T00:00:00Z', '2026-12-31T23:59:59Z'))()).toEqual(['id', '1']);
    expect(await (await fileOf('transaction_list', '2026-01-12T00:00:00Z', '2026-01-12T23:59:59Z'))()).toEqual(['id', '502']);
  });

  it('are made when the export becomes available, not when downloaded', async () => {
    const download = await fileOf('order_line_items', '2026-01-13T00:00:00Z', '2026-01-13T23:59:59Z');
    await ctx.client.orders.removeLine({ params: { number: '10002', lineId: 105 } });
    expect(store.state.orders['10002']!.lines!.map((l) => l.id)).toEqual([104]);
    // The file still lists the line removed after it was made.
    const lines = await download();
    expect(lines).toEqual(['order_number', '10002', '10002']);
  });
});
