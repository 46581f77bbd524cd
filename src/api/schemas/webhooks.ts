// Webhooks (spec 2.13, 4.15, 4.16; list, update and delete from the platform's published reference).
import * as z from 'zod/mini';
import { bool, dateTime, list as listOf, noContent, nonEmptyText, nullableText, int, text, tolerant, uri } from './common.js';

export const webhook = tolerant({
  id: int,
  active: bool,
  api_version: text,
  created_at: dateTime,
  updated_at: dateTime,
  next_check_date: dateTime,
  // The reference allows null items; they are shown as received, never warned about.
  events: listOf(z.nullable(text)),
  name: text,
  secret_key: text,
  target: uri,
  warning_count: int,
});

/** The writable fields, as create and update take them. */
const writable = {
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
};

export const create = { body: z.strictObject(writable), response: webhook };

export const get = { response: webhook };

/** A partial update: any of the writable fields, each checked as create checks it. */
export const update = { body: z.partial(z.strictObject(writable)), response: webhook };

/** 204 with no body. */
export const remove = { response: noContent };

/**
 * The platform's cursor pagination: query values as they travel (text), `cursor` opaque, taken
 * from a page's `next` or `previous` link.
 */
export const list = {
  query: z.strictObject({
    name: z.optional(nonEmptyText),
    active: z.optional(z.enum(['true', 'false'], { error: 'must be true or false' })),
    cursor: z.optional(nonEmptyText),
  }),
  response: tolerant({ next: uri, previous: uri, results: listOf(webhook) }),
};
