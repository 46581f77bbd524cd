// The two parts of undici the client uses: a keep-alive Agent and its request(). Importing them
// directly skips undici's main entry, which also loads fetch, WebSocket and caching at start-up.
import Agent from 'undici/lib/dispatcher/agent.js';
import requestOn from 'undici/lib/api/api-request.js';
import type { Dispatcher } from 'undici';

export { Agent };
export type { Dispatcher };

export type ResponseData = Dispatcher.ResponseData;

/** Sends one request to `url` through `dispatcher`. */
export function request(
  dispatcher: Dispatcher,
  url: string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return requestOn.call(dispatcher, { ...options, origin, path: `${pathname}${search}` });
}
