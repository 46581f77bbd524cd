// The kinds of record the sandbox keeps, and where the API reaches each: the collections the
// generic engine (collections.ts) lists, creates, reads, changes and deletes by the operation
// table's paths. A record is kept in the shape of its kind's answer at the newest version, with
// its links to other records as plain ids (`user_id`, `order_number`); what it does not keep is
// derived when it is answered (views.ts).

export interface Parent {
  /** The path parameter that names the parent. */
  param: string;
  /** The record's field that holds the parent's key. */
  field: string;
  /** What the parent is (a kind's name), where not the kind whose item the path names there (a price's product is a variant). */
  kind?: string;
}

export interface Kind {
  /** Collection paths (list, create) as the operation table writes them; an item is the path plus `{key}/`. */
  collections: readonly { path: string; parents?: readonly Parent[] }[];
  /** The record field that keys an item, and its path parameter's value. */
  key: string;
  /** Whether new keys are numbers handed out in sequence (else the body names the key). */
  numbered: boolean;
  /** The key is unique only under the parent (a product's price per currency): kept as `<parent key>/<key>`. */
  keyedUnderParent?: boolean;
}

const top = (path: string) => ({ path });
const under = (path: string, ...parents: Parent[]) => ({ path, parents });

export const KINDS = {
  apps: { collections: [top('/apps/')], key: 'client_id', numbered: false },
  carts: { collections: [top('/carts/')], key: 'id', numbered: true },
  categories: { collections: [top('/categories/')], key: 'id', numbered: true },
  disputes: { collections: [top('/disputes/')], key: 'id', numbered: true },
  disputeNotes: { collections: [under('/disputes/{id}/notes/', { param: 'id', field: 'dispute_id' })], key: 'id', numbered: true },
  exports: { collections: [top('/exports/')], key: 'id', numbered: true },
  fulfillmentOrders: {
    collections: [top('/fulfillment-orders/'), top('/assigned-fulfillment-orders/'), under('/orders/{number}/fulfillment-orders/', { param: 'number', field: 'order_number' })],
    key: 'id',
    numbered: true,
  },
  fulfillments: {
    collections: [
      under('/orders/{number}/fulfillments/', { param: 'number', field: 'order_number' }),
      under('/fulfillment-orders/{id}/fulfillments/', { param: 'id', field: 'fulfillment_order_id' }),
    ],
    key: 'id',
    numbered: true,
  },
  fulfillmentEvents: {
    collections: [under('/orders/{number}/fulfillments/{fulfillmentId}/events/', { param: 'number', field: 'order' }, { param: 'fulfillmentId', field: 'fulfillment' })],
    key: 'id',
    numbered: true,
  },
  gatewayGroups: { collections: [top('/gateway-groups/')], key: 'id', numbered: true },
  gateways: { collections: [top('/gateways/')], key: 'id', numbered: true },
  giftCards: { collections: [top('/gift-cards/')], key: 'id', numbered: true },
  locations: { collections: [top('/locations/')], key: 'id', numbered: true },
  metadata: { collections: [top('/metadata/')], key: 'id', numbered: true },
  orders: { collections: [top('/orders/'), under('/users/{id}/orders/', { param: 'id', field: 'user_id' })], key: 'number', numbered: true },
  orderNotes: { collections: [under('/orders/{number}/notes/', { param: 'number', field: 'order_number' })], key: 'id', numbered: true },
  pages: { collections: [top('/pages/')], key: 'id', numbered: true },
  products: { collections: [top('/products/')], key: 'id', numbered: true },
  productImages: { collections: [under('/products/{id}/images/', { param: 'id', field: 'product_id' })], key: 'id', numbered: true },
  productPrices: { collections: [under('/products/{id}/prices/', { param: 'id', field: 'product_id', kind: 'variants' })], key: 'currency', numbered: false, keyedUnderParent: true },
  variants: {
    collections: [
      top('/products/variants/'),
      under('/products/{id}/variants/', { param: 'id', field: 'product_id' }),
      top('/products/children/'),
      under('/products/{id}/children/', { param: 'id', field: 'product_id' }),
    ],
    key: 'id',
    numbered: true,
  },
  shippingMethods: { collections: [top('/shipping-methods/')], key: 'id', numbered: true },
  stockrecords: { collections: [top('/stockrecords/')], key: 'id', numbered: true },
  /** The store itself: one record, answered as a list of one. */
  store: { collections: [top('/store/')], key: 'primary_domain', numbered: false },
  subscriptions: { collections: [top('/subscriptions/'), under('/users/{id}/subscriptions/', { param: 'id', field: 'user_id' })], key: 'id', numbered: true },
  themes: { collections: [top('/themes/')], key: 'id', numbered: true },
  tickets: { collections: [top('/tickets/')], key: 'id', numbered: true },
  ticketTypes: { collections: [top('/tickettypes/')], key: 'id', numbered: true },
  transactions: { collections: [top('/transactions/'), under('/subscriptions/{id}/transactions/', { param: 'id', field: 'subscription_id' })], key: 'id', numbered: true },
  users: { collections: [top('/users/')], key: 'id', numbered: true },
  addresses: { collections: [under('/users/{id}/addresses/', { param: 'id', field: 'user_id' })], key: 'id', numbered: true },
  userNotes: { collections: [under('/users/{id}/notes/', { param: 'id', field: 'user_id' })], key: 'id', numbered: true },
  webhooks: { collections: [top('/webhooks/')], key: 'id', numbered: true },
} as const satisfies Record<string, Kind>;

export type KindName = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as KindName[];

export type Rec = Record<string, unknown>;
/** Every kind's records by key (as text). */
export type Records = Record<KindName, Record<string, Rec>>;

/** The key a record is kept under in its kind's map (its parent's key first where keys repeat across parents). */
export function storageKey(kind: KindName, record: Rec): string {
  const { key, collections } = KINDS[kind] as Kind;
  const parent = (KINDS[kind] as Kind).keyedUnderParent ? collections[0]!.parents!.at(-1)! : undefined;
  return parent ? `${String(record[parent.field])}/${String(record[key])}` : String(record[key]);
}

/** Where an operation's path lands: a kind's collection or one of its items, with the parents it names. */
export interface Landing {
  kind: KindName;
  item: boolean;
  parents: readonly Parent[];
}

/** The kind an operation path reaches, if any: `/orders/{number}/` is an order, `/orders/{number}/notes/` order notes. */
export function landingOf(path: string): Landing | undefined {
  for (const kind of KIND_NAMES) {
    for (const collection of KINDS[kind].collections as readonly { path: string; parents?: readonly Parent[] }[]) {
      const parents = collection.parents ?? [];
      if (path === collection.path) return { kind, item: false, parents };
      if (path.startsWith(collection.path) && /^\{[A-Za-z]+\}\/$/.test(path.slice(collection.path.length))) return { kind, item: true, parents };
    }
  }
  return undefined;
}
