// The files behind the sandbox's exports: one CSV table per export type, built from the state
// when the export becomes available, of the records dated within its date_from..date_to. Each
// table names its columns once, with how to read each column from a record, and says which date
// places a record in a range.
import type { CartDetail, CartLine, FulfillmentLineResponse, FulfillmentResponse, Order, Refund, RefundLine, SubscriptionDetail, SubscriptionLine, Transaction, User } from '../api/generated/types.js';
import type { Rec } from './kinds.js';
import type { SandboxState } from './state.js';

type Kept<T> = T & Rec;

/** An export's date range, both ends included. */
export interface DateRange {
  from: string;
  to: string;
}

interface Table {
  header: string[];
  rows: (state: SandboxState, range: DateRange) => unknown[][];
}

function table<T>(records: (state: SandboxState) => T[], dated: (record: T) => unknown, columns: Record<string, (record: T, state: SandboxState) => unknown>): Table {
  const entries = Object.entries(columns);
  return {
    header: entries.map(([name]) => name),
    rows: (state, range) => records(state).filter((record) => within(dated(record), range)).map((record) => entries.map(([, read]) => read(record, state))),
  };
}

function within(date: unknown, range: DateRange): boolean {
  const at = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return at >= Date.parse(range.from) && at <= Date.parse(range.to);
}

const all = <T>(state: SandboxState, kind: keyof SandboxState['records']) => Object.values(state.records[kind]) as Kept<T>[];
const orders = (state: SandboxState) => all<Order>(state, 'orders');
const userOf = (state: SandboxState, id: unknown) => state.records.users[String(id)] as Kept<User> | undefined;

/** Every item of every order, paired with its order. */
function perOrder<T>(items: (order: Kept<Order>) => T[] | null | undefined) {
  return (state: SandboxState) => orders(state).flatMap((order) => (items(order) ?? []).map((item) => ({ order, item })));
}

/** Every item of every refund or fulfillment, paired with its parent and order number. */
function perChild<P extends Rec, T>(parents: (state: SandboxState) => P[], items: (parent: P) => T[] | null | undefined) {
  return (state: SandboxState) => parents(state).flatMap((parent) => (items(parent) ?? []).map((item) => ({ parent, item })));
}

const refunds = (state: SandboxState) => orders(state).flatMap((order) => (order.refunds ?? []).map((refund) => ({ ...refund, order_number: order.number }) as Kept<Refund>));
const fulfillments = (state: SandboxState) => all<FulfillmentResponse>(state, 'fulfillments');

function subscriptionLines(state: SandboxState): { subscription: Kept<SubscriptionDetail>; line: SubscriptionLine }[] {
  return all<SubscriptionDetail>(state, 'subscriptions').flatMap((subscription) => (subscription.lines ?? []).map((line) => ({ subscription, line })));
}

/** Carts not yet turned into orders. */
const openCarts = (state: SandboxState) => all<CartDetail>(state, 'carts').filter((cart) => cart.status !== 'submitted');

const fullName = (person: { first_name?: unknown; last_name?: unknown } | null | undefined) =>
  [person?.first_name, person?.last_name].filter((part) => part != null && part !== '').join(' ');

