// The catalogue: three locations (one emptied), four categories, ten products with their variants (fourteen),
// images, a price in each of the store's two currencies and a stock record at each location.
// Written out as facts, not drawn at random: the orders, carts and subscriptions sell from it.
//
// Kept per record (the 2024-04-01 answer of its kind) and linked by id: a product keeps its
// `title` and `category_ids` (the answer shows `categories`); a variant its `product_id`; an image
// and a price their `product_id` (a price's is the variant's id: a variant is a product of its
// own, as `/products/{id}/prices/` takes it); a stock record its `variant_id` and `location_id`.
// Joined when answered (views.ts): a product's `categories`, `images`, `variants`; a variant's
// `images`, `prices`, `stockrecords`, `unit_cost`; a stock record's `location`, `product`,
// `net_stock_level`.
import { fromCents, toCents } from '../money.js';
import type { Rec } from '../kinds.js';
import type { Seeding } from './seeding.js';
import { STORE, type Currency } from './store-facts.js';

const WAREHOUSE_ADDRESS = {
  country: 'US',
  line1: '2200 NW Front Avenue',
  line2: 'Dock 4',
  line3: 'Northwind Fulfillment Center',
  line4: 'Portland',
  phone_number: '+1 503 555 0100',
  postcode: '97209',
  state: 'OR',
};

/** Where each currency's orders ship from. */
export const LOCATION_OF: Record<Currency, number> = { USD: 1, EUR: 2 };

interface VariantFacts {
  id: number;
  values: string[];
  sku: string | null;
  upc: string | null;
  /** Tax included, in the store's currency; the euro price follows from it. */
  price: string;
  retail?: string;
  /** In stock and allocated at each location; absent when stock is not tracked. */
  stock?: [[number, number], [number, number]];
  /** What the store last worked out (absent: from the stock). */
  availability?: [string | null, string | null];
}

interface ProductFacts {
  id: number;
  title: string;
  categories: number[];
  attributes: [code: string, name: string][];
  variants: VariantFacts[];
  /** Renewal interval and the counts offered, when it can be subscribed to. */
  subscription?: [interval: string, counts: number[]];
  shipped?: false;
  /** Nulls the reference allows, on a few products. */
  sparse?: true;
}

const APPAREL = 1;
const GEAR = 2;
const COFFEE = 3;
const GIFTS = 4;

