// The values a request's path takes, apart from the other building blocks: checking a path builds
// nothing else.
import * as z from 'zod/mini';

export const INT32_MAX = 2147483647;

/** A positive 32-bit integer id. */
export const id = z.int({ error: 'must be a positive whole number' }).check(
  z.minimum(1, 'must be a positive whole number'),
  z.maximum(INT32_MAX, `must be at most ${INT32_MAX}`),
);

const WELL_FORMED = /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/**
 * Text that can be put in a URL path: not empty, no unpaired UTF-16 surrogates, and not `.` or
 * `..`, which URL parsing would resolve away (even percent-encoded), sending the request elsewhere.
 */
export const pathText = z.string().check(
  z.minLength(1, 'must not be empty'),
  z.regex(WELL_FORMED, 'must be valid Unicode text'),
  z.refine((value) => value !== '.' && value !== '..', 'cannot be "." or ".." (it would change the request\'s path)'),
);
