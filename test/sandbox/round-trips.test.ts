// Round trips through every collection the reference lets a user write (issue 37.6), over HTTP:
// a record is made, read back as it was answered, found in its list by a filter, changed (and the
// change read back), and removed (then gone from its page and its list), each step's answer
// checked against what was sent. What the store fills in (ids, dates, prices, slugs) is checked
// where it is the store's to compute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation, type OperationId } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { FULL_TOKEN, raw, startTestSandbox } from '../helpers.js';

type Body = Record<string, unknown>;
type Params = Record<string, string | number>;

interface Trip {
  /** How it is made, and what its answer must show (the body sent, unless said). */
  create: { op: OperationId; params?: Params; body: Body; shows?: Body };
  /** The answer's field that names it, and the path parameter that takes it (default `id`). */
  key?: [field: string, param: string];
  read: OperationId;
  /** A list that holds it, and a filter that keeps it. */
  list?: { op: OperationId; query?: Record<string, string> };
  change?: { op: OperationId; body: Body; shows?: Body };
  remove?: OperationId;
  /** Reads of what went with it, gone too. */
  removes?: Partial<Record<OperationId, (made: Body) => Params>>;
}

const TRIPS: Record<string, Trip> = {
  page: {
    create: { op: 'pagesCreate', body: { title: 'Care guide', content: '<p>Wash cold, dry flat.</p>', meta_title: 'Care guide' } },
    read: 'pagesRetrieve',
    list: { op: 'pagesList', query: { title: 'Care guide' } },
    change: { op: 'pagesPartialUpdate', body: { content: '<p>Wash cold, dry flat, no bleach.</p>' } },
    remove: 'pagesDestroy',
  },
  'metadata definition': {
    create: { op: 'metadataCreate', body: { key: 'packing_note', name: 'Packing note', object: 'order', type: 'text', enable_export: true } },
    read: 'metadataRetrieve',
    list: { op: 'metadataList', query: { metadata_key: 'packing_note' } },
    change: { op: 'metadataUpdate', body: { name: 'Note for the packer', object: 'order' } },
    remove: 'metadataDestroy',
  },
  location: {
    create: { op: 'locationsCreate', body: { name: 'Austin Store', accept_return: true, address: { country: 'US', line1: '500 Congress Avenue', line4: 'Austin', postcode: '78701', state: 'TX' } } },
    read: 'locationsRetrieve',
    list: { op: 'locationsList' },
    change: { op: 'locationsUpdate', body: { name: 'Austin Outlet', address: { country: 'US', line1: '600 Congress Avenue', line4: 'Austin', postcode: '78701', state: 'TX' } } },
    remove: 'locationsDestroy',
  },
  category: {
    create: { op: 'categoriesCreate', body: { name: 'Rain gear', slug: 'rain-gear', is_public: true } },
    read: 'categoriesRetrieve',
    list: { op: 'categoriesList' },
    change: { op: 'categoriesUpdate', body: { name: 'Rain and wind', slug: 'rain-and-wind' } },
  },
  cart: {
    create: {
      op: 'cartsCreate',
      body: { currency: 'EUR', user: { id: 1 }, lines: [{ product_id: 2101, quantity: 2 }] },
      // Priced by the store: 2 × €27.60, tax (20 %) included.
      shows: { currency: 'EUR', user: { id: 1 }, lines: [{ variant_id: 2101, quantity: 2, unit_cost: '27.60', price_incl_tax: '55.20', price_excl_tax: '46.00' }], total_incl_tax: '55.20' },
    },
    read: 'cartsRetrieve',
    list: { op: 'cartsList', query: { currency: 'EUR' } },
    change: { op: 'cartsUpdate', body: { lines: [{ product_id: 2104, quantity: 1 }] }, shows: { lines: [{ variant_id: 2104, quantity: 1 }], total_incl_tax: '22.10' } },
    remove: 'cartsDestroy',
  },
  product: {
    create: { op: 'productsCreate', body: { title: 'Alpine Rain Shell Pro', categories: [1], is_public: true }, shows: { title: 'Alpine Rain Shell Pro', slug: 'alpine-rain-shell-pro', categories: [{ id: 1 }], structure: 'standalone' } },
    read: 'productsRetrieve',
    list: { op: 'productsList', query: { title: 'Alpine Rain Shell Pro' } },
    change: { op: 'productsPartialUpdate', body: { categories: [2], is_public: false }, shows: { categories: [{ id: 2 }], is_public: false } },
    remove: 'productsDestroy',
  },
  variant: {
    create: {
      op: 'productsVariantCreate',
      params: { id: 1001 },
      body: { sku: 'NWO-TEE-SL-L', upc: '810055121099', variant_attribute_values: [{ name: 'Color', value: 'Slate' }, { name: 'Size', value: 'L' }], prices: [{ currency: 'USD', price: '32.00' }], stockrecords: [{ location_id: 1, num_in_stock: 12 }] },
      // Its price and stock kept as the store keeps them, and shown with it.
      shows: { sku: 'NWO-TEE-SL-L', product_id: 1001, variant_attribute_values: [{ code: 'color', value: 'Slate' }, { code: 'size', value: 'L' }], title: 'Slate / L', prices: [{ currency: 'USD', price: '32.00' }], unit_cost: '32.00', stockrecords: [{ location_id: 1, num_in_stock: 12, num_allocated: 0 }] },
    },
    read: 'productsVariantsRetrieve',
    list: { op: 'productsVariantList' },
    change: { op: 'productsVariantsPartialUpdate', body: { sku: 'NWO-TEE-SL-XL', variant_attribute_values: [{ name: 'Color', value: 'Slate' }, { name: 'Size', value: 'XL' }] }, shows: { sku: 'NWO-TEE-SL-XL', title: 'Slate / XL' } },
    remove: 'productsVariantsDestroy',
    // Its stock goes with it.
    removes: { stockrecordsRetrieve: (made) => ({ id: (made.stockrecords as Body[])[0]!.id as number }), productsPricesRetrieve: (made) => ({ id: made.id as number, currency: 'USD' }) },
  },
  image: {
    create: { op: 'productsImageCreate', params: { id: 1001 }, body: { caption: 'On the trail', display_order: 1, attachment: 'images/products/2026/02/tee-trail.jpg' } },
    key: ['id', 'imageId'],
    read: 'productsImageDetail',
    list: { op: 'productsImageList' },
    change: { op: 'productsImageUpdate', body: { caption: 'On the ridge', display_order: 2 } },
    remove: 'productsImageDelete',
  },
  price: {
    create: { op: 'productsPricesCreate', params: { id: 2101 }, body: { currency: 'GBP', price: '24.00', retail: '28.00' } },
    key: ['currency', 'currency'],
    read: 'productsPricesRetrieve',
    list: { op: 'productsPricesList' },
    change: { op: 'productsPricesPartialUpdate', body: { price: '22.50' } },
    remove: 'productsPricesDestroy',
  },
  user: {
    create: { op: 'usersCreate', body: { email: 'noor.haddad@example.com', first_name: 'Noor', last_name: 'Haddad', accepts_marketing: true, language: 'fr' }, shows: { email: 'noor.haddad@example.com', user_type: 'customer', orders_count: 0, total_spent: '0.00' } },
    read: 'usersRetrieve',
    list: { op: 'usersList', query: { email: 'noor.haddad@example.com' } },
    change: { op: 'usersPartialUpdate', body: { phone_number: '+33 4 72 00 00 00', is_blocked: true } },
  },
  address: {
    create: { op: 'usersAddressesCreate', params: { id: 2 }, body: { first_name: 'Daniel', last_name: 'Okafor', line1: '500 Congress Avenue', line4: 'Austin', postcode: '78701', state: 'TX', country: 'US' } },
    key: ['id', 'addressId'],
    read: 'usersAddressesRetrieve',
    list: { op: 'usersAddressesList' },
    change: { op: 'usersAddressesUpdate', body: { line1: '501 Congress Avenue', line4: 'Austin', country: 'US' } },
    remove: 'usersAddressesDestroy',
  },
  ticket: {
    create: { op: 'ticketsCreate', body: { subject: 'Parcel stuck in customs', requester: 2, priority: 'high', comment: { body: 'It has not moved for a week.', from_email: 'daniel.okafor@example.net' } }, shows: { subject: 'Parcel stuck in customs', status: 'new', comments: [{ body: 'It has not moved for a week.' }] } },
    read: 'ticketsRetrieve',
    list: { op: 'ticketsList', query: { status: 'new', requester: '2' } },
    change: { op: 'ticketsPartialUpdate', body: { status: 'open', assignee: 9001 } },
  },
  theme: {
    create: { op: 'themesCreate', body: { name: 'Basecamp', active: false } },
    read: 'themesRetrieve',
    list: { op: 'themesList' },
    remove: 'themesDestroy',
  },
  'gift card': {
    create: { op: 'giftCardsCreate', body: { currency: 'USD', initial: '40.00', user: { id: 2 } }, shows: { currency: 'USD', initial: '40.00', balance: '40.00', user: { id: 2 }, disabled_at: null } },
    read: 'giftCardsRetrieve',
    list: { op: 'giftCardsList', query: { customer: '2', status: 'active' } },
    change: { op: 'giftCardsPartialUpdate', body: { expired_at: '2027-01-31T23:59:59Z' } },
  },
  webhook: {
    create: { op: 'webhooksCreate', body: { name: 'Stock sync', target: 'https://hooks.example.com/stock', events: ['product.updated'], secret_key: 'whsec_trip' }, shows: { name: 'Stock sync', active: true, warning_count: 0 } },
    read: 'webhooksRetrieve',
    list: { op: 'webhooksList', query: { name: 'Stock sync' } },
    change: { op: 'webhooksUpdate', body: { target: 'https://hooks.example.com/stock-v2', events: ['product.updated', 'product.deleted'] } },
    remove: 'webhooksDestroy',
  },
  dispute: {
    // On order 10002's charge: of its amount, on its order.
    create: { op: 'disputesCreate', body: { transaction: 503, type: 'chargeback', case_number: 'CB-TRIP-1' }, shows: { transaction: 503, order: 10002, status: 'new', amount: '84.00', currency: 'USD' } },
    read: 'disputesRetrieve',
    list: { op: 'disputesList', query: { order_number: '10002', type: 'chargeback' } },
    change: { op: 'disputesPartialUpdate', body: { arn: '74230000000000000000001' } },
    remove: 'disputesDestroy',
  },
  'stock record': {
    // The pop-up location holds no stock yet: a tee's first record there, answered with its product.
    create: { op: 'stockrecordsCreate', body: { product: 2101, location_id: 3, num_in_stock: 12 }, shows: { num_in_stock: 12, product: { id: 1001, variant_id: 2101 } } },
    read: 'stockrecordsRetrieve',
    list: { op: 'stockrecordsList', query: { location_id: '3' } },
    change: { op: 'stockrecordsPartialUpdate', body: { num_in_stock: 64, low_stock_threshold: 5 } },
    remove: 'stockrecordsDestroy',
  },
};

