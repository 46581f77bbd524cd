// Stock records through the CLI against the sandbox: a variant's stock at a location, its units
// allocated to the fulfillment orders there and its net level, the variant's availability
// following, and the list filtered by what a person looks for.
import { describe, expect, it } from 'vitest';
import { REFERENCE_VERSIONS } from '../../src/api/operations.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { useFulfillmentSandbox } from './fulfillment-store.js';

describe('stock records', () => {
  const s = useFulfillmentSandbox();
  const ids = (page: { results: Rec[] }) => page.results.map((r) => r.id);

  it('answers the allocated units and the net level, the location and the variant', async () => {
    const mugs = await s.cli('GET', '/stockrecords/203/');
    expect(mugs.json).toMatchObject({ id: 203, num_in_stock: 3, num_allocated: 2, net_stock_level: 1, location: { id: 1, name: 'Portland Warehouse' }, product: { id: 11, variant_id: 102, sku: 'MUG' } });
  });

  it('creates a stock record for a variant at a location, once', async () => {
    const made = await s.cli('POST', '/stockrecords/', { product: 102, location_id: 2, num_in_stock: 7, low_stock_threshold: 3 });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ num_in_stock: 7, num_allocated: 0, net_stock_level: 7, low_stock_threshold: 3, location: { id: 2 }, product: { variant_id: 102 } });
    // Austin now stocks mugs: fulfillment order 502's mug could go there.
    expect((await s.cli('GET', '/fulfillment-orders/502/available-locations/')).json.available_locations['2']).toMatchObject({ fulfillment_order_line_ids: [603] });
    expect(s.record('variants', 102)).toMatchObject({ inventory_availability: 'in_stock', purchase_availability: 'available' });
    const again = await s.cli('POST', '/stockrecords/', { product: 102, location_id: 2 });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Variant 102 already has stock record ${made.json.id} at location 2; change that one instead.`);
    expect((await s.cli('POST', '/stockrecords/', { product: 999, location_id: 2 })).stderr).toContain('product: Invalid pk "999" - object does not exist.');
    expect((await s.cli('POST', '/stockrecords/', { product: 102, location_id: 9 })).stderr).toContain('location_id: Invalid pk "9" - object does not exist.');
    expect((await s.cli('POST', '/stockrecords/', { location_id: 2 })).stderr).toContain('Missing --product');
    expect(await s.raw('POST', '/stockrecords/', { location_id: 2 })).toEqual({ status: 400, body: { product: ['This field is required.'] } });
  });

  it('a stock take changes what can be sold, and the variant follows', async () => {
    const counted = await s.cli('PATCH', '/stockrecords/203/', { num_in_stock: 2 });
    expect(counted.json).toMatchObject({ num_in_stock: 2, num_allocated: 2, net_stock_level: 0 });
    expect(s.record('variants', 102)).toMatchObject({ inventory_availability: 'out_of_stock', purchase_availability: 'unavailable' });
    expect((await s.cli('PATCH', '/stockrecords/203/', { location_id: 2, low_stock_threshold: 0 })).json).toMatchObject({ location: { id: 2 }, low_stock_threshold: 0 });
    expect((await s.cli('PATCH', '/stockrecords/201/', { location_id: 2 })).stderr).toContain('Variant 101 already has stock record 202 at location 2');
    expect((await s.cli('PATCH', '/stockrecords/999/', { num_in_stock: 1 })).stderr).toContain('Not found.');
  });

  it('lists stock records by location, SKU, availability and words', async () => {
    expect(ids((await s.cli('GET', '/stockrecords/?location_id=1')).json)).toEqual([203, 201]);
    expect(ids((await s.cli('GET', '/stockrecords/?location_id=2&location_id=3')).json)).toEqual([204, 202]);
    expect(ids((await s.cli('GET', '/stockrecords/?sku=MUG')).json)).toEqual([203]);
    // Denver's one tee and Portland's one sellable mug are below their threshold of 2.
    expect(ids((await s.cli('GET', '/stockrecords/?inventory_availability=low_stock')).json)).toEqual([204, 203]);
    expect(ids((await s.cli('GET', '/stockrecords/?inventory_availability=in_stock')).json)).toEqual([202, 201]);
    await s.cli('PATCH', '/stockrecords/204/', { num_in_stock: 0 });
    expect(ids((await s.cli('GET', '/stockrecords/?purchase_availability=unavailable')).json)).toEqual([204]);
    expect(ids((await s.cli('GET', '/stockrecords/?search_text=austin')).json)).toEqual([202]);
    expect(ids((await s.cli('GET', '/stockrecords/?search_text=tee-m')).json)).toEqual([204, 202, 201]);
  });

  it.each(REFERENCE_VERSIONS)('answers in the reference shape at %s', async (version) => {
    await s.cli('POST', '/stockrecords/', { product: 102, location_id: 3, num_in_stock: 1 }, version);
    await s.cli('PATCH', '/stockrecords/203/', { num_in_stock: 4 }, version);
    await s.cli('GET', '/stockrecords/?location_id=1', undefined, version);
    for (const id of ['stockrecordsCreate', 'stockrecordsPartialUpdate', 'stockrecordsList']) expect(s.answered, id).toContain(`${id}@${version}`);
  });
});
