// The records the README, the docs, the demo and the tests name by id, in one place: built with
// the same builders as every other record, their ids and telling details given explicitly.
// Their dates are written at the seed's moment (2026-02-02T09:00:00Z) and move with it.
import { applyOutstanding } from '../amounts.js';
import { toCents } from '../money.js';
import type { Rec } from '../kinds.js';
import { buildCustomer, customerNote, type Customer } from './people.js';
import { buildFulfillment, buildFulfillmentOrder, buildOrder, buildTransaction, orderNote, refund } from './orders.js';
import type { Seeding } from './seeding.js';
import { buildSubscription, failedRenewal, renewalOrder } from './subscriptions.js';
import { CARRIERS, STAFF, WELCOME } from './store-facts.js';

/** Every anchored id, by kind; the catalogue's, the webhooks', the exports' and the app's are built in catalogue.ts and store-setup.ts. */
export const ANCHOR_IDS = {
  users: [1, 2],
  addresses: [11, 12, 21, 22],
  orders: ['10001', '10002', '10003', '9986', '9991', '8412'],
  lines: [101, 102, 103, 104, 105, 106],
  transactions: [501, 502, 503, 504],
  refunds: [801],
  fulfillments: [201],
  fulfillmentEvents: [301, 302],
  fulfillmentOrders: [401, 402],
  orderNotes: [601],
  userNotes: [602],
  subscriptions: [1, 2, 3, 4],
  subscriptionLines: [701, 702, 703, 704, 705],
  categories: [1, 2],
  products: [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008],
  variants: [2101, 2102, 2103, 2104, 2105, 2106, 2107, 2108],
  stockrecords: [2101, 2102, 2103, 2104, 2105, 2106, 2107, 2108].map((variant) => variant + 1000),
  locations: [1],
  webhooks: [1, 2],
  exports: [1],
  apps: ['sandbox-app'],
} as const;

const UPS = CARRIERS[0]!;

