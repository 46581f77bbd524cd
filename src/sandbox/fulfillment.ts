// Fulfillment orders and what follows from them. A fulfillment order holds the units of an
// order's lines to be fulfilled from one location; a fulfilment takes units out of it (closing it
// when nothing is left) and off the shelf; splits, moves and cancellations make new ones. The
// order's `fulfillment_status` and its lines' `fulfillable_quantity` and `editable_quantity` are
// read back from its fulfillment orders after every such change.
import type { FulfillmentOrder, FulfillmentOrderLine, Order, OrderLine } from '../api/generated/types.js';
import { NOT_FOUND } from './collections.js';
import type { RuleContext } from './engine.js';
import { HttpError } from './http-error.js';
import type { Rec, Records } from './kinds.js';
import { availability, netStockLevel, stockRecordAt } from './stock.js';
import { refusal, supportedActions, type FulfillmentOrderAction } from './supported-actions.js';

export type FoLine = FulfillmentOrderLine & Rec & { id: number; order_line_id: number };
export type FoRecord = Omit<FulfillmentOrder, 'line_items' | 'id'> & Rec & { id: number; location_id: number; line_items: FoLine[] };

/** Statuses in which a fulfillment order still has work for its location. */
const LIVE = new Set(['open', 'processing', 'on_hold', 'incomplete']);
/** Request states in which a location has the fulfillment order in hand (requested or accepted). */
const IN_HAND = new Set(['requested', 'accepted', 'cancel_requested', 'cancel_rejected']);

export function findFulfillmentOrder(ctx: RuleContext, id: unknown = ctx.params.id): FoRecord {
  const found = ctx.state.records.fulfillmentOrders[String(id)];
  if (!found) throw NOT_FOUND();
  return found as FoRecord;
}

/** Refuses, in the platform's form, an action the fulfillment order's state does not support. */
export function expectAction(fo: FoRecord, action: FulfillmentOrderAction, doing: string): void {
  const supported = supportedActions(String(fo.status), String(fo.request_status)) ?? [];
  if (!supported.includes(action)) throw new HttpError(400, { detail: refusal(fo, doing) });
}

export const fulfillable = (line: FulfillmentOrderLine): number => Number(line.fulfillable_quantity ?? 0);

export function fulfillmentOrdersOf(records: Records, orderNumber: unknown): FoRecord[] {
  return (Object.values(records.fulfillmentOrders) as FoRecord[]).filter((fo) => String(fo.order_number) === String(orderNumber));
}

export function locationName(records: Records, locationId: unknown): string {
  const location = records.locations[String(locationId)];
  return typeof location?.name === 'string' && location.name ? location.name : `location ${String(locationId)}`;
}

/**
 * After a change: lines emptied by a split or a move leave the fulfillment order; with nothing
 * left to fulfil it is closed (its request, if it had one, with it); it is dated, and says again
 * what it supports now.
 */
export function touch(ctx: RuleContext, fo: FoRecord): void {
  fo.line_items = fo.line_items.filter((line) => Number(line.quantity ?? 0) > 0);
  if (LIVE.has(String(fo.status)) && !fo.line_items.some((line) => fulfillable(line) > 0)) {
    fo.status = 'closed';
    if (IN_HAND.has(String(fo.request_status))) fo.request_status = 'closed';
  }
  fo.updated_at = ctx.now;
  fo.supported_actions = supportedActions(String(fo.status), String(fo.request_status));
}

/**
 * Takes `units` (fulfillment order line id → units) out of `fo` into a new fulfillment order in
 * the same state, which `changes` then adjusts (another location, another request status). The
 * new one starts without holds or requests of its own.
 */
export function splitOff(ctx: RuleContext, fo: FoRecord, units: ReadonlyMap<number, number>, changes: Partial<FoRecord>): FoRecord {
  const id = ctx.next('fulfillmentOrders');
  const split: FoRecord = {
    ...structuredClone(fo),
    id,
    created_at: ctx.now,
    updated_at: ctx.now,
    fulfillment_holds: [],
    merchant_requests: [],
    line_items: [],
    ...changes,
  };
  for (const line of fo.line_items) {
    const taken = units.get(line.id) ?? 0;
    if (taken <= 0) continue;
    split.line_items.push({ ...structuredClone(line), id: ctx.next('fulfillmentOrderLines'), fulfillment_order_id: id, quantity: taken, fulfillable_quantity: String(taken) });
    line.quantity = Number(line.quantity ?? 0) - taken;
    line.fulfillable_quantity = String(fulfillable(line) - taken);
  }
  ctx.state.records.fulfillmentOrders[String(id)] = split;
  touch(ctx, fo);
  touch(ctx, split);
  return split;
}

/** Every fulfillable unit of the fulfillment order, by line id. */
export function everythingLeft(fo: FoRecord): Map<number, number> {
  return new Map(fo.line_items.filter((line) => fulfillable(line) > 0).map((line) => [line.id, fulfillable(line)]));
}

/**
 * The units named in a request (`[{id, quantity}]`, all that is left when none are named),
 * checked against the fulfillment order: errors keyed by the body field that named them.
 */
