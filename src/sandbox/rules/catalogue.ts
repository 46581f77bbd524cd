// The catalogue: a product's categories kept as links and its page named by the store; a
// variant's prices and stock, sent with it, kept as the store keeps them (a price per currency, a
// stock record per location), so its answers and the other lists show them.
import type { OperationId } from '../../api/operations.js';
import type { Rule, RuleContext } from '../engine.js';
import { HttpError } from '../http-error.js';
import type { Rec } from '../kinds.js';
import { slugOf } from '../seed/catalogue.js';
import { STORE } from '../seed/store-facts.js';

/** A product's categories, as the request names them, are kept as links. */
const categorized: Rule = (ctx) => {
  if (ctx.body?.categories !== undefined) {
    const { categories, ...rest } = ctx.body as { categories: number[] };
    const unknown = categories.find((id) => !ctx.state.records.categories[String(id)]);
    if (unknown !== undefined) throw new HttpError(400, { categories: [`Invalid pk "${unknown}" - object does not exist.`] });
    ctx.body = { ...rest, category_ids: categories };
  }
  return ctx.generic();
};

interface PriceIn {
  currency?: string;
  price: string;
  retail?: string | null;
  subscription?: string | null;
  subscription_suggested_downsell?: string | null;
}

interface StockIn {
  location_id: number;
  low_stock_threshold?: number;
  num_in_stock?: number | null;
}

function keepPricesAndStock(ctx: RuleContext, variantId: number, prices: readonly PriceIn[] = [], stock: readonly StockIn[] = []): void {
  const { records } = ctx.state;
  const refused = stock.findIndex((level) => !records.locations[String(level.location_id)]);
  if (refused >= 0) throw new HttpError(400, { stockrecords: stock.map((level, at) => (at === refused ? { location_id: [`Invalid pk "${level.location_id}" - object does not exist.`] } : {})) });
  for (const price of prices) {
    const currency = String(price.currency ?? STORE.currencies[0]).toUpperCase();
    records.productPrices[`${variantId}/${currency}`] = {
      product_id: variantId,
      currency,
      price: price.price,
      retail: price.retail ?? null,
      subscription: price.subscription ?? null,
      subscription_suggested_downsell: price.subscription_suggested_downsell ?? null,
    };
  }
  for (const level of stock) {
    const kept = Object.values(records.stockrecords).find((record) => record.variant_id === variantId && record.location_id === level.location_id);
    const counted = { low_stock_threshold: level.low_stock_threshold ?? kept?.low_stock_threshold ?? 0, num_in_stock: level.num_in_stock ?? kept?.num_in_stock ?? 0, date_updated: ctx.now };
    if (kept) Object.assign(kept, counted);
    else {
      const id = ctx.next('stockrecords');
      records.stockrecords[String(id)] = { id, variant_id: variantId, location_id: level.location_id, date_created: ctx.now, num_allocated: 0, ...counted };
    }
  }
}

/** A variant made or changed: the generic record, then its prices and stock where sent. */
const withPricesAndStock: Rule = (ctx) => {
  const { prices, stockrecords, ...rest } = (ctx.body ?? {}) as { prices?: PriceIn[]; stockrecords?: StockIn[] };
  ctx.body = rest;
  const answered = ctx.generic() as Rec;
  if (prices === undefined && stockrecords === undefined) return answered;
  const id = ctx.op.method === 'POST' ? Number(answered.id) : Number(ctx.params.id);
  keepPricesAndStock(ctx, id, prices, stockrecords);
  return ctx.answer(ctx.state.records.variants[String(id)]!);
};

export const catalogueRules: Partial<Record<OperationId, Rule>> = {
  productsUpdate: categorized,
  productsPartialUpdate: categorized,
  // The store names a new product's page after its title.
  productsCreate: (ctx) => {
    const taken = new Set(Object.values(ctx.state.records.products).map((product) => product.slug));
    let slug = slugOf(String(ctx.body.title ?? '')) || 'product';
    for (let n = 2; taken.has(slug); n++) slug = `${slugOf(String(ctx.body.title ?? '')) || 'product'}-${n}`;
    // Standalone until it has variants of its own.
    ctx.body = { ...ctx.body, slug, url: `${STORE.url}/products/${slug}`, structure: 'standalone' };
    return categorized(ctx);
  },
  productsVariantCreate: withPricesAndStock,
  productsChildrenCreate: withPricesAndStock,
  productsVariantsUpdate: withPricesAndStock,
  productsVariantsPartialUpdate: withPricesAndStock,
  productsChildrenUpdate: withPricesAndStock,
  productsChildrenPartialUpdate: withPricesAndStock,
};
