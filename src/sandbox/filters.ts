// The filters of the platform's lists, as its guides describe them: exact values, lists as any-of,
// `*_from`/`*_to` date ranges (both days included) and `*_min`/`*_max` (or `amount_from`/`_to`)
// amounts, booleans, and `search_text` over the fields a person would search. A filter reads the
// record's field of the same name unless FILTERS says how that list reads it.
import type { OperationId } from '../api/operations.js';
import type { KindName, Rec } from './kinds.js';
import { toCents } from './money.js';
import type { SandboxState } from './state.js';
import { availability } from './stock.js';
import { assignmentStatus } from './supported-actions.js';

/** The records of `kind` whose `field` is `value`, indexed once per list asked for. */
export type Linked = (kind: KindName, field: string, value: unknown) => Rec[];

/** How one list reads one filter: the values of the record it compares, or a test of its own. */
export type Reading = (record: Rec, state: SandboxState, linked: Linked) => unknown;

const ATTRIBUTED = ['utm_source', 'utm_campaign', 'utm_term', 'utm_content', 'affiliate', 'subaffiliate1', 'subaffiliate2', 'subaffiliate3', 'subaffiliate4', 'subaffiliate5'];

/** Where a sale came from, read from what the record keeps as its attribution (or another record's). */
function attribution(of: Reading = (record) => record.attribution): Record<string, Reading> {
  const read = (field: string): Reading => (record, state, linked) => (of(record, state, linked) as Rec | null | undefined)?.[field];
  return {
    ...Object.fromEntries(ATTRIBUTED.map((field) => [field, read(field)])),
    funnels: read('funnel'),
    agents: (record, state, linked) => ((of(record, state, linked) as Rec | null | undefined)?.agent as Rec | undefined)?.email,
  };
}

const user = (record: Rec, state: SandboxState): Rec | undefined => state.records.users[String(record.user_id)];
const lines = (field: string): Reading => (record) => ((record.lines ?? []) as Rec[]).map((line) => line[field]);
const names = (person: Rec | null | undefined): unknown[] => (person ? [person.first_name, person.last_name, `${String(person.first_name ?? '')} ${String(person.last_name ?? '')}`.trim()] : []);
const addressed = (record: Rec): Rec[] => [record.billing_address, record.shipping_address].filter(Boolean) as Rec[];
const addressText = (record: Rec): unknown[] => addressed(record).flatMap((address) => [address.line1, address.line2, address.line3, address.line4, address.postcode, address.state, address.country]);

/** A card's network, from the digits a payment keeps of it. */
export function cardType(details: unknown): string | null {
  const first = String((details as Rec | null | undefined)?.bankcard_first_six ?? '');
  if (/^3[47]/.test(first)) return 'american_express';
  if (/^4/.test(first)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(first)) return 'mastercard';
  if (/^6/.test(first)) return 'discover';
  return null;
}

const paidWith = (field: string): Reading => (record) => (record.payment_details as Rec | null | undefined)?.[field];
const gatewayOf: Reading = (record) => ((record.payment_details as Rec | null | undefined)?.gateway as Rec | undefined)?.id;
const orderTransactions = (record: Rec, linked: Linked) => linked('transactions', 'order', record.number);
const chargeOf = (record: Rec, state: SandboxState): Rec | undefined => state.records.transactions[String(record.transaction)];
/** A charge's order or subscription: where its attribution and life cycle come from. */
const saleOf = (record: Rec, state: SandboxState): Rec | undefined => state.records.orders[String(record.order)] ?? state.records.subscriptions[String(record.subscription_id)];

const lineValues = (field: string): Reading => (record) => ((record.line_items as Rec[] | undefined) ?? []).map((line) => line[field]);
const createdAt: Reading = (record) => record.created_at;
const variantOf = (record: Rec, state: SandboxState) => state.records.variants[String(record.variant_id)];
const stockAvailability = (record: Rec, state: SandboxState) => availability(state.records, record.variant_id, [record]);

