// What a stored record does not keep but its answers show (render.ts): the joins (an order's
// `user`, `fulfillments` and `transactions`, a product's `variants`, a user's counts, …) and the
// fields only an older version has (a 2023-02-10 order line's `product` and `stockrecord`, a
// product's `children`, a cart's `total_tax`, …), by the reference's component name. Every answer
// and every event of one version derives a field the same way, so an object looks the same
// wherever it appears. The records' own shape is described where they are built (seed/).
import type * as z from 'zod/mini';
import { componentName } from '../api/generated/components.js';
import type { GeneratedId } from '../api/generated/index.js';
import { API_PREFIX } from '../api/url.js';
import { beforeDiscount } from './amounts.js';
import type { KindName, Rec, Records } from './kinds.js';
import { fromCents, sumCents, toCents } from './money.js';
import { refundableCents } from './payments.js';
import type { Derivations } from './render.js';
import { slugOf } from './seed/catalogue.js';

export interface ViewContext {
  records: Records;
  /** The API version answered. */
  version: string;
  /** The sandbox's own address (an export's `url` points at it). */
  origin: string;
}

// A context lives for one answer or event, while the records stand still: what is looked up by
// link is indexed once per context.
const indexes = new WeakMap<ViewContext, Map<string, Map<string, Rec[]>>>();

/** The records of `kind` whose `field` is `value`, in key order. */
function linked(ctx: ViewContext, kind: KindName, field: string, value: unknown): Rec[] {
  let byKind = indexes.get(ctx);
  if (!byKind) indexes.set(ctx, (byKind = new Map()));
  const name = `${kind}.${field}`;
  let index = byKind.get(name);
  if (!index) {
    byKind.set(name, (index = new Map()));
    for (const record of Object.values(ctx.records[kind])) {
      const key = String(record[field]);
      const list = index.get(key);
      if (list) list.push(record);
      else index.set(key, [record]);
    }
  }
  return index.get(String(value)) ?? [];
}

const one = (ctx: ViewContext, kind: KindName, key: unknown): Rec | undefined => (key === null || key === undefined ? undefined : ctx.records[kind][String(key)]);

/** The subscription a subscription line belongs to (lines keep no link of their own). */
function subscriptionOfLine(ctx: ViewContext, lineId: unknown): Rec | undefined {
  let byLine = lineOwners.get(ctx);
  if (!byLine) {
    lineOwners.set(ctx, (byLine = new Map()));
    for (const subscription of Object.values(ctx.records.subscriptions)) for (const line of subscription.lines as Rec[]) byLine.set(String(line.id), subscription);
  }
  return byLine.get(String(lineId));
}
const lineOwners = new WeakMap<ViewContext, Map<string, Rec>>();

/** A variant's title: its attribute values in the product's order (`Forest Green / M`). */
const variantTitle = (variant: Rec) => ((variant.variant_attribute_values ?? []) as Rec[]).map((v) => String(v.value)).join(' / ');
const variantOf = (ctx: ViewContext, record: Rec) => one(ctx, 'variants', record.variant_id);
const productOf = (ctx: ViewContext, record: Rec) => one(ctx, 'products', record.product_id);
const priceOf = (ctx: ViewContext, variantId: unknown, currency: unknown) => one(ctx, 'productPrices', `${String(variantId)}/${String(currency)}`);
/** A variant's first stock record: where a line that names no location takes its stock from. */
const stockOf = (ctx: ViewContext, variantId: unknown) => linked(ctx, 'stockrecords', 'variant_id', variantId)[0];

/** A product as a 2023-02-10 line shows it (`Product `): the product, with the line's variant's UPC. */
function lineProduct(ctx: ViewContext, line: Rec): Rec | undefined {
  const product = productOf(ctx, line);
  return product && { ...product, upc: variantOf(ctx, line)?.upc ?? null };
}

/** A stock record as a 2023-02-10 line shows it (`Stockrecord`): with the variant's SKU and its price in `currency`. */
function lineStockrecord(ctx: ViewContext, line: Rec, currency: unknown): Rec | undefined {
  const stock = stockOf(ctx, line.variant_id);
  if (!stock) return undefined;
  const price = priceOf(ctx, line.variant_id, currency);
  return { ...stock, partner_sku: variantOf(ctx, line)?.sku ?? null, price: price?.price ?? null, price_currency: price ? currency : null, price_retail: price?.retail ?? null };
}

