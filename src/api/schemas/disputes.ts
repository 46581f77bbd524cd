// Disputes (spec 2.11, 4.11).
import * as z from 'zod/mini';
import { DISPUTE_RESOLUTIONS, DISPUTE_TYPES } from '../enums.js';
import { anyObject, dateTime, decimal, decimalString, isoDateTime, jsonObject, nullableText, int, oneOf, text, tolerant } from './common.js';
import { id } from './path-values.js';

export const dispute = tolerant({
  id: int,
  amount: decimal,
  arn: text,
  case_number: text,
  currency: text,
  date_created: dateTime,
  happened_at: dateTime,
  metadata: anyObject,
  order: int,
  report_amount: decimal,
  report_currency: text,
  resolution: oneOf([...DISPUTE_RESOLUTIONS, '']),
  resolution_other_message: text,
  status: text,
  transaction: int,
  type: oneOf(DISPUTE_TYPES),
});

export const create = {
  body: z.strictObject({
    amount: z.optional(z.nullable(decimalString(6))),
    arn: nullableText,
    case_number: nullableText,
    currency: nullableText,
    happened_at: z.optional(isoDateTime),
    metadata: z.optional(z.nullable(jsonObject)),
    resolution: z.optional(z.nullable(z.enum([...DISPUTE_RESOLUTIONS, '']))),
    resolution_other_message: nullableText,
    transaction: z.optional(z.nullable(id)),
    type: z.optional(z.enum(DISPUTE_TYPES)),
  }),
  response: dispute,
};
