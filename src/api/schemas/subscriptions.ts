// Subscriptions (spec 2.7) and the bodies of cancel (4.3) and partial update (4.5).
import * as z from 'zod/mini';
import { CANCEL_REASONS, INTERVALS, SUBSCRIPTION_STATUSES } from '../enums.js';
import {
  anyObject,
  bool,
  dateTime,
  decimal,
  decimalString,
  isoDateTime,
  jsonObject,
  list,
  oneOf,
  int,
  same,
  text,
  tolerant,
  uri,
} from './common.js';
import { INT32_MAX } from './path-values.js';
import { attribution, billingAddress, shippingAddress, user } from './shared-objects.js';

const subscriptionFields = {
  id: int,
  attribution,
  billing_address: billingAddress,
  shipping_address: shippingAddress,
  user,
  // Blank on a subscription never canceled (the reference allows '' but not null).
  cancel_reason: oneOf([...CANCEL_REASONS, '']),
  ...same(['cancel_reason_other_message', 'currency', 'frequency', 'payment_method', 'shipping_code'], text),
  date_created: dateTime,
  next_renewal_date: dateTime,
  interval: oneOf(INTERVALS),
  interval_count: int,
  is_test: bool,
  num_lines: int,
  num_orders: int,
  orders: list(tolerant({ billing_cycle: int, order_number: text })),
  payment_details: anyObject,
  shipping_price: decimal,
  total: decimal,
  status: oneOf(SUBSCRIPTION_STATUSES),
};

/** Line shape of the cancel and renew responses. */
export const subscriptionLine = tolerant({
  id: int,
  metadata: anyObject,
  price: decimal,
  quantity: int,
  product: tolerant({
    categories: list(tolerant({ id: int, name: text, slug: text })),
    id: int,
    images: list(
      tolerant({
        attachment: text,
        caption: text,
        display_order: int,
        file_name: text,
        id: int,
        src: uri,
      }),
    ),
    title: text,
    upc: text,
    url: uri,
  }),
  stockrecord: tolerant({
    ...same(['id', 'low_stock_threshold', 'num_allocated', 'num_in_stock'], int),
    partner_sku: text,
    price: decimal,
    price_currency: text,
    price_retail: decimal,
  }),
});

/** Line shape of the partial-update response. */
export const subscriptionUpdateLine = tolerant({
  id: int,
  metadata: anyObject,
  price: decimal,
  product_id: int,
  product_image: uri,
  product_title: text,
  product_url: uri,
  quantity: int,
  sku: text,
  variant_id: int,
  variant_title: text,
});

/** Cancel and renew (2023-02-10): with is_tax_known, which the 2024-04-01 subscription no longer has. */
export const subscription = tolerant({ ...subscriptionFields, is_tax_known: bool, lines: list(subscriptionLine) });
export const updatedSubscription = tolerant({ ...subscriptionFields, lines: list(subscriptionUpdateLine) });

export const cancel = {
  body: z.strictObject({
    cancel_reason: z.enum(CANCEL_REASONS),
    cancel_reason_other_message: z.optional(z.nullable(z.string())),
    send_cancel_notification: z.optional(z.boolean()),
  }),
  response: subscription,
};

export const renew = { response: subscription };

export const update = {
  body: z.strictObject({
    attribution: z.optional(jsonObject),
    billing_address: z.optional(z.nullable(jsonObject)),
    interval: z.optional(z.enum(INTERVALS)),
    interval_count: z.optional(
      z.int({ error: 'must be a whole number' }).check(
        z.minimum(1, 'must be at least 1'),
        z.maximum(INT32_MAX, `must be at most ${INT32_MAX}`),
      ),
    ),
    is_test: z.optional(z.boolean()),
    next_renewal_date: z.optional(z.nullable(isoDateTime)),
    payment_details: z.optional(z.nullable(jsonObject)),
    shipping_address: z.optional(z.nullable(jsonObject)),
    shipping_code: z.optional(z.nullable(z.string())),
    shipping_price: z.optional(z.nullable(decimalString(7))),
    status: z.optional(z.enum(SUBSCRIPTION_STATUSES)),
  }),
  response: updatedSubscription,
};
