// The seeded store as records (kinds.ts): the catalogue and the store's setup, the anchors the
// docs and tests name, then customers, subscriptions and orders drawn from a fixed random seed,
// and around them carts, gift cards, disputes and tickets. The same options build the same
// records, byte for byte; `size` (the number of orders) grows the store for paging and load work,
// everything else growing with it.
import { KINDS, KIND_NAMES, type KindName, type Rec, type Records } from '../kinds.js';
import { ANCHOR_IDS, buildAnchors } from './anchors.js';
import { buildCatalogue } from './catalogue.js';
import { buildStoryOrder } from './order-stories.js';
import { orderNote } from './orders.js';
import { customerNote, generateCustomer, type Customer } from './people.js';
import { DAY, HOUR, seeding, type Seeding } from './seeding.js';
import { buildCart, buildDispute, buildGiftCard, buildTicket } from './service.js';
import { buildStoreSetup } from './store-setup.js';
import type { Currency } from './store-facts.js';
import { generateSubscription, renewalOrder } from './subscriptions.js';

/** The default store's orders; fewer cannot show every status (a smaller `size` builds this many). */
export const DEFAULT_SIZE = 60;

export interface SeedOptions {
  /** How many orders; DEFAULT_SIZE at least. */
  size?: number;
  /** The seed's moment (ms since the epoch): dates are written relative to it. */
  now: number;
}

export interface Seed {
  records: Records;
  /**
   * The highest key of each numbered kind (0 for the others), and the highest id of each sort of
   * object kept inside a record (`line`, `refund`, …): new ones take the next.
   */
  lastIds: Record<string, number>;
}

type Buyer = Customer & { currency: Currency };

export function buildRecords({ size = DEFAULT_SIZE, now }: SeedOptions): Seed {
  const seed = seeding(now);
  buildCatalogue(seed);
  buildStoreSetup(seed);
  const { maya, daniel } = buildAnchors(seed);
  const generated = Math.max(DEFAULT_SIZE, size) - ANCHOR_IDS.orders.length;

  const customers = Array.from({ length: Math.max(12, Math.ceil(generated / 3)) }, (_, n) => generateCustomer(seed, n));
  const buyers = customers.filter((customer) => customer.user.user_type === 'customer');
  for (const [n, customer] of customers.entries()) {
    if (n % 4 === 0) customerNote(seed, Number(customer.user.id), n % 8 ? 'Asked about wholesale prices.' : 'Returned an item before; check sizes with them.', seed.ago((20 + n) * DAY));
  }

  // Orders are planned first and numbered in the order they were placed, below the anchors'.
  const plans: { placedAt: number; build: (number: string) => void }[] = [];
  for (let n = 0; n < Math.max(6, Math.round(generated / 15)); n++) {
    const buyer = buyers[(n * 5 + 1) % buyers.length]!;
    const { subscription, cycles } = generateSubscription(seed, buyer, buyer.currency, n);
    for (const [at, placedAt] of cycles.entries()) {
      plans.push({ placedAt, build: (number) => renewalOrder(seed, subscription, buyer, number, at + 1, placedAt, at === cycles.length - 1) });
    }
  }
  const stories = Math.max(0, generated - plans.length);
  const from = now - 400 * DAY;
  const until = Date.parse(seed.at('2026-01-11T00:00:00Z'));
  for (let n = 0; n < stories; n++) {
    const buyer = buyers[(n * 7 + 3) % buyers.length]!;
    const placedAt = from + Math.floor(((until - from) * n) / stories) + (n % 7) * HOUR;
    plans.push({ placedAt, build: (number) => buildStoryOrder(seed, { number, placedAt, customer: buyer, currency: buyer.currency, n }) });
  }
  plans.sort((a, b) => a.placedAt - b.placedAt);
  const numbers = orderNumbers(plans.length);
  plans.forEach((plan, at) => plan.build(numbers[at]!));

  buildService(seed, generated, [{ ...maya, currency: 'USD' }, { ...daniel, currency: 'USD' }, ...buyers], customers);
  return { records: seed.records, lastIds: { ...seed.lastIds(), ...lastIds(seed.records) } };
}

/** Carts, gift cards, disputes and tickets, growing with the store. */
function buildService(seed: Seeding, generated: number, buyers: Buyer[], customers: Buyer[]): void {
  const { records } = seed;
  const byUser = new Map(buyers.map((buyer) => [buyer.user.id, buyer]));
  for (let n = 0; n < Math.max(9, Math.round(generated / 25)); n++) {
    const customer = customers[(n * 3 + 1) % customers.length]!;
    buildCart(seed, customer, customer.currency, n);
  }
  for (let n = 0; n < Math.max(6, Math.round(generated / 50)); n++) {
    const holder = customers[(n * 5 + 1) % customers.length]!;
    buildGiftCard(seed, holder, holder.currency, n);
  }
  // Disputes on charges that went through, never the anchors' (their tests dispute them).
  const anchored = new Set<number>(ANCHOR_IDS.transactions);
  const charges = Object.values(records.transactions).filter((t) => t.type === 'debit' && t.status === 'succeeded' && t.order !== null && !anchored.has(Number(t.id)));
  const disputes = Math.max(14, Math.round(generated / 200));
  for (let n = 0; n < disputes; n++) {
    buildDispute(seed, n % 7 === 5 ? null : charges[Math.floor((n * charges.length) / disputes)]!, n);
  }
  const orders = Object.values(records.orders).filter((order) => !ANCHOR_IDS.orders.includes(String(order.number) as never));
  for (let n = 0; n < Math.max(6, Math.round(generated / 40)); n++) {
    const order: Rec | null = n % 4 === 2 ? null : orders[(n * 13) % orders.length]!;
    const customer = order ? byUser.get(order.user_id)! : buyers[n % buyers.length]!;
    buildTicket(seed, customer, order, n);
    if (order && n % 3 === 0) orderNote(seed, order.number, 'Support ticket opened about this order.', String(order.updated_at));
  }
}

/** `count` order numbers below the anchors', counting down from 10000 (then on above them), ascending. */
function orderNumbers(count: number): string[] {
  const anchored = new Set<string>(ANCHOR_IDS.orders);
  const numbers: string[] = [];
  for (let n = 10000; n > 0 && numbers.length < count; n--) if (!anchored.has(String(n))) numbers.push(String(n));
  numbers.reverse();
  for (let n = 10004; numbers.length < count; n++) numbers.push(String(n));
  return numbers;
}

function lastIds(records: Records): Record<KindName, number> {
  const last = {} as Record<KindName, number>;
  for (const kind of KIND_NAMES) {
    let max = 0;
    if (KINDS[kind].numbered) for (const key of Object.keys(records[kind])) max = Math.max(max, Number(key));
    last[kind] = max;
  }
  return last;
}
