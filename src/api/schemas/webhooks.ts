// Webhooks (spec 2.13, 4.15, 4.16).
import * as z from 'zod/mini';
import { bool, dateTime, list, nonEmptyText, nullableText, int, text, tolerant, uri } from './common.js';

export const webhook = tolerant({
  id: int,
  active: bool,
  api_version: text,
  created_at: dateTime,
  updated_at: dateTime,
  next_check_date: dateTime,
  events: list(text),
  name: text,
  secret_key: text,
  target: uri,
  warning_count: int,
});

export const create = {
  body: z.strictObject({
    active: z.optional(z.boolean()),
    api_version: nullableText,
    events: z.array(nonEmptyText).check(z.minLength(1, 'must name at least one event')),
    name: nullableText,
    secret_key: nullableText,
    // A URL with a space or a control character in it is refused before URL parsing quietly
    // encodes or drops it (the address sent would not be the one typed); other text is not a URL.
    target: z.pipe(
      z.string().check(
        z.refine(
          (value) => !/[\s\p{Cc}]/u.test(value) || !URL.canParse(value.replace(/[\s\p{Cc}]/gu, '')),
          'must be free of spaces and control characters',
        ),
      ),
      z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).check(z.maxLength(255, 'must be at most 255 characters')),
    ),
  }),
  response: webhook,
};

export const get = { response: webhook };
