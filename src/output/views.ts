// How each kind of result reads as a table: the key fields of one object first, then its lists.
// Anything a view does not name is still reachable with --json.
import type { Fmt } from './format.js';

type Row = Record<string, any>;
export type Column = [label: string, cell: (row: Row, f: Fmt) => string];

export interface View {
  /** Label and value rows for a single object. */
  fields?: Column[];
  /** Sub-tables of a single object, such as an order's lines. */
  sections?: { title: string; rows: (data: Row) => unknown; columns: Column[] }[];
  /** Columns when the result is a list. */
  columns?: Column[];
  /** For a free-form object: one row per key. */
  keyValue?: boolean;
  /** Labels of the list's columns that go, in this order, when the terminal is too narrow to show every word whole. */
  optional?: readonly string[];
  /** The widest value of a column, by label, where the view cuts it (a list drawn page by page keeps it that much room). */
  widest?: Readonly<Record<string, number>>;
  /** The list a result wraps: -o ndjson prints one line per item of it. */
  items?: (data: Row) => unknown;
}

const id: Column = ['ID', (r, f) => f.text(r.id)];
const person = (u: Row | undefined, f: Fmt) =>
  u ? f.text([u.first_name, u.last_name].filter(Boolean).join(' ') + (u.email ? ` <${u.email}>` : '')) : f.text(u);

/** The order of the latest billing cycle, as `10004 (cycle 2)`. */
function latestOrder(orders: unknown): string | undefined {
  if (!Array.isArray(orders) || orders.length === 0) return undefined;
  const latest = orders.reduce((a: Row, b: Row) => ((b.billing_cycle ?? 0) >= (a.billing_cycle ?? 0) ? b : a));
  return latest.order_number === undefined ? undefined : `${latest.order_number}${latest.billing_cycle ? ` (cycle ${latest.billing_cycle})` : ''}`;
}

/**
 * A date-time's day (`MM-DD`) or its time (`HH:MM`), as the store dates it (UTC): each one word,
 * so a narrow terminal wraps neither and a delivery's row keeps its id whole.
 */
function dayOf(value: unknown, f: Fmt): string {
  const match = typeof value === 'string' ? /^\d{4}-(\d\d-\d\d)T/.exec(value) : null;
  return match ? match[1]! : f.text(value);
}
function timeOf(value: unknown, f: Fmt): string {
  const match = typeof value === 'string' ? /^\d{4}-\d\d-\d\dT(\d\d:\d\d)/.exec(value) : null;
  return match ? match[1]! : f.text(value);
}

/** A delivery's first columns, in both logs: its id, the day and time of `dated`, its event. */
function delivery(dated: string): Column[] {
  return [
    ['ID', (r, f) => f.text(r.id)],
    ['Date', (r, f) => dayOf(r[dated], f)],
    ['Time', (r, f) => timeOf(r[dated], f)],
    ['Event', (r, f) => f.text(r.event_type)],
  ];
}

/** How long after `from` comes `to`, as one word: `+40m`, `+1d18h40m`. */
function after(from: unknown, to: unknown, f: Fmt): string {
  const ms = Date.parse(String(to)) - Date.parse(String(from));
  if (!Number.isFinite(ms) || ms < 0) return f.text(to);
  const minutes = Math.round(ms / 60_000);
  const parts = [[Math.floor(minutes / 1440), 'd'], [Math.floor(minutes / 60) % 24, 'h'], [minutes % 60, 'm']].filter(([n]) => n !== 0);
  return `+${parts.map(([n, unit]) => `${n}${unit}`).join('') || '0m'}`;
}

/** The widest a list shows a webhook's target: with the id, name and events, it fits 80 columns. */
const TARGET_WIDTH = 32;

/** `text` cut to `width` characters, the last of them `…`. */
function shortened(text: string, width: number): string {
  const chars = Array.from(text);
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}

