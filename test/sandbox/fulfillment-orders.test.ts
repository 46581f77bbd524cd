// The fulfillment-order lifecycle of the platform's guides, through the CLI against the sandbox:
// holds, fulfillment requests and cancellation requests with each answer, moves to another
// location that stocks the units, cancel and close. After every change `supported_actions` says
// exactly what the next request may do, and a refusal says why and what to do first.
import { describe, expect, it } from 'vitest';
import { REFERENCE_VERSIONS } from '../../src/api/operations.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { supportedActions } from '../../src/sandbox/supported-actions.js';
import { useFulfillmentSandbox, type CliAnswer } from './fulfillment-store.js';

describe('the fulfillment-order lifecycle', () => {
  const s = useFulfillmentSandbox();
  const post = (path: string, body: unknown = {}, version?: string) => s.cli('POST', path, body, version);
  const ok = (answer: CliAnswer) => {
    expect(answer.code, answer.stderr).toBe(0);
    return answer.json;
  };
  /** Every fulfillment order's supported actions are those of its state. */
  const consistent = () => {
    for (const record of Object.values(s.store.state.records.fulfillmentOrders)) {
      expect(record.supported_actions, `fulfillment order ${String(record.id)}`).toEqual(supportedActions(String(record.status), String(record.request_status)));
    }
  };

  it('holds with a reason, lists the holds, and releases', async () => {
    const held = ok(await post('/fulfillment-orders/501/hold/', { reason: 'address_incorrect', reason_message: 'Flat number missing.' }));
    expect(held).toMatchObject({ status: 'on_hold', supported_actions: ['hold', 'release_hold'], fulfillment_holds: [{ reason: 'address_incorrect', reason_message: 'Flat number missing.' }] });
    const twice = ok(await post('/fulfillment-orders/501/hold/', { reason: 'high_risk' }));
    expect(twice.fulfillment_holds.map((h: Rec) => [h.reason, h.reason_message])).toEqual([
      ['address_incorrect', 'Flat number missing.'],
      ['high_risk', null],
    ]);
    expect(s.record('orders', '10001').fulfillment_status).toBe('on_hold');
    const fulfil = await post('/fulfillment-orders/501/fulfillments/', {});
    expect(fulfil.code).toBe(1);
    expect(fulfil.stderr).toContain('Fulfillment order 501 cannot be fulfilled: it is on_hold (request_status pending). Release the hold first (POST /fulfillment-orders/501/release-hold/). It supports hold, release_hold.');
    const released = ok(await s.cli('POST', '/fulfillment-orders/501/release-hold/'));
    expect(released).toMatchObject({ status: 'open', fulfillment_holds: [], supported_actions: ['create_fulfillment', 'request_fulfillment', 'hold', 'move'] });
    expect(s.record('orders', '10001').fulfillment_status).toBe('unfulfilled');
    expect((await s.cli('POST', '/fulfillment-orders/501/release-hold/')).stderr).toContain('Fulfillment order 501 cannot be released: it is open (request_status pending). It supports create_fulfillment, request_fulfillment, hold, move.');
    // The command refuses a reason the platform does not list before sending; the store would answer so.
    expect((await post('/fulfillment-orders/501/hold/', { reason: 'lost' })).code).toBe(2);
    expect(await s.raw('POST', '/fulfillment-orders/501/hold/', { reason: 'lost' })).toEqual({ status: 400, body: { reason: ['"lost" is not a valid choice.'] } });
    consistent();
  });

  it('sends a fulfillment request, which the location accepts: the order is processing and its units no longer editable', async () => {
    const sent = ok(await post('/fulfillment-orders/501/fulfillment-request/', { message: 'Gift wrap, please.', notify: true }));
    expect(sent.original_fulfillment_order).toMatchObject({ id: 501, request_status: 'pending' });
    expect(sent.requested_fulfillment_order).toMatchObject({ id: 501, status: 'open', request_status: 'requested', merchant_requests: [{ type: 'fulfill_request', message: 'Gift wrap, please.', notify: true }] });
    // Nothing was left unrequested: the original with no line left stands for it.
    expect(sent.unrequested_fulfillment_order).toMatchObject({ id: 501, line_items: [] });
    expect(s.record('orders', '10001')).toMatchObject({ fulfillment_status: 'unfulfilled', lines: [{ fulfillable_quantity: 2, editable_quantity: 0 }, { editable_quantity: 0 }] });
    const listed = ok(await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=fulfillment_requested'));
    expect(listed.results.map((r: Rec) => r.id)).toEqual([501]);
    const accepted = ok(await post('/fulfillment-orders/501/fulfillment-request/accept/', { message: 'Will ship today.' }));
    expect(accepted).toMatchObject({ status: 'processing', request_status: 'accepted', supported_actions: ['create_fulfillment', 'request_cancellation', 'close'] });
    expect(s.record('orders', '10001').fulfillment_status).toBe('processing');
    expect(ok(await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=fulfillment_accepted&location_id=1')).results.map((r: Rec) => r.id)).toEqual([501]);
    expect(ok(await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=fulfillment_accepted&location_id=2')).results).toEqual([]);
    expect((await post('/fulfillment-orders/501/fulfillment-request/accept/')).stderr).toContain('cannot have its fulfillment request accepted: it is processing (request_status accepted)');
    consistent();
  });

  it('splits off what a partial fulfillment request leaves out, and takes back or rejects a request', async () => {
    const sent = ok(await post('/fulfillment-orders/501/fulfillment-request/', { fulfillment_order_line_items: [{ id: 601, quantity: 1 }] }));
    const rest = sent.unrequested_fulfillment_order;
    expect(sent.requested_fulfillment_order.line_items.map((l: Rec) => [l.id, l.quantity, l.fulfillable_quantity])).toEqual([[601, 1, '1']]);
    expect(rest).toMatchObject({ status: 'open', request_status: 'pending', order_number: '10001', assigned_location: { id: 1 } });
    expect(rest.id).not.toBe(501);
    expect(rest.line_items.map((l: Rec) => [l.order_line_id, l.quantity, l.fulfillable_quantity, l.stockrecord_id])).toEqual([
      [1001, 1, '1', 201],
      [1002, 1, '1', 203],
    ]);
    // Splitting moves no stock: both halves sit at Portland.
    expect(s.record('stockrecords', 201).num_allocated).toBe(2);
    expect(s.record('orders', '10001').lines).toMatchObject([{ fulfillable_quantity: 2, editable_quantity: 1 }, { fulfillable_quantity: 1, editable_quantity: 1 }]);
    const takenBack = ok(await post('/fulfillment-orders/501/fulfillment-request/cancel/'));
    expect(takenBack).toMatchObject({ status: 'open', request_status: 'pending' });
    ok(await post(`/fulfillment-orders/${rest.id}/fulfillment-request/`, {}));
    const rejected = ok(await post(`/fulfillment-orders/${rest.id}/fulfillment-request/reject/`, { rejected_reason: 'inventory_out_of_stock', message: 'No mugs.' }));
    expect(rejected).toMatchObject({ status: 'open', request_status: 'rejected', supported_actions: ['create_fulfillment', 'request_fulfillment', 'hold', 'move'] });
    expect(s.record('orders', '10001').fulfillment_status).toBe('rejected');
    expect((await post('/fulfillment-orders/501/fulfillment-request/', { fulfillment_order_line_items: [{ id: 601, quantity: 2 }] })).stderr).toContain('Line 601 has 1 unit left to fulfil; 2 were asked for.');
    consistent();
  });

  it('requests cancellation of accepted work; the location rejects it, then accepts it, and the units are open to move', async () => {
    ok(await post('/fulfillment-orders/501/fulfillment-request/'));
    ok(await post('/fulfillment-orders/501/fulfillment-request/accept/'));
    const blocked = await post('/fulfillment-orders/501/move/', { new_location_id: 2 });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(
      'Fulfillment order 501 cannot be moved: it is processing (request_status accepted). Its location is fulfilling it: request cancellation (POST /fulfillment-orders/501/cancellation-request/) and wait until the location accepts. It supports create_fulfillment, request_cancellation, close.',
    );
    const requested = ok(await post('/fulfillment-orders/501/cancellation-request/', { message: 'Customer changed the address.' }));
    expect(requested).toMatchObject({ status: 'processing', request_status: 'cancel_requested', merchant_requests: [{ type: 'fulfill_request' }, { type: 'cancel_request', message: 'Customer changed the address.' }] });
    expect(ok(await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=cancellation_requested')).results.map((r: Rec) => r.id)).toEqual([501]);
    expect(ok(await post('/fulfillment-orders/501/cancellation-request/reject/', { message: 'Already packed.' }))).toMatchObject({ status: 'processing', request_status: 'cancel_rejected' });
    ok(await post('/fulfillment-orders/501/cancellation-request/'));
    expect(ok(await post('/fulfillment-orders/501/cancellation-request/cancel/'))).toMatchObject({ status: 'processing', request_status: 'accepted' });
    ok(await post('/fulfillment-orders/501/cancellation-request/'));
    const accepted = ok(await post('/fulfillment-orders/501/cancellation-request/accept/', { message: 'Stopped.' }));
    expect(accepted).toMatchObject({ status: 'open', request_status: 'cancel_accepted' });
    expect(accepted.supported_actions).toContain('move');
    expect(s.record('orders', '10001').fulfillment_status).toBe('unfulfilled');
    expect(ok(await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=fulfillment_unrequested&location_id=1')).results.map((r: Rec) => r.id)).toEqual([502, 501]);
    expect((await post('/fulfillment-orders/501/cancellation-request/accept/')).stderr).toContain('cannot have a cancellation accepted: it is open (request_status cancel_accepted)');
    const moved = ok(await post('/fulfillment-orders/501/move/', { new_location_id: 2, fulfillment_order_line_items: [{ id: 601 }] }));
    expect(moved.moved_fulfillment_order).toMatchObject({ status: 'open', request_status: 'pending', assigned_location: { id: 2 } });
    consistent();
  });

  it('answers the locations that stock the units, and moves them only to one of those', async () => {
    const available = ok(await s.cli('GET', '/fulfillment-orders/501/available-locations/'));
    // Austin stocks tees (4 left to sell) but no mugs; Denver has one tee, not the two asked for.
    expect(available).toEqual({ available_locations: { '2': { id: 2, name: 'Austin Warehouse', fulfillment_order_line_ids: [601] } } });
    const whole = await post('/fulfillment-orders/501/move/', { new_location_id: 2 });
    expect(whole.code).toBe(1);
    expect(whole.stderr).toContain('Austin Warehouse cannot take line 602 of fulfillment order 501: it does not stock it or has too few units. Locations that can: 2 (Austin Warehouse: lines 601).');
    expect((await post('/fulfillment-orders/501/move/', { new_location_id: 3, fulfillment_order_line_items: [{ id: 601 }] })).stderr).toContain('Denver Warehouse cannot take line 601');
    expect((await post('/fulfillment-orders/501/move/', { new_location_id: 1 })).stderr).toContain('Fulfillment order 501 is already at Portland Warehouse.');
    expect((await post('/fulfillment-orders/501/move/', { new_location_id: 9 })).stderr).toContain('new_location_id: Invalid pk "9" - object does not exist.');
    const moved = ok(await post('/fulfillment-orders/501/move/', { new_location_id: 2, fulfillment_order_line_items: [{ id: 601 }] }));
    expect(moved.original_fulfillment_order).toMatchObject({ id: 501, assigned_location: { id: 1 }, line_items: [{ id: 602 }] });
    expect(moved.moved_fulfillment_order).toMatchObject({ status: 'open', request_status: 'pending', assigned_location: { id: 2, name: 'Austin Warehouse' } });
    expect(moved.moved_fulfillment_order.line_items.map((l: Rec) => [l.order_line_id, l.quantity, l.stockrecord_id])).toEqual([[1001, 2, 202]]);
    // The tees' allocation leaves Portland for Austin.
    expect([s.record('stockrecords', 201).num_allocated, s.record('stockrecords', 202).num_allocated]).toEqual([0, 3]);
    consistent();
  });

  it('moves a whole fulfillment order as it is, and refuses to move what a location holds', async () => {
    const moved = ok(await post('/fulfillment-orders/503/move/', { new_location_id: 1 }));
    expect(moved.moved_fulfillment_order).toMatchObject({ id: 503, assigned_location: { id: 1 }, line_items: [{ stockrecord_id: 201 }] });
    expect(moved.original_fulfillment_order.id).toBe(503);
    expect([s.record('stockrecords', 202).num_allocated, s.record('stockrecords', 201).num_allocated]).toEqual([0, 3]);
    ok(await post('/fulfillment-orders/503/fulfillment-request/'));
    expect((await post('/fulfillment-orders/503/move/', { new_location_id: 2 })).stderr).toContain('Its fulfillment request awaits the location: take it back (POST /fulfillment-orders/503/fulfillment-request/cancel/) or wait for the answer.');
    consistent();
  });

  it('cancels a requested fulfillment order, leaving a new open one with its units at the same location', async () => {
    expect((await post('/fulfillment-orders/501/cancel/')).stderr).toContain('Fulfillment order 501 cannot be canceled: it is open (request_status pending). It supports create_fulfillment, request_fulfillment, hold, move.');
    ok(await post('/fulfillment-orders/501/fulfillment-request/'));
    const canceled = ok(await post('/fulfillment-orders/501/cancel/'));
    expect(canceled.original_fulfillment_order).toMatchObject({ id: 501, status: 'canceled', supported_actions: [] });
    expect(canceled.original_fulfillment_order.line_items.map((l: Rec) => l.fulfillable_quantity)).toEqual(['0', '0']);
    expect(canceled.new_fulfillment_order).toMatchObject({ status: 'open', request_status: 'pending', assigned_location: { id: 1 }, merchant_requests: [] });
    expect(canceled.new_fulfillment_order.line_items.map((l: Rec) => [l.order_line_id, l.fulfillable_quantity])).toEqual([
      [1001, '2'],
      [1002, '1'],
    ]);
    expect(s.record('stockrecords', 201).num_allocated).toBe(2);
    expect(s.record('orders', '10001')).toMatchObject({ fulfillment_status: 'unfulfilled', lines: [{ fulfillable_quantity: 2, editable_quantity: 2 }, { fulfillable_quantity: 1 }] });
    consistent();
  });

  it('closes accepted work a location cannot finish as incomplete; the rest can be fulfilled or given a new fulfillment order', async () => {
    expect((await post('/fulfillment-orders/501/close/', { message: 'x' })).stderr).toContain('Fulfillment order 501 cannot be closed: it is open (request_status pending).');
    ok(await post('/fulfillment-orders/501/fulfillment-request/'));
    ok(await post('/fulfillment-orders/501/fulfillment-request/accept/'));
    const shipped = ok(await post('/fulfillment-orders/501/fulfillments/', { fulfillment_order_line_items: [{ id: 601, quantity: 2 }], tracking_info: [{ carrier: 'ups', tracking_code: '1Z' }] }));
    expect(shipped.line_items).toMatchObject([{ fulfillment_service: 'Portland Warehouse', price_excl_tax: '20.00' }]);
    const closed = ok(await post('/fulfillment-orders/501/close/', { message: 'Out of mugs.' }));
    expect(closed).toMatchObject({ status: 'incomplete', request_status: 'closed', supported_actions: ['create_fulfillment', 'cancel'] });
    expect(s.record('orders', '10001').fulfillment_status).toBe('incomplete');
    const renewed = ok(await post('/fulfillment-orders/501/cancel/')).new_fulfillment_order;
    expect(renewed.line_items.map((l: Rec) => [l.order_line_id, l.quantity])).toEqual([[1002, 1]]);
    expect(s.record('orders', '10001').fulfillment_status).toBe('processing');
    consistent();
  });

  it('lists fulfillment orders, and those assigned to locations, by what a script filters on', async () => {
    const ids = async (query: string, list = 'fulfillment-orders') => ok(await s.cli('GET', `/${list}/?${query}`)).results.map((r: Rec) => r.id);
    expect(await ids('sku=MUG')).toEqual([502, 501]);
    expect(await ids('sku=TEE-M&location_id=2')).toEqual([503]);
    expect(await ids('product=10')).toEqual([503, 501]);
    expect(await ids('fulfillment_order_id=502')).toEqual([502]);
    expect(await ids('shipping_method=standard&order_number=10002')).toEqual([503, 502]);
    expect(await ids('date_created_from=2026-01-10&date_created_to=2026-01-10')).toEqual([503, 502, 501]);
    expect(await ids('date_created_from=2026-01-11')).toEqual([]);
    ok(await post('/fulfillment-orders/502/hold/', { reason: 'other' }));
    ok(await post('/fulfillment-orders/503/fulfillment-request/'));
    expect(await ids('status=on_hold&status=processing')).toEqual([502]);
    expect(await ids('request_status=requested')).toEqual([503]);
    expect(await ids('assignment_status=fulfillment_unrequested', 'assigned-fulfillment-orders')).toEqual([502, 501]);
    expect(await ids('assignment_status=fulfillment_requested&location_id=2', 'assigned-fulfillment-orders')).toEqual([503]);
    expect(await ids('date_created_to=2026-01-09', 'assigned-fulfillment-orders')).toEqual([]);
    expect((await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=shipped')).stderr).toContain('--assignment-status: must be one of');
    expect(await s.raw('GET', '/assigned-fulfillment-orders/?assignment_status=shipped')).toEqual({ status: 400, body: { assignment_status: ['"shipped" is not a valid choice.'] } });
  });

  it('takes the requests whose body is optional without one', async () => {
    const bare = (path: string) =>
      fetch(`${s.sandbox.url}/api/admin${path}`, { method: 'POST', headers: { authorization: 'Bearer test-full-token', 'x-store-api-version': '2024-04-01' } }).then((r) => r.status);
    expect(await bare('/fulfillment-orders/502/fulfillment-request/')).toBe(200);
    expect(await bare('/fulfillment-orders/502/fulfillment-request/accept/')).toBe(200);
    expect(await bare('/fulfillment-orders/502/cancellation-request/')).toBe(200);
    expect(await bare('/fulfillment-orders/502/cancellation-request/accept/')).toBe(200);
    expect(await bare('/fulfillment-orders/503/fulfillments/')).toBe(201);
    expect(await bare('/orders/10001/fulfillments/')).toBe(201);
    consistent();
  });

  it('answers 404 for a fulfillment order that is not there', async () => {
    const bodies: Record<string, Rec> = { 'hold/': { reason: 'other' }, 'move/': { new_location_id: 2 } };
    for (const path of ['hold/', 'release-hold/', 'move/', 'cancel/', 'close/', 'fulfillment-request/', 'cancellation-request/accept/']) {
      expect((await post(`/fulfillment-orders/999/${path}`, bodies[path] ?? {})).stderr, path).toContain('Not found.');
    }
    expect((await s.cli('GET', '/fulfillment-orders/999/available-locations/')).stderr).toContain('Not found.');
  });

  it.each(REFERENCE_VERSIONS)('answers every lifecycle operation in the reference shape at %s', async (version) => {
    const at = (path: string, body?: unknown) => post(path, body ?? {}, version).then(ok);
    await at('/fulfillment-orders/501/hold/', { reason: 'other', reason_message: null });
    await at('/fulfillment-orders/501/release-hold/');
    await at('/fulfillment-orders/501/fulfillment-request/', { fulfillment_order_line_items: [{ id: 602, quantity: 1 }] });
    await at('/fulfillment-orders/501/fulfillment-request/reject/', { rejected_reason: null });
    await at('/fulfillment-orders/501/fulfillment-request/');
    await at('/fulfillment-orders/501/fulfillment-request/cancel/');
    await at('/fulfillment-orders/501/fulfillment-request/');
    await at('/fulfillment-orders/501/fulfillment-request/accept/');
    await at('/fulfillment-orders/501/cancellation-request/', { message: null });
    await at('/fulfillment-orders/501/cancellation-request/reject/');
    await at('/fulfillment-orders/501/cancellation-request/');
    await at('/fulfillment-orders/501/cancellation-request/cancel/');
    await at('/fulfillment-orders/501/close/');
    await at('/fulfillment-orders/501/cancel/');
    await at('/fulfillment-orders/503/move/', { new_location_id: 1 });
    await s.cli('GET', '/fulfillment-orders/502/available-locations/', undefined, version).then(ok);
    await s.cli('GET', '/assigned-fulfillment-orders/?assignment_status=fulfillment_unrequested', undefined, version).then(ok);
    const ops = ['fulfillmentOrdersHold', 'fulfillmentOrdersReleaseHold', 'fulfillmentRequestSend', 'fulfillmentRequestReject', 'fulfillmentRequestCancel', 'fulfillmentRequestAccept', 'cancellationRequestSend', 'cancellationRequestReject', 'cancellationRequestCancel', 'fulfillmentOrdersClose', 'fulfillmentOrdersCancel', 'fulfillmentOrdersMove', 'availableLocationsRetrieve', 'assignedFulfillmentOrdersList'];
    for (const id of ops) expect(s.answered, id).toContain(`${id}@${version}`);
    consistent();
  });
});
