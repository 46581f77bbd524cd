// The spec's shared sub-objects (spec 2.1): addresses, people, tax lines, transactions, discounts.
// Apart from the building blocks, so that a request that only checks its path's values builds none of them.
import { anyObject, bool, dateTime, decimal, int, num, same, text, tolerant } from './common.js';

const addressFields = {
  country: text,
  line1: text,
  line2: text,
  line3: text,
  line4: text,
  phone_number: text,
  postcode: text,
  state: text,
};
export const originAddress = tolerant(addressFields);
export const billingAddress = tolerant({ ...addressFields, first_name: text, id: int, last_name: text });
export const shippingAddress = tolerant({
  ...addressFields,
  first_name: text,
  id: int,
  last_name: text,
  notes: text,
});

export const user = tolerant({
  accepts_marketing: bool,
  email: text,
  first_name: text,
  id: int,
  ip: text,
  language: text,
  last_name: text,
  phone_number: text,
  user_agent: text,
});

export const agent = tolerant({ email: text, first_name: text, id: int, last_name: text });
export const app = tolerant({ client_id: text, name: text });

export const attribution = tolerant({
  ...same(
    [
      'affiliate',
      'funnel',
      'gclid',
      'subaffiliate1',
      'subaffiliate2',
      'subaffiliate3',
      'subaffiliate4',
      'subaffiliate5',
      'utm_campaign',
      'utm_content',
      'utm_medium',
      'utm_source',
      'utm_term',
    ],
    text,
  ),
  agent,
  metadata: anyObject,
});

const amountReport = tolerant({ amount: decimal, currency: text });

const taxLineFields = {
  amount: decimal,
  currency: text,
  rate: num,
  report_values: amountReport,
  source: text,
  tax_title: text,
};
export const taxLine = tolerant({ ...taxLineFields, tax_id: int });
export const orderTaxLine = tolerant({ ...taxLineFields, id: int });

export const paymentDetails = tolerant({
  bankcard_first_six: text,
  bankcard_last_four: text,
  card_token: text,
  gateway: tolerant({ id: int, name: text, type: text }),
  is_3ds: bool,
  optimized_3ds: bool,
  paypal_vault_id: text,
  sca_flow: text,
});

export const transaction = tolerant({
  amount: decimal,
  auth_code: text,
  currency: text,
  date_created: dateTime,
  external_id: text,
  id: int,
  is_disputed: bool,
  is_external: bool,
  is_initial_retry: bool,
  is_test: bool,
  network_transaction_id: text,
  parent_id: int,
  payment_details: paymentDetails,
  payment_method: text,
  report_values: amountReport,
  response_code: int,
  statement_descriptor: text,
  status: text,
  type: text,
});

export const offerDiscount = tolerant({ amount: decimal, description: text, name: text });
export const voucherDiscount = tolerant({
  amount: decimal,
  description: text,
  name: text,
  voucher: tolerant({ code: text, end_datetime: dateTime, name: text, start_datetime: dateTime }),
});
