// The client against real HTTP: the sandbox for the API's behaviour, and small raw servers for
// the shapes a real store or a proxy might send.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { neverSent } from '../../src/api/retry.js';
import { ApiError, AuthError, NetworkError, UsageError, ValidationError } from '../../src/api/errors.js';
import { loadOperation } from '../../src/api/operations.js';
import { normalizeStoreUrl } from '../../src/api/url.js';
import { servedIds, validInputs } from '../fixtures.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';

describe('client against the sandbox', () => {
  const ctx = useSandbox();

  it.each(servedIds)('%s succeeds', async (id) => {
    const answered: unknown[] = [];
    const client = ctx.clientWith({ onResponse: (r) => answered.push(r.body) });
    const result = await client.call(id, validInputs[id] as never);
    // What the caller gets is what the store answered, reshaped only where the operation says so
    // (useSandbox also holds the answer to the operation's schema).
    const op = await loadOperation(id);
    const schemas = await op.schemas();
    const normalize = 'normalize' in schemas && schemas.normalize ? schemas.normalize : (body: unknown) => body;
    expect(answered).toHaveLength(1);
    expect(result).toEqual(normalize(answered[0]));
    expect(ctx.sandbox.counters.byOperation[id]).toEqual({ received: 1, applied: op.method === 'GET' ? 0 : 1 });
  });

  it('offers each operation as a grouped method', async () => {
    const category = (await ctx.client.categories.get({ params: { id: 2 } })) as { id: number };
    expect(category.id).toBe(2);
    const types = (await ctx.client.exports.types({})) as { types: unknown[] };
    expect(types.types).toHaveLength(13);
  });

  it('yields fulfillment orders as an array', async () => {
    const list = (await ctx.client.orders.fulfillmentOrders({ params: { number: '10001' } })) as { id: number }[];
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((fo) => fo.id)).toEqual([402]);
  });

  it('rejects invalid input listing every bad field, and sends nothing', async () => {
    const before = ctx.sandbox.counters.received;
    const attempt = ctx.client.call('subscriptionsPartialUpdate', {
      params: { id: 0 },
      body: { interval_count: 0, shipping_price: '12.345', status: 'paused' as never },
    });
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    const error = (await attempt.catch((e: unknown) => e)) as ValidationError;
    expect(error.issues.map((i) => i.path.join('.')).sort()).toEqual(['body.interval_count', 'body.shipping_price', 'body.status', 'params.id']);
    expect(error.message).toContain('body.shipping_price: must be a decimal with at most 7 digits before and 2 after the point');
    expect(error.message).toContain('body.status: must be one of: active, past_due, canceled, retrying');
    expect(error.exitCode).toBe(2);
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('turns a 404 into an ApiError with the detail, in the platform framework\'s words', async () => {
    const error = await ctx.client.categories.get({ params: { id: 999 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toBe('Not found.');
    expect((error as ApiError).exitCode).toBe(1);
  });

  it('turns a 401 into an error with exit code 4', async () => {
    const client = ctx.clientWith({ token: 'wrong' });
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(error.exitCode).toBe(4);
  });

  it('refuses to call without a token', async () => {
    const client = ctx.clientWith({ token: undefined });
    const before = ctx.sandbox.counters.received;
    await expect(client.exports.types({})).rejects.toBeInstanceOf(AuthError);
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('prepares a request without sending it, with the token redacted', async () => {
    const before = ctx.sandbox.counters.received;
    const prepared = ctx.client.request(await ctx.client.prepare('ordersNotesCreate', { params: { number: 'A/1 b' }, body: { message: 'hi' } }));
    expect(prepared.url).toBe(`${ctx.sandbox.url}/api/admin/orders/A%2F1%20b/notes/`);
    expect(prepared.headers.authorization).toBe('Bearer ***');
    expect(JSON.stringify(prepared)).not.toContain(FULL_TOKEN);
    expect(ctx.sandbox.counters.received).toBe(before);
  });
});

// --- raw servers ---------------------------------------------------------------------------

interface Seen {
  method?: string;
  url?: string;
  headers?: IncomingHttpHeaders;
  body?: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function rawServer(
  answer: (seen: Seen) => { status: number; headers?: Record<string, string>; body?: string },
) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { method: req.method, url: req.url, headers: req.headers, body };
      seen.push(entry);
      const reply = answer(entry);
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, client: createClient({ baseUrl: `${url}/api/admin/`, token: 'secret-token', retries: 0 }) };
}

const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('client on the wire', () => {
  it('sends the documented headers and a JSON body', async () => {
    const { seen, client } = await rawServer(() => json(200, { id: 1 }));
    await client.call('subscriptionsCancelCreate', { params: { id: 7 }, body: { cancel_reason: 'other', send_cancel_notification: false } });
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/admin/subscriptions/7/cancel/');
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer secret-token',
      'x-store-api-version': (await loadOperation('subscriptionsCancelCreate')).version,
      accept: 'application/json',
      'content-type': 'application/json',
    });
    expect(request?.headers?.['user-agent']).toMatch(/^store-admin\/\d+\.\d+\.\d+/);
    expect(JSON.parse(request?.body ?? '')).toEqual({ cancel_reason: 'other', send_cancel_notification: false });
  });

  it('says a POST without a body is empty (Content-Length: 0, never chunked), and a GET says nothing', async () => {
    const { seen, client } = await rawServer(() => json(200, { id: 1 }));
    await client.call('subscriptionsRenewCreate', { params: { id: 1 } });
    await client.call('categoriesRetrieve', { params: { id: 1 } });
    const [post, get] = seen;
    expect(post?.method).toBe('POST');
    expect(post?.headers?.['content-length']).toBe('0');
    expect(post?.headers?.['transfer-encoding']).toBeUndefined();
    expect(get?.headers?.['content-length']).toBeUndefined();
    expect(get?.headers?.['transfer-encoding']).toBeUndefined();
  });

  it("sends one of each header: a raw request's own names, in any case, cannot go out beside the client's", async () => {
    const { seen, client } = await rawServer(() => json(200, {}));
    await client.raw({
      method: 'GET',
      path: '/categories/1/',
      version: '2024-04-01',
      headers: { Authorization: 'Basic zzz', 'X-Store-API-Version': '1999-01-01', 'X-Trace': 'abc' },
    });
    // Node's server keeps the first of two Authorization headers: a second would have been the caller's.
    expect(seen[0]?.headers).toMatchObject({ authorization: 'Bearer secret-token', 'x-store-api-version': '2024-04-01', 'x-trace': 'abc' });
  });

  it('frames a request alike over Node\'s HTTP and an undici dispatcher: a caller\'s Host, length, encoding and connection headers are dropped', async () => {
    const { url, seen } = await rawServer(() => json(200, {}));
    const dispatcher = new Agent();
    const body = { note: 'naïve' };
    const request = {
      method: 'POST',
      path: '/customers/1/notes/',
      version: '2024-04-01',
      headers: { Host: 'evil.example.com', 'Content-Length': '999', 'Transfer-Encoding': 'chunked', Connection: 'close', 'X-Trace': 'abc' },
      body,
    };
    for (const client of [createClient({ baseUrl: url, token: 't', retries: 0 }), createClient({ baseUrl: url, token: 't', retries: 0, dispatcher })]) {
      expect((await client.raw(request)).status).toBe(200);
      await client.close();
    }
    await dispatcher.close();
    const framing = seen.map(({ headers, body: text }) => ({
      host: headers?.host,
      length: headers?.['content-length'],
      chunked: headers?.['transfer-encoding'],
      close: headers?.connection === 'close',
      trace: headers?.['x-trace'],
      text,
    }));
    const expected = { host: new URL(url).host, length: String(Buffer.byteLength(JSON.stringify(body))), chunked: undefined, close: false, trace: 'abc', text: JSON.stringify(body) };
    expect(framing).toEqual([expected, expected]);
  });

  it('accepts 204 with an empty body, without a warning', async () => {
    const warnings: string[] = [];
    const { url } = await rawServer(() => ({ status: 204 }));
    const client = createClient({ baseUrl: url, token: 't', onWarning: (m) => warnings.push(m) });
    await expect(client.call('subscriptionsRenewCreate', { params: { id: 1 } })).resolves.toBeUndefined();
    expect(warnings).toEqual([]);
    await client.close();
  });

  it('reads 4.7 as an array even when its items do not match the documented shape', async () => {
    const warnings: string[] = [];
    const { url } = await rawServer(() => json(200, { id: 'x', line_items: 'nope' }));
    const client = createClient({ baseUrl: url, token: 't', onWarning: (m) => warnings.push(m) });
    await expect(client.orders.fulfillmentOrders({ params: { number: '1' } })).resolves.toEqual([{ id: 'x', line_items: 'nope' }]);
    expect(warnings).toHaveLength(1);
    await client.close();
  });

  it.each([
    ['a bare object', { id: 1 }],
    ['a bare array', [{ id: 1 }]],
    ['a results wrapper', { next: null, previous: null, results: [{ id: 1 }] }],
  ])('reads 4.7 given %s as an array', async (_name, body) => {
    const { client } = await rawServer(() => json(200, body));
    await expect(client.orders.fulfillmentOrders({ params: { number: '1' } })).resolves.toEqual([{ id: 1 }]);
  });

  it('keeps unknown fields and values outside the observed enums', async () => {
    const { client } = await rawServer(() => json(200, { id: 3, status: 'paused', brand_new: { x: 1 }, lines: null }));
    await expect(client.subscriptions.renew({ params: { id: 3 } })).resolves.toEqual({
      id: 3,
      status: 'paused',
      brand_new: { x: 1 },
      lines: null,
    });
  });

  it('returns a response of an unexpected shape as received, with a warning', async () => {
    const warnings: string[] = [];
    const { url } = await rawServer(() => json(200, { id: 'not-a-number', events: 'nope' }));
    const client = createClient({ baseUrl: url, token: 't', onWarning: (m) => warnings.push(m) });
    await expect(client.webhooks.get({ params: { id: 1 } })).resolves.toEqual({ id: 'not-a-number', events: 'nope' });
    expect(warnings).toHaveLength(1);
  });

  it.each([
    [json(400, { detail: 'Bad thing.' }), 'Bad thing.'],
    [json(400, { target: ['Enter a valid URL.'], events: ['This field is required.'] }), 'target: Enter a valid URL.; events: This field is required.'],
    [json(400, { non_field_errors: ['Dates overlap.'] }), 'Dates overlap.'],
    [{ status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body>Bad gateway</body></html>' }, '502 Bad Gateway'],
    [{ status: 500 }, '500 Internal Server Error'],
  ])('describes an error answer in one line (%#)', async (reply, message) => {
    const { client } = await rawServer(() => reply);
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(message);
  });

  it('reports an HTML page in a 2xx answer as an unreadable body', async () => {
    const { client } = await rawServer(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: '<html>login</html>' }));
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('The store answered 200 with an HTML page; expected JSON');
  });

  it('does not follow a redirect, so the token never reaches the other host', async () => {
    const other = await rawServer(() => json(200, {}));
    const { client } = await rawServer(() => ({ status: 302, headers: { location: `${other.url}/api/admin/exports/types/` } }));
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.kind).toBe('redirect');
    expect(error.message).toContain(other.url);
    expect(other.seen).toHaveLength(0);
  });

  it('reports a refused connection as never sent', async () => {
    const { url } = await rawServer(() => ({ status: 200 }));
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    const client = createClient({ baseUrl: url, token: 't' });
    const error = await client.exports.types({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).kind).toBe('refused');
    expect(neverSent(error)).toBe(true);
  });

  it('times out a hanging store', async () => {
    const hang = createServer(() => {});
    servers.push(hang);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const client = createClient({ baseUrl: `http://127.0.0.1:${(hang.address() as AddressInfo).port}`, token: 't', timeoutMs: 200, retries: 0 });
    const error = (await client.exports.types({}).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.kind).toBe('timeout');
  });
});

describe('store URLs and transport safety', () => {
  it.each([
    ['shop.example.com', 'https://shop.example.com'],
    ['https://shop.example.com/', 'https://shop.example.com'],
    ['https://shop.example.com/api/admin', 'https://shop.example.com'],
    ['https://shop.example.com/api/admin/', 'https://shop.example.com'],
    ['  HTTPS://Shop.Example.com:8443/api/admin//  ', 'https://shop.example.com:8443'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
  ])('normalises %s', (input, expected) => {
    expect(normalizeStoreUrl(input)).toBe(expected);
  });

  it.each(['', 'ftp://shop.example.com', 'https://user:pw@shop.example.com', 'http://'])('rejects %j', (input) => {
    expect(() => normalizeStoreUrl(input)).toThrow(UsageError);
  });

  it('refuses plain http to a non-loopback host unless allowed', () => {
    expect(() => createClient({ baseUrl: 'http://shop.example.com', token: 't' })).toThrow(/clear text/);
    expect(createClient({ baseUrl: 'http://shop.example.com', token: 't', allowHttp: true }).baseUrl).toBe('http://shop.example.com');
    expect(createClient({ baseUrl: 'http://localhost:4010', token: 't' }).baseUrl).toBe('http://localhost:4010');
  });
});
