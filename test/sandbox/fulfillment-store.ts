// A small store for the fulfillment rules' tests: three locations, two variants stocked at two of
// them, orders whose fulfillment orders start open, built from a few record builders. Each test
// starts from it afresh, drives the sandbox through the CLI's commands (in process), and
// every answer the sandbox gave is held to the platform's reference at the version it was asked
// for (skipped without ../shared).
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ANSWERS_MANY } from '../../src/api/refinements.js';
import { loadAllOperations, operation, type OperationId } from '../../src/api/operations.js';
import { router } from '../../src/api/routes.js';
import { jobs as JOBS } from '../../src/commands/fulfillment-orders.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { supportedActions } from '../../src/sandbox/supported-actions.js';
import { seedClockOffset } from '../../src/sandbox/clock.js';
import { KIND_NAMES, type Records } from '../../src/sandbox/kinds.js';
import { STATE_SCHEMA, withNullPrototypes, type SandboxState } from '../../src/sandbox/state.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { runInProcess } from '../cli/in-process.js';
import { useConfigDir } from '../cli/run.js';
import { FULL_TOKEN, startTestSandbox } from '../helpers.js';
import { complaints, REFERENCE_PRESENT, referenceValidators, VERSIONS } from './reference-answers.js';

const NOW = '2026-01-10T09:00:00Z';

export const location = (id: number, name: string, city: string): Rec => ({
  id,
  name,
  accept_return: true,
  address: { country: 'US', line1: `${id} Dock Road`, line4: city, postcode: '97201', state: 'OR' },
  callback_url: `https://warehouse${id}.example/callback/`,
});

export const variant = (id: number, productId: number, sku: string, more: Rec = {}): Rec => ({ id, product_id: productId, sku, title: sku, track_stock: true, allow_backorders: false, ...more });

export const stockrecord = (id: number, variantId: number, locationId: number, inStock: number | null, allocated: number | null, more: Rec = {}): Rec => ({
  id,
  variant_id: variantId,
  location_id: locationId,
  num_in_stock: inStock,
  num_allocated: allocated,
  low_stock_threshold: 2,
  date_created: NOW,
  date_updated: NOW,
  ...more,
});

export const orderLine = (id: number, variantId: number, sku: string, quantity: number): Rec => ({
  id,
  variant_id: variantId,
  sku,
  product_title: sku,
  quantity,
  current_quantity: quantity,
  fulfillable_quantity: quantity,
  editable_quantity: quantity,
  requires_shipping: true,
});

export const order = (number: string, lines: Rec[]): Rec => ({
  number,
  lines,
  fulfillment_status: 'unfulfilled',
  order_status_url: `https://shop.example/orders/${number}/status/`,
  created_at: NOW,
  updated_at: NOW,
});

/** A fulfillment order line for `units` of an order line, counted by a stock record. */
export const foLine = (id: number, foId: number, orderLineId: number, stockrecordId: number, sku: string, units: number, productId: number): Rec => ({
  id,
  fulfillment_order_id: foId,
  order_line_id: orderLineId,
  stockrecord_id: stockrecordId,
  sku,
  quantity: units,
  fulfillable_quantity: String(units),
  currency: 'USD',
  price_excl_tax: '20.00',
  price_incl_tax: '24.00',
  total_discount: '0.00',
  product_id: String(productId),
  product_image: 'https://cdn.example/products/tee.jpg',
  product_title: sku,
  tax_lines: [],
});

export function fulfillmentOrder(id: number, orderNumber: string, locationId: number, lines: Rec[], more: Rec = {}): Rec {
  const fo: Rec = {
    id,
    order_number: orderNumber,
    location_id: locationId,
    status: 'open',
    request_status: 'pending',
    created_at: NOW,
    updated_at: NOW,
    fulfillment_holds: [],
    merchant_requests: [],
    shipping_address: null,
    shipping_method: { code: 'standard', name: 'Standard Shipping' },
    line_items: lines,
    ...more,
  };
  return { ...fo, supported_actions: supportedActions(String(fo.status), String(fo.request_status)) };
}

/**
 * The store: Portland (1) stocks 10 tees and 3 mugs, Austin (2) 5 tees, Denver (3) 1 tee; what
 * the fulfillment orders hold is allocated.
 * Order 10001 (2 tees, 1 mug) waits in fulfillment order 501 at Portland; order 10002 (1 tee,
 * 1 mug) is split between 502 at Portland (the mug) and 503 at Austin (the tee).
 */