const withoutDiscount = {
  price_excl_tax_excl_discounts: (line: Rec) => beforeDiscount(line.price_excl_tax, line.price_incl_tax, line.total_discount).excl,
  price_incl_tax_excl_discounts: (line: Rec) => beforeDiscount(line.price_excl_tax, line.price_incl_tax, line.total_discount).incl,
};

/** An order line at 2023-02-10 (in an order, `OrderLineDetail`; in a list, `OrderLine`). */
const olderOrderLine: Derivations<ViewContext>[string] = {
  product: (line, ctx) => lineProduct(ctx, line),
  stockrecord: (line, ctx) => lineStockrecord(ctx, line, line.currency),
  price_currency: (line) => line.currency,
  ...withoutDiscount,
};

const order: Derivations<ViewContext>[string] = {
  fulfillments: (record, ctx) => linked(ctx, 'fulfillments', 'order_number', record.number),
  transactions: (record, ctx) => linked(ctx, 'transactions', 'order', record.number),
};

const transaction: Derivations<ViewContext>[string] = {
  // Nobody on the staff made it: the customer did.
  initiator: (record, ctx) => one(ctx, 'users', record.user_id),
  attribution: (record, ctx) => (one(ctx, 'orders', record.order) ?? one(ctx, 'subscriptions', record.subscription_id))?.attribution,
  // The reference requires the object: a charge outside any subscription answers id 0, no cycle.
  subscription: (record) => ({ id: record.subscription_id ?? 0, billing_cycle: record.billing_cycle ?? null }),
  amount_available_for_refund: (record, ctx) => fromCents(refundableCents(record, linked(ctx, 'transactions', 'parent_id', record.id))),
};

const subscription: Derivations<ViewContext>[string] = {
  num_lines: (record) => (record.lines as Rec[]).length,
  num_orders: (record, ctx) => subscriptionOrders(ctx, record).length,
  orders: (record, ctx) => subscriptionOrders(ctx, record),
  is_tax_known: () => true,
};

/** A subscription's orders, first cycle first, as `{billing_cycle, order_number}`. */
function subscriptionOrders(ctx: ViewContext, record: Rec): Rec[] {
  let byId = orderCycles.get(ctx);
  if (!byId) {
    orderCycles.set(ctx, (byId = new Map()));
    for (const order of Object.values(ctx.records.orders)) {
      for (const link of (order.subscriptions ?? []) as Rec[]) {
        const list = byId.get(String(link.id)) ?? byId.set(String(link.id), []).get(String(link.id))!;
        list.push({ billing_cycle: link.billing_cycle, order_number: order.number });
      }
    }
    for (const list of byId.values()) list.sort((a, b) => Number(a.billing_cycle) - Number(b.billing_cycle));
  }
  return byId.get(String(record.id)) ?? [];
}
const orderCycles = new WeakMap<ViewContext, Map<string, Rec[]>>();

const product: Derivations<ViewContext>[string] = {
  categories: (record, ctx) => ((record.category_ids ?? []) as number[]).map((id) => one(ctx, 'categories', id)).filter(Boolean),
  images: (record, ctx) => linked(ctx, 'productImages', 'product_id', record.id),
  variants: (record, ctx) => linked(ctx, 'variants', 'product_id', record.id),
  children: (record, ctx) => linked(ctx, 'variants', 'product_id', record.id),
};

/** The store's own currency: the one a variant's cost and stock are priced in when nothing else says. */
const storeCurrency = (ctx: ViewContext) => ((Object.values(ctx.records.store)[0]?.available_currencies as Rec[] | undefined)?.[0]?.code as string | undefined) ?? 'USD';

