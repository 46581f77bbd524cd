// The sandbox store's starting state: the records of seed-data.ts, fresh for each call so the
// caller may change them freely, with what follows from them derived here: each order's totals,
// the ids new objects continue from, the names of the export types, the seeded export's file and
// the clock's offset, which starts the sandbox's clock at the seed's moment (clock.ts). All dates
// are fixed, so two seeds are equal but for that offset.
import { EXPORT_TYPES } from '../api/enums.js';
import { seedClockOffset } from './clock.js';
import { markAvailable } from './exports.js';
import { SEED } from './seed-data.js';
import { STATE_SCHEMA, withNullPrototypes, type SandboxState } from './state.js';
import { recomputeOrderTotals, recordOriginals } from './totals.js';

export function createSeed(): SandboxState {
  // A JSON copy: the records share sub-records (a customer's address, a card), a state must not.
  const seed = JSON.parse(JSON.stringify(SEED)) as typeof SEED;
  for (const order of seed.orders) {
    recomputeOrderTotals(order);
    recordOriginals(order);
  }
  const state = withNullPrototypes({
    schema: STATE_SCHEMA,
    clockOffsetMs: seedClockOffset(),
    orders: byId(seed.orders, (order) => order.number),
    orderNotes: seed.orderNotes,
    customers: seed.customers,
    subscriptions: byId(seed.subscriptions, (s) => s.id),
    fulfillmentEvents: byId(seed.fulfillmentEvents, (event) => event.id),
    fulfillmentOrders: byId(seed.fulfillmentOrders, (fo) => fo.id),
    categories: byId(seed.categories, (c) => c.id),
    appSettings: seed.appSettings,
    webhooks: byId(seed.webhooks, (w) => w.id),
    exports: {},
    exportsReadyAt: {},
    exportFiles: {},
    disputes: {},
    exportTypes: EXPORT_TYPES.map((code) => ({ code, name: exportName(code) })),
    lastIds: {
      order: highest(seed.orders.map((order) => Number(order.number))),
      line: highest(seed.orders.flatMap((order) => (order.lines ?? []).map((line) => line.id))),
      note: highest([...Object.values(seed.orderNotes), ...Object.values(seed.customers).map((c) => c.notes)].flat().map((note) => note.id)),
      export: highest(seed.exports.map((e) => e.id)),
      dispute: 0,
      webhook: highest(seed.webhooks.map((w) => w.id)),
      delivery: 0,
      transaction: highest(seed.orders.flatMap((order) => (order.transactions ?? []).map((t) => t.id))),
    },
  });
  // Made earlier and already available: its file is made from the seed's records, as any export's.
  for (const made of seed.exports) {
    state.exports[made.id] = made;
    markAvailable(state, made);
  }
  return state;
}

function exportName(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function byId<T>(items: T[], key: (item: T) => string | number | null | undefined): Record<string, T> {
  return Object.fromEntries(items.map((item) => [String(key(item)), item]));
}

function highest(ids: unknown[]): number {
  return Math.max(0, ...ids.map((id) => (typeof id === 'number' ? id : Number(id) || 0)));
}
