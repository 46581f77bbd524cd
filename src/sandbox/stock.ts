// Stock at a location, as the platform keeps it: a stock record counts the units on the shelf
// (`num_in_stock`) and those allocated to fulfillment orders still to be fulfilled there
// (`num_allocated`); what is left (`net_stock_level`) is what can still be sold. Units are
// allocated where a fulfillment order holds them, released when it gives them up (moved away),
// and leave both counts when shipped. A variant's `inventory_availability` and
// `purchase_availability` follow its stock records. A stock record with no count (`num_in_stock`
// null) is not tracked and never changes.
import type { Records, Rec } from './kinds.js';

export type InventoryAvailability = 'in_stock' | 'low_stock' | 'out_of_stock' | 'untracked';
export type PurchaseAvailability = 'available' | 'unavailable';

/** What is in stock and not promised to a fulfillment order yet. */
export function netStockLevel(stockrecord: Rec): number {
  return Number(stockrecord.num_in_stock ?? 0) - Number(stockrecord.num_allocated ?? 0);
}

/** The stock record of a variant at a location, if the location stocks it. */
export function stockRecordAt(records: Records, variantId: unknown, locationId: unknown): Rec | undefined {
  return Object.values(records.stockrecords).find((sr) => String(sr.variant_id) === String(variantId) && String(sr.location_id) === String(locationId));
}

export function stockRecordsOf(records: Records, variantId: unknown): Rec[] {
  return Object.values(records.stockrecords).filter((sr) => String(sr.variant_id) === String(variantId));
}

/**
 * Availability of a variant over some of its stock records (one location's, or all of them):
 * untracked when the variant does not track stock or no record counts it; out of stock with
 * nothing left to sell, low below a record's threshold; purchasable while anything is left or
 * backorders are allowed.
 */
export function availability(records: Records, variantId: unknown, stockrecords: readonly Rec[]): { inventory: InventoryAvailability; purchase: PurchaseAvailability } {
  const variant = records.variants[String(variantId)];
  const counted = stockrecords.filter((sr) => sr.num_in_stock != null);
  if (variant?.track_stock === false || counted.length === 0) return { inventory: 'untracked', purchase: 'available' };
  const net = counted.reduce((sum, sr) => sum + netStockLevel(sr), 0);
  const threshold = Math.max(...counted.map((sr) => Number(sr.low_stock_threshold ?? 0)));
  const inventory: InventoryAvailability = net <= 0 ? 'out_of_stock' : net < threshold ? 'low_stock' : 'in_stock';
  return { inventory, purchase: net > 0 || variant?.allow_backorders === true ? 'available' : 'unavailable' };
}

/** The variant's availability after its stock changed. */
function availabilityFollows(records: Records, variantId: unknown): void {
  const variant = records.variants[String(variantId)];
  if (!variant) return;
  const { inventory, purchase } = availability(records, variantId, stockRecordsOf(records, variantId));
  variant.inventory_availability = inventory;
  variant.purchase_availability = purchase;
}

/** Changes a tracked stock record's counts by the given units, and the variant's availability with them. */
function count(records: Records, stockrecordId: unknown, change: { allocated?: number; inStock?: number }, now: string): void {
  const stockrecord = records.stockrecords[String(stockrecordId)];
  if (!stockrecord || stockrecord.num_in_stock == null) return;
  // Never below nothing, whatever was allocated before the sandbox counted.
  stockrecord.num_allocated = Math.max(0, Number(stockrecord.num_allocated ?? 0) + (change.allocated ?? 0));
  stockrecord.num_in_stock = Number(stockrecord.num_in_stock) + (change.inStock ?? 0);
  stockrecord.date_updated = now;
  availabilityFollows(records, stockrecord.variant_id);
}

/** Units a fulfillment order now holds at the stock record's location. */
export function allocate(records: Records, stockrecordId: unknown, units: number, now: string): void {
  count(records, stockrecordId, { allocated: units }, now);
}

/** Units a fulfillment order gave up there. */
export function release(records: Records, stockrecordId: unknown, units: number, now: string): void {
  count(records, stockrecordId, { allocated: -units }, now);
}

/** Shipped units leave the shelf and their allocation. */
export function ship(records: Records, stockrecordId: unknown, units: number, now: string): void {
  count(records, stockrecordId, { allocated: -units, inStock: -units }, now);
}

/** A stock record's count was changed from outside (a stock take, a new record): its variant follows. */
export function restocked(records: Records, stockrecord: Rec): void {
  availabilityFollows(records, stockrecord.variant_id);
}
