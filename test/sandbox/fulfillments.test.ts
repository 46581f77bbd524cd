// Fulfillments created with tracking, through the CLI against the sandbox: the request's carrier
// comes back as tracking_carrier with the reference's 201, units leave the fulfillment order and
// the shelf, the order follows, and fulfillment.created / order.updated are queued. Carrier events
// then move the fulfillment's delivery status.
import { describe, expect, it } from 'vitest';
import { REFERENCE_VERSIONS } from '../../src/api/operations.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { useFulfillmentSandbox } from './fulfillment-store.js';

describe('fulfillments with tracking', () => {
  const s = useFulfillmentSandbox();
  const hook = async (events: string[]) => s.cli('POST', '/webhooks/', { target: 'http://127.0.0.1:9/fulfil', events });
  const queued = () => s.store.state.webhookOutbox.map((delivery) => JSON.parse(delivery.body) as { event_type: string; data: Rec });

  it('fulfils every unit left of a fulfillment order, answering the carrier as tracking_carrier with a 201', async () => {
    await hook(['fulfillment.created', 'order.updated']);
    const before = { ...s.sandbox.counters.byOperation.fulfillmentsCreate };
    const made = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', { tracking_info: [{ carrier: 'dhl_ecommerce', tracking_code: 'DHL123' }] });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({
      order_number: '10001',
      location_id: 1,
      status: 'success',
      delivery_status: 'tracking_added',
      tracking_carrier: 'dhl_ecommerce',
      tracking_code: 'DHL123',
      tracking_carriers: 'dhl_ecommerce',
      tracking_codes: 'DHL123',
      // No link given: the order's status page, where the customer follows the parcel.
      tracking_links: 'https://shop.example/orders/10001/status/',
      origin_address: { line4: 'Portland' },
    });
    expect(made.json.line_items.map((l: Rec) => [l.order_line_id, l.quantity, l.fulfilled_quantity])).toEqual([
      [1001, 2, '2'],
      [1002, 1, '1'],
    ]);
    expect(s.sandbox.counters.byOperation.fulfillmentsCreate).toEqual({ received: (before.received ?? 0) + 1, applied: (before.applied ?? 0) + 1 });

    const fo = (await s.cli('GET', '/fulfillment-orders/501/')).json;
    expect(fo).toMatchObject({ status: 'closed', request_status: 'pending', supported_actions: [] });
    expect(s.record('variants', 102)).toMatchObject({ inventory_availability: 'low_stock', purchase_availability: 'available' });
    expect(fo.line_items.map((l: Rec) => l.fulfillable_quantity)).toEqual(['0', '0']);
    const order = s.record('orders', '10001');
    expect(order.fulfillment_status).toBe('fulfilled');
    expect((order.lines as Rec[]).map((l) => [l.fulfillable_quantity, l.editable_quantity])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    // Shipped units leave the shelf and their allocation with them.
    const tees = (await s.cli('GET', '/stockrecords/201/')).json;
    expect(tees).toMatchObject({ num_in_stock: 8, num_allocated: 0, net_stock_level: 8 });
    expect(s.record('stockrecords', 203)).toMatchObject({ num_in_stock: 2, num_allocated: 1 });
    expect(queued().map((d) => [d.event_type, d.data.number ?? d.data.tracking_carrier])).toEqual([
      ['fulfillment.created', 'dhl_ecommerce'],
      ['order.updated', '10001'],
    ]);
    const listed = await s.cli('GET', '/fulfillment-orders/501/fulfillments/');
    expect(listed.json.map((f: Rec) => f.id)).toEqual([made.json.id]);
  });

  it('fulfils part of a line, leaving the rest open and the order processing', async () => {
    const made = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', {
      fulfillment_order_line_items: [{ id: 601, quantity: 1 }],
      tracking_info: [
        { carrier: 'ups', tracking_code: '1Z1', tracking_link: 'https://track.example/1Z1' },
        { carrier: 'other', carrier_other_name: 'Bike courier', tracking_code: 'B2', tracking_link: 'https://track.example/B2' },
      ],
    });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ tracking_carrier: 'ups', tracking_carriers: 'ups,other', tracking_codes: '1Z1,B2', tracking_links: 'https://track.example/1Z1,https://track.example/B2' });
    // One of the line's two tees: half its money, shipped by the merchant.
    expect(made.json.line_items).toMatchObject([{ quantity: 1, price_excl_tax: '10.00', price_incl_tax: '12.00', total_discount: '0.00', fulfillment_service: 'manual' }]);
    const fo = s.record('fulfillmentOrders', 501);
    expect(fo.status).toBe('open');
    expect((fo.line_items as Rec[]).map((l) => l.fulfillable_quantity)).toEqual(['1', '1']);
    expect(s.record('orders', '10001')).toMatchObject({ fulfillment_status: 'processing', lines: [{ fulfillable_quantity: 1, editable_quantity: 1 }, { fulfillable_quantity: 1 }] });
    expect((await s.cli('GET', '/stockrecords/201/')).json).toMatchObject({ num_in_stock: 9, num_allocated: 1, net_stock_level: 8 });
  });

  it('refuses more units than are left, a line of another order, and a fulfillment order with nothing left, in the platform forms', async () => {
    const before = { ...s.sandbox.counters.byOperation.fulfillmentsCreate };
    const tooMany = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', { fulfillment_order_line_items: [{ id: 601, quantity: 3 }] });
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toContain('Line 601 has 2 units left to fulfil; 3 were asked for.');
    const stranger = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', { fulfillment_order_line_items: [{ id: 603, quantity: 1 }] });
    expect(stranger.stderr).toContain('Line 603 is not a line of fulfillment order 501; its lines are 601, 602.');
    // A carrier the platform does not list: the command refuses it before sending, as the store would.
    const badCarrier = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', { tracking_info: [{ carrier: 'pigeon' }] });
    expect([badCarrier.code, badCarrier.stderr]).toEqual([2, expect.stringContaining('--tracking-info (0.carrier): must be one of: 4px, amazon')]);
    expect(await s.raw('POST', '/fulfillment-orders/501/fulfillments/', { tracking_info: [{ carrier: 'pigeon' }] })).toEqual({ status: 400, body: { tracking_info: [{ carrier: ['"pigeon" is not a valid choice.'] }] } });
    await s.cli('POST', '/fulfillment-orders/501/fulfillments/', {});
    const again = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', {});
    expect(again.stderr).toContain('Fulfillment order 501 cannot be fulfilled: it is closed (request_status pending). Nothing is left to fulfil. It supports no action.');
    expect(s.sandbox.counters.byOperation.fulfillmentsCreate).toEqual({ received: (before.received ?? 0) + 5, applied: (before.applied ?? 0) + 1 });
    const raw = await fetch(`${s.sandbox.url}/api/admin/fulfillment-orders/501/fulfillments/`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-full-token', 'x-store-api-version': '2024-04-01', 'content-type': 'application/json' },
      body: '{}',
    });
    expect([raw.status, Object.keys((await raw.json()) as object)]).toEqual([400, ['detail']]);
    const missing = await s.cli('POST', '/fulfillment-orders/999/fulfillments/', {});
    expect(missing.stderr).toContain('Not found.');
  });

  it('fulfils an order line through the order, with the carrier of the request', async () => {
    const made = await s.cli('POST', '/orders/10002/fulfillments/', { lines: [1003], carrier: 'usps', tracking_code: '9400', tracking_link: 'https://tools.usps.example/9400' });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ location_id: 2, tracking_carrier: 'usps', tracking_code: '9400', tracking_links: 'https://tools.usps.example/9400' });
    expect(s.record('fulfillmentOrders', 503).status).toBe('closed');
    expect(s.record('fulfillmentOrders', 502).status).toBe('open');
    expect(s.record('orders', '10002').fulfillment_status).toBe('processing');
    const listed = await s.cli('GET', '/orders/10002/fulfillments/');
    expect(listed.json.map((f: Rec) => f.tracking_carrier)).toEqual(['usps']);
  });

  it('fulfils all an order has left when no line is named, and says when it has none left or they sit at two locations', async () => {
    const split = await s.cli('POST', '/orders/10002/fulfillments/', { carrier: 'fedex', tracking_code: 'F1' });
    expect(split.code).toBe(1);
    expect(split.stderr).toContain('Order 10002 has units left in 2 fulfillment orders (502 at Portland Warehouse, open; 503 at Austin Warehouse, open)');
    const all = await s.cli('POST', '/orders/10001/fulfillments/', { carrier: 'fedex', tracking_code: 'F2' });
    expect(all.json.line_items.map((l: Rec) => l.quantity)).toEqual([2, 1]);
    const done = await s.cli('POST', '/orders/10001/fulfillments/', { carrier: 'fedex' });
    expect(done.stderr).toContain('Order 10001 has nothing left to fulfil.');
    const line = await s.cli('POST', '/orders/10001/fulfillments/', { lines: [1001] });
    expect(line.stderr).toContain('Line 1001 of order 10001 has nothing left to fulfil.');
    const stranger = await s.cli('POST', '/orders/10001/fulfillments/', { lines: [1003] });
    expect(stranger.stderr).toContain('Line 1003 is not a line of order 10001.');
    const carrier = await s.cli('POST', '/orders/10002/fulfillments/', { lines: [1003], carrier: 'pigeon' });
    expect([carrier.code, carrier.stderr]).toEqual([2, expect.stringContaining('--carrier: must be one of')]);
    expect(await s.raw('POST', '/orders/10002/fulfillments/', { lines: [1003], carrier: 'pigeon' })).toEqual({ status: 400, body: { carrier: ['"pigeon" is not a valid choice.'] } });
    expect((await s.cli('POST', '/orders/99999/fulfillments/', {})).stderr).toContain('Not found.');
  });

  it('carrier events move the delivery status and the last event date, and say so with fulfillment.updated', async () => {
    await hook(['fulfillment.updated']);
    const made = (await s.cli('POST', '/fulfillment-orders/501/fulfillments/', { tracking_info: [{ carrier: 'ups', tracking_code: '1Z9' }] })).json;
    const path = `/orders/10001/fulfillments/${made.id}/events/`;
    const label = await s.cli('POST', path, { status: 'label_printed', happened_at: '2026-01-10T10:00:00Z' });
    expect(label.code, label.stderr).toBe(0);
    expect(label.json).toMatchObject({ status: 'label_printed', fulfillment: made.id, order: '10001', city: '' });
    const transit = await s.cli('POST', path, { status: 'in_transit', city: 'Reno', happened_at: '2026-01-11T08:00:00Z' });
    expect(transit.json).toMatchObject({ status: 'in_transit', city: 'Reno' });
    expect((await s.cli('GET', `/orders/10001/fulfillments/${made.id}/`)).json).toMatchObject({ delivery_status: 'in_transit', last_event_date: '2026-01-11T08:00:00Z' });
    await s.cli('POST', path, { status: 'delivered', happened_at: '2026-01-12T15:30:00Z' });
    expect(s.record('fulfillments', made.id)).toMatchObject({ delivery_status: 'delivered', last_event_date: '2026-01-12T15:30:00Z' });
    const events = await s.cli('GET', path);
    expect(events.json.map((e: Rec) => e.status).sort()).toEqual(['delivered', 'in_transit', 'label_printed']);
    const latest = events.json.find((e: Rec) => e.status === 'delivered');
    expect((await s.cli('DELETE', `${path}${latest.id}/`)).code).toBe(0);
    expect(s.record('fulfillments', made.id)).toMatchObject({ delivery_status: 'in_transit', last_event_date: '2026-01-11T08:00:00Z' });
    expect(queued().map((d) => [d.event_type, d.data.delivery_status])).toEqual([
      ['fulfillment.updated', 'tracking_added'],
      ['fulfillment.updated', 'in_transit'],
      ['fulfillment.updated', 'delivered'],
      ['fulfillment.updated', 'in_transit'],
    ]);
    expect((await s.cli('POST', `/orders/10002/fulfillments/${made.id}/events/`, { status: 'delivered' })).stderr).toContain('Not found.');
  });

  it.each(REFERENCE_VERSIONS)('answers in the reference shape at %s', async (version) => {
    const made = await s.cli('POST', '/fulfillment-orders/501/fulfillments/', { fulfillment_order_line_items: [{ id: 602, quantity: 1 }], tracking_info: [{ carrier: 'ups', tracking_code: 'V' }] }, version);
    expect(made.code, made.stderr).toBe(0);
    await s.cli('POST', '/orders/10002/fulfillments/', { lines: [1004], carrier: null }, version);
    await s.cli('GET', `/orders/10001/fulfillments/${made.json.id}/`, undefined, version);
    await s.cli('GET', '/orders/10001/fulfillments/', undefined, version);
    await s.cli('GET', '/fulfillment-orders/501/fulfillments/', undefined, version);
    const event = await s.cli('POST', `/orders/10001/fulfillments/${made.json.id}/events/`, { status: 'out_for_delivery' }, version);
    await s.cli('GET', `/orders/10001/fulfillments/${made.json.id}/events/${event.json.id}/`, undefined, version);
    for (const id of ['fulfillmentsCreate', 'ordersFulfillmentsCreate', 'ordersFulfillmentRetrieve', 'ordersFulfillmentsRetrieve', 'fulfillmentsRetrieve', 'ordersFulfillmentsEventsCreate']) {
      expect(s.answered, id).toContain(`${id}@${version}`);
    }
  });
});
