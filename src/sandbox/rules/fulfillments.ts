// Fulfillments: units of a fulfillment order shipped with their tracking, through the
// fulfillment order (fulfillmentsCreate) or the order (ordersFulfillmentsCreate, one line or all
// that is left). A fulfilment answers the request's `carrier` as `tracking_carrier`, takes the
// units out of the fulfillment order and off the shelf, and the order follows. Carrier events
// then move the fulfillment's `delivery_status`.
import type { FulfillmentEvent, FulfillmentResponse, TrackingInfo } from '../../api/generated/types.js';
import type { OperationId } from '../../api/operations.js';
import { complete, NOT_FOUND } from '../collections.js';
import { itemSchema, type Rule, type RuleContext } from '../engine.js';
import { expectAction, findFulfillmentOrder, fulfillable, fulfillmentOrdersOf, locationName, orderFollows, touch, unitsNamed, type FoRecord } from '../fulfillment.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { fromCents, toCents } from '../money.js';
import { ship } from '../stock.js';

type FulfillmentRecord = FulfillmentResponse & Rec & { id: number };
type Tracking = Pick<TrackingInfo, 'carrier' | 'tracking_code' | 'tracking_link'>;

/** Request states in which the location has accepted the fulfillment order. */
const ACCEPTED = new Set(['accepted', 'cancel_requested', 'cancel_rejected']);

/**
 * The tracking fields of a fulfillment: the first package's, and every package's joined by
 * commas. With no link given, `tracking_links` (which must be a URL) is the order's status page,
 * where the customer follows the shipment.
 */
function trackingFields(packages: readonly Tracking[], statusPage: string): Rec {
  const first = packages[0];
  const links = packages.map((p) => p.tracking_link).filter((link): link is string => typeof link === 'string' && link !== '');
  return {
    tracking_carrier: first?.carrier ?? '',
    tracking_code: first?.tracking_code ?? '',
    tracking_link: first?.tracking_link ?? '',
    tracking_carriers: packages.map((p) => p.carrier ?? '').join(','),
    tracking_codes: packages.map((p) => p.tracking_code ?? '').join(','),
    tracking_links: links.length > 0 ? links.join(',') : statusPage,
  };
}

/** Ships `units` (fulfillment order line id → units) of `fo` with its packages' tracking. */
function fulfil(ctx: RuleContext, fo: FoRecord, units: ReadonlyMap<number, number>, packages: readonly Tracking[]): unknown {
  const { records } = ctx.state;
  const order = records.orders[String(fo.order_number)];
  const location = records.locations[String(fo.location_id)];
  const id = ctx.next('fulfillments');
  // A location that accepted the request fulfils as its service; otherwise the merchant does, by hand.
  const service = ACCEPTED.has(String(fo.request_status)) ? locationName(records, fo.location_id) : 'manual';
  const lineItems = fo.line_items
    .filter((line) => units.has(line.id))
    .map((line) => {
      const shipped = units.get(line.id)!;
      line.fulfillable_quantity = String(fulfillable(line) - shipped);
      ship(records, line.stockrecord_id, shipped, ctx.now);
      // The line's money is the order line's, for its whole quantity: the fulfilment carries its share.
      const whole = Number(((order?.lines as Rec[] | undefined) ?? []).find((ordered) => ordered.id === line.order_line_id)?.quantity ?? line.quantity ?? shipped);
      const share = (amount: unknown) => fromCents(Math.round((toCents(amount) * shipped) / whole));
      return {
        currency: line.currency,
        fulfilled_quantity: String(shipped),
        fulfillment_service: service,
        id: ctx.next('fulfillmentLines'),
        order_line_id: line.order_line_id,
        price_excl_tax: share(line.price_excl_tax),
        price_incl_tax: share(line.price_incl_tax),
        product_id: Number(line.product_id),
        product_image: line.product_image,
        product_title: line.product_title,
        quantity: shipped,
        requires_shipping: true,
        returnable_quantity: String(shipped),
        returned_quantity: '0',
        sku: line.sku,
        tax_lines: (line.tax_lines ?? []).map((tax) => ({ ...structuredClone(tax), amount: share(tax.amount), ...(tax.report_values ? { report_values: { ...tax.report_values, amount: share(tax.report_values.amount) } } : {}) })),
        total_discount: share(line.total_discount),
      };
    });
  const fulfillment: FulfillmentRecord = {
    id,
    order_number: String(fo.order_number),
    fulfillment_order_id: fo.id,
    location_id: fo.location_id,
    // Where it left from, as the location stood then.
    origin_address: structuredClone((location?.address as FulfillmentResponse['origin_address']) ?? { country: '', line1: '', line4: '' }),
    created_at: ctx.now,
    delivery_status: packages.length > 0 ? 'tracking_added' : null,
    last_event_date: null,
    line_items: lineItems,
    requires_shipping: true,
    shipping_method: String(order?.shipping_method ?? fo.shipping_method?.name ?? ''),
    status: 'success',
    ...trackingFields(packages, String(order?.order_status_url ?? '')),
  };
  records.fulfillments[String(id)] = fulfillment;
  touch(ctx, fo);
  ctx.emit('fulfillment.created', fulfillment);
  orderFollows(ctx, fo.order_number, true);
  return ctx.answer(fulfillment);
}

const fulfilFulfillmentOrder: Rule = (ctx) => {
  const fo = findFulfillmentOrder(ctx);
  expectAction(fo, 'create_fulfillment', 'be fulfilled');
  const units = unitsNamed(fo, ctx.body?.fulfillment_order_line_items, 'fulfillment_order_line_items');
  // A fulfillment order left open with nothing in it (not one this store made) gets no empty fulfilment.
  if (units.size === 0) throw new HttpError(400, { detail: `Fulfillment order ${fo.id} has nothing left to fulfil.` });
  return fulfil(ctx, fo, units, ctx.body?.tracking_info ?? []);
};

