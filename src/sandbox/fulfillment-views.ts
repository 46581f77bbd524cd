// What fulfillment orders and stock records answer without keeping it: a fulfillment order's
// location, the older version's line prices before discount, a stock record's location, variant
// and net level, a variant's stock records.
import type { Records, Rec } from './kinds.js';
import { fromCents, toCents } from './money.js';
import type { Derivations } from './render.js';
import { netStockLevel, stockRecordsOf } from './stock.js';

type Stores = { records: Records };

/** The variant a stock record counts, as a stock record names it (`product`, in the platform's words). */
function stockedProduct(stockrecord: Rec, { records }: Stores): Rec | undefined {
  const variant = records.variants[String(stockrecord.variant_id)];
  if (!variant) return undefined;
  const product = records.products[String(variant.product_id)];
  const title = String(variant.title ?? product?.title ?? '');
  return { id: Number(variant.product_id ?? variant.id), sku: String(variant.sku ?? ''), variant_id: variant.id, variant_title: title, title: String(product?.title ?? title), name: String(product?.title ?? title) };
}

/** A line's price before its discount, as the 2023-02-10 version still answers it. */
const beforeDiscount =
  (price: 'price_excl_tax' | 'price_incl_tax') =>
  (line: Rec): string =>
    fromCents(toCents(line[price]) + toCents(line.total_discount));

/** The older version's line fields, derived the same way for a fulfillment order's lines and a fulfillment's. */
const olderLineFields = {
  price_excl_tax_excl_discounts: beforeDiscount('price_excl_tax'),
  price_incl_tax_excl_discounts: beforeDiscount('price_incl_tax'),
};

/** Whether the order line a fulfilled line ships is a gift card. */
function isGiftCard(line: Rec, { records }: Stores): boolean {
  for (const order of Object.values(records.orders)) {
    const found = ((order.lines as Rec[] | undefined) ?? []).find((candidate) => candidate.id === line.order_line_id);
    if (found) return found.is_gift_card === true;
  }
  return false;
}

export const fulfillmentDerivations: Derivations<Stores> = {
  FulfillmentOrderLine: olderLineFields,
  FulfillmentLineResponse: { ...olderLineFields, is_gift_card: isGiftCard },
  FulfillmentOrder: {
    assigned_location: (fo, { records }) => records.locations[String(fo.location_id)],
  },
  StockRecord: {
    location: (stockrecord, { records }) => records.locations[String(stockrecord.location_id)],
    product: stockedProduct,
    net_stock_level: (stockrecord) => netStockLevel(stockrecord),
    sku: (stockrecord, stores) => stockedProduct(stockrecord, stores)?.sku,
  },
  ProductVariant: {
    stockrecords: (variant, { records }) => stockRecordsOf(records, variant.id),
  },
};
