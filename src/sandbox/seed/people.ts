// The store's customers: people with their addresses and the notes staff keep about them, drawn
// from a few lists of names and places (the anchors' are written out in anchors.ts).
//
// Kept per user (User at 2024-04-01): what the person is; `addresses` are the addresses kind
// (linked by `user_id`), and `orders_count`, `subscriptions_count`, `total_spent` are counted
// from the orders, subscriptions and transactions when the user is answered (views.ts). An order
// or subscription keeps its own copy of the addresses it was placed with (they have no endpoint).
import type { Rec } from '../kinds.js';
import { DAY, type Seeding } from './seeding.js';
import { staffNote, type Currency } from './store-facts.js';

const FIRST_NAMES = ['Ava', 'Liam', 'Noor', 'Mateo', 'Hana', 'Oskar', 'Chloé', 'Ibrahim', 'Greta', 'Kenji', 'Sofia', 'Tariq', 'Elin', 'Jonas', 'Amara', 'Felix', 'Ines', 'Ravi', 'Lucía', 'Malik'];
const LAST_NAMES = ['Andersen', 'Bianchi', 'Carter', 'Dubois', 'Eriksson', 'Fischer', 'García', 'Haddad', 'Ito', 'Jansen', 'Kowalski', 'Larsen', 'Moreau', 'Nakamura', 'Okonkwo', 'Pereira', 'Quinn', 'Rossi', 'Svensson', 'Tanaka'];

interface Place {
  city: string;
  state: string;
  postcode: string;
  country: string;
  street: string;
  /** The language its people mostly read the store in. */
  language: string;
  currency: Currency;
}

const PLACES: readonly Place[] = [
  { city: 'Seattle', state: 'WA', postcode: '98101', country: 'US', street: 'Pine Street', language: 'en', currency: 'USD' },
  { city: 'Boston', state: 'MA', postcode: '02116', country: 'US', street: 'Newbury Street', language: 'en', currency: 'USD' },
  { city: 'Chicago', state: 'IL', postcode: '60607', country: 'US', street: 'West Randolph Street', language: 'es', currency: 'USD' },
  { city: 'Minneapolis', state: 'MN', postcode: '55401', country: 'US', street: 'Washington Avenue', language: 'en', currency: 'USD' },
  { city: 'Bangkok', state: 'Bangkok', postcode: '10110', country: 'TH', street: 'Sukhumvit Road', language: 'th', currency: 'USD' },
  { city: 'Berlin', state: 'Berlin', postcode: '10115', country: 'DE', street: 'Invalidenstraße', language: 'de', currency: 'EUR' },
  { city: 'Lyon', state: 'Auvergne-Rhône-Alpes', postcode: '69002', country: 'FR', street: 'Rue de la République', language: 'fr', currency: 'EUR' },
  { city: 'Göteborg', state: 'Västra Götaland', postcode: '411 19', country: 'SE', street: 'Kungsgatan', language: 'sv', currency: 'EUR' },
  { city: 'Utrecht', state: 'Utrecht', postcode: '3511 AB', country: 'NL', street: 'Oudegracht', language: 'nl', currency: 'EUR' },
  { city: 'Porto', state: 'Porto', postcode: '4000-069', country: 'PT', street: 'Rua de Santa Catarina', language: 'pt', currency: 'EUR' },
  { city: 'Aarhus', state: 'Midtjylland', postcode: '8000', country: 'DK', street: 'Ryesgade', language: 'da', currency: 'EUR' },
  { city: 'Tampere', state: 'Pirkanmaa', postcode: '33100', country: 'FI', street: 'Hämeenkatu', language: 'fi', currency: 'EUR' },
  { city: 'Bergen', state: 'Vestland', postcode: '5003', country: 'NO', street: 'Strandgaten', language: 'no', currency: 'EUR' },
  { city: 'Torino', state: 'Piemonte', postcode: '10121', country: 'IT', street: 'Via Roma', language: 'it', currency: 'EUR' },
];

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

/** A user address as the addresses kind keeps it. */
export interface AddressFacts {
  id?: number;
  line1: string;
  line2?: string;
  line3?: string;
  line4: string;
  state?: string;
  postcode?: string;
  country: string;
  phone?: string;
  notes?: string;
  billing?: boolean;
  shipping?: boolean;
}

export interface CustomerFacts {
  id?: number;
  first: string;
  last: string;
  email: string;
  joined: string;
  language: string | null;
  phone: string | null;
  ip: string | null;
  userAgent: string | null;
  acceptsMarketing: boolean;
  type?: 'customer' | 'lead';
  blocked?: boolean;
  tags?: (string | null)[];
  metadata?: Rec;
  addresses: AddressFacts[];
}

