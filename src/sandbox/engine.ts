// How the sandbox answers an operation: by its rule where the platform's guides describe what it
// does (rules/), else by the generic engine over the kind of record its path reaches
// (collections.ts): lists with filters and cursor pages, reads, creates, changes and deletes. Either
// way the records are answered in the shape of the request's API version (render.ts).
import type * as z from 'zod/mini';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import type { Operation, OperationSchemas } from '../api/operations.js';
import { change, checkParents, complete, create, itemOf, recordsUnder, remove, type Reach } from './collections.js';
import { matches } from './filters.js';
import { HttpError } from './http-error.js';
import { KINDS, landingOf, type KindName, type Landing, type Rec } from './kinds.js';
import { pageOf } from './pages.js';
import { nextId, type SandboxState } from './state.js';

type Schema = z.ZodMiniType;

/** What a rule (or the generic engine) is given for one request. */
export interface RuleContext {
  op: Operation;
  /** The X-Store-API-Version asked for: answers take its shape. */
  version: string;
  schemas: OperationSchemas;
  state: SandboxState;
  params: Record<string, string | number>;
  /** The known query parameters, checked and typed (lists for the repeatable ones). */
  query: Record<string, unknown>;
  /** The body, checked against the operation's schema (fields the platform ignores dropped). */
  body: any;
  url: URL;
  /** The sandbox's own origin, for URLs it hands out. */
  origin: string;
  now: string;
  nowMs: number;
  pageSize: number;
  /** Where the path lands among the kinds of record, if anywhere. */
  landing: Landing | undefined;
  /** The record as this operation answers it at the request's version (one item of a list answer). */
  answer(record: Rec): unknown;
  /** Records as this list operation answers them: a cursor page, or a plain list. */
  list(records: readonly Rec[]): unknown;
  /** Another operation's answer shape for a record, at the request's version (an event's object, a nested answer). */
  renderAs(schema: Schema, record: Rec): unknown;
  /** Queues a webhook event about a record (its data rendered at each webhook's version). */
  emit(event: string, record: Rec): void;
  /** The next number of a kind (or of a numbered thing that is no kind: `line`, `note`). */
  next(name: string): number;
  /** What the generic engine does for this operation. */
  generic(): unknown;
  /** How long a new export stays pending, and a signed link to an export's file. */
  exportDelayMs: number;
  signExportLink(id: number): string;
}

export type Rule = (ctx: RuleContext) => unknown;

/** The schema one record of the answer takes: a page's item, a list's item, or the answer itself. */
export function itemSchema(op: Operation, response: Schema): Schema {
  const def = (response as unknown as { def: { type: string; shape?: Record<string, Schema>; element?: Schema } }).def;
  if (op.answer === 'page' && def.type === 'object') {
    const results = (def.shape!.results as unknown as { def: { type: string; element?: Schema; innerType?: Schema } }).def;
    return results.type === 'array' ? results.element! : (results.innerType as unknown as { def: { element: Schema } }).def.element;
  }
  if (def.type === 'array') return def.element!;
  return response;
}

/** The generic answer to an operation whose path reaches a kind of record. */
export function generic(ctx: RuleContext): unknown {
  const { op, landing } = ctx;
  if (!landing) throw new HttpError(405, { detail: `Method "${op.method}" not allowed.` });
  const reach: Reach = { landing, params: ctx.params };
  const { records } = ctx.state;
  switch (op.method) {
    case 'GET': {
      if (landing.item) return ctx.answer(itemOf(records, reach));
      checkParents(records, op.path, reach);
      return ctx.list(recordsUnder(records, reach).filter((record) => matches(op.id, landing.kind, record, ctx.query, ctx.state)));
    }
    case 'POST': {
      if (landing.item) throw new HttpError(405, { detail: `Method "${op.method}" not allowed.` });
      checkParents(records, op.path, reach);
      const made = create(records, { next: (kind) => ctx.next(kind) }, reach, ctx.body ?? {}, canonical(ctx), ctx.now);
      emitChange(ctx, landing.kind, 'created', made);
      return ctx.answer(made);
    }
    case 'PUT':
    case 'PATCH': {
      const record = landing.item ? itemOf(records, reach) : undefined;
      if (!record) throw new HttpError(405, { detail: `Method "${op.method}" not allowed.` });
      change(record, ctx.body ?? {}, ctx.now);
      complete(record, canonical(ctx), ctx.now);
      emitChange(ctx, landing.kind, 'updated', record);
      return ctx.answer(record);
    }
    case 'DELETE': {
      if (!landing.item) throw new HttpError(405, { detail: `Method "${op.method}" not allowed.` });
      const record = itemOf(records, reach);
      remove(records, reach);
      emitChange(ctx, landing.kind, 'deleted', record);
      return undefined;
    }
  }
}

