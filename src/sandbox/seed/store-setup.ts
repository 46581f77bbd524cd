// How the store is set up: the store itself, its shipping methods, payment gateways and their
// groups, installed apps, webhooks, finished exports, content pages, themes, metadata definitions
// and ticket types. Kept as their retrieve answers show them; a gateway keeps its groups as
// `{id, weight}` (the group's name is joined), an export its fields but `url` (made from the
// sandbox's address when answered).
import type { Rec } from '../kinds.js';
import { PARTNER_APP } from '../settings.js';
import type { Seeding } from './seeding.js';
import { GATEWAYS, SHIPPING, STORE } from './store-facts.js';

const CURRENCIES = [
  { code: 'USD', label: 'US Dollar' },
  { code: 'EUR', label: 'Euro' },
];
const CARDS = [
  { code: 'visa', label: 'Visa' },
  { code: 'mastercard', label: 'Mastercard' },
  { code: 'american_express', label: 'American Express' },
];
const EXPRESS = [
  { code: 'apple_pay', label: 'Apple Pay' },
  { code: 'google_pay', label: 'Google Pay' },
];
const METHODS = [
  { code: 'bankcard', label: 'Card', supported_currencies: ['USD', 'EUR'] },
  { code: 'paypal', label: 'PayPal', supported_currencies: ['USD', 'EUR'] },
  { code: 'klarna', label: 'Klarna', supported_currencies: ['EUR'] },
];

export function buildStoreSetup(seed: Seeding): void {
  const { at } = seed;
  seed.add('store', {
    name: STORE.name,
    available_currencies: CURRENCIES,
    available_languages: [
      { code: 'en', label: 'English' },
      { code: 'de', label: 'German' },
      { code: 'fr', label: 'French' },
    ],
    contact_address: { city: 'Portland', company_name: 'Northwind Outfitters LLC', country: 'US', line1: '2200 NW Front Avenue', line2: 'Suite 300', phone_number: '+1 503 555 0100', postcode: '97209', state: 'OR' },
    payments: { available_express_payment_methods: EXPRESS, available_payment_methods: METHODS, certificate_token: 'cert_nw_7d1e4c2a', environment_key: 'env_live_northwind' },
    primary_domain: STORE.domain,
    tagline: 'Layers for the trail and the town.',
    tax_id: 'US-93-4417206',
    timezone: 'America/Los_Angeles',
  });

  for (const method of Object.values(SHIPPING)) {
    seed.add('shippingMethods', {
      id: seed.id('shippingMethods', method.id),
      code: method.code,
      name: method.name,
      countries: method.code === 'express' ? [{ code: 'US', name: 'United States' }] : [{ code: 'US', name: 'United States' }, { code: 'DE', name: 'Germany' }, { code: 'NL', name: 'Netherlands' }],
      delivery_time: method.code === 'express' ? '1-2 business days' : method.code === 'standard' ? '3-5 business days' : '',
      is_public: method.code !== 'no_shipping',
      prices: Object.entries(method.price).map(([currency, price]) => ({ currency, price_per_order: price })),
    });
  }

  seed.add('gatewayGroups', { id: seed.id('gatewayGroups', 1), name: 'Cards and wallets', available_currencies: CURRENCIES, available_express_payment_methods: EXPRESS, available_payment_methods: METHODS.slice(0, 2), card_types: CARDS });
  seed.add('gatewayGroups', { id: seed.id('gatewayGroups', 2), name: 'Pay later (EU)', available_currencies: CURRENCIES.slice(1), available_express_payment_methods: [], available_payment_methods: METHODS.slice(2), card_types: [] });
  buildGateway(seed, GATEWAYS.stripe, { card_types: CARDS, enable_3ds2: true, merchant_profile: 41, payment_flow: 'auth-capture', auto_capture_on_fulfillment: true, delayed_capture_days: 7, gateway_groups: [{ id: 1, weight: 10 }] });
  buildGateway(seed, GATEWAYS.paypal, { gateway_groups: [{ id: 1, weight: 5 }] });
  buildGateway(seed, GATEWAYS.klarna, { active: false, currencies: CURRENCIES.slice(1), gateway_groups: [{ id: 2, weight: 1 }] });
  buildGateway(seed, GATEWAYS.adyen, { card_types: CARDS, enable_3ds2: true, gateway_groups: [{ id: 1, weight: 1 }] });

  seed.add('apps', { client_id: PARTNER_APP.client_id, name: PARTNER_APP.name, created_at: at('2025-11-03T15:20:00Z'), updated_at: at('2026-01-22T16:45:00Z'), version: '2.4.0', settings: PARTNER_SETTINGS });
  seed.add('apps', { client_id: 'loyalty-points', name: 'Trail Points Loyalty', created_at: at('2025-12-12T09:00:00Z'), updated_at: at('2025-12-12T09:00:00Z'), version: null, settings: {} });

  seed.add('webhooks', {
    id: seed.id('webhooks', 1),
    active: true,
    api_version: '2024-04-01',
    created_at: at('2026-01-10T09:00:00Z'),
    updated_at: at('2026-01-22T16:45:00Z'),
    next_check_date: at('2026-02-15T00:00:00Z'),
    events: ['order.created', 'order.updated'],
    name: 'Order sync to warehouse system',
    secret_key: 'whsec_nw_5f3c9a1e7b2d4c6f8a0e',
    target: 'https://hooks.northwind-outfitters.example/store-events',
    warning_count: 0,
  });
  // Switched off: the list's `active` filter has something to tell apart, and nothing is delivered
  // to it. Made before webhooks had versions: it has none (deliveries take the stable one).
  seed.add('webhooks', {
    id: seed.id('webhooks', 2),
    active: false,
    api_version: null,
    created_at: at('2026-01-12T14:30:00Z'),
    updated_at: at('2026-01-18T08:15:00Z'),
    next_check_date: null,
    events: ['customer.created'],
    name: 'Legacy CRM import (paused)',
    secret_key: null,
    target: 'https://crm.northwind-outfitters.example/hooks/customers',
    warning_count: 0,
  });

  // Made earlier and available: one of January's orders, one of every customer (no date range).
  seed.add('exports', { id: seed.id('exports', 1), created_at: at('2026-02-01T06:00:00Z'), date_from: at('2026-01-01T00:00:00Z'), date_to: at('2026-01-31T23:59:59Z'), status: 'available', type: 'order_list' });
  seed.add('exports', { id: seed.id('exports', 2), created_at: at('2026-01-20T06:05:00Z'), date_from: null, date_to: null, status: 'available', type: 'customer_list' });

  const page = (slug: string, title: string, fields: Rec) => seed.add('pages', { id: seed.id('pages'), slug, title, content: '', meta_description: null, meta_title: null, metadata: null, template: null, ...fields });
  page('about-us', 'About us', { content: '<h1>About us</h1><p>Outdoor layers made in Portland since 2014.</p>', meta_description: 'Who we are.', meta_title: 'About us | Northwind Outfitters', metadata: { hero: 'team.jpg' }, template: 'page' });
  page('shipping-returns', 'Shipping and returns', { content: '<h1>Shipping and returns</h1><p>Free returns within 30 days.</p>' });
  page('size-guide', 'Size guide', { content: '<h1>Size guide</h1>', meta_title: 'Size guide', template: 'page-wide' });

  // A theme keeps its templates (they have no kind of their own): the live one has its product page.
  const product = { name: 'product.html', content: '<main>{{ product.title }}</main>', file: `${STORE.cdn}/themes/trailhead/product.html`, theme: 1 };
  seed.add('themes', { id: seed.id('themes', 1), name: 'Trailhead', active: true, templates: [product] });
  seed.add('themes', { id: seed.id('themes', 2), name: 'Summit (draft)', active: false });

  for (const name of ['Where is my order?', 'Return request', 'Product question']) seed.add('ticketTypes', { id: seed.id('ticketTypes'), name });

  for (const [index, [object, type, key]] of DEFINITIONS.entries()) {
    seed.add('metadata', {
      id: seed.id('metadata'),
      key,
      name: key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
      object,
      type,
      enable_export: index % 2 === 0,
      enable_filter: index % 3 === 0,
      created_at: at('2025-10-01T08:00:00Z'),
      updated_at: at('2025-12-01T08:00:00Z'),
      validations: VALIDATIONS[type] ?? [],
    });
  }
}

