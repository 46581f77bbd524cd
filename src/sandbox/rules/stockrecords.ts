// Stock records: a variant's stock at one location. The body names the variant as `product` (the
// platform's word for a variant); the store keeps it as `variant_id`. One record per variant and
// location; what is allocated and the net level are read from the fulfillment orders (stock.ts).
import type { OperationId } from '../../api/operations.js';
import { NOT_FOUND } from '../collections.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { restocked, stockRecordAt } from '../stock.js';

const invalidPk = (field: string, value: unknown) => new HttpError(400, { [field]: [`Invalid pk "${String(value)}" - object does not exist.`] });

/** The body's fields as the record keeps them, its links checked first (one record per variant and location); the variant follows. */
function applyBody(ctx: RuleContext, record: Rec): Rec {
  const { records } = ctx.state;
  const { product, location_id: locationId, num_in_stock: inStock, low_stock_threshold: threshold } = (ctx.body ?? {}) as Record<string, number | undefined>;
  if (product !== undefined && !records.variants[String(product)]) throw invalidPk('product', product);
  if (locationId !== undefined && !records.locations[String(locationId)]) throw invalidPk('location_id', locationId);
  const variantId = product ?? record.variant_id;
  const location = locationId ?? record.location_id;
  const existing = stockRecordAt(records, variantId, location);
  if (existing && existing !== record) {
    throw new HttpError(400, { non_field_errors: [`Variant ${String(variantId)} already has stock record ${String(existing.id)} at location ${String(location)}; change that one instead.`] });
  }
  Object.assign(record, { variant_id: variantId, location_id: location, date_updated: ctx.now });
  if (inStock !== undefined) record.num_in_stock = inStock;
  if (threshold !== undefined) record.low_stock_threshold = threshold;
  records.stockrecords[String(record.id)] = record;
  restocked(records, record);
  return record;
}

export const stockRecordRules: Partial<Record<OperationId, Rule>> = {
  stockrecordsCreate: (ctx) => {
    const record = applyBody(ctx, { id: ctx.next('stockrecords'), num_in_stock: 0, num_allocated: 0, low_stock_threshold: 0, date_created: ctx.now });
    return ctx.answer(record);
  },
  stockrecordsPartialUpdate: (ctx) => {
    const record = ctx.state.records.stockrecords[String(ctx.params.id)];
    if (!record) throw NOT_FOUND();
    return ctx.answer(applyBody(ctx, record));
  },
};
