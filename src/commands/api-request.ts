// The work behind `store-admin api`: fields in gh's syntax, the operation's version found from
// the table by path and method, raw requests through the client, pagination and output.
import { ApiError, describeErrorBody, statusLine, StoreAdminError, UsageError } from '../api/errors.js';
import { loadAllOperations, type Operation } from '../api/operations.js';
import { router } from '../api/routes.js';
import { API_PREFIX, apiRoot, insideApiRoot } from '../api/url.js';
import type { RawResponse } from '../api/client.js';
import type { Context } from '../context.js';
import { redactSecrets } from '../output/redact.js';
import { printableLine, quotedExcerpt } from '../printable.js';
import { checkQuery } from '../output/render.js';
import type { Options } from '../options.js';
import { addHint } from '../run/auth-hint.js';
import { confirm } from '../run/confirm.js';
import { droppedProtoNote, jsonValue, MAX_JSON_DEPTH, textFrom } from '../fields/values.js';

const MAX_PAGES = 1000;
const RESERVED_HEADERS = new Set(['authorization', 'x-store-api-version', 'host', 'content-length']);

export async function apiRequest(ctx: Context, rawPath: string, opts: Options): Promise<void> {
  const { options, io } = ctx;
  if (options.query !== undefined) await checkQuery(options.query);
  const path = normalizePath(rawPath);
  const fields = await parseFields(opts, ctx);
  const input = opts.input === undefined ? undefined : await jsonValue(`${opts.input === '-' ? '-' : `@${opts.input}`}`, '--input', io);
  // As in gh: fields or a body make a POST, unless the request pages through a list.
  const method = String(opts.method ?? (!opts.paginate && (fields !== undefined || input !== undefined) ? 'POST' : 'GET')).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new UsageError(`-X: not an HTTP method (got "${opts.method}")`);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate goes with GET requests');

  // Fields travel in the query string of a GET, or beside an --input body; otherwise they are the body.
  const inQuery = method === 'GET' || input !== undefined;
  const op = await operationAt(method, path);
  const request = {
    method,
    path,
    version: options.apiVersion ?? versionFor(op, method, path),
    headers: parseHeaders(Array.isArray(opts.header) ? opts.header : []),
    ...(inQuery ? { query: flatQuery(fields) } : { body: fields }),
    ...(input !== undefined ? { body: input } : {}),
  };

  // --api-version is this command's own choice of version: each raw request carries it as its
  // own, so the client's override of the operations' versions (and its warning) never applies.
  const client = await ctx.client();
  if (options.dryRun) {
    const { printDryRun } = await import('../run/dry-run.js');
    await printDryRun(client.prepareRaw(request), ctx);
    return;
  }
  // The raw path is held to the same rule as the commands: a change that cannot be undone is confirmed.
  if (op?.irreversible && !options.yes) {
    await confirm(ctx, `Send ${method} ${new URL(request.path, 'http://x').pathname} (${op.summary}), which cannot be undone?`);
  }
  let response = await client.raw(request);
  let body = response.body;
  const shown = (data: unknown) => (opts.showSecret ? data : redactSecrets(data));
  if (opts.paginate && response.status >= 200 && response.status < 300 && isPage(body)) {
    // As NDJSON, each page's records are printed as they arrive (a query applies to each record);
    // as JSON, the pages are merged into one list.
    const stream = ctx.format === 'ndjson' ? await ctx.output.records({ query: (record, search) => search(record) }) : undefined;
    const merged: unknown[] = [];
    const take = (results: unknown[]) => {
      if (!stream) return void merged.push(...results);
      for (const record of results) stream.write(shown(record));
    };
    take(body.results);
    for (let pages = 1; isPage(response.body) && response.body.next; pages++) {
      if (pages >= MAX_PAGES) throw new StoreAdminError(`--paginate: stopped after ${MAX_PAGES} pages`);
      response = await client.raw({ ...request, path: nextPage(response.body.next, client.baseUrl), query: undefined });
      if (response.status < 200 || response.status >= 300 || !isPage(response.body)) break;
      take(response.body.results);
    }
    stream?.end();
    body = stream ? undefined : merged;
  }
  // An error answer prints nothing on stdout: its message goes to stderr, and its body with it
  // in the JSON error object (--json); --include's status block goes to stderr too.
  if (response.status < 200 || response.status >= 300) {
    if (opts.include) ctx.output.log(statusBlock(response));
    const error = new ApiError(response.status, response.body, describeErrorBody(response.status, response.body), response.headers);
    addHint(error, op ?? { scopes: [], allScopes: false }, await ctx.grant());
    throw error;
  }
  if (opts.include) ctx.output.text(statusBlock(response));
  if (body !== undefined) {
    // A body that is not JSON is printed as received in a pipe, as text for people on a terminal.
    if (typeof body === 'string') {
      const text = `${body}${body.endsWith('\n') ? '' : '\n'}`;
      if (io.stdout.isTTY) ctx.output.text(text);
      else ctx.output.data(text);
    }
    // JSON or NDJSON: a table has no columns to show an arbitrary answer in.
    else await ctx.output.result(shown(body), { table: false });
  }
}