/** A customer as the builders of orders and subscriptions use one: the user and the addresses to place with. */
export interface Customer {
  user: Rec;
  /** Copies of the default addresses, as an order keeps them (null without one). */
  billing: Rec | null;
  shipping: Rec | null;
}

export function buildCustomer(seed: Seeding, facts: CustomerFacts): Customer {
  const customer: Customer = { user: {}, billing: null, shipping: null };
  const user = (customer.user = seed.add('users', {
    id: seed.id('users', facts.id),
    accepts_marketing: facts.acceptsMarketing,
    date_joined: facts.joined,
    email: facts.email,
    first_name: facts.first,
    ip: facts.ip,
    is_blocked: facts.blocked ?? false,
    language: facts.language,
    last_name: facts.last,
    metadata: facts.metadata ?? { source: 'storefront' },
    phone_number: facts.phone,
    tags: facts.tags ?? [],
    user_agent: facts.userAgent,
    user_type: facts.type ?? 'customer',
  }));
  for (const address of facts.addresses) {
    const kept = seed.add('addresses', {
      id: seed.id('addresses', address.id),
      user_id: user.id,
      country: address.country,
      first_name: facts.first,
      is_default_for_billing: address.billing ?? false,
      is_default_for_shipping: address.shipping ?? false,
      last_name: facts.last,
      line1: address.line1,
      ...(address.line2 === undefined ? {} : { line2: address.line2 }),
      ...(address.line3 === undefined ? {} : { line3: address.line3 }),
      line4: address.line4,
      ...(address.notes === undefined ? {} : { notes: address.notes }),
      ...(address.phone === undefined ? {} : { phone_number: address.phone }),
      ...(address.postcode === undefined ? {} : { postcode: address.postcode }),
      ...(address.state === undefined ? {} : { state: address.state }),
    });
    const { user_id: _user, is_default_for_billing: _billing, is_default_for_shipping: _shipping, notes, ...copy } = kept;
    if (address.billing && !customer.billing) customer.billing = copy;
    if (address.shipping && !customer.shipping) customer.shipping = { ...copy, ...(notes === undefined ? {} : { notes }) };
  }
  return customer;
}

/** A generated customer, the `n`th: where they live sets their currency and language. */
export function generateCustomer(seed: Seeding, n: number): Customer & { currency: Currency } {
  const { random } = seed;
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const place = PLACES[n % PLACES.length]!;
  const plain = `${first}.${last}`.normalize('NFD').replace(/[^A-Za-z.]/g, '').toLowerCase();
  const street = `${random.int(2, 980)} ${place.street}`;
  const phone = random.chance(0.8) ? `+${place.country === 'US' ? '1' : '4'}${random.int(200, 989)} 555 ${String(random.int(100, 9999)).padStart(4, '0')}` : null;
  // One in nine never bought anything: a lead from the newsletter, without an address.
  const lead = n % 9 === 8;
  const customer = buildCustomer(seed, {
    first,
    last,
    email: `${plain}${n}@example.${place.country === 'US' ? 'com' : 'net'}`,
    joined: seed.ago((400 + (n % 300)) * DAY),
    // The language as the customer set it: some never did (null), some cleared it ('').
    language: n % PLACES.length === 1 ? null : n % PLACES.length === 3 ? '' : place.language,
    phone,
    ip: n % 6 === 1 ? null : `${random.int(11, 223)}.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`,
    userAgent: n % 6 === 1 ? null : random.pick(BROWSERS),
    acceptsMarketing: random.chance(0.5),
    type: lead ? 'lead' : 'customer',
    blocked: n % 12 === 11,
    tags: n % 5 === 0 ? ['vip', null] : [],
    metadata: n % 4 === 2 ? {} : { source: lead ? 'newsletter' : 'storefront' },
    addresses: lead
      ? []
      : [
          {
            line1: street,
            ...(n % 3 === 0 ? { line2: `Apt ${random.int(1, 40)}` } : {}),
            line4: place.city,
            state: place.state,
            postcode: place.postcode,
            country: place.country,
            ...(phone ? { phone } : {}),
            billing: true,
            shipping: n % 4 !== 3,
            ...(n % 2 === 0 ? { notes: 'Ring the bell twice.' } : {}),
          },
          // Some send their parcels to work.
          ...(n % 4 === 3 ? [{ line1: `${random.int(1, 99)} Market Square`, line3: 'Reception', line4: place.city, country: place.country, shipping: true }] : []),
        ],
  });
  return { ...customer, currency: place.currency };
}

/** A staff note about a customer (users' notes kind). */
export function customerNote(seed: Seeding, userId: number, message: string, written: string, id?: number): Rec {
  return seed.add('userNotes', {
    id: seed.id('userNotes', id),
    user_id: userId,
    ...staffNote(message),
    created_at: written,
    updated_at: written,
  });
}