/** Product 1001–1008 and variant 2101–2108 are the anchors' (anchors.ts); stock record ids follow the variant's. */
const PRODUCTS: readonly ProductFacts[] = [
  {
    id: 1001,
    title: 'Trailhead Organic Cotton Tee',
    categories: [APPAREL],
    attributes: [['color', 'Color'], ['size', 'Size']],
    variants: [
      { id: 2101, values: ['Forest Green', 'M'], sku: 'NWO-TEE-FG-M', upc: '810055121001', price: '30.00', retail: '35.00', stock: [[70, 2], [24, 0]] },
      { id: 2109, values: ['Forest Green', 'L'], sku: 'NWO-TEE-FG-L', upc: '810055121009', price: '30.00', retail: '35.00', stock: [[55, 1], [18, 0]] },
      { id: 2110, values: ['Slate', 'M'], sku: 'NWO-TEE-SL-M', upc: '810055121010', price: '30.00', stock: [[8, 3], [0, 0]] },
    ],
  },
  {
    id: 1002,
    title: 'Summit Fleece Hoodie',
    categories: [APPAREL],
    attributes: [['color', 'Color'], ['size', 'Size']],
    variants: [
      { id: 2102, values: ['Charcoal', 'L'], sku: 'NWO-HOOD-CH-L', upc: '810055121002', price: '72.00', retail: '85.00', stock: [[42, 4], [12, 1]] },
      { id: 2111, values: ['Charcoal', 'M'], sku: 'NWO-HOOD-CH-M', upc: '810055121011', price: '72.00', stock: [[30, 0], [10, 0]], availability: ['', ''] },
    ],
  },
  {
    id: 1003,
    title: 'Campfire Enamel Mug',
    categories: [GEAR],
    attributes: [['size', 'Size'], ['color', 'Color']],
    variants: [{ id: 2103, values: ['12 oz', 'Cream'], sku: 'NWO-MUG-12-CR', upc: '810055121003', price: '18.00', stock: [[0, 0], [6, 0]] }],
  },
  {
    id: 1004,
    title: 'Merino Trail Socks (3-pack)',
    categories: [APPAREL],
    attributes: [['color', 'Color'], ['size', 'Size']],
    variants: [{ id: 2104, values: ['Heather Grey', 'M'], sku: 'NWO-SOCK-HG-M', upc: '810055121004', price: '24.00', retail: '28.00', stock: [[115, 5], [40, 2]] }],
    subscription: ['month', [1, 2, 3]],
  },
  {
    id: 1005,
    title: 'Ridgeline Knit Beanie',
    categories: [APPAREL],
    attributes: [['color', 'Color'], ['size', 'Size']],
    variants: [{ id: 2105, values: ['Navy', 'One size'], sku: 'NWO-BEAN-NV-OS', upc: '810055121005', price: '26.40', stock: [[64, 1], [20, 0]] }],
  },
  {
    id: 1006,
    title: 'Basecamp Coffee Blend',
    categories: [GEAR, COFFEE],
    attributes: [['grind', 'Grind'], ['size', 'Size']],
    variants: [{ id: 2106, values: ['Whole bean', '12 oz'], sku: 'NWO-COF-WB-12', upc: '810055121006', price: '16.80', retail: '20.00', stock: [[145, 7], [60, 3]] }],
    subscription: ['week', [1, 2, 4]],
  },
  {
    id: 1007,
    title: 'Summit Espresso Roast',
    categories: [GEAR, COFFEE],
    attributes: [['grind', 'Grind'], ['size', 'Size']],
    variants: [{ id: 2107, values: ['Ground', '12 oz'], sku: 'NWO-ESP-GR-12', upc: '810055121007', price: '19.20', retail: '23.00', stock: [[160, 8], [55, 0]] }],
    subscription: ['week', [1, 2, 4]],
    sparse: true,
  },
  {
    id: 1008,
    title: 'Outfitters Club Membership',
    categories: [GEAR],
    attributes: [['term', 'Term']],
    variants: [{ id: 2108, values: ['Annual'], sku: 'NWO-CLUB-ANNUAL', upc: '810055121008', price: '60.00', retail: '69.00', stock: [[40, 2], [0, 0]] }],
    subscription: ['year', [1]],
    shipped: false,
  },
  {
    id: 1009,
    title: 'Northwind Gift Card',
    categories: [GIFTS],
    attributes: [['amount', 'Amount']],
    variants: [{ id: 2112, values: ['50.00'], sku: null, upc: null, price: '50.00' }],
    shipped: false,
    sparse: true,
  },
  {
    id: 1010,
    title: 'Alpine Rain Shell',
    categories: [APPAREL],
    attributes: [['color', 'Color'], ['size', 'Size']],
    variants: [
      { id: 2113, values: ['Glacier Blue', 'M'], sku: 'NWO-SHELL-GB-M', upc: '810055121013', price: '144.00', retail: '165.00', stock: [[4, 1], [2, 0]] },
      { id: 2114, values: ['Glacier Blue', 'L'], sku: 'NWO-SHELL-GB-L', upc: null, price: '144.00', stock: [[0, 0], [0, 0]] },
      { id: 2115, values: ['Glacier Blue', 'S'], sku: 'NWO-SHELL-GB-S', upc: null, price: '144.00', stock: [[12, 0], [6, 0]], availability: [null, null] },
    ],
  },
];

const CATEGORIES = [
  {
    id: APPAREL,
    name: 'Apparel',
    slug: 'apparel',
    external_tax_code: 'PC040100',
    image: `${STORE.cdn}/categories/apparel.jpg`,
    is_public: true,
    meta_description: 'Organic cotton tees, fleece and merino layers made for the trail and the town.',
    meta_title: 'Apparel | Northwind Outfitters',
    template: 'category-grid',
  },
  {
    id: GEAR,
    name: 'Gear & Goods',
    slug: 'gear-goods',
    external_tax_code: 'PG050000',
    image: `${STORE.cdn}/categories/gear-goods.jpg`,
    is_public: true,
    meta_description: 'Enamel mugs, knit beanies, small-batch coffee and the club that keeps you outside.',
    meta_title: 'Gear & Goods | Northwind Outfitters',
    template: 'category-grid',
  },
  { id: COFFEE, name: 'Coffee', slug: 'coffee', external_tax_code: null, image: null, is_public: true, meta_description: null, meta_title: null, template: null },
  { id: GIFTS, name: 'Gift Cards', slug: 'gift-cards', external_tax_code: null, image: null, is_public: false, meta_description: 'Gift cards in any amount.', meta_title: null, template: null },
];

