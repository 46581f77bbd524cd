// The files behind the sandbox's exports: one CSV table per export type, built from the state
// when the export becomes available, of the records dated within its date_from..date_to. Each
// table names its columns once, with how to read each column from a record, and says which date
// places a record in a range.
import type { EXPORT_TYPES } from '../api/enums.js';
import type { Order, SandboxState, SubscriptionLineRecord, SubscriptionRecord } from './state.js';

type Refund = NonNullable<Order['refunds']>[number];
type Fulfillment = NonNullable<Order['fulfillments']>[number];

/** An export's date range, both ends included. */
export interface DateRange {
  from: string;
  to: string;
}

interface Table {
  header: string[];
  rows: (state: SandboxState, range: DateRange) => unknown[][];
}

function table<T>(records: (state: SandboxState) => T[], dated: (record: T) => unknown, columns: Record<string, (record: T) => unknown>): Table {
  const entries = Object.entries(columns);
  return {
    header: entries.map(([name]) => name),
    rows: (state, range) => records(state).filter((record) => within(dated(record), range)).map((record) => entries.map(([, read]) => read(record))),
  };
}

function within(date: unknown, range: DateRange): boolean {
  const at = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return at >= Date.parse(range.from) && at <= Date.parse(range.to);
}

/** A table the sandbox has no records for (it keeps no carts): the header alone. */
function headerOnly(header: string[]): Table {
  return { header, rows: () => [] };
}

const orders = (state: SandboxState): Order[] => Object.values(state.orders);

/** Every item of every order, paired with its order. */
function perOrder<T>(items: (order: Order) => T[] | null | undefined) {
  return (state: SandboxState) => orders(state).flatMap((order) => (items(order) ?? []).map((item) => ({ order, item })));
}

/** Every item of every refund or fulfillment, paired with its parent and order. */
function perChild<P, T>(parents: (order: Order) => P[] | null | undefined, items: (parent: P) => T[] | null | undefined) {
  return (state: SandboxState) =>
    orders(state).flatMap((order) =>
      (parents(order) ?? []).flatMap((parent) => (items(parent) ?? []).map((item) => ({ order, parent, item }))),
    );
}

function subscriptionLines(state: SandboxState): { subscription: SubscriptionRecord; line: SubscriptionLineRecord }[] {
  return Object.values(state.subscriptions).flatMap((subscription) => {
    const lines: SubscriptionLineRecord[] = subscription.lines;
    return lines.map((line) => ({ subscription, line }));
  });
}

const fullName = (person: { first_name?: unknown; last_name?: unknown } | null | undefined) =>
  [person?.first_name, person?.last_name].filter((part) => part != null && part !== '').join(' ');

/** Every export type has a table (the type checker insists). */
const TABLES: Record<(typeof EXPORT_TYPES)[number], Table> = {
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
    customer_id: (o) => o.user?.id,
    customer_email: (o) => o.user?.email,
    customer_name: (o) => fullName(o.user),
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
    (state) => Object.values(state.customers).map(({ user, joined }) => ({ user, joined, placed: orders(state).filter((o) => o.user?.id === user.id) })),
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
  transaction_list: table(perOrder((o) => o.transactions), ({ item }) => item.date_created, {
    id: ({ item }) => item.id,
    order_number: ({ order }) => order.number,
    date_created: ({ item }) => item.date_created,
    type: ({ item }) => item.type,
    status: ({ item }) => item.status,
    amount: ({ item }) => item.amount,
    currency: ({ item }) => item.currency,
    payment_method: ({ item }) => item.payment_method,
    gateway: ({ item }) => item.payment_details?.gateway?.name,
    card_last_four: ({ item }) => item.payment_details?.bankcard_last_four,
    parent_id: ({ item }) => item.parent_id,
    is_disputed: ({ item }) => item.is_disputed,
    is_test: ({ item }) => item.is_test,
  }),
  dispute_list: table((state) => Object.values(state.disputes), (d) => d.date_created, {
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
  subscription_list: table((state) => Object.values(state.subscriptions), (s) => s.date_created, {
    id: (s) => s.id,
    status: (s) => s.status,
    customer_email: (s) => s.user?.email,
    customer_name: (s) => fullName(s.user),
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
    product_id: ({ line }) => line.product?.id,
    product_title: ({ line }) => line.product?.title,
    variant_id: ({ line }) => line.variant_id,
    variant_title: ({ line }) => line.variant_title,
    sku: ({ line }) => line.stockrecord?.partner_sku,
    quantity: ({ line }) => line.quantity,
    price: ({ line }) => line.price,
    currency: ({ subscription }) => subscription.currency,
  }),
  open_cart_list: headerOnly(['cart_id', 'created_at', 'updated_at', 'customer_email', 'currency', 'num_lines', 'total_incl_tax']),
  open_cart_line_items: headerOnly(['cart_id', 'product_id', 'product_title', 'sku', 'quantity', 'price_incl_tax']),
  return_list: table(perOrder((o) => o.refunds), ({ item }) => item.created_at, {
    id: ({ item }) => item.id,
    order_number: ({ order }) => order.number,
    created_at: ({ item }) => item.created_at,
    note: ({ item }) => item.note,
    total_refund_amount: ({ item }) => item.total_refund_amount,
    total_return_excl_tax: ({ item }) => item.total_return_excl_tax,
    total_return_incl_tax: ({ item }) => item.total_return_incl_tax,
    currency: ({ order }) => order.currency,
  }),
  return_line_items: table(
    perChild(
      (o) => o.refunds,
      (r: Refund) => r.refund_line_items,
    ),
    ({ parent }) => parent.created_at,
    {
      return_id: ({ parent }) => parent.id,
      order_number: ({ order }) => order.number,
      id: ({ item }) => item.id,
      line_item_id: ({ item }) => item.line_item_id,
      quantity: ({ item }) => item.quantity,
      restock_type: ({ item }) => item.restock_type,
      location_id: ({ item }) => item.location_id,
      amount_excl_tax: ({ item }) => item.amount_excl_tax,
      amount_incl_tax: ({ item }) => item.amount_incl_tax,
    },
  ),
  fulfillment_list: table(perOrder((o) => o.fulfillments), ({ item }) => item.created_at, {
    id: ({ item }) => item.id,
    order_number: ({ order }) => order.number,
    created_at: ({ item }) => item.created_at,
    status: ({ item }) => item.status,
    delivery_status: ({ item }) => item.delivery_status,
    shipping_method: ({ item }) => item.shipping_method,
    tracking_carrier: ({ item }) => item.tracking_carrier,
    tracking_code: ({ item }) => item.tracking_code,
    tracking_link: ({ item }) => item.tracking_link,
    last_event_date: ({ item }) => item.last_event_date,
    location_id: ({ item }) => item.location_id,
  }),
  fulfillment_line_items: table(
    perChild(
      (o) => o.fulfillments,
      (f: Fulfillment) => f.line_items,
    ),
    ({ parent }) => parent.created_at,
    {
      fulfillment_id: ({ parent }) => parent.id,
      order_number: ({ order }) => order.number,
      id: ({ item }) => item.id,
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