/** PATH relative to /api/admin, with or without the prefix, ending in "/" as every path of the API does. */
function normalizePath(raw: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) {
    throw new UsageError(`PATH is relative to /api/admin, not a URL (got "${raw}")`, { hint: 'Choose the store with --profile or --base-url' });
  }
  const [pathname = '', search] = raw.split(/\?(.*)/s, 2);
  let path = pathname.startsWith('/') ? pathname : `/${pathname}`;
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) path = path.slice(API_PREFIX.length) || '/';
  if (!path.endsWith('/')) path += '/';
  // Checked here too (the client checks again) so that this refusal comes before any other complaint.
  const root = new URL(`http://store${API_PREFIX}/`);
  const resolved = new URL(`${API_PREFIX}${path}`, root);
  if (!insideApiRoot(resolved, root)) {
    throw new UsageError(`Refusing the path ${JSON.stringify(raw)}: it leads to ${resolved.pathname}, outside ${API_PREFIX}/, and the token would go with it`);
  }
  return search ? `${path}?${search}` : path;
}

/** The operation this method and path are, if the table has it (an id that does not fit still names it). */
async function operationAt(method: string, path: string): Promise<Operation | undefined> {
  const ops = await loadAllOperations();
  const match = router(ops)(method, `${API_PREFIX}${new URL(path, 'http://x').pathname}`);
  return match.kind === 'found' || match.kind === 'invalid-params' ? ops.find((op) => op.id === match.id) : undefined;
}

/** The version of the operation this path and method are, from the table. */
function versionFor(op: Operation | undefined, method: string, path: string): string {
  if (op) return op.version;
  throw new UsageError(`${method} ${new URL(path, 'http://x').pathname} is not one of the operations this tool knows: pass --api-version`, {
    hint: 'Every request needs the X-Store-API-Version its operation requires, e.g. --api-version 2024-04-01',
  });
}

function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(value);
    if (!match || /[\r\n]/.test(value)) throw new UsageError(`-H takes "Name: value" (got "${printableLine(value)}")`);
    // What HTTP allows in a value: tab, visible ASCII and Latin-1 (Node refuses the rest).
    if (/[^\t\x20-\x7e\x80-\xff]/.test(match[2]!)) {
      throw new UsageError(`-H ${match[1]}: the value holds a control character or one beyond Latin-1 (${printableLine(match[2]!)}); nothing was sent`);
    }
    const name = match[1]!.toLowerCase();
    if (RESERVED_HEADERS.has(name)) {
      throw new UsageError(`-H ${match[1]}: set by the tool${name === 'x-store-api-version' ? '; use --api-version' : ''}`);
    }
    headers[name] = match[2]!;
  }
  return headers;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** -f and -F fields in gh's syntax; undefined when none were given. */