const LOCATIONS = [
  {
    id: 1,
    name: 'Portland Warehouse',
    accept_return: true,
    address: WAREHOUSE_ADDRESS,
    callback_url: 'https://fulfillment.northwind-outfitters.example/callbacks/fulfillment-orders',
  },
  {
    id: 2,
    name: 'Rotterdam Hub',
    accept_return: false,
    address: { country: 'NL', line1: 'Waalhaven Oostzijde 81', line4: 'Rotterdam', postcode: '3087 BM', state: 'Zuid-Holland' },
    callback_url: null,
  },
  // A summer pop-up, since emptied: it holds no stock and fulfils nothing.
  {
    id: 3,
    name: 'Denver Pop-up',
    accept_return: false,
    address: { country: 'US', line1: '1701 Wynkoop Street', line4: 'Denver', postcode: '80202', state: 'CO' },
    callback_url: null,
  },
];

/** The euro price of a store price: 0.92 of it, to the ten cents. */
function euros(usd: string): string {
  return fromCents(Math.round((toCents(usd) * 0.92) / 10) * 10);
}

/** A product's slug: its title in lower case, words joined by dashes. */
export const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export function buildCatalogue(seed: Seeding): void {
  const created = seed.at('2025-03-01T10:00:00Z');
  for (const location of LOCATIONS) seed.add('locations', { ...location, id: seed.id('locations', location.id) });
  for (const category of CATEGORIES) seed.add('categories', { ...category, id: seed.id('categories', category.id) });
  for (const [index, facts] of PRODUCTS.entries()) {
    const slug = slugOf(facts.title);
    seed.add('products', {
      id: seed.id('products', facts.id),
      title: facts.title,
      category_ids: facts.categories,
      date_created: created,
      date_updated: seed.at('2026-01-05T12:00:00Z'),
      enable_subscription: Boolean(facts.subscription),
      external_tax_code: facts.sparse ? null : 'PC040100',
      interval: facts.subscription?.[0] ?? (facts.sparse ? null : ''),
      interval_counts: facts.subscription?.[1] ?? null,
      is_discountable: facts.shipped !== false,
      is_public: facts.categories[0] !== GIFTS,
      meta_description: facts.sparse ? null : `${facts.title}, from Northwind Outfitters.`,
      meta_title: facts.sparse ? null : `${facts.title} | Northwind Outfitters`,
      metadata: facts.sparse ? {} : { season: 'all-year' },
      ranking: index + 1,
      rating: facts.sparse ? null : 4 + ((index * 3) % 10) / 10,
      recommended_products: PRODUCTS.filter((other) => other.id !== facts.id && other.categories[0] === facts.categories[0]).map((other) => other.id).slice(0, 2),
      slug,
      structure: facts.variants.length > 1 ? 'parent' : 'standalone',
      template: facts.sparse ? null : 'product-detail',
      url: `${STORE.url}/products/${slug}`,
      variant_attributes: facts.attributes.map(([code, name], at) => ({ code, name, values: [...new Set(facts.variants.map((v) => v.values[at]!))] })),
    });
    seed.add('productImages', {
      id: seed.id('productImages', 5000 + facts.id - 1000),
      product_id: facts.id,
      attachment: facts.sparse ? null : `images/products/2026/01/${slug}.jpg`,
      caption: facts.title,
      display_order: 0,
      file_name: `${slug}.jpg`,
      src: `${STORE.cdn}/products/${slug}.jpg`,
    });
    for (const variant of facts.variants) buildVariant(seed, facts, variant, created);
  }
  // An image still being processed: no file yet.
  seed.add('productImages', { id: seed.id('productImages'), product_id: 1010, attachment: null, caption: 'Alpine Rain Shell, hood detail', display_order: 1, file_name: 'alpine-rain-shell-hood.jpg', src: null });
}