export function buildAnchors(seed: Seeding): { maya: Customer; daniel: Customer } {
  const { at } = seed;
  const maya = buildCustomer(seed, {
    id: 1,
    first: 'Maya',
    last: 'Lindqvist',
    email: 'maya.lindqvist@example.com',
    joined: at('2026-01-11T14:30:40Z'),
    language: 'en',
    phone: '+1 303 555 0148',
    ip: '73.95.112.40',
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
    acceptsMarketing: true,
    tags: ['sock-club'],
    addresses: [
      { id: 11, line1: '1550 Larimer Street', line2: 'Unit 804', line3: 'LoDo', line4: 'Denver', state: 'CO', postcode: '80202', country: 'US', phone: '+1 303 555 0148', billing: true },
      { id: 12, line1: '1550 Larimer Street', line2: 'Unit 804', line3: 'LoDo', line4: 'Denver', state: 'CO', postcode: '80202', country: 'US', phone: '+1 303 555 0148', notes: 'Leave with the front desk concierge.', shipping: true },
    ],
  });
  const daniel = buildCustomer(seed, {
    id: 2,
    first: 'Daniel',
    last: 'Okafor',
    email: 'daniel.okafor@example.net',
    joined: at('2025-02-10T16:52:13Z'),
    language: 'en',
    phone: '+1 512 555 0193',
    ip: '24.155.20.187',
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    acceptsMarketing: false,
    addresses: [
      { id: 21, line1: '2207 Riverside Drive', line2: 'Suite 12', line3: 'Travis Heights', line4: 'Austin', state: 'TX', postcode: '78741', country: 'US', phone: '+1 512 555 0193', billing: true },
      { id: 22, line1: '2207 Riverside Drive', line2: 'Suite 12', line3: 'Travis Heights', line4: 'Austin', state: 'TX', postcode: '78741', country: 'US', phone: '+1 512 555 0193', notes: 'Gate code 4417. Leave by the garage if nobody answers.', shipping: true },
    ],
  });
  customerNote(seed, 1, 'Prefers UPS deliveries. Sock Club member since January 2026.', at('2026-01-20T11:05:00Z'), 602);

  const mayaCard = { bankcard_first_six: '424242', bankcard_last_four: '4242', card_token: 'tok_nw_lindqvist_4242', gateway: { id: 1, name: 'Stripe', type: 'stripe' }, is_3ds: true, optimized_3ds: false, paypal_vault_id: 'BA-424242NW1', sca_flow: 'frictionless' };
  const danielCard = { ...mayaCard, bankcard_first_six: '555555', bankcard_last_four: '4444', card_token: 'tok_nw_okafor_4444', paypal_vault_id: 'BA-555555NW2' };
  const cardOf = (customer: Customer) => (customer === maya ? mayaCard : danielCard);
  const charge = (order: Rec, id: number, subscription?: { id: number; cycle: number }) => {
    const made = buildTransaction(seed, { id, type: 'debit', amount: String(order.total_incl_tax), at: String(order.date_placed), order: String(order.number), currency: 'USD', userId: order.user_id, details: cardOf(order.user_id === 1 ? maya : daniel), paymentMethod: 'bankcard', subscription });
    applyOutstanding(order, toCents(made.amount));
    return made;
  };
  const campaign = (name: string, medium = 'organic', source = 'website') => ({
    affiliate: 'trailblazer-journal',
    agent: { ...STAFF.priya },
    funnel: 'winter-layers-2026',
    gclid: `Cj0KCQiA${name.replace(/-/g, '')}EAAYASAAEgK`,
    metadata: { landing_page: `/collections/${name}`, first_visit: at('2026-01-10T18:22:00Z') },
    subaffiliate1: 'newsletter',
    subaffiliate2: 'january-week-2',
    subaffiliate3: 'hero-banner',
    subaffiliate4: 'desktop',
    subaffiliate5: 'us-west',
    utm_campaign: name,
    utm_content: 'layering-guide',
    utm_medium: medium,
    utm_source: source,
    utm_term: 'merino layers',
  });

  // 10001: the hoodie shipped (fulfillment 201, events 301 and 302), the tees waiting on fulfillment
  // order 402, the cream mug out of stock, cancelled and refunded with half the shipping (refund 801).
  const first = buildOrder(seed, {
    number: '10001',
    customer: maya,
    currency: 'USD',
    placedAt: at('2026-01-11T14:32:05Z'),
    shipping: 'standard',
    lines: [
      { id: 101, variantId: 2102, quantity: 1 },
      { id: 102, variantId: 2101, quantity: 2, discount: '6.00' },
      { id: 103, variantId: 2103, quantity: 1, discount: '9.00', metadata: { gift_wrap: true } },
    ],
    status: 'open',
    fulfillmentStatus: 'incomplete',
    paymentStatus: 'partially_refunded',
    attribution: campaign('winter-layers', 'email', 'newsletter'),
    tags: ['first-order', 'voucher'],
    metadata: { gift_message: 'Happy trails, see you at the summit!', checkout_version: 3 },
    offers: [{ amount: '9.00', name: 'Hoodie + Mug', description: 'Half price on an enamel mug with any hoodie' }],
    voucher: { ...WELCOME, amount: '6.00' },
  });
  const firstCharge = charge(first, 501);
  buildFulfillmentOrder(seed, first, {
    id: 402,
    at: at('2026-01-11T14:33:00Z'),
    updatedAt: at('2026-01-12T10:20:00Z'),
    lineIds: [102],
    lineItemIds: [461],
    status: 'open',
    requestStatus: 'requested',
    requests: [{ type: 'fulfill_request', message: 'Please ship the tees in one parcel; the hoodie has already gone out.', notify: false }],
  });
  refund(seed, first, {
    id: 801,
    at: at('2026-01-12T09:20:00Z'),
    lines: [{ lineId: 103, quantity: 1, restock: 'cancel', id: 811 }],
    shipping: '3.00',
    adjustmentId: 821,
    note: 'Cream mug out of stock: line cancelled, half the shipping refunded as a courtesy.',
    payments: [{ charge: firstCharge, transactionId: 502 }],
  });
  buildFulfillment(seed, first, {
    id: 201,
    at: at('2026-01-12T10:15:00Z'),
    fulfillmentOrder: null,
    lines: [{ lineId: 101, quantity: 1, id: 251 }],
    carrier: UPS,
    trackingCode: '1Z9NW4210345678901',
    delivery: 'in_transit',
    track: ['label_printed', 'in_transit'],
    eventIds: [301, 302],
    eventOverrides: [
      { city: 'Portland', country: 'US', line1: '2200 NW Front Avenue', line2: 'Dock 4', state: 'OR', postcode: '97209', latitude: 45.5393, longitude: -122.6909, estimated_delivery_at: at('2026-01-15T22:00:00Z') },
      {
        city: 'Salt Lake City',
        country: 'US',
        line1: '1987 S 3800 W',
        line2: 'UPS Salt Lake City Hub',
        state: 'UT',
        postcode: '84104',
        latitude: 40.7296,
        longitude: -111.9786,
        message: 'Departed UPS facility, on the way to Denver.',
        created_at: at('2026-01-13T03:42:00Z'),
        updated_at: at('2026-01-13T03:42:00Z'),
        happened_at: at('2026-01-13T03:42:00Z'),
        estimated_delivery_at: at('2026-01-15T22:00:00Z'),
      },
    ],
  });
  first.updated_at = at('2026-01-13T03:42:00Z');
  orderNote(seed, '10001', 'Cream mug out of stock; the customer chose a refund over a backorder.', at('2026-01-12T09:25:00Z'), 601);

  // 10002: paid, accepted by the warehouse, and the customer asked to cancel (fulfillment order 401).
  const second = buildOrder(seed, {
    number: '10002',
    customer: daniel,
    currency: 'USD',
    placedAt: at('2026-01-13T19:07:44Z'),
    shipping: 'express',
    lines: [
      { id: 104, variantId: 2105, quantity: 1 },
      { id: 105, variantId: 2104, quantity: 2, discount: '4.80' },
    ],
    status: 'open',
    fulfillmentStatus: 'processing',
    paymentStatus: 'paid',
    attribution: campaign('beanie-season', 'social', 'instagram'),
    tags: ['express', 'cancellation-requested'],
    metadata: { checkout_version: 3, referral: 'instagram-story' },
    offers: [{ amount: '4.80', name: 'Sock bundle', description: '10% off two or more packs of socks' }],
  });
  charge(second, 503);
  buildFulfillmentOrder(seed, second, {
    id: 401,
    at: at('2026-01-13T19:08:00Z'),
    updatedAt: at('2026-01-14T08:12:00Z'),
    lineItemIds: [451, 452],
    status: 'processing',
    requestStatus: 'cancel_requested',
    requests: [{ type: 'cancel_request', message: 'The customer asked to cancel this order. Please stop it if it has not been packed yet.', notify: true }],
  });
  second.updated_at = at('2026-01-14T08:12:00Z');

  // The subscriptions: Sock Club (active), Coffee Club (past due), a seasonal tee plan (canceled),
  // the Outfitters Club (retrying), each with the order of its first cycle.
  const box = (customer: Customer) => ({ ...customer.shipping!, notes: 'Subscription box: leave at the door.' });
  const sockClub = campaign('sock-club');
  const subscriptions = [
    { id: 1, customer: maya, status: 'active', interval: 'month', intervalCount: 1, createdAt: '2026-01-15T08:00:00Z', nextRenewal: '2026-02-15T08:00:00Z', lines: [{ id: 701, variantId: 2104, quantity: 1, price: '24.00' }], attribution: sockClub },
    { id: 2, customer: daniel, status: 'past_due', interval: 'week', intervalCount: 2, createdAt: '2026-01-10T12:00:00Z', nextRenewal: '2026-01-24T12:00:00Z', lines: [{ id: 702, variantId: 2106, quantity: 2 }, { id: 703, variantId: 2107, quantity: 1 }], attribution: campaign('coffee-club'), shippingPrice: '6.00' },
    { id: 3, customer: maya, status: 'canceled', interval: 'month', intervalCount: 3, createdAt: '2026-01-10T15:30:00Z', nextRenewal: '2026-04-10T15:30:00Z', lines: [{ id: 704, variantId: 2101, quantity: 1 }], attribution: campaign('seasonal-tee-drop'), cancelReason: ['product_too_expensive', 'Found a cheaper seasonal tee plan elsewhere.'] as [string, string] },
    { id: 4, customer: daniel, status: 'retrying', interval: 'year', intervalCount: 1, createdAt: '2025-02-10T17:00:00Z', nextRenewal: '2026-02-10T17:00:00Z', lines: [{ id: 705, variantId: 2108, quantity: 1 }], attribution: campaign('outfitters-club') },
  ] as const;
  const made = subscriptions.map((facts) =>
    buildSubscription(seed, {
      ...facts,
      lines: facts.lines.map((line) => ({ ...line })),
      currency: 'USD',
      createdAt: at(facts.createdAt),
      nextRenewal: at(facts.nextRenewal),
      payer: { details: cardOf(facts.customer), method: 'bankcard' },
      shippingAddress: box(facts.customer),
      cancelReason: 'cancelReason' in facts ? facts.cancelReason : undefined,
      ...('cancelReason' in facts ? { canceledAt: at('2026-01-20T10:00:00Z') } : {}),
    }),
  );
  const [sock, coffee, tees, club] = made as [Rec, Rec, Rec, Rec];

  // 10003: Sock Club's first box, its first cycle, not shipped yet (no fulfillment order).
  const third = buildOrder(seed, {
    number: '10003',
    customer: maya,
    currency: 'USD',
    placedAt: at('2026-01-15T08:00:12Z'),
    shipping: 'standard',
    shippingPrice: String(sock.shipping_price),
    lines: [{ id: 106, variantId: 2104, quantity: 1, discount: '2.40', metadata: { subscription_id: 1 } }],
    status: 'open',
    fulfillmentStatus: 'unfulfilled',
    paymentStatus: 'paid',
    attribution: sockClub,
    subscription: { id: 1, cycle: 1 },
    tags: ['subscription', 'sock-club'],
    metadata: { checkout_version: 3, subscription_id: 1 },
    offers: [{ amount: '2.40', name: 'Sock Club welcome', description: '10% off the first box of a Sock Club subscription' }],
    shippingAddress: sock.shipping_address as Rec,
  });
  charge(third, 504, { id: 1, cycle: 1 });

  // The other three subscriptions' first orders, delivered (or with nothing to ship).
  renewalOrder(seed, coffee, daniel, '9986', 1, Date.parse(at('2026-01-10T12:00:05Z')), false);
  renewalOrder(seed, tees, maya, '9991', 1, Date.parse(at('2026-01-10T15:30:05Z')), false);
  renewalOrder(seed, club, daniel, '8412', 1, Date.parse(at('2025-02-10T17:00:05Z')), false);
  failedRenewal(seed, coffee, 2, String(coffee.next_renewal_date));
  failedRenewal(seed, club, 2, at('2026-01-27T17:00:00Z'));
  return { maya, daniel };
}
