// The reference's `format: uri` as the platform's forms take it: a web or FTP address, with no
// spaces or control characters anywhere in it (Django's URLValidator), checked on the value as
// given. z.url() alone took mailto: and javascript: and strips tabs and newlines before parsing.
import * as z from 'zod/mini';

const WEB_ADDRESS = /^(https?|ftps?):\/\/[^\s\x00-\x1f\x7f]+$/i;

/**
 * A URL field. Refused with one `invalid_format` issue of format `url` (the store's "Enter a
 * valid URL."), and z.url() parses what passes, leaving its format where help and tests read it.
 */
export const webAddress = () =>
  z.string().check(
    z.superRefine((value, ctx) => {
      if (!WEB_ADDRESS.test(value)) ctx.addIssue({ code: 'invalid_format', format: 'url', input: value, continue: false });
    }),
    z.url(),
  );