function buildVariant(seed: Seeding, product: ProductFacts, facts: VariantFacts, created: string): void {
  const tracked = facts.stock !== undefined;
  const available = tracked ? facts.stock!.reduce((sum, [stock, allocated]) => sum + stock - allocated, 0) : 0;
  const [inventory, purchase] = facts.availability ?? [
    !tracked ? 'untracked' : available === 0 ? 'out_of_stock' : available < 10 ? 'low_stock' : 'in_stock',
    tracked && available === 0 ? 'unavailable' : 'available',
  ];
  seed.add('variants', {
    id: seed.id('variants', facts.id),
    product_id: product.id,
    allow_backorders: product.subscription !== undefined,
    date_created: created,
    date_updated: seed.at('2026-01-05T12:00:00Z'),
    inventory_availability: inventory,
    metadata: product.sparse ? {} : { supplier: 'Northwind Mills' },
    purchase_availability: purchase,
    requires_shipping: product.shipped !== false,
    sku: facts.sku,
    track_stock: tracked,
    upc: facts.upc,
    variant_attribute_values: product.attributes.map(([code, name], at) => ({ code, name, value: facts.values[at]! })),
  });
  for (const currency of STORE.currencies) {
    const price = currency === 'USD' ? facts.price : euros(facts.price);
    seed.add('productPrices', {
      product_id: facts.id,
      currency,
      price,
      retail: facts.retail === undefined ? null : currency === 'USD' ? facts.retail : euros(facts.retail),
      subscription: product.subscription ? fromCents(Math.round(toCents(price) * 0.9)) : null,
      subscription_suggested_downsell: product.subscription?.[0] === 'month' ? fromCents(Math.round(toCents(price) * 0.8)) : null,
    });
  }
  for (const [at, location] of [1, 2].entries()) {
    const stock = facts.stock?.[at];
    seed.add('stockrecords', {
      id: seed.id('stockrecords', 1000 + facts.id + (location - 1) * 100),
      variant_id: facts.id,
      location_id: location,
      date_created: created,
      date_updated: seed.at('2026-01-28T07:30:00Z'),
      low_stock_threshold: 10,
      num_allocated: stock ? stock[1] : null,
      num_in_stock: stock ? stock[0] : null,
    });
  }
}

/** What a line selling one variant needs to know of it, in one currency. */
export interface Sold {
  productId: number;
  variantId: number;
  title: string;
  variantTitle: string;
  sku: string;
  /** Unit price, tax included. */
  price: string;
  image: string;
  url: string;
  requiresShipping: boolean;
  /** Its stock record at the location orders in this currency ship from. */
  stockrecordId: number;
}

export function sold(records: Seeding['records'], variantId: number, currency: Currency): Sold {
  // Asked for every line the seed builds: worked out once per store, variant and currency.
  let known = soldCache.get(records);
  if (!known) soldCache.set(records, (known = new Map()));
  const key = `${variantId}/${currency}`;
  let item = known.get(key);
  if (!item) known.set(key, (item = soldNow(records, variantId, currency)));
  return item;
}
const soldCache = new WeakMap<Seeding['records'], Map<string, Sold>>();

/** The same, read from the records as they are now: a rule's store changes under a cache. */
export function soldNow(records: Seeding['records'], variantId: number, currency: Currency): Sold {
  const variant = records.variants[variantId]!;
  const product = records.products[String(variant.product_id)]!;
  const price = records.productPrices[`${variantId}/${currency}`]!;
  const values = variant.variant_attribute_values as Rec[];
  return {
    productId: Number(product.id),
    variantId,
    title: String(product.title),
    variantTitle: values.map((v) => String(v.value)).join(' / '),
    sku: String(variant.sku ?? ''),
    price: String(price.price),
    image: `${STORE.cdn}/products/${String(product.slug)}.jpg`,
    url: String(product.url),
    requiresShipping: variant.requires_shipping !== false,
    stockrecordId: 1000 + variantId + (LOCATION_OF[currency] - 1) * 100,
  };
}

/** What a line keeps of the variant it sells (order, cart and subscription lines alike). */
export function soldFields(item: Sold): Rec {
  return { product_id: item.productId, variant_id: item.variantId, product_image: item.image, product_title: item.title, product_url: item.url, sku: item.sku, variant_title: item.variantTitle };
}

/** The variants an order may sell, by whether they ship. */
export const SHIPPED_VARIANTS = PRODUCTS.filter((p) => p.shipped !== false).flatMap((p) => p.variants.map((v) => v.id));
export const DIGITAL_VARIANTS = PRODUCTS.filter((p) => p.shipped === false).flatMap((p) => p.variants.map((v) => v.id));
/** Variants one may subscribe to, with their product's interval. */
export const SUBSCRIBABLE = PRODUCTS.flatMap((p) => (p.subscription ? p.variants.map((v) => ({ variantId: v.id, interval: p.subscription![0], counts: p.subscription![1] })) : []));
