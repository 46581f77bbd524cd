// Orders, their notes, fulfillments and fulfillment orders (spec 2.2–2.6, 2.8, 2.9).
import * as z from 'zod/mini';
import { bool, dateTime, decimal, list, anyObject, nonEmptyText, int, num, same, text, tolerant, uri } from './common.js';
import {
  agent,
  app,
  attribution,
  billingAddress,
  offerDiscount,
  orderTaxLine,
  originAddress,
  shippingAddress,
  taxLine,
  transaction,
  user,
  voucherDiscount,
} from './shared-objects.js';

const lineMoney = [
  'original_price_excl_tax',
  'original_price_incl_tax',
  'original_total_discount',
  'price_excl_tax',
  'price_incl_tax',
  'total_cost',
  'total_discount',
  'unit_cost',
] as const;

export const orderLine = tolerant({
  created_at: dateTime,
  updated_at: dateTime,
  currency: text,
  ...same(['current_quantity', 'editable_quantity', 'fulfillable_quantity', 'quantity', 'id'], int),
  ...same(['is_gift_card', 'is_upsell', 'requires_shipping'], bool),
  metadata: anyObject,
  ...same(lineMoney, decimal),
  product_id: int,
  variant_id: int,
  product_image: uri,
  product_url: uri,
  product_title: text,
  variant_title: text,
  sku: text,
  tax_lines: list(taxLine),
  report_values: tolerant({ currency: text, ...same(lineMoney, decimal) }),
});

export const fulfillmentLineItem = tolerant({
  currency: text,
  fulfilled_quantity: text,
  fulfillment_service: text,
  id: int,
  order_line_id: int,
  price_excl_tax: decimal,
  price_incl_tax: decimal,
  product_id: int,
  product_image: uri,
  product_title: text,
  quantity: int,
  requires_shipping: bool,
  returnable_quantity: text,
  returned_quantity: text,
  sku: text,
  tax_lines: list(taxLine),
  total_discount: decimal,
});

export const fulfillment = tolerant({
  created_at: dateTime,
  last_event_date: dateTime,
  delivery_status: text,
  id: int,
  location_id: int,
  order_number: text,
  origin_address: originAddress,
  requires_shipping: bool,
  shipping_method: text,
  status: text,
  ...same(['tracking_carrier', 'tracking_carriers', 'tracking_code', 'tracking_codes', 'tracking_link'], text),
  tracking_links: uri,
  line_items: list(fulfillmentLineItem),
});

const refundReport = tolerant({ amount_excl_tax: decimal, amount_incl_tax: decimal, currency: text });

export const refund = tolerant({
  id: int,
  user_id: int,
  created_at: dateTime,
  note: text,
  order_number: text,
  ...same(['total_refund_amount', 'total_return_excl_tax', 'total_return_incl_tax'], decimal),
  report_values: tolerant({
    currency: text,
    ...same(['total_refund_amount', 'total_return_excl_tax', 'total_return_incl_tax'], decimal),
  }),
  transactions: list(transaction),
  adjustments: list(
    tolerant({
      amount_excl_tax: decimal,
      amount_incl_tax: decimal,
      id: int,
      report_values: refundReport,
      type: text,
    }),
  ),
  refund_line_items: list(
    tolerant({
      amount_excl_tax: decimal,
      amount_incl_tax: decimal,
      id: int,
      line_item_id: int,
      location_id: int,
      quantity: int,
      report_values: refundReport,
      restock_type: text,
    }),
  ),
});

const orderMoney = [
  'original_shipping_excl_tax',
  'original_shipping_incl_tax',
  'original_total_discount',
  'original_total_excl_tax',
  'original_total_incl_tax',
  'shipping_excl_tax',
  'shipping_incl_tax',
  'total_cost',
  'total_discount',
  'total_excl_tax',
  'total_incl_tax',
] as const;

