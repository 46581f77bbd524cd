// Store URLs as users paste them, normalised once; and the rule for sending a token in clear text.
import { NetworkError, UsageError } from './errors.js';

export const API_PREFIX = '/api/admin';

/**
 * `shop.example.com`, `https://shop.example.com/`, `…/api/admin` and `…/api/admin/` all become
 * `https://shop.example.com`: origin plus any path prefix, without the API prefix or a trailing slash.
 */
export function normalizeStoreUrl(raw: string): string {
  const url = parseStoreUrl(raw);
  let path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * A store URL as a person gives it (flag, variable, prompt). A store is one host, so a path is
 * kept only where it leads to the API (`https://proxy.example.com/shop-a/api/admin` keeps
 * `/shop-a`); any other path, such as a dashboard page pasted from the browser, is dropped, and
 * `onDropped` is told what was dropped.
 */
export function storeUrlFromInput(raw: string, onDropped: (message: string) => void): string {
  const url = parseStoreUrl(raw);
  const pathname = url.pathname.replace(/\/+$/, '');
  const api = `${pathname}/`.indexOf(`${API_PREFIX}/`);
  const path = api >= 0 ? pathname.slice(0, api) : '';
  const origin = `${url.protocol}//${url.host}`;
  const dropped = (api >= 0 ? pathname.slice(api + API_PREFIX.length) : pathname) + url.search + url.hash;
  if (dropped) onDropped(`Using ${origin}${path} as the store URL (the API lives at ${API_PREFIX}/ on the store's host): dropped "${dropped}"`);
  return `${origin}${path}`;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A TLS failure reaching a store URL that was given without a scheme: https was assumed, which a
 * plain-http store cannot speak, so the hint says so and how to say otherwise.
 */
export function noteAssumedHttps(error: unknown, given: string | undefined): void {
  if (given === undefined || SCHEME.test(given.trim()) || !(error instanceof NetworkError) || error.kind !== 'tls') return;
  const host = given.trim();
  error.hint = `https://${host} was assumed, as the store URL names no scheme; if the store speaks plain http, give http://${host}${error.hint ? `. ${error.hint}` : ''}`;
}

function parseStoreUrl(raw: string): URL {
  const trimmed = raw.trim();
  if (!trimmed) throw new UsageError('The store URL is empty');
  const withScheme = SCHEME.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`Not a store URL: "${raw}"`, { hint: 'Give it as https://your-store.example.com' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Not a store URL: "${raw}" (only http and https are supported)`);
  }
  if (url.username || url.password) throw new UsageError('Put no credentials in the store URL');
  return url;
}

/** The store's API root, `https://shop.example.com[/prefix]/api/admin/`: the token goes under it, and nowhere else on the host. */
export function apiRoot(baseUrl: string): URL {
  return new URL(`${baseUrl}${API_PREFIX}/`);
}

/**
 * Whether a URL lies under the API root. `url` is parsed, so `..`, `%2e%2e` and backslashes are
 * resolved already; a segment holding an encoded `/` or `\` (which a server may decode and then
 * resolve) counts as outside.
 */
export function insideApiRoot(url: URL, root: URL): boolean {
  return url.origin === root.origin && url.pathname.startsWith(root.pathname) && !/%(?:2f|5c)/i.test(url.pathname);
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Tokens travel in clear text only to this machine, unless the user says otherwise. */
export function assertSafeTransport(baseUrl: string, allowHttp: boolean): void {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`Refusing to send the token in clear text to ${url.host}`, {
      hint: 'Use an https:// store URL, or pass --allow-http if you really mean it',
    });
  }
}

/**
 * Fills a path template such as `/orders/{number}/` with encoded values. Every value stays one
 * segment: `/ ? # %` and control characters are percent-encoded, and since a URL parser resolves
 * `.` and `..` even when encoded as `%2E`, those (and an empty value) are refused.
 */
export function fillPath(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => segment(name, params[name]));
}

function segment(name: string, param: unknown): string {
  const value = String(param ?? '');
  if (value === '' || value === '.' || value === '..') {
    throw new UsageError(`<${name}> cannot be ${value ? `"${value}"` : 'empty'}: it would change the request's path`);
  }
  return encodeURIComponent(value);
}