/** A new record is completed to the shape of the operation's own answer. */
function canonical(ctx: RuleContext): Schema {
  return itemSchema(ctx.op, ctx.schemas.response);
}

/**
 * The events a generic change sends (the platform's event table, as far as it concerns records a
 * generic operation changes): a change to a kind with events of its own, or to a part of a record
 * whose `updated` event covers it (an order's notes, a customer's addresses).
 */
const KIND_EVENTS: Partial<Record<KindName, { object: string; parent?: { kind: KindName; field: string } }>> = {
  users: { object: 'customer' },
  addresses: { object: 'customer', parent: { kind: 'users', field: 'user_id' } },
  userNotes: { object: 'customer', parent: { kind: 'users', field: 'user_id' } },
  products: { object: 'product' },
  variants: { object: 'product', parent: { kind: 'products', field: 'product_id' } },
  productImages: { object: 'product', parent: { kind: 'products', field: 'product_id' } },
  productPrices: { object: 'product', parent: { kind: 'products', field: 'product_id' } },
  orders: { object: 'order' },
  orderNotes: { object: 'order', parent: { kind: 'orders', field: 'order_number' } },
  subscriptions: { object: 'subscription' },
  tickets: { object: 'ticket' },
  disputes: { object: 'dispute' },
  disputeNotes: { object: 'dispute', parent: { kind: 'disputes', field: 'dispute_id' } },
  carts: { object: 'cart' },
  fulfillments: { object: 'fulfillment' },
  fulfillmentEvents: { object: 'fulfillment', parent: { kind: 'fulfillments', field: 'fulfillment' } },
};

/** Only the events the platform publishes exist for objects of each kind (a cart is only ever abandoned). */
const EVENT_NAMES: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

function emitChange(ctx: RuleContext, kind: KindName, what: 'created' | 'updated' | 'deleted', record: Rec): void {
  const events = KIND_EVENTS[kind];
  if (!events) return;
  if (events.parent) {
    const parent = ctx.state.records[events.parent.kind][String(record[events.parent.field])];
    if (parent) ctx.emit(`${events.object}.updated`, parent);
    return;
  }
  const event = `${events.object}.${what}`;
  // product.deleted carries only the id (platform facts).
  if (EVENT_NAMES.has(event)) ctx.emit(event, what === 'deleted' ? { id: record[KINDS[kind].key] } : record);
}

/** The context of one request, made by the server inside its transaction. */
export function ruleContext(
  base: Omit<RuleContext, 'answer' | 'list' | 'renderAs' | 'next' | 'generic' | 'landing'>,
  render: (schema: Schema, records: readonly Rec[]) => unknown[],
): RuleContext {
  const item = itemSchema(base.op, base.schemas.response);
  const ctx: RuleContext = {
    ...base,
    landing: landingOf(base.op.path),
    answer: (record) => render(item, [record])[0],
    renderAs: (schema, record) => render(schema, [record])[0],
    list: (records) => {
      const rendered = (page: readonly Rec[]) => render(item, page);
      if (base.op.answer !== 'page') return rendered(records);
      const kind = ctx.landing?.kind;
      const key = kind ? KINDS[kind].key : 'id';
      const page = pageOf(records, base.url, base.pageSize, (record) => String(record[key] ?? ''));
      return { ...page, results: rendered(page.results) };
    },
    next: (name) => nextId(base.state, name),
    generic: () => generic(ctx),
  };
  return ctx;
}