/** Every export type has a table (the type checker insists). */
const TABLES: Record<string, Table> = {
  order_list: table(orders, (o) => o.date_placed, {
    number: (o) => o.number,
    date_placed: (o) => o.date_placed,
    status: (o) => o.status,
    payment_status: (o) => o.payment_status,
    fulfillment_status: (o) => o.fulfillment_status,
    currency: (o) => o.currency,
    total_excl_tax: (o) => o.total_excl_tax,
    total_tax: (o) => o.total_tax,
    total_incl_tax: (o) => o.total_incl_tax,
    total_discount: (o) => o.total_discount,
    total_outstanding: (o) => o.total_outstanding,
    shipping_method: (o) => o.shipping_method,
    customer_id: (o) => o.user_id,
    customer_email: (o, state) => userOf(state, o.user_id)?.email,
    customer_name: (o, state) => fullName(userOf(state, o.user_id)),
    source: (o) => o.source,
    tags: (o) => o.tags,
  }),
  order_line_items: table(perOrder((o) => o.lines), ({ order }) => order.date_placed, {
    order_number: ({ order }) => order.number,
    line_id: ({ item }) => item.id,
    product_id: ({ item }) => item.product_id,
    variant_id: ({ item }) => item.variant_id,
    product_title: ({ item }) => item.product_title,
    variant_title: ({ item }) => item.variant_title,
    sku: ({ item }) => item.sku,
    quantity: ({ item }) => item.quantity,
    current_quantity: ({ item }) => item.current_quantity,
    unit_cost: ({ item }) => item.unit_cost,
    total_discount: ({ item }) => item.total_discount,
    price_excl_tax: ({ item }) => item.price_excl_tax,
    price_incl_tax: ({ item }) => item.price_incl_tax,
    currency: ({ item }) => item.currency,
  }),
  customer_list: table(
    (state) => all<User>(state, 'users').map((user) => ({ user, joined: user.date_joined, placed: orders(state).filter((o) => o.user_id === user.id) })),
    ({ joined }) => joined,
    {
      id: ({ user }) => user.id,
      email: ({ user }) => user.email,
      first_name: ({ user }) => user.first_name,
      last_name: ({ user }) => user.last_name,
      phone_number: ({ user }) => user.phone_number,
      accepts_marketing: ({ user }) => user.accepts_marketing,
      language: ({ user }) => user.language,
      orders_count: ({ placed }) => placed.length,
      last_order_number: ({ placed }) => placed.at(-1)?.number,
    },
  ),
  transaction_list: table((state) => all<Transaction>(state, 'transactions'), (t) => t.date_created, {
    id: (t) => t.id,
    order_number: (t) => t.order,
    date_created: (t) => t.date_created,
    type: (t) => t.type,
    status: (t) => t.status,
    amount: (t) => t.amount,
    currency: (t) => t.currency,
    payment_method: (t) => t.payment_method,
    gateway: (t) => t.payment_details?.gateway?.name,
    card_last_four: (t) => t.payment_details?.bankcard_last_four,
    parent_id: (t) => t.parent_id,
    is_disputed: (t) => t.is_disputed,
    is_test: (t) => t.is_test,
  }),
  dispute_list: table((state) => all<Rec>(state, 'disputes'), (d) => d.date_created, {
    id: (d) => d.id,
    order: (d) => d.order,
    transaction: (d) => d.transaction,
    type: (d) => d.type,
    status: (d) => d.status,
    amount: (d) => d.amount,
    currency: (d) => d.currency,
    case_number: (d) => d.case_number,
    arn: (d) => d.arn,
    resolution: (d) => d.resolution,
    happened_at: (d) => d.happened_at,
    date_created: (d) => d.date_created,
  }),
  subscription_list: table((state) => all<SubscriptionDetail>(state, 'subscriptions'), (s) => s.date_created, {
    id: (s) => s.id,
    status: (s) => s.status,
    customer_email: (s, state) => userOf(state, s.user_id)?.email,
    customer_name: (s, state) => fullName(userOf(state, s.user_id)),
    date_created: (s) => s.date_created,
    interval: (s) => s.interval,
    interval_count: (s) => s.interval_count,
    frequency: (s) => s.frequency,
    next_renewal_date: (s) => s.next_renewal_date,
    num_orders: (s) => s.num_orders,
    num_lines: (s) => s.num_lines,
    shipping_price: (s) => s.shipping_price,
    total: (s) => s.total,
    currency: (s) => s.currency,
    cancel_reason: (s) => s.cancel_reason,
  }),
  subscription_line_items: table(subscriptionLines, ({ subscription }) => subscription.date_created, {
    subscription_id: ({ subscription }) => subscription.id,
    line_id: ({ line }) => line.id,
    product_id: ({ line }) => line.product_id,
    product_title: ({ line }) => line.product_title,
    variant_id: ({ line }) => line.variant_id,
    variant_title: ({ line }) => line.variant_title,
    sku: ({ line }) => line.sku,
    quantity: ({ line }) => line.quantity,
    price: ({ line }) => line.price,
    currency: ({ subscription }) => subscription.currency,
  }),
  open_cart_list: table(openCarts, (c) => c.created_at, {
    cart_id: (c) => c.id,
    created_at: (c) => c.created_at,
    customer_email: (c, state) => userOf(state, c.user_id)?.email,
    currency: (c) => c.currency,
    num_lines: (c) => (c.lines ?? []).length,
    total_incl_tax: (c) => c.total_incl_tax,
    abandoned: (c) => c.abandoned,
  }),
  open_cart_line_items: table(
    perChild(openCarts, (c) => c.lines),
    ({ parent }) => parent.created_at,
    {
      cart_id: ({ parent }) => parent.id,
      product_id: ({ item }) => (item as CartLine).product_id,
      product_title: ({ item }) => item.product_title,
      sku: ({ item }) => item.sku,
      quantity: ({ item }) => item.quantity,
      price_incl_tax: ({ item }) => item.price_incl_tax,
    },
  ),
  return_list: table(refunds, (r) => r.created_at, {
    id: (r) => r.id,
    order_number: (r) => r.order_number,
    created_at: (r) => r.created_at,
    note: (r) => r.note,
    total_refund_amount: (r) => r.total_refund_amount,
    total_return_excl_tax: (r) => r.total_return_excl_tax,
    total_return_incl_tax: (r) => r.total_return_incl_tax,
    currency: (r, state) => state.records.orders[String(r.order_number)]?.currency,
  }),
  return_line_items: table(
    perChild(refunds, (r) => r.refund_line_items),
    ({ parent }) => parent.created_at,
    {
      return_id: ({ parent }) => parent.id,
      order_number: ({ parent }) => parent.order_number,
      id: ({ item }) => item.id,
      line_item_id: ({ item }) => item.line_item_id,
      quantity: ({ item }) => item.quantity,
      restock_type: ({ item }) => item.restock_type,
      location_id: ({ item }) => item.location_id,
      amount_excl_tax: ({ item }) => item.amount_excl_tax,
      amount_incl_tax: ({ item }) => (item as RefundLine).amount_incl_tax,
    },
  ),
  fulfillment_list: table(fulfillments, (f) => f.created_at, {
    id: (f) => f.id,
    order_number: (f) => f.order_number,
    created_at: (f) => f.created_at,
    status: (f) => f.status,
    delivery_status: (f) => f.delivery_status,
    shipping_method: (f) => f.shipping_method,
    tracking_carrier: (f) => f.tracking_carrier,
    tracking_code: (f) => f.tracking_code,
    tracking_link: (f) => f.tracking_link,
    last_event_date: (f) => f.last_event_date,
    location_id: (f) => f.location_id,
  }),
  fulfillment_line_items: table(
    perChild(fulfillments, (f) => f.line_items),
    ({ parent }) => parent.created_at,
    {
      fulfillment_id: ({ parent }) => parent.id,
      order_number: ({ parent }) => parent.order_number,
      id: ({ item }) => (item as FulfillmentLineResponse).id,
      order_line_id: ({ item }) => item.order_line_id,
      product_id: ({ item }) => item.product_id,
      product_title: ({ item }) => item.product_title,
      sku: ({ item }) => item.sku,
      quantity: ({ item }) => item.quantity,
      fulfilled_quantity: ({ item }) => item.fulfilled_quantity,
      returned_quantity: ({ item }) => item.returned_quantity,
      price_incl_tax: ({ item }) => item.price_incl_tax,
    },
  ),
};

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function field(value: unknown): string {
  let text: string;
  if (value == null) text = '';
  else if (Array.isArray(value)) text = value.join(';');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV file of an export of `type`: a header row, then one row per record in `range`, `\n` line ends. */
export function exportCsv(state: SandboxState, type: string, range: DateRange): string {
  const found = Object.hasOwn(TABLES, type) ? (TABLES as Record<string, Table>)[type] : undefined;
  if (!found) throw new Error(`Unknown export type "${type}"; expected one of: ${Object.keys(TABLES).join(', ')}`);
  return [found.header, ...found.rows(state, range)].map((row) => `${row.map(field).join(',')}\n`).join('');
}
