// Where the API reaches each kind of record (kinds.ts), and how the generic engine finds an item
// (collections.ts): by the path's last parameter, under the parents the path names.
import { describe, expect, it } from 'vitest';
import { loadAllOperations } from '../../src/api/operations.js';
import { itemOf } from '../../src/sandbox/collections.js';
import { KIND_NAMES, KINDS, landingOf, storageKey, type Parent, type Records } from '../../src/sandbox/kinds.js';

const empty = () => Object.fromEntries(KIND_NAMES.map((kind) => [kind, {}])) as Records;

describe('kinds of record', () => {
  it("keep a price per product and currency: two products' prices in one currency are two records", () => {
    const records = empty();
    for (const [product, price] of [[2101, '30.00'], [2104, '24.00']] as const) {
      const record = { product_id: product, currency: 'EUR', price };
      records.productPrices[storageKey('productPrices', record)] = record;
    }
    expect(Object.keys(records.productPrices)).toEqual(['2101/EUR', '2104/EUR']);
    const landing = landingOf('/products/{id}/prices/{currency}/')!;
    expect(itemOf(records, { landing, params: { id: 2104, currency: 'EUR' } })).toMatchObject({ price: '24.00' });
    expect(() => itemOf(records, { landing, params: { id: 2104, currency: 'USD' } })).toThrow();
  });

  it("reach a customer's orders and subscriptions, and the store", () => {
    expect(landingOf('/users/{id}/orders/')).toEqual({ kind: 'orders', item: false, parents: [{ param: 'id', field: 'user_id' }] });
    expect(landingOf('/users/{id}/subscriptions/')).toEqual({ kind: 'subscriptions', item: false, parents: [{ param: 'id', field: 'user_id' }] });
    expect(landingOf('/store/')).toEqual({ kind: 'store', item: false, parents: [] });
  });

  it("are reached by the operation table's own paths: a typo in a collection would leave its operations answering 405", async () => {
    const paths = new Set((await loadAllOperations()).map((op) => op.path));
    const unreached: string[] = [];
    for (const kind of KIND_NAMES) {
      for (const { path, parents = [] } of KINDS[kind].collections as readonly { path: string; parents?: readonly Parent[] }[]) {
        const reached = paths.has(path) || [...paths].some((other) => other.startsWith(path) && /^\{[A-Za-z]+\}\/$/.test(other.slice(path.length)));
        if (!reached) unreached.push(`${kind}: ${path}`);
        for (const parent of parents) if (!path.includes(`{${parent.param}}`)) unreached.push(`${kind}: ${path} names no {${parent.param}}`);
      }
    }
    expect(unreached).toEqual([]);
  });

  it('listed in pages are keyed by whole numbers, the only positions a cursor may hold (pages.ts)', async () => {
    const lists = (await loadAllOperations()).filter((op) => op.method === 'GET' && op.answer === 'page' && landingOf(op.path));
    expect(lists.length).toBeGreaterThan(20);
    expect(lists.filter((op) => !KINDS[landingOf(op.path)!.kind].numbered).map((op) => op.id)).toEqual([]);
  });
});
