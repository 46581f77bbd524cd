// The sandbox's answers to wrong requests, sent raw as curl would send them, for every operation.
// The reference declares no error answers: the bodies here are the platform framework's usual
// forms (platform-facts.md), `{"detail": …}` for a request refused as a whole and
// `{"field": ["message"]}` for what a field holds, in its usual words.
import { describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';
import { inputFor, requestOf } from './inputs.js';

const ops = await loadAllOperations();
/** Each operation's valid request at its default version. */
const requests = await Promise.all(ops.map(async (op) => ({ op, ...requestOf(op, inputFor(op, op.version, await op.schemas(op.version))) })));
const withBody = requests.filter((request) => request.body !== undefined);
const scoped = requests.filter(({ op }) => op.scopes.length > 0);

const headersFor = (op: Operation, token = FULL_TOKEN) => ({
  authorization: `Bearer ${token}`,
  'x-store-api-version': op.version,
  'content-type': 'application/json',
});

describe('sandbox error answers', () => {
  const ctx = useSandbox({
    scopedTokens: {
      reader: ['orders:read', 'exports:read'],
      'half-fulfillment': ['fulfillment_orders:write'],
      'both-fulfillment': ['fulfillment_service:write', 'fulfillment_orders:write'],
      'no-scopes': [],
    },
  });
  const send = (request: { method: string; path: string; body?: string }, headers: Record<string, string>) =>
    raw(ctx.sandbox, request.method, request.path, { headers, ...(request.body === undefined ? {} : { body: request.body }) });

  it.each(requests.map((request) => [request.op.id, request] as const))('%s: 401 without a token, 401 with an unknown one', async (_id, request) => {
    const { authorization: _, ...noAuth } = headersFor(request.op);
    expect(await send(request, noAuth)).toEqual({ status: 401, body: { detail: 'Authentication credentials were not provided.' } });
    expect(await send(request, headersFor(request.op, 'nope'))).toEqual({ status: 401, body: { detail: 'Invalid token.' } });
  });

  it.each(requests.map((request) => [request.op.id, request] as const))('%s: 400 naming the versions when it is missing or wrong', async (_id, request) => {
    const { 'x-store-api-version': _, ...noVersion } = headersFor(request.op);
    const missing = await send(request, noVersion);
    expect(missing.status).toBe(400);
    for (const version of request.op.versions) expect(missing.body?.detail).toContain(`"${version}"`);
    const wrong = await send(request, { ...headersFor(request.op), 'x-store-api-version': '1999-01-01' });
    expect(wrong.status).toBe(400);
    expect(wrong.body?.detail).toContain('got "1999-01-01"');
  });

  it.each(scoped.map((request) => [request.op.id, request] as const))('%s: 403 without any of its scopes', async (_id, request) => {
    expect(await send(request, headersFor(request.op, 'no-scopes'))).toEqual({ status: 403, body: { detail: 'You do not have permission to perform this action.' } });
  });

  it('4.9 needs both of its scopes', async () => {
    const reject = ops.find((op) => op.id === 'cancellationRequestReject')!;
    const half = await raw(ctx.sandbox, 'POST', '/fulfillment-orders/401/cancellation-request/reject/', { headers: headersFor(reject, 'half-fulfillment'), body: '{}' });
    expect(half.status).toBe(403);
    const both = await raw(ctx.sandbox, 'POST', '/fulfillment-orders/402/cancellation-request/reject/', { headers: headersFor(reject, 'both-fulfillment'), body: '{}' });
    expect(both.status).toBe(400); // past the scope check: 402 has no pending request
  });

  it('4.14 needs a token but no scope', async () => {
    const merge = ops.find((op) => op.id === 'appsSettingsPartialUpdate')!;
    expect(merge.scopes).toEqual([]);
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor(merge, 'no-scopes'), body: '{"a":1}' });
    expect(response.status).toBe(200);
    expect(response.body?.a).toBe(1);
  });

  it('a scoped token reaches the operations it has scopes for', async () => {
    const types = ops.find((op) => op.id === 'exportsTypesRetrieve')!;
    expect((await raw(ctx.sandbox, 'GET', '/exports/types/', { headers: headersFor(types, 'reader') })).status).toBe(200);
  });

  // A record that is not there, in a path that names one: every operation answers the framework's 404.
  const named = requests.filter(({ op }) => Object.keys(op.params).length > 0);
  it.each(named.map((request) => [request.op.id, request] as const))('%s: 404 for an id no record has', async (_id, request) => {
    const params = inputFor(request.op, request.op.version, await request.op.schemas(request.op.version)).params;
    const last = Object.keys(request.op.params).at(-1)!;
    const missing = { ...params, [last]: request.op.params[last] === 'id' ? 987654 : 'no-such-thing' };
    expect(await send({ ...request, path: fillPath(request.op.path, missing) }, headersFor(request.op))).toEqual({ status: 404, body: { detail: 'Not found.' } });
  });

  it.each(['/categories/abc/', '/categories/0/', '/categories/-1/', '/categories/1.5/', '/categories/2147483648/', '/nothing/'])('404 for a path no operation matches: %s', async (path) => {
    const response = await raw(ctx.sandbox, 'GET', path, { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01' } });
    expect(response).toEqual({ status: 404, body: { detail: 'Not found.' } });
  });

  it('405 for a known path with the wrong method, naming it', async () => {
    const response = await raw(ctx.sandbox, 'POST', '/categories/1/', { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01' } });
    expect(response).toEqual({ status: 405, body: { detail: 'Method "POST" not allowed.' } });
  });

  it('400 for a body that is not JSON', async () => {
    const response = await raw(ctx.sandbox, 'POST', '/exports/', { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01', 'content-type': 'application/json' }, body: '{"type":' });
    expect(response.status).toBe(400);
    expect(response.body?.detail).toMatch(/^JSON parse error - /);
  });

  it('415 for a body of a type the platform does not read', async () => {
    const response = await raw(ctx.sandbox, 'POST', '/exports/', { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01', 'content-type': 'text/plain' }, body: 'type=order_list' });
    expect(response).toEqual({ status: 415, body: { detail: 'Unsupported media type "text/plain" in request.' } });
  });

  it.each([
    ['a missing field', '/exports/', { date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T00:00:00Z' }, { type: ['This field is required.'] }],
    ['a value outside the choices', '/exports/', { type: 'everything', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T00:00:00Z' }, { type: ['"everything" is not a valid choice.'] }],
    ['a null where none is allowed', '/exports/', { type: 'order_list', date_from: null, date_to: '2026-01-31T00:00:00Z' }, { date_from: ['This field may not be null.'] }],
    ['a date-time that is not one', '/exports/', { type: 'order_list', date_from: 'yesterday', date_to: '2026-01-31T00:00:00Z' }, { date_from: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].'] }],
    // A field it does not know is ignored, as the framework ignores it.
    ['a target that is not a URL', '/webhooks/', { target: 'not a url', events: ['order.created'], colour: 'red' }, { target: ['Enter a valid URL.'] }],
    ['a list that is not one', '/webhooks/', { target: 'https://hooks.example.com/a', events: 'order.created' }, { events: ['Expected a list of items but got type "str".'] }],
    // A list of objects answers one entry per item sent; a list of values keys its errors by index.
    ['a line without its product', '/carts/', { lines: [{ quantity: 1 }] }, { lines: [{ product_id: ['This field is required.'] }] }],
    ['the second line without its product', '/carts/', { user: { id: 1 }, lines: [{ product_id: 2101, quantity: 1 }, { quantity: 1 }] }, { lines: [{}, { product_id: ['This field is required.'] }] }],
    ['an event that is not a name', '/webhooks/', { target: 'https://hooks.example.com/a', events: ['order.created', 5] }, { events: { 1: ['Not a valid string.'] } }],
  ])('400 for %s, in the framework shape and words', async (_what, path, body, errors) => {
    const response = await raw(ctx.sandbox, 'POST', path, { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response).toEqual({ status: 400, body: errors });
  });

  it.each(withBody.map((request) => [request.op.id, request] as const))('%s: 400 for a body of the wrong type', async (_id, request) => {
    const response = await send({ ...request, body: '[1,2]' }, headersFor(request.op));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.stringMatching(/^(Invalid data\. Expected a dictionary, but got list\.|Expected a list of items but got type "list"\.)$|./)] });
  });
});