export const derivations: Derivations<ViewContext> = {
  '*': {
    user: (record, ctx) => one(ctx, 'users', record.user_id),
  },
  Order: order,
  UserOrderInline: order,
  OrderLine: olderOrderLine,
  OrderLineDetail: olderOrderLine,
  'Product ': {
    categories: product.categories!,
    images: product.images!,
    upc: (record, ctx) => linked(ctx, 'variants', 'product_id', record.id)[0]?.upc ?? null,
  },
  Refund: {
    transactions: (record, ctx) => linked(ctx, 'transactions', 'refund_id', record.id),
  },
  Fulfillment: {
    carrier: (record) => record.tracking_carrier,
    date_created: (record) => record.created_at,
    // The older shape always has a date: the parcel's own when nothing was scanned yet.
    last_event_date: (record) => record.last_event_date ?? record.created_at,
    lines: (record) => (record.line_items as Rec[]).map((item) => `${String(item.quantity)} × ${String(item.product_title)}`).join('; '),
  },
  FulfillmentLineResponse: {
    is_gift_card: (item) => item.sku === '',
    ...withoutDiscount,
  },
  FulfillmentOrder: {
    assigned_location: (record, ctx) => one(ctx, 'locations', record.location_id),
  },
  FulfillmentOrderLine: withoutDiscount,
  User: {
    addresses: (record, ctx) => linked(ctx, 'addresses', 'user_id', record.id),
    orders_count: (record, ctx) => linked(ctx, 'orders', 'user_id', record.id).length,
    subscriptions_count: (record, ctx) => linked(ctx, 'subscriptions', 'user_id', record.id).length,
    total_spent: (record, ctx) => {
      const paid = linked(ctx, 'transactions', 'user_id', record.id).filter((t) => t.status === 'succeeded');
      return fromCents(sumCents(paid.filter((t) => t.type === 'debit').map((t) => t.amount)) - sumCents(paid.filter((t) => t.type === 'refund').map((t) => t.amount)));
    },
  },
  Transaction: transaction,
  TransactionList: transaction,
  SubscriptionTransaction: transaction,
  SubscriptionDetail: subscription,
  Subscription: subscription,
  SubscriptionLine: {
    product: (line, ctx) => lineProduct(ctx, line),
    stockrecord: (line, ctx) => lineStockrecord(ctx, line, subscriptionOfLine(ctx, line.id)?.currency),
  },
  Product: product,
  ProductList: product,
  ProductVariant: {
    images: (record, ctx) => (linked(ctx, 'productImages', 'product_id', record.product_id)[0]?.src as string | null | undefined) ?? '',
    prices: (record, ctx) => linked(ctx, 'productPrices', 'product_id', record.id),
    stockrecords: (record, ctx) => linked(ctx, 'stockrecords', 'variant_id', record.id),
    title: (record) => variantTitle(record),
    // What it sells for in the store's own currency; nothing yet for one not priced in it.
    unit_cost: (record, ctx) => priceOf(ctx, record.id, storeCurrency(ctx))?.price ?? '0.00',
    structure: (record, ctx) => (linked(ctx, 'variants', 'product_id', record.product_id).length > 1 ? 'child' : 'standalone'),
  },
  // Sent as a name and a value; its code is the name's, as the catalogue's attributes have them.
  ProductVariantAttributeValue: {
    code: (value) => slugOf(String(value.name ?? '')).replace(/-/g, '_'),
  },
  StockrecordLocation: {
    sku: (record, ctx) => variantOf(ctx, record)?.sku ?? '',
    price: (record, ctx) => priceOf(ctx, record.variant_id, storeCurrency(ctx))?.price ?? null,
    price_currency: (record, ctx) => (priceOf(ctx, record.variant_id, storeCurrency(ctx)) ? storeCurrency(ctx) : null),
    price_retail: (record, ctx) => priceOf(ctx, record.variant_id, storeCurrency(ctx))?.retail ?? null,
  },
  StockRecord: {
    location: (record, ctx) => one(ctx, 'locations', record.location_id),
    net_stock_level: (record) => Number(record.num_in_stock ?? 0) - Number(record.num_allocated ?? 0),
    sku: (record, ctx) => variantOf(ctx, record)?.sku ?? '',
    product: (record, ctx) => {
      const variant = variantOf(ctx, record);
      const parent = variant && productOf(ctx, variant);
      return variant && { id: variant.product_id, variant_id: variant.id, sku: variant.sku ?? '', variant_title: variantTitle(variant), title: parent?.title, name: parent?.title };
    },
  },
  Cart: {
    date_created: (record) => record.created_at,
  },
  CartDetail: {
    date_created: (record) => record.created_at,
    is_tax_known: () => true,
    total_tax: (record) => fromCents(toCents(record.total_incl_tax) - toCents(record.total_excl_tax)),
    total_excl_tax_excl_discounts: (record) => beforeDiscount(record.total_excl_tax, record.total_incl_tax, record.total_discount).excl,
    total_incl_tax_excl_discounts: (record) => beforeDiscount(record.total_excl_tax, record.total_incl_tax, record.total_discount).incl,
  },
  CartLine: {
    attributes: (line, ctx) => ((variantOf(ctx, line)?.variant_attribute_values ?? []) as Rec[]).map((v) => ({ option: v.name, value: v.value })),
    price_currency: (line) => line.currency,
    product: (line, ctx) => lineProduct(ctx, line),
    stockrecord: (line, ctx) => lineStockrecord(ctx, line, line.currency),
  },
  Export: {
    url: (record, ctx) => `${ctx.origin}${API_PREFIX}/exports/${String(record.id)}/`,
  },
  PaymentGatewayGroup: {
    name: (record, ctx) => one(ctx, 'gatewayGroups', record.id)?.name,
  },
};