export const order = tolerant({
  number: text,
  attribution,
  billing_address: billingAddress,
  shipping_address: shippingAddress,
  user,
  ...same(['created_at', 'date_placed', 'updated_at'], dateTime),
  ...same(
    [
      'currency',
      'display_taxes',
      'shipping_code',
      'shipping_method',
      'source',
      'status',
      'subscription_lifecycle',
      'fulfillment_status',
      'payment_status',
    ],
    text,
  ),
  is_test: bool,
  supports_post_purchase_upsells: bool,
  metadata: anyObject,
  // The reference allows null items; they are shown as received, never warned about.
  tags: list(z.nullable(text)),
  order_status_url: uri,
  lines: list(orderLine),
  fulfillments: list(fulfillment),
  refunds: list(refund),
  transactions: list(transaction),
  subscriptions: list(tolerant({ billing_cycle: int, id: int })),
  offer_discounts: list(offerDiscount),
  voucher_discounts: list(voucherDiscount),
  shipping_tax_lines: list(taxLine),
  tax_lines: list(orderTaxLine),
  ...same([...orderMoney, 'shipping_tax', 'total_outstanding', 'total_tax'], decimal),
  report_values: tolerant({ currency: text, ...same(orderMoney, decimal) }),
});

const noteFields = { app, author: agent, id: int, message: text };
export const orderNote = tolerant({ ...noteFields, date_created: dateTime, date_updated: dateTime });
export const customerNote = tolerant({ ...noteFields, created_at: dateTime, updated_at: dateTime });

export const fulfillmentEvent = tolerant({
  id: int,
  fulfillment: int,
  order: text,
  ...same(['city', 'country', 'line1', 'line2', 'postcode', 'state', 'message', 'status'], text),
  latitude: num,
  longitude: num,
  ...same(['created_at', 'updated_at', 'happened_at', 'estimated_delivery_at'], dateTime),
});

const fulfillmentOrderLineFields = {
  currency: text,
  fulfillable_quantity: text,
  fulfillment_order_id: int,
  id: int,
  order_line_id: int,
  price_excl_tax: decimal,
  price_incl_tax: decimal,
  product_id: text,
  product_image: uri,
  product_title: text,
  quantity: int,
  sku: text,
  stockrecord_id: int,
  tax_lines: list(taxLine),
};

/** The two answers differ only in their lines: retrieval (4.7) adds two prices, rejection (4.9) a discount. */
function fulfillmentOrderWith<Extras extends Record<string, z.ZodMiniType>>(lineExtras: Extras) {
  return tolerant({
    id: int,
    created_at: dateTime,
    updated_at: dateTime,
    order_number: text,
    request_status: text,
    status: text,
    assigned_location: tolerant({
      accept_return: bool,
      address: originAddress,
      callback_url: uri,
      id: int,
      name: text,
    }),
    fulfillment_holds: list(tolerant({ created_at: dateTime, reason: text, reason_message: text })),
    merchant_requests: list(tolerant({ message: text, notify: bool, type: text })),
    shipping_address: shippingAddress,
    shipping_method: tolerant({ code: text, name: text }),
    supported_actions: list(z.unknown()),
    line_items: list(tolerant({ ...fulfillmentOrderLineFields, ...lineExtras })),
  });
}

export const fulfillmentOrder = fulfillmentOrderWith({
  price_excl_tax_excl_discounts: decimal,
  price_incl_tax_excl_discounts: decimal,
});
export const rejectedFulfillmentOrder = fulfillmentOrderWith({ total_discount: decimal });

/**
 * 4.7 declares one object but "retrieves a list": a bare object, a bare array and a `{results}`
 * wrapper all become an array, before (and whether or not) the answer is checked.
 */
export function asList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  const results = (value as { results?: unknown }).results;
  return Array.isArray(results) ? results : [value];
}

const noteBody = z.strictObject({ message: nonEmptyText });

export const removeLine = { response: order };
export const addNote = { body: noteBody, response: orderNote };
export const addCustomerNote = { body: noteBody, response: customerNote };
export const getFulfillmentEvent = { response: fulfillmentEvent };
export const listFulfillmentOrders = { response: list(fulfillmentOrder), normalize: asList };
export const rejectCancellation = {
  body: z.strictObject({ message: z.optional(z.nullable(z.string())) }),
  response: rejectedFulfillmentOrder,
};