/** A payment gateway as the store set it up: taking every store currency, charging at once, unless `extra` says otherwise. */
export function buildGateway(seed: Seeding, facts: { id?: number; name: string; type: string }, extra: Rec): Rec {
  return seed.add('gateways', {
    id: seed.id('gateways', facts.id),
    name: facts.name,
    gateway_type: facts.type,
    active: true,
    auto_capture_on_fulfillment: false,
    card_types: [],
    currencies: CURRENCIES,
    delayed_capture_days: null,
    enable_3ds2: false,
    gateway_groups: [],
    merchant_profile: null,
    optimized_3ds: false,
    payment_flow: 'charge',
    ...extra,
  });
}

/** The partner app's settings, as it saved them. */
const PARTNER_SETTINGS = {
  display_name: 'Northwind Ops Console',
  sync_interval_minutes: 15,
  auto_accept_fulfillment_orders: false,
  low_stock_alerts: true,
  notifications: { email: 'ops@northwind-outfitters.example', slack_channel: '#store-orders' },
};

/** A definition per kind of object metadata can be kept on, of every type between them. */
const DEFINITIONS: [object: string, type: string, key: string][] = [
  ['order', 'text', 'gift_message'],
  ['line', 'boolean', 'gift_wrap'],
  ['customer', 'integer', 'loyalty_points'],
  ['product', 'rich_text', 'care_instructions'],
  ['variant', 'decimal', 'weight_kg'],
  ['dispute', 'multi_text', 'evidence_links'],
  ['attribution', 'text', 'landing_page'],
  ['page', 'file', 'hero'],
  ['blog', 'text', 'author_bio'],
];

const VALIDATIONS: Record<string, Rec[]> = {
  text: [{ type: 'maximum_length', value: '500' }],
  integer: [{ type: 'minimum_value', value: '0' }, { type: 'maximum_value', value: '100000' }],
  decimal: [{ type: 'maximum_precision', value: '3' }],
  file: [{ type: 'accept_only_image', value: 'true' }],
};