/** Per list operation, the filters whose value is not the record's field of the same name. */
export const FILTERS: Partial<Record<OperationId, Record<string, Reading>>> = {
  ordersList: {
    address: addressText,
    order_number: (record) => record.number,
    name: (record, state) => [...names(user(record, state)), ...addressed(record).flatMap(names)],
    product: lines('product_id'),
    location_id: (record, _state, linked) => linked('fulfillmentOrders', 'order_number', record.number).map((fo) => fo.location_id),
    sku: lines('sku'),
    payment_method: (record, _state, linked) => orderTransactions(record, linked).map((t) => t.payment_method),
    delivery_status: (record, _state, linked) => linked('fulfillments', 'order_number', record.number).map((f) => f.delivery_status),
    coupon_code: (record) => ((record.voucher_discounts ?? []) as Rec[]).map((discount) => (discount.voucher as Rec | undefined)?.code),
    offers: (record) => ((record.offer_discounts ?? []) as Rec[]).flatMap((offer) => [offer.name, offer.id]),
    countries: (record) => addressed(record).map((address) => address.country),
    sources: (record) => record.source,
    ...attribution(),
    is_disputed: (record, _state, linked) => orderTransactions(record, linked).some((t) => t.is_disputed === true),
    has_outstanding_balance: (record) => toCents(record.total_outstanding) > 0,
    // Sent in more than one parcel, or from more than one fulfillment order.
    has_split_fulfillment: (record, _state, linked) => linked('fulfillments', 'order_number', record.number).length > 1 || linked('fulfillmentOrders', 'order_number', record.number).length > 1,
  },
  subscriptionsList: {
    address: addressText,
    date: (record) => record.date_created,
    product: lines('product_id'),
    sku: lines('sku'),
    gateway: gatewayOf,
    card_type: (record) => cardType(record.payment_details),
    order_number: (record, _state, linked) => linked('orders', 'subscriptions', record.id).map((order) => order.number),
    customer_email: (record, state) => user(record, state)?.email,
    customer_phone_number: (record, state) => user(record, state)?.phone_number,
    gateway_status: (record, state) => {
      const gateway = state.records.gateways[String(gatewayOf(record, state, () => []))];
      return gateway ? (gateway.active === false ? 'inactive' : 'active') : undefined;
    },
    ...attribution(),
    recoveries_source: (record) => ((record.recoveries ?? []) as Rec[]).map((recovery) => recovery.source),
    recoveries_date: (record) => ((record.recoveries ?? []) as Rec[]).map((recovery) => recovery.date),
  },
  transactionsList: {
    card_type: (record) => cardType(record.payment_details),
    bankcard_first_six: paidWith('bankcard_first_six'),
    bankcard_last_four: paidWith('bankcard_last_four'),
    gateway_id: gatewayOf,
    is_3ds: paidWith('is_3ds'),
    optimized_3ds: paidWith('optimized_3ds'),
    // The payment core's answer code, as the transaction keeps it.
    core_transaction_code: (record) => record.response_code,
    subscription_life_cycle: (record, state) => (record.subscription_id !== undefined && record.subscription_id !== null ? 'recurring' : saleOf(record, state)?.subscription_lifecycle ?? 'non-recurring'),
    ...attribution((record, state) => saleOf(record, state)?.attribution),
  },
  disputesList: {
    order_number: (record) => record.order,
    transaction_id: (record) => record.transaction,
    auth_code: (record, state) => chargeOf(record, state)?.auth_code,
    network_transaction_id: (record, state) => chargeOf(record, state)?.network_transaction_id,
    card_type: (record, state) => cardType(chargeOf(record, state)?.payment_details),
    card_first_six: (record, state) => (chargeOf(record, state)?.payment_details as Rec | undefined)?.bankcard_first_six,
    card_last_four: (record, state) => (chargeOf(record, state)?.payment_details as Rec | undefined)?.bankcard_last_four,
    gateway_id: (record, state) => ((chargeOf(record, state)?.payment_details as Rec | undefined)?.gateway as Rec | undefined)?.id,
    payment_method: (record, state) => chargeOf(record, state)?.payment_method,
    // When the customer's bank opened it.
    dispute_date: (record) => record.happened_at,
  },
  giftCardsList: {
    created: (record) => record.created_at,
    customer: (record) => record.user_id,
    status: (record) => (record.disabled_at ? 'disabled' : record.expired_at ? 'expired' : 'active'),
    amount: (record) => record.initial,
  },
  cartsList: {
    product: lines('product_id'),
    date_created: (record) => record.created_at,
    ...attribution(),
  },
  usersList: {
    name: (record) => names(record),
  },
  productsList: {
    category: (record) => record.category_ids,
    // A gift card sells no stock: its variants have no SKU.
    is_gift_card: (record, _state, linked) => linked('variants', 'product_id', record.id).some((variant) => !variant.sku),
    sku: (record, _state, linked) => linked('variants', 'product_id', record.id).map((variant) => variant.sku),
  },
  metadataList: {
    metadata_key: (record) => record.key,
  },
  ticketsList: {
    order_number: (record) => record.order,
    product: (record) => record.products,
    created: (record) => record.created_at,
  },
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

/** The fields `search_text` (or `filter_text`) looks in, per kind (a record's own text fields when not listed). */
export const SEARCHED: Partial<Record<KindName, Reading>> = {
  orders: (record, state) => [record.number, ...userText(user(record, state)), ...addressed(record).flatMap(names), ...lines('sku')(record, state, () => []) as unknown[], ...(lines('product_title')(record, state, () => []) as unknown[])],
  subscriptions: (record, state) => [record.id, ...userText(user(record, state)), ...(lines('sku')(record, state, () => []) as unknown[]), ...(lines('product_title')(record, state, () => []) as unknown[])],
  giftCards: (record, state) => [record.id, record.last_four, ...userText(user(record, state))],
  tickets: (record, state) => [record.id, record.subject, record.from_email, record.order, ...userText(state.records.users[String(record.requester)]), ...((record.comments ?? []) as Rec[]).map((comment) => comment.body)],
  // A stock record is found by its variant's SKU and title, or its location's name.
  stockrecords: (record, state) => {
    const variant = variantOf(record, state);
    const product = state.records.products[String(variant?.product_id)];
    return [variant?.sku, variant?.title, product?.title, state.records.locations[String(record.location_id)]?.name];
  },
};

/** What a person is found by: e-mail, name, phone. */
function userText(person: Rec | undefined): unknown[] {
  return person ? [person.email, person.phone_number, ...names(person)] : [];
}

const RANGE = /^(.*)_(from|to|min|max)$/;

export function matches(id: OperationId, kind: KindName, record: Rec, query: Record<string, unknown>, state: SandboxState): boolean {
  const readings = FILTERS[id] ?? {};
  const linked = linkedFor(query, state);
  const read = (name: string) => readings[name]!(record, state, linked);
  for (const [name, wanted] of Object.entries(query)) {
    if (wanted === undefined || name === 'cursor') continue;
    if (Array.isArray(wanted) && wanted.length === 0) continue;
    if (name === 'search_text' || name === 'filter_text') {
      if (!searchText(SEARCHED[kind]?.(record, state, linked) ?? ownText(record)).includes(String(wanted).toLowerCase())) return false;
      continue;
    }
    const range = RANGE.exec(name);
    if (range && !(name in readings) && !(name in record)) {
      const [, field = '', end] = range;
      const value = field in readings ? read(field) : record[field];
      if (!inRange(value, wanted, end as 'from' | 'to' | 'min' | 'max')) return false;
      continue;
    }
    const value = name in readings ? read(name) : record[name];
    if (!matchesValue(value, wanted)) return false;
  }
  return true;
}

// One index per list asked for: the query object lives as long as the request.
const indexes = new WeakMap<Record<string, unknown>, Map<string, Map<string, Rec[]>>>();

function linkedFor(query: Record<string, unknown>, state: SandboxState): Linked {
  let byField = indexes.get(query);
  if (!byField) indexes.set(query, (byField = new Map()));
  const made = byField;
  return (kind, field, value) => {
    const name = `${kind}.${field}`;
    let index = made.get(name);
    if (!index) {
      made.set(name, (index = new Map()));
      for (const record of Object.values(state.records[kind])) {
        for (const key of keysOf(record[field])) (index.get(key) ?? index.set(key, []).get(key)!).push(record);
      }
    }
    return index.get(String(value)) ?? [];
  };
}

/** A record's link, or each of its links where it keeps several (an order's subscriptions). */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((item) => String(item && typeof item === 'object' ? (item as Rec).id : item));
  return [String(value)];
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

/** Dates compare by day, both ends included (`date_to=2026-01-31` covers all of the 31st); amounts (a number bound) in cents. */
function inRange(value: unknown, bound: unknown, end: 'from' | 'to' | 'min' | 'max'): boolean {
  // A record with several (a subscription's recoveries) is in range when one of them is.
  if (Array.isArray(value)) return value.some((one) => inRange(one, bound, end));
  if (value === undefined || value === null || value === '') return false;
  if (end === 'min' || end === 'max' || typeof bound === 'number') {
    const [v, b] = [toCents(value), toCents(bound)];
    return end === 'min' || end === 'from' ? v >= b : v <= b;
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
