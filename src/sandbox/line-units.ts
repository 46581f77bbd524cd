// Where an order line's units wait to be fulfilled when the line changes outside a fulfilment:
// units added to a line wait in a fulfillment order still open to changes (a new one if there is
// none), units removed or canceled leave the fulfillment orders that hold them, those open to
// changes first. A fulfillment order left holding nothing is canceled; one whose units are all
// fulfilled is closed. Each says again what it supports.
import { runtimeSeeding } from './builders.js';
import type { RuleContext } from './engine.js';
import type { Rec } from './kinds.js';
import { buildFulfillmentOrder, fulfillmentOrderLine } from './seed/orders.js';
import type { Currency } from './seed/store-facts.js';
import { supportedActions } from './supported-actions.js';

/** Statuses in which a fulfillment order still has units to fulfil. */
const LIVE = new Set(['open', 'processing', 'on_hold', 'incomplete']);

/** Units the merchant may still change: no location has them in hand. */
export const openToChanges = (fo: Rec): boolean => (fo.status === 'open' || fo.status === 'on_hold') && fo.request_status !== 'requested';

const itemsOf = (fo: Rec) => fo.line_items as Rec[];
const fulfillable = (item: Rec) => Number(item.fulfillable_quantity ?? 0);

/** The order's fulfillment orders with units still to fulfil, those open to changes first. */
export function liveFulfillmentOrders(ctx: RuleContext, order: Rec): Rec[] {
  const live = Object.values(ctx.state.records.fulfillmentOrders).filter((fo) => String(fo.order_number) === String(order.number) && LIVE.has(String(fo.status)));
  return [...live.filter(openToChanges), ...live.filter((fo) => !openToChanges(fo))];
}

/** A fulfillment order line's money follows its order line's. */
function priced(item: Rec, line: Rec): void {
  Object.assign(item, { price_excl_tax: line.price_excl_tax, price_incl_tax: line.price_incl_tax, total_discount: line.total_discount, tax_lines: line.tax_lines });
}

function settle(ctx: RuleContext, fo: Rec): void {
  fo.line_items = itemsOf(fo).filter((item) => Number(item.quantity) > 0);
  if (itemsOf(fo).length === 0) fo.status = 'canceled';
  else if (!itemsOf(fo).some((item) => fulfillable(item) > 0)) fo.status = 'closed';
  fo.updated_at = ctx.now;
  fo.supported_actions = supportedActions(String(fo.status), String(fo.request_status));
}

/** `units` more of a shipped line wait to be fulfilled. */
export function addUnits(ctx: RuleContext, order: Rec, line: Rec, units: number): void {
  if (line.requires_shipping !== true || units <= 0) return;
  const seed = runtimeSeeding(ctx.state, ctx.nowMs);
  const open = liveFulfillmentOrders(ctx, order).filter(openToChanges);
  const holder = open.find((fo) => itemsOf(fo).some((item) => item.order_line_id === line.id)) ?? open[0];
  const fo = holder ?? buildFulfillmentOrder(seed, order, { at: ctx.now, lineIds: [Number(line.id)], status: 'open', requestStatus: 'pending' });
  const item = itemsOf(fo).find((candidate) => candidate.order_line_id === line.id);
  if (!item) itemsOf(fo).push(fulfillmentOrderLine(seed, Number(fo.id), line, order.currency as Currency, { quantity: units, fulfillable: units }));
  else if (holder) Object.assign(item, { quantity: Number(item.quantity) + units, fulfillable_quantity: String(fulfillable(item) + units) });
  else Object.assign(item, { quantity: units, fulfillable_quantity: String(units) });
  for (const each of itemsOf(fo).filter((candidate) => candidate.order_line_id === line.id)) priced(each, line);
  settle(ctx, fo);
}

/** `units` of a line not yet fulfilled leave the fulfillment orders that hold them. */
export function withdrawUnits(ctx: RuleContext, order: Rec, line: Rec, units: number): void {
  let left = units;
  for (const fo of liveFulfillmentOrders(ctx, order)) {
    const items = itemsOf(fo).filter((item) => item.order_line_id === line.id);
    if (left === 0 || items.length === 0) continue;
    for (const item of items) {
      const taken = Math.min(left, fulfillable(item));
      Object.assign(item, { quantity: Number(item.quantity) - taken, fulfillable_quantity: String(fulfillable(item) - taken) });
      priced(item, line);
      left -= taken;
    }
    settle(ctx, fo);
  }
}