export function fulfillmentStore(): SandboxState {
  // Its own records only, whatever the seeded store holds.
  const records = Object.fromEntries(KIND_NAMES.map((kind) => [kind, {}])) as Records;
  const state = withNullPrototypes({ schema: STATE_SCHEMA, clockOffsetMs: seedClockOffset(), records, lastIds: {}, webhookOutbox: [], deliveryLog: [], exportFiles: {}, exportsReadyAt: {} });
  const put = (kind: keyof SandboxState['records'], key: string | number, record: Rec) => (state.records[kind][String(key)] = record);
  for (const l of [location(1, 'Portland Warehouse', 'Portland'), location(2, 'Austin Warehouse', 'Austin'), location(3, 'Denver Warehouse', 'Denver')]) put('locations', l.id as number, l);
  put('products', 10, { id: 10, title: 'Tee' });
  put('products', 11, { id: 11, title: 'Mug' });
  put('variants', 101, variant(101, 10, 'TEE-M', { inventory_availability: 'in_stock', purchase_availability: 'available' }));
  put('variants', 102, variant(102, 11, 'MUG', { inventory_availability: 'low_stock', purchase_availability: 'available' }));
  for (const sr of [stockrecord(201, 101, 1, 10, 2), stockrecord(202, 101, 2, 5, 1), stockrecord(203, 102, 1, 3, 2), stockrecord(204, 101, 3, 1, 0)]) put('stockrecords', sr.id as number, sr);
  put('orders', '10001', order('10001', [orderLine(1001, 101, 'TEE-M', 2), orderLine(1002, 102, 'MUG', 1)]));
  put('fulfillmentOrders', 501, fulfillmentOrder(501, '10001', 1, [foLine(601, 501, 1001, 201, 'TEE-M', 2, 10), foLine(602, 501, 1002, 203, 'MUG', 1, 11)]));
  put('orders', '10002', order('10002', [orderLine(1003, 101, 'TEE-M', 1), orderLine(1004, 102, 'MUG', 1)]));
  put('fulfillmentOrders', 502, fulfillmentOrder(502, '10002', 1, [foLine(603, 502, 1004, 203, 'MUG', 1, 11)]));
  put('fulfillmentOrders', 503, fulfillmentOrder(503, '10002', 2, [foLine(604, 503, 1003, 202, 'TEE-M', 1, 10)]));
  state.lastIds = { fulfillmentOrders: 600, fulfillmentOrderLines: 700, fulfillments: 800, fulfillmentLines: 900, fulfillmentEvents: 950, stockrecords: 300 };
  return state;
}

let route: ReturnType<typeof router> | undefined;

/**
 * The command a person types for a request: the operation's own words, its path parameters as
 * arguments, its query as filter flags and its body as `--data`. An operation whose command is a
 * job (`fulfillment-orders move` moves orders' fulfillment orders) is sent with `api`, its body on stdin.
 */
async function commandFor(method: string, path: string, body: unknown): Promise<{ args: string[]; stdin?: string }> {
  route ??= router(await loadAllOperations());
  const url = new URL(path, 'http://store.invalid');
  const match = route(method, `/api/admin${url.pathname}`);
  if (match.kind !== 'found') throw new Error(`No operation answers ${method} ${path}`);
  if ((JOBS as readonly string[]).includes(match.id)) return { args: ['api', path, '-X', method, '--input', '-'], stdin: JSON.stringify(body ?? {}) };
  const words = operation(match.id).command.split(' ');
  const flags = [...url.searchParams].flatMap(([name, value]) => [`--${name.replaceAll('_', '-')}`, value]);
  const data = body !== undefined && (typeof body !== 'object' || Object.keys(body as object).length > 0) ? ['--data', JSON.stringify(body)] : [];
  return { args: [...words, ...Object.values(match.params).map(String), ...flags, ...data] };
}

export interface CliAnswer {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/**
 * The sandbox and the CLI for a describe block, over the store `build` makes afresh for each test
 * (this small one unless told): `cli(method, path, body?)` runs the operation's command in
 * process and parses the JSON it prints. Every answer is checked against the reference after each
 * test; `answered` lists the (operation, version) pairs answered so far.
 */
export function useFulfillmentSandbox(build: () => SandboxState = fulfillmentStore) {
  const store = memoryStore(build());
  const dir = useConfigDir();
  const validators = REFERENCE_PRESENT ? new Map(VERSIONS.map((version) => [version as string, referenceValidators(version)])) : undefined;
  const answers: { id: OperationId; version: string; body: unknown }[] = [];
  const ctx = {
    sandbox: undefined as unknown as Sandbox,
    store,
    answered: new Set<string>(),
    async cli(method: string, path: string, body?: unknown, version?: string): Promise<CliAnswer> {
      const env = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
      const { args, stdin } = await commandFor(method, path, body);
      const run = await runInProcess([...args, ...(version ? ['--api-version', version] : []), '--yes', '--json'], env, stdin);
      return { ...run, json: run.stdout.trim() ? JSON.parse(run.stdout) : undefined };
    },
    /** The sandbox's own answer to a request the CLI would refuse before sending: status and body. */
    async raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
      const headers = { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01', 'content-type': 'application/json' };
      const response = await fetch(`${ctx.sandbox.url}/api/admin${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: response.status, body: await response.json() };
    },
    /** The stored record of a kind, as the rules left it. */
    record(kind: keyof SandboxState['records'], key: string | number): Rec {
      return store.state.records[kind][String(key)]!;
    },
  };
  beforeAll(async () => {
    ctx.sandbox = await startTestSandbox({
      store,
      token: FULL_TOKEN,
      onAnswer: (id, body, version) => {
        answers.push({ id, version, body: structuredClone(body) });
        ctx.answered.add(`${id}@${version}`);
      },
    });
  });
  beforeEach(() => {
    store.state = build();
  });
  afterEach(() => {
    if (!validators) return;
    const problems = answers.splice(0).flatMap(({ id, version, body }) => {
      // An answer with no body (204) has nothing to hold to a schema.
      const reference = validators.get(version)!.answer(id);
      if (!reference) return [];
      const items = ANSWERS_MANY.has(id) && Array.isArray(body) ? body : [body];
      return items.flatMap((item) => complaints(reference.validate, item ?? null).map((complaint) => `${id} at ${version}: ${complaint}`));
    });
    expect([...new Set(problems)], 'answers that break the reference').toEqual([]);
  });
  afterAll(() => ctx.sandbox.close());
  return ctx;
}