const byId = new Map((await loadAllOperations()).map((op) => [op.id, op]));
const op = (id: OperationId): Operation => byId.get(id)!;

describe('round trips through every collection a user can write', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ token: FULL_TOKEN, store: memoryStore() });
  });
  afterAll(() => sandbox.close());

  const call = async (id: OperationId, params: Params = {}, body?: Body, query?: Record<string, string>) => {
    const { method, path, version } = op(id);
    const url = fillPath(path, params) + (query ? `?${new URLSearchParams(query)}` : '');
    const headers = { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': version, 'content-type': 'application/json' };
    return raw(sandbox, method, url, { headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  };

  it('a location that holds stock or fulfillment orders stays, and says why', async () => {
    const refused = await call('locationsDestroy', { id: 1 });
    expect(refused).toEqual({ status: 400, body: { detail: 'It still has stock: move or remove them first.' } });
    expect((await call('locationsRetrieve', { id: 1 })).status).toBe(200);
  });

  it('a cart or gift card names its customer', async () => {
    expect(await call('cartsCreate', {}, { lines: [{ product_id: 2101, quantity: 1 }] })).toEqual({ status: 400, body: { user: ['Name the customer by id or email.'] } });
    // Named by an e-mail the store does not know yet: a new lead.
    const card = await call('giftCardsCreate', {}, { currency: 'USD', initial: '10.00', user: { email: 'first.timer@example.com', first_name: 'Ines' } });
    expect(card).toMatchObject({ status: 201, body: { user: { email: 'first.timer@example.com', first_name: 'Ines' } } });
    const lead = (card.body!.user as Body).id as number;
    expect((await call('usersRetrieve', { id: lead })).body).toMatchObject({ user_type: 'lead', email: 'first.timer@example.com' });
  });

  for (const [name, trip] of Object.entries(TRIPS)) {
    it(`a ${name}: ${['made', 'read', trip.list && 'listed', trip.change && 'changed', trip.remove && 'removed'].filter(Boolean).join(', ')}`, async () => {
      const [field, param] = trip.key ?? ['id', 'id'];
      const answered = await call(trip.create.op, trip.create.params, trip.create.body);
      expect(answered.status, JSON.stringify(answered.body)).toBe(op(trip.create.op).success);
      const made = answered.body!;
      expect(made).toMatchObject(trip.create.shows ?? trip.create.body);
      const params = { ...trip.create.params, [param]: made[field] as string | number };
      // Read back as it was answered (what its own page shows of it).
      const read = await call(trip.read, params);
      expect(read.status).toBe(200);
      expect(made).toMatchObject(read.body!);
      if (trip.list) {
        const listed = await call(trip.list.op, trip.create.params, undefined, trip.list.query);
        expect(listed.status).toBe(200);
        const items = (Array.isArray(listed.body) ? listed.body : (listed.body as { results: Body[] }).results) as Body[];
        expect(items.map((item) => item[field]), `${trip.list.op} ${JSON.stringify(trip.list.query ?? {})}`).toContain(made[field]);
      }
      if (trip.change) {
        const changed = await call(trip.change.op, params, trip.change.body);
        expect(changed.status, JSON.stringify(changed.body)).toBe(op(trip.change.op).success);
        // Still the same record (where the answer names it), changed as asked.
        expect(changed.body).toMatchObject({ ...(field in changed.body! ? { [field]: made[field] } : {}), ...(trip.change.shows ?? trip.change.body) });
        const reread = await call(trip.read, params);
        expect(reread.status).toBe(200);
        expect(changed.body).toMatchObject(reread.body!);
      }
      if (trip.remove) {
        expect((await call(trip.remove, params)).status).toBe(204);
        for (const [id, paramsOf] of Object.entries(trip.removes ?? {})) expect((await call(id as OperationId, paramsOf(made))).status, `${id} after ${trip.remove}`).toBe(404);
        expect((await call(trip.read, params)).status).toBe(404);
        if (trip.list) {
          const listed = await call(trip.list.op, trip.create.params, undefined, trip.list.query);
          const items = (Array.isArray(listed.body) ? listed.body : (listed.body as { results: Body[] }).results) as Body[];
          expect(items.map((item) => item[field])).not.toContain(made[field]);
        }
      }
    });
  }
});