/**
 * An order's lines (all it has left when none are named) shipped in one fulfilment: they must
 * all sit in one fulfillment order that can be fulfilled now.
 */
const fulfilOrderLines: Rule = (ctx) => {
  const number = String(ctx.params.number);
  const order = ctx.state.records.orders[number];
  if (!order) throw NOT_FOUND();
  const live = fulfillmentOrdersOf(ctx.state.records, number).filter((fo) => fo.line_items.some((line) => fulfillable(line) > 0));
  const named = ((ctx.body?.lines as (number | null)[] | undefined) ?? []).filter((id): id is number => id !== null);
  const orderLines = (order.lines as Rec[] | undefined) ?? [];
  for (const id of named) {
    if (!orderLines.some((line) => line.id === id)) throw new HttpError(400, { lines: [`Line ${id} is not a line of order ${number}.`] });
    if (!live.some((fo) => fo.line_items.some((line) => line.order_line_id === id && fulfillable(line) > 0))) {
      throw new HttpError(400, { lines: [`Line ${id} of order ${number} has nothing left to fulfil.`] });
    }
  }
  const wanted = (line: { order_line_id?: number }) => named.length === 0 || named.includes(Number(line.order_line_id));
  const holding = live.filter((fo) => fo.line_items.some((line) => wanted(line) && fulfillable(line) > 0));
  if (holding.length === 0) throw new HttpError(400, { detail: `Order ${number} has nothing left to fulfil.` });
  if (holding.length > 1) {
    const where = holding.map((fo) => `${fo.id} at ${locationName(ctx.state.records, fo.location_id)}, ${String(fo.status)}`).join('; ');
    throw new HttpError(400, {
      detail: `Order ${number} has ${named.length === 0 ? 'units left' : 'these lines'} in ${holding.length} fulfillment orders (${where}): fulfil each through POST /fulfillment-orders/{id}/fulfillments/, or name lines of one of them.`,
    });
  }
  const fo = holding[0]!;
  expectAction(fo, 'create_fulfillment', 'be fulfilled');
  const units = new Map(fo.line_items.filter((line) => wanted(line) && fulfillable(line) > 0).map((line) => [line.id, fulfillable(line)]));
  const { carrier, tracking_code, tracking_link } = (ctx.body ?? {}) as Tracking;
  const tracked = [carrier, tracking_code, tracking_link].some((value) => value !== undefined && value !== null && value !== '');
  return fulfil(ctx, fo, units, tracked ? [{ carrier: carrier ?? undefined, tracking_code, tracking_link }] : []);
};

/** Carrier events as delivery statuses: the steps before the carrier has the parcel leave it as it was. */
const DELIVERY_STATUS: Partial<Record<NonNullable<FulfillmentEvent['status']>, FulfillmentResponse['delivery_status']>> = {
  carrier_picked_up: 'in_transit',
  picked_up: 'in_transit',
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  attempted_delivery: 'attempted_delivery',
  failure: 'failed_delivery',
  delivered: 'delivered',
  delayed: 'delayed',
};

function findFulfillment(ctx: RuleContext): FulfillmentRecord {
  const found = ctx.state.records.fulfillments[String(ctx.params.fulfillmentId)];
  if (!found || String(found.order_number) !== String(ctx.params.number)) throw NOT_FOUND();
  return found as FulfillmentRecord;
}

/** The fulfillment's delivery status and last event date, from its latest event; `fulfillment.updated` says so. */
function followEvents(ctx: RuleContext, fulfillment: FulfillmentRecord): void {
  const events = (Object.values(ctx.state.records.fulfillmentEvents) as (FulfillmentEvent & Rec)[])
    .filter((event) => String(event.fulfillment) === String(fulfillment.id))
    .sort((a, b) => String(a.happened_at).localeCompare(String(b.happened_at)) || Number(a.id) - Number(b.id));
  const latest = events.at(-1);
  const moved = events.map((event) => DELIVERY_STATUS[event.status!]).filter((status) => status !== undefined);
  fulfillment.delivery_status = moved.at(-1) ?? (fulfillment.tracking_carriers || fulfillment.tracking_codes ? 'tracking_added' : null);
  fulfillment.last_event_date = latest?.happened_at ?? null;
  ctx.emit('fulfillment.updated', fulfillment);
}

export const fulfillmentRules: Partial<Record<OperationId, Rule>> = {
  fulfillmentsCreate: fulfilFulfillmentOrder,
  ordersFulfillmentsCreate: fulfilOrderLines,

  ordersFulfillmentsEventsCreate: (ctx) => {
    const fulfillment = findFulfillment(ctx);
    const id = ctx.next('fulfillmentEvents');
    const event: Rec = { ...ctx.body, city: ctx.body.city ?? '', id, fulfillment: fulfillment.id, order: fulfillment.order_number, happened_at: ctx.body.happened_at ?? ctx.now, created_at: ctx.now, updated_at: ctx.now };
    complete(event, itemSchema(ctx.op, ctx.schemas.response), ctx.now);
    ctx.state.records.fulfillmentEvents[String(id)] = event;
    followEvents(ctx, fulfillment);
    return ctx.answer(event);
  },

  ordersFulfillmentsEventsDestroy: (ctx) => {
    const fulfillment = findFulfillment(ctx);
    const event = ctx.state.records.fulfillmentEvents[String(ctx.params.eventId)];
    if (!event || String(event.fulfillment) !== String(fulfillment.id)) throw NOT_FOUND();
    delete ctx.state.records.fulfillmentEvents[String(ctx.params.eventId)];
    followEvents(ctx, fulfillment);
    return undefined;
  },
};