/** Whether an answer in `schema`'s shape derives `field` (a new record leaves it to the view: a user's counts, a product's variants). */
export function isDerived(schema: z.ZodMiniType, field: string): boolean {
  const own = derivations[componentName.get(schema) ?? ''];
  return Boolean(own && Object.hasOwn(own, field)) || Object.hasOwn(derivations['*']!, field);
}

/** What a webhook event's `data` carries: a record of `kind` as `operation` answers it at the webhook's version. */
export interface EventData {
  kind: KindName;
  operation: GeneratedId;
  /** Only the record's key (`product.deleted` carries `{id}`). */
  keyOnly?: true;
}

export const EVENT_DATA: Record<string, EventData> = {
  'app.uninstalled': { kind: 'apps', operation: 'appsRetrieve' },
  'cart.abandoned': { kind: 'carts', operation: 'cartsRetrieve' },
  'customer.created': { kind: 'users', operation: 'usersRetrieve' },
  'customer.updated': { kind: 'users', operation: 'usersRetrieve' },
  'dispute.created': { kind: 'disputes', operation: 'disputesRetrieve' },
  'dispute.updated': { kind: 'disputes', operation: 'disputesRetrieve' },
  'export.created': { kind: 'exports', operation: 'exportsRetrieve' },
  'fulfillment.created': { kind: 'fulfillments', operation: 'ordersFulfillmentRetrieve' },
  'fulfillment.updated': { kind: 'fulfillments', operation: 'ordersFulfillmentRetrieve' },
  'gateway.created': { kind: 'gateways', operation: 'gatewaysRetrieve' },
  'gateway.updated': { kind: 'gateways', operation: 'gatewaysRetrieve' },
  'order.created': { kind: 'orders', operation: 'ordersRetrieve' },
  'order.updated': { kind: 'orders', operation: 'ordersRetrieve' },
  'product.created': { kind: 'products', operation: 'productsRetrieve' },
  'product.updated': { kind: 'products', operation: 'productsRetrieve' },
  'product.deleted': { kind: 'products', operation: 'productsRetrieve', keyOnly: true },
  'store.updated': { kind: 'store', operation: 'storeDetail' },
  // The platform sends a subscription as a customer's subscriptions list shows it (with `is_tax_known`).
  'subscription.created': { kind: 'subscriptions', operation: 'usersSubscriptionsRetrieve' },
  'subscription.updated': { kind: 'subscriptions', operation: 'usersSubscriptionsRetrieve' },
  'ticket.created': { kind: 'tickets', operation: 'ticketsRetrieve' },
  'ticket.updated': { kind: 'tickets', operation: 'ticketsRetrieve' },
  'transaction.created': { kind: 'transactions', operation: 'transactionsRetrieve' },
  'transaction.updated': { kind: 'transactions', operation: 'transactionsRetrieve' },
};
