// The filters of the platform's lists, as its guides describe them: exact values, lists as any-of,
// `*_from`/`*_to` date ranges (both days included) and `*_min`/`*_max` amounts, booleans, and
// `search_text` over the fields a person would search. A filter reads the record's field of the
// same name unless FILTERS says how that list reads it.
import type { OperationId } from '../api/operations.js';
import type { KindName, Rec } from './kinds.js';
import { toCents } from './money.js';
import type { SandboxState } from './state.js';
import { availability } from './stock.js';
import { assignmentStatus } from './supported-actions.js';

/** How one list reads one filter: the values of the record it compares, or a test of its own. */
export type Reading = (record: Rec, state: SandboxState) => unknown;

const lineValues = (field: string): Reading => (record) => ((record.line_items as Rec[] | undefined) ?? []).map((line) => line[field]);
const createdAt: Reading = (record) => record.created_at;
const variantOf = (record: Rec, state: SandboxState) => state.records.variants[String(record.variant_id)];
const stockAvailability = (record: Rec, state: SandboxState) => availability(state.records, record.variant_id, [record]);

/** Per list operation, the filters whose value is not the record's field of the same name. */
export const FILTERS: Partial<Record<OperationId, Record<string, Reading>>> = {
  fulfillmentOrdersList: {
    fulfillment_order_id: (record) => record.id,
    shipping_method: (record) => (record.shipping_method as Rec | undefined)?.code,
    sku: lineValues('sku'),
    product: lineValues('product_id'),
    date_created: createdAt,
  },
  assignedFulfillmentOrdersList: {
    assignment_status: (record) => assignmentStatus(record.status, record.request_status),
    date_created: createdAt,
  },
  stockrecordsList: {
    sku: (record, state) => variantOf(record, state)?.sku,
    inventory_availability: (record, state) => stockAvailability(record, state).inventory,
    purchase_availability: (record, state) => stockAvailability(record, state).purchase,
  },
};

/** The fields `search_text` looks in, per kind (a record's own text fields when not listed). */
export const SEARCHED: Partial<Record<KindName, Reading>> = {
  // A stock record is found by its variant's SKU and title, or its location's name.
  stockrecords: (record, state) => {
    const variant = variantOf(record, state);
    const product = state.records.products[String(variant?.product_id)];
    return [variant?.sku, variant?.title, product?.title, state.records.locations[String(record.location_id)]?.name];
  },
};

const RANGE = /^(.*)_(from|to|min|max)$/;

export function matches(id: OperationId, kind: KindName, record: Rec, query: Record<string, unknown>, state: SandboxState): boolean {
  const readings = FILTERS[id] ?? {};
  for (const [name, wanted] of Object.entries(query)) {
    if (wanted === undefined || name === 'cursor') continue;
    if (Array.isArray(wanted) && wanted.length === 0) continue;
    if (name === 'search_text' || name === 'filter_text') {
      if (!searchText(SEARCHED[kind]?.(record, state) ?? ownText(record)).includes(String(wanted).toLowerCase())) return false;
      continue;
    }
    const range = RANGE.exec(name);
    if (range && !(name in readings) && !(name in record)) {
      const [, field = '', end] = range;
      const value = readings[field]?.(record, state) ?? record[field];
      if (!inRange(value, wanted, end as 'from' | 'to' | 'min' | 'max')) return false;
      continue;
    }
    const value = name in readings ? readings[name]!(record, state) : record[name];
    if (!matchesValue(value, wanted)) return false;
  }
  return true;
}

/** A list filter is any of its values; a record's list field matches when any of its values does. */
function matchesValue(value: unknown, wanted: unknown): boolean {
  const wants = Array.isArray(wanted) ? wanted : [wanted];
  const has = Array.isArray(value) ? value : [value];
  return wants.some((w) => has.some((h) => same(h, w)));
}

function same(value: unknown, wanted: unknown): boolean {
  if (value === undefined) return false;
  if (typeof wanted === 'boolean') return value === wanted;
  if (wanted === null || wanted === '') return value === null || value === '';
  return String(value).toLowerCase() === String(wanted).toLowerCase();
}

/** Dates compare by day, both ends included (`date_to=2026-01-31` covers all of the 31st); amounts in cents. */
function inRange(value: unknown, bound: unknown, end: 'from' | 'to' | 'min' | 'max'): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (end === 'min' || end === 'max') {
    const [v, b] = [toCents(value), toCents(bound)];
    return end === 'min' ? v >= b : v <= b;
  }
  const day = String(value).slice(0, 10);
  const limit = String(bound).slice(0, 10);
  return end === 'from' ? day >= limit : day <= limit;
}

function ownText(record: Rec): unknown[] {
  return Object.values(record).filter((value) => typeof value === 'string' || typeof value === 'number');
}

function searchText(values: unknown): string {
  return (Array.isArray(values) ? values : [values])
    .filter((value) => value !== null && value !== undefined)
    .map(String)
    .join('\n')
    .toLowerCase();
}
