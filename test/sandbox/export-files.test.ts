// An export's file holds the records of its date range, as they were when the export became
// available: later changes to the store are not in it.
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../src/sandbox/store.js';
import { useSandbox } from '../helpers.js';

describe('export files', () => {
  const store = memoryStore();
  const ctx = useSandbox({ store, exportDelaySeconds: 0 });

  /** A new export's file, once available: its rows, cell by cell. */
  async function fileOf(type: string, from: string, to: string) {
    const created = (await ctx.client.exports.create({ body: { type: type as 'order_list', date_from: from, date_to: to } })) as { id: number };
    // A zero delay: the next request sees it available (and the file made).
    expect(await ctx.client.exports.get({ params: { id: created.id } })).toMatchObject({ status: 'available' });
    return async () => {
      const { url } = (await ctx.client.exports.download({ params: { id: created.id } })) as { url: string };
      return (await (await fetch(url)).text()).trimEnd().split('\n').map((line) => line.split(','));
    };
  }

  it('hold only the records dated within date_from..date_to, both ends included', async () => {
    const firstColumn = async (type: string, from: string, to: string) => (await (await fileOf(type, from, to))()).map((row) => row[0]);
    expect(await firstColumn('order_list', '2026-01-13T00:00:00Z', '2026-01-14T00:00:00Z')).toEqual(['number', '10002']);
    expect(await firstColumn('order_list', '2026-01-11T14:32:05Z', '2026-01-15T08:00:12Z')).toEqual(['number', '10001', '10002', '10003']);
    expect(await firstColumn('subscription_list', '2025-02-10T00:00:00Z', '2025-02-10T23:59:59Z')).toEqual(['id', '4']);
    expect(await firstColumn('customer_list', '2026-01-11T00:00:00Z', '2026-01-11T23:59:59Z')).toEqual(['id', '1']);
    expect(await firstColumn('transaction_list', '2026-01-12T00:00:00Z', '2026-01-12T23:59:59Z')).toEqual(['id', '502']);
  });

  it('are made when the export becomes available, not when downloaded', async () => {
    const range = ['2026-01-13T00:00:00Z', '2026-01-13T23:59:59Z'] as const;
    const before = await fileOf('order_line_items', ...range);
    await ctx.client.orders.removeLine({ params: { number: '10002', lineId: 105 } });
    // Line 105 stays on its order with nothing left.
    expect((store.state.records.orders['10002']!.lines as { id: number; current_quantity: number }[]).find((l) => l.id === 105)?.current_quantity).toBe(0);
    const after = await fileOf('order_line_items', ...range);
    // The file made before still shows the line's two units; one made after shows none.
    expect(await unitsOfLine(before, 105)).toBe('2');
    expect(await unitsOfLine(after, 105)).toBe('0');
  });

  /** The current_quantity column of a line's row in an order_line_items file. */
  async function unitsOfLine(download: () => Promise<string[][]>, lineId: number) {
    const [header, ...rows] = await download();
    return rows.find((row) => row[header!.indexOf('line_id')] === String(lineId))?.[header!.indexOf('current_quantity')];
  }
});