export function unitsNamed(fo: FoRecord, named: readonly { id: number; quantity?: number }[] | undefined, field: string): Map<number, number> {
  if (!named || named.length === 0) return everythingLeft(fo);
  const units = new Map<number, number>();
  const refuse = (message: string) => new HttpError(400, { [field]: [message] });
  for (const { id, quantity } of named) {
    const line = fo.line_items.find((candidate) => candidate.id === id);
    if (!line) throw refuse(`Line ${id} is not a line of fulfillment order ${fo.id}; its lines are ${fo.line_items.map((l) => l.id).join(', ')}.`);
    if (units.has(id)) throw refuse(`Line ${id} is named twice.`);
    const left = fulfillable(line);
    if (left === 0) throw refuse(`Line ${id} has nothing left to fulfil.`);
    if ((quantity ?? left) > left) throw refuse(`Line ${id} has ${left} unit${left === 1 ? '' : 's'} left to fulfil; ${quantity} were asked for.`);
    units.set(id, quantity ?? left);
  }
  return units;
}

/** The variant a fulfillment order line ships: the one its stock record counts. */
export function variantOf(records: Records, line: FoLine): unknown {
  return records.stockrecords[String(line.stockrecord_id)]?.variant_id;
}

export interface AvailableLocation {
  id: number;
  name: string;
  fulfillment_order_line_ids: number[];
}

/**
 * The other locations that could fulfil lines of the fulfillment order: those with a stock record
 * of the line's variant and, where stock is tracked and no backorders are allowed, enough units
 * not promised elsewhere. Each with the lines it could take, by location id.
 */
export function availableLocations(records: Records, fo: FoRecord): Map<string, AvailableLocation> {
  const found = new Map<string, AvailableLocation>();
  for (const location of Object.values(records.locations)) {
    if (String(location.id) === String(fo.location_id)) continue;
    const lines = fo.line_items.filter((line) => fulfillable(line) > 0 && canStock(records, line, location.id));
    if (lines.length > 0) found.set(String(location.id), { id: Number(location.id), name: locationName(records, location.id), fulfillment_order_line_ids: lines.map((line) => line.id) });
  }
  return found;
}

function canStock(records: Records, line: FoLine, locationId: unknown): boolean {
  const variant = variantOf(records, line);
  const stockrecord = stockRecordAt(records, variant, locationId);
  if (!stockrecord) return false;
  if (availability(records, variant, [stockrecord]).inventory === 'untracked' || records.variants[String(variant)]?.allow_backorders === true) return true;
  return netStockLevel(stockrecord) >= fulfillable(line);
}

type OrderRecord = Order & Rec;

/**
 * The order's fulfilment state, read from its fulfillment orders: each line's units still to
 * fulfil, those still editable (not fulfilled and not in a location's hands), and the order's
 * `fulfillment_status` (and whether any of it has shipped). Emits `order.updated` when anything
 * changed, or when `changed` says the order changed otherwise (a fulfilment added to it).
 */
export function orderFollows(ctx: RuleContext, orderNumber: unknown, changed = false): void {
  const order = ctx.state.records.orders[String(orderNumber)] as OrderRecord | undefined;
  if (!order) return;
  const fos = fulfillmentOrdersOf(ctx.state.records, orderNumber).filter((fo) => fo.status !== 'canceled');
  const before = JSON.stringify([order.fulfillment_status, order.lines]);
  for (const line of order.lines ?? []) followLine(line, fos);
  const shipped = Object.values(ctx.state.records.fulfillments).some((f) => String(f.order_number) === String(orderNumber) && f.status !== 'canceled');
  order.fulfillment_status = fulfillmentStatus(fos, shipped) ?? order.fulfillment_status;
  if (!changed && JSON.stringify([order.fulfillment_status, order.lines]) === before) return;
  order.updated_at = ctx.now;
  ctx.emit('order.updated', order);
}

function followLine(line: OrderLine, fos: readonly FoRecord[]): void {
  const held = fos.flatMap((fo) => fo.line_items.filter((item) => item.order_line_id === line.id).map((item) => ({ fo, item })));
  // A line no fulfillment order holds (one that needs no shipping) keeps its own counts.
  if (held.length === 0) return;
  line.fulfillable_quantity = held.reduce((sum, { fo, item }) => sum + (LIVE.has(String(fo.status)) ? fulfillable(item) : 0), 0);
  line.editable_quantity = held.reduce((sum, { fo, item }) => sum + (editable(fo) ? fulfillable(item) : 0), 0);
}

/** Units are editable while no location has them in hand. */
function editable(fo: FoRecord): boolean {
  return (fo.status === 'open' || fo.status === 'on_hold') && fo.request_status !== 'requested';
}

/**
 * The order's `fulfillment_status` from its fulfillment orders (canceled ones left out): what
 * needs the merchant first. The platform has no "partly fulfilled": an order whose fulfilment has
 * begun but not ended is `processing`, as it is while a location works on it.
 */
function fulfillmentStatus(fos: readonly FoRecord[], shipped: boolean): Order['fulfillment_status'] | undefined {
  if (fos.length === 0) return undefined;
  const has = (status: string) => fos.some((fo) => fo.status === status);
  if (fos.every((fo) => fo.status === 'not_required')) return 'not_required';
  if (fos.every((fo) => fo.status === 'closed' || fo.status === 'not_required')) return 'fulfilled';
  if (has('processing')) return 'processing';
  if (has('incomplete')) return 'incomplete';
  if (has('on_hold')) return 'on_hold';
  if (fos.some((fo) => fo.status === 'open' && fo.request_status === 'rejected')) return 'rejected';
  if (shipped) return 'processing';
  return 'unfulfilled';
}