async function parseFields(opts: Options, ctx: Context): Promise<Record<string, Json> | undefined> {
  const raw = (opts.rawField ?? []) as string[];
  const typed = (opts.field ?? []) as string[];
  if (raw.length === 0 && typed.length === 0) return undefined;
  const fields: Record<string, Json> = {};
  for (const [flag, entries] of [['-f', raw], ['-F', typed]] as const) {
    for (const entry of entries) {
      const at = entry.indexOf('=');
      const key = at < 0 ? entry : entry.slice(0, at);
      if (at < 0 && !key.endsWith('[]')) throw new UsageError(`${flag} takes key=value (got "${entry}")`);
      const value = at < 0 ? undefined : flag === '-f' ? entry.slice(at + 1) : await typedValue(entry.slice(at + 1), ctx);
      const path = keyPath(key, flag);
      // Assigned, it would set an object's prototype (Object.prototype's, for a nested one).
      if (path.includes('__proto__')) ctx.output.prose(droppedProtoNote(`${flag} ${key}`, [path.filter(Boolean).join('.')]));
      else assign(fields, path, value);
    }
  }
  return fields;
}

/** `a`, `a[]`, `a[b]`, `a[b][]` → ['a'], ['a', ''], ['a', 'b'], ['a', 'b', '']. */
function keyPath(key: string, flag: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`${flag}: not a field name: "${key}"`);
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  if (rest.length >= MAX_JSON_DEPTH) throw new UsageError(`${flag}: field name nested more than ${MAX_JSON_DEPTH} levels deep`);
  if (rest.slice(0, -1).includes('')) throw new UsageError(`${flag}: "[]" may only end a field name (got "${key}")`);
  return [match[1]!, ...rest];
}

function assign(target: Record<string, Json>, path: string[], value: Json | undefined): void {
  let node: Record<string, Json> | Json[] = target;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    const nextIsArray = path[index + 1] === '';
    if (segment === '') {
      if (value !== undefined) (node as Json[]).push(value);
      return;
    }
    const record = node as Record<string, Json>;
    if (last) {
      record[segment] = value === undefined ? [] : value;
      return;
    }
    // Own keys only: `constructor` is a field like any other, not the inherited function.
    const existing = Object.hasOwn(record, segment) ? record[segment] : undefined;
    const fits = nextIsArray ? Array.isArray(existing) : existing !== null && typeof existing === 'object' && !Array.isArray(existing);
    if (existing !== undefined && !fits) throw new UsageError(`Field "${path.slice(0, index + 1).join('.')}" is given two different shapes`);
    node = (existing ?? (record[segment] = nextIsArray ? [] : {})) as Record<string, Json> | Json[];
  }
}

async function typedValue(text: string, ctx: Context): Promise<Json> {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text))) return Number(text);
  if (text.startsWith('@')) return textFrom(text === '@-' ? '-' : text.slice(1), '-F', ctx.io);
  return text;
}

function flatQuery(fields: Record<string, Json> | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields ?? {})) {
    if (value !== null && typeof value === 'object') {
      throw new UsageError(`Field "${key}" is a list or an object: in a query string only plain values fit (use -X POST or PATCH)`);
    }
    query[key] = String(value);
  }
  return query;
}

interface Page {
  results: unknown[];
  next?: unknown;
}

/**
 * The absolute URL of a page's `next` link, followed only under the store's API root: the token
 * goes with it, and another path on the same host (another store, another app) must not get it.
 */
function nextPage(next: unknown, baseUrl: string): string {
  if (typeof next !== 'string') {
    throw new StoreAdminError(`--paginate: the store's "next" link is not a URL (got ${quotedExcerpt(next, 80)})`);
  }
  const root = apiRoot(baseUrl);
  let url: URL;
  try {
    url = new URL(next, root);
  } catch {
    throw new StoreAdminError(`--paginate: the store's "next" link is not a URL (got ${quotedExcerpt(next, 80)})`);
  }
  if (!insideApiRoot(url, root)) {
    throw new StoreAdminError(`--paginate: not following ${url.origin}${url.pathname}: it is outside ${root.href}, and the token would go with it`);
  }
  return url.href;
}

function isPage(body: unknown): body is Page {
  return !!body && typeof body === 'object' && Array.isArray((body as Page).results);
}

function statusBlock(response: RawResponse): string {
  const lines = [`HTTP/1.1 ${statusLine(response.status)}`];
  for (const [name, value] of Object.entries(response.headers)) {
    // A header is text for people: its C1 controls (which Node reads as Latin-1) are escaped too.
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) lines.push(`${name}: ${printableLine(one)}`);
  }
  return `${lines.join('\n')}\n\n`;
}