/** Why a delivery got no answer, in one word (`webhooks deliveries show` has the whole reason). */
function failure(error: unknown): string {
  const text = typeof error === 'string' ? error : '';
  if (/ECONNREFUSED/.test(text)) return 'refused';
  if (/never resolves|ENOTFOUND|EAI_AGAIN/.test(text)) return 'unresolved';
  if (/no answer within|ETIMEDOUT/.test(text)) return 'timeout';
  return 'failed';
}

export const views = {
  order: {
    fields: [
      ['Number', (r, f) => f.bold(f.text(r.number))],
      ['Status', (r, f) => f.status(r.status)],
      ['Payment', (r, f) => f.status(r.payment_status)],
      ['Fulfillment', (r, f) => f.status(r.fulfillment_status)],
      ['Customer', (r, f) => person(r.user, f)],
      ['Placed', (r, f) => f.date(r.date_placed)],
      ['Total excl. tax', (r, f) => f.money(r.total_excl_tax, r.currency)],
      ['Tax', (r, f) => f.money(r.total_tax, r.currency)],
      ['Shipping', (r, f) => f.money(r.shipping_incl_tax, r.currency)],
      ['Total', (r, f) => f.bold(f.money(r.total_incl_tax, r.currency))],
      ['Outstanding', (r, f) => f.money(r.total_outstanding, r.currency)],
    ],
    sections: [
      {
        title: 'Lines',
        rows: (r) => r.lines,
        columns: [
          id,
          ['Product', (l, f) => f.text([l.product_title, l.variant_title].filter(Boolean).join(' — '))],
          ['SKU', (l, f) => f.text(l.sku)],
          // What is left of the line: a removed or refunded one stays on the order with less (or nothing) left.
          ['Qty', (l, f) => f.text(l.current_quantity !== undefined && l.current_quantity !== l.quantity ? `${l.current_quantity} of ${l.quantity}` : l.quantity)],
          ['Price', (l, f) => f.money(l.price_incl_tax, l.currency)],
        ],
      },
    ],
  },
  note: {
    fields: [
      id,
      ['Message', (r, f) => f.text(r.message)],
      ['Author', (r, f) => person(r.author, f)],
      ['App', (r, f) => f.text(r.app?.name)],
      ['Created', (r, f) => f.date(r.date_created ?? r.created_at)],
    ],
  },
  subscription: {
    fields: [
      ['ID', (r, f) => f.bold(f.text(r.id))],
      ['Status', (r, f) => f.status(r.status)],
      ['Customer', (r, f) => person(r.user, f)],
      ['Every', (r, f) => f.text(r.interval ? `${r.interval_count ?? 1} ${r.interval}${(r.interval_count ?? 1) === 1 ? '' : 's'}` : r.interval)],
      ['Next renewal', (r, f) => f.date(r.next_renewal_date)],
      ['Shipping', (r, f) => f.money(r.shipping_price, r.currency)],
      ['Total', (r, f) => f.bold(f.money(r.total, r.currency))],
      ['Orders', (r, f) => f.text(r.num_orders)],
      // After a renewal, the order it created.
      ['Latest order', (r, f) => f.text(latestOrder(r.orders))],
      ['Cancel reason', (r, f) => f.text(r.cancel_reason)],
    ],
    sections: [
      {
        title: 'Lines',
        // Lines carry no currency of their own: the subscription's applies.
        rows: (r) => (Array.isArray(r.lines) ? r.lines.map((line: Row) => ({ currency: r.currency, ...line })) : r.lines),
        columns: [
          id,
          ['Product', (l, f) => f.text(l.product?.title ?? l.product_title)],
          ['Qty', (l, f) => f.text(l.quantity)],
          ['Price', (l, f) => f.money(l.price, l.currency)],
        ],
      },
    ],
  },
  fulfillmentEvent: {
    fields: [
      id,
      ['Order', (r, f) => f.text(r.order)],
      ['Fulfillment', (r, f) => f.text(r.fulfillment)],
      ['Status', (r, f) => f.status(r.status)],
      ['Message', (r, f) => f.text(r.message)],
      ['Where', (r, f) => f.text([r.city, r.state, r.country].filter(Boolean).join(', '))],
      ['Happened', (r, f) => f.date(r.happened_at)],
      ['Estimated delivery', (r, f) => f.date(r.estimated_delivery_at)],
    ],
  },
  fulfillmentOrder: {
    fields: [
      id,
      ['Order', (r, f) => f.text(r.order_number)],
      ['Status', (r, f) => f.status(r.status)],
      ['Request status', (r, f) => f.status(r.request_status)],
      ['Location', (r, f) => f.text(r.assigned_location?.name)],
      ['Shipping', (r, f) => f.text(r.shipping_method?.name)],
      ['Updated', (r, f) => f.date(r.updated_at)],
    ],
    sections: [
      {
        title: 'Line items',
        rows: (r) => r.line_items,
        columns: [
          id,
          ['Product', (l, f) => f.text(l.product_title)],
          ['SKU', (l, f) => f.text(l.sku)],
          ['Qty', (l, f) => f.text(l.quantity)],
          ['Fulfillable', (l, f) => f.text(l.fulfillable_quantity)],
        ],
      },
    ],
    columns: [
      id,
      ['Order', (r, f) => f.text(r.order_number)],
      ['Status', (r, f) => f.status(r.status)],
      ['Request status', (r, f) => f.status(r.request_status)],
      ['Location', (r, f) => f.text(r.assigned_location?.name)],
      ['Items', (r, f) => f.text(Array.isArray(r.line_items) ? r.line_items.length : undefined)],
    ],
  },
  dataExport: {
    fields: [
      id,
      ['Type', (r, f) => f.text(r.type)],
      ['Status', (r, f) => f.status(r.status)],
      ['From', (r, f) => f.date(r.date_from)],
      ['To', (r, f) => f.date(r.date_to)],
      ['URL', (r, f) => f.text(r.url)],
    ],
  },
  exportLink: {
    fields: [['Signed link', (r, f) => f.text(r.url)]],
  },
  exportTypes: {
    items: (r) => r.types,
    sections: [
      {
        title: 'Export types',
        rows: (r) => r.types,
        columns: [
          ['Code', (t, f) => f.text(t.code)],
          ['Name', (t, f) => f.text(t.name)],
        ],
      },
    ],
  },
  dispute: {
    fields: [
      id,
      ['Type', (r, f) => f.status(r.type)],
      ['Status', (r, f) => f.status(r.status)],
      ['Amount', (r, f) => f.money(r.amount, r.currency)],
      ['Transaction', (r, f) => f.text(r.transaction)],
      ['Order', (r, f) => f.text(r.order)],
      ['Resolution', (r, f) => f.text(r.resolution)],
      ['Happened', (r, f) => f.date(r.happened_at)],
    ],
  },
  category: {
    fields: [
      id,
      ['Name', (r, f) => f.bold(f.text(r.name))],
      ['Slug', (r, f) => f.text(r.slug)],
      ['Public', (r, f) => f.bool(r.is_public)],
      // The reference's category has no `description`: its text is the meta description.
      ['Meta description', (r, f) => f.text(r.meta_description)],
      ['Meta title', (r, f) => f.text(r.meta_title)],
      ['Tax code', (r, f) => f.text(r.external_tax_code)],
      ['Image', (r, f) => f.text(r.image)],
    ],
  },
  settings: { keyValue: true },
  // The history's entries, as history-view.ts shapes them: the run id must stay whole, the store may go.
  history: {
    columns: [
      ['When', (r, f) => f.text(r.when)],
      ['Command', (r, f) => f.text(r.command)],
      ['Target', (r, f) => f.text(r.target)],
      ['Store', (r, f) => f.text(r.store)],
      ['Outcome', (r, f) => f.text(r.outcome)],
      ['Status', (r, f) => f.text(r.status)],
    ],
    optional: ['Store'],
  },
  profiles: {
    columns: [
      ['Name', (r, f) => f.bold(f.text(r.name))],
      ['Active', (r) => (r.active ? '*' : '')],
      ['Store URL', (r, f) => f.text(r.base_url)],
      ['Token', (r, f) => f.text(r.token)],
    ],
  },
  webhook: {
    fields: [
      id,
      ['Name', (r, f) => f.text(r.name)],
      ['Active', (r, f) => f.bool(r.active)],
      ['Target', (r, f) => f.text(r.target)],
      // A null event (the reference allows one) is left out rather than shown as an empty item.
      ['Events', (r, f) => f.text(Array.isArray(r.events) ? r.events.filter((e: unknown) => e != null).join(', ') : r.events)],
      ['API version', (r, f) => f.text(r.api_version)],
      // Masked before rendering unless --show-secret (see the webhooks commands).
      ['Secret key', (r, f) => f.text(r.secret_key)],
      ['Warnings', (r, f) => f.text(r.warning_count)],
      // When the next delivery attempt is due (empty when nothing waits).
      ['Next check', (r, f) => f.date(r.next_check_date)],
      ['Created', (r, f) => f.date(r.created_at)],
    ],
  },
  // `webhooks deliveries`: the sandbox's attempts, newest first. The id is what replay takes: it stays whole.
  deliveries: {
    columns: [
      ...delivery('sent_at'),
      ['Webhook', (r, f) => f.text(r.webhook)],
      ['Attempt', (r, f) => f.text(r.replay_of ? `replay of ${r.replay_of}` : r.attempt)],
      ['Answer', (r, f) => f.text(r.status ?? failure(r.error))],
      // The wait before the retry this attempt's failure set (README's schedule), or why there is none.
      ['Retry', (r, f) => (r.next_attempt_at ? after(r.sent_at, r.next_attempt_at, f) : r.deactivated ? 'webhook off' : f.text(null))],
    ],
    optional: ['Retry', 'Webhook'],
  },
  // `webhooks deliveries --received`: what webhooks listen received, newest first.
  receivedDeliveries: {
    columns: [
      ...delivery('at'),
      ['Answered', (r, f) => f.text(r.status ?? failure(r.error))],
      ['Replay', (r, f) => f.text(r.replay_of)],
    ],
    optional: ['Replay'],
  },
  webhooks: {
    columns: [
      id,
      ['Name', (r, f) => f.text(r.name)],
      ['Active', (r, f) => f.bool(r.active)],
      ['Events', (r, f) => f.text(Array.isArray(r.events) ? r.events.join(', ') : r.events)],
      // A URL is one word: broken over lines it cannot be read, so it is shortened as gh does (webhooks get shows it whole).
      ['Target', (r, f) => f.text(typeof r.target === 'string' ? shortened(r.target, TARGET_WIDTH) : r.target)],
      ['Warnings', (r, f) => f.text(r.warning_count)],
    ],
    optional: ['Warnings', 'Active'],
    widest: { Target: TARGET_WIDTH },
  },
  // `store-admin operations`: the table as a person scans it; narrow terminals lose the id first.
  operations: {
    columns: [
      ['Command', (r, f) => f.bold(f.text(r.command))],
      ['Method', (r, f) => f.text(r.method)],
      ['Path', (r, f) => f.text(r.path)],
      ['Version', (r, f) => f.text(r.version)],
      ['Scopes', (r, f) => f.text(Array.isArray(r.scopes) ? r.scopes.join(' ') : r.scopes)],
      ['Irreversible', (r, f) => (r.irreversible ? f.text('yes') : '')],
      ['ID', (r, f) => f.text(r.id)],
    ],
    optional: ['ID', 'Scopes', 'Version'],
  },
} satisfies Record<string, View>;

export type ViewName = keyof typeof views;
