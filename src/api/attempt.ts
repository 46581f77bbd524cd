// One attempt at a request: sent through the exchange, redirects refused (the token never
// follows one), the answer parsed, and every failure turned into a NetworkError that says
// whether the request can have reached the store.
import { InterruptedError, NetworkError, statusLine, UsageError } from './errors.js';
import { errorCode, type HttpPool } from './http.js';
import { nestsDeeperThan } from './json-depth.js';
import { excerpt } from '../printable.js';
import type { PreparedRequest } from './request-builder.js';
import type { Response } from './types.js';

/**
 * Sends `prepared` once (to its URL as the client parsed it, if given), with the headers that carry the token and the body as JSON text.
 * `anyBody` accepts a success that is not JSON (raw requests); for operations that is an error.
 */
export async function attempt(
  pool: HttpPool,
  prepared: PreparedRequest,
  { url = prepared.url, headers, body }: { url?: URL | string; headers: Readonly<Record<string, string>>; body: string | undefined },
  signal: AbortSignal | undefined,
  anyBody: boolean,
): Promise<Response> {
  let answer;
  try {
    answer = await pool.send({ method: prepared.method, url, headers, body, signal });
  } catch (error) {
    if (signal?.aborted) throw interrupted(prepared.method);
    // Refused before a connection is opened: nothing can have been applied.
    if (errorCode(error) === 'BAD_HEADER') {
      throw new UsageError(`A request header holds a character HTTP does not allow (${(error as Error).message}); nothing was sent`);
    }
    throw pool.describe(error, prepared.url);
  }
  const { status, headers: responseHeaders } = answer;
  if (status >= 300 && status < 400) {
    const location = responseHeaders.location;
    throw new NetworkError(
      'redirect',
      `The store answered ${statusLine(status)} pointing to ${excerpt(String(location ?? 'nowhere'))}; not followed, so the token was not sent there`,
      { hint: 'Check the store URL; use the address the redirect names if you trust it' },
    );
  }
  const text = answer.body.toString('utf8');
  return { status, headers: responseHeaders, body: parseBody(text, String(responseHeaders['content-type'] ?? ''), status, anyBody, prepared.url) };
}

/** Far deeper than any answer of the API; shallow enough for every recursive walker of the tool. */
const MAX_ANSWER_DEPTH = 256;

/** JSON, or for an error answer (and for raw requests) the text itself. */
function parseBody(text: string, contentType: string, status: number, anyBody: boolean, url: string): unknown {
  if (!/\S/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (status >= 200 && status < 300 && !anyBody) {
      const kind = /html/i.test(contentType) || /^\s*</.test(text) ? 'an HTML page' : 'a body that is not JSON';
      // Not transient: asking again would get the same page.
      throw new NetworkError('body', `The store answered ${status} with ${kind}; expected JSON`, {
        hint: 'A proxy may stand in front of the store: check the store URL',
        status,
      });
    }
    return text;
  }
  if (typeof parsed === 'object' && parsed !== null && nestsDeeperThan(text, MAX_ANSWER_DEPTH)) {
    // Not transient: the same answer would come again.
    throw new NetworkError('body', `The answer (${status}) from ${new URL(url).host} is nested more than ${MAX_ANSWER_DEPTH} levels deep; not read`, { status });
  }
  return parsed;
}

export function interrupted(method: string): InterruptedError {
  return new InterruptedError(
    method === 'POST'
      ? 'Interrupted while the request was in flight; the change may or may not have been applied'
      : method === 'GET'
        ? 'Interrupted'
        : 'Interrupted while the request was in flight; sending it again is safe',
  );
}

