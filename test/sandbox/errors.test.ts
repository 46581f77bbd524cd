// @ts-nocheck rewritten with the reference-driven sandbox
// The sandbox's answers to wrong requests, sent raw as curl would send them.
import { describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation, type OperationId } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { servedIds as operationIds, validInputs } from '../fixtures.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';

const operations = Object.fromEntries((await loadAllOperations()).map((op) => [op.id, op])) as Record<OperationId, Operation>;

const headersFor = (id: OperationId, token = FULL_TOKEN) => ({
  authorization: `Bearer ${token}`,
  'x-store-api-version': operations[id].version,
  'content-type': 'application/json',
});
const pathFor = (id: OperationId) => fillPath(operations[id].path, (validInputs[id] as { params?: Record<string, unknown> }).params ?? {});
const bodyFor = (id: OperationId) => {
  const body = (validInputs[id] as { body?: unknown }).body;
  return body === undefined ? undefined : JSON.stringify(body);
};

// rewritten with the reference-driven sandbox
describe.skip('sandbox error answers', () => {
  const ctx = useSandbox({
    scopedTokens: {
      reader: ['orders:read', 'exports:read'],
      'half-fulfillment': ['fulfillment_orders:write'],
      'both-fulfillment': ['fulfillment_service:write', 'fulfillment_orders:write'],
      'no-scopes': [],
    },
  });

  it.each(operationIds)('%s: 401 without a token, 401 with an unknown one', async (id) => {
    const { authorization: _, ...noAuth } = headersFor(id);
    const missing = await raw(ctx.sandbox, operations[id].method, pathFor(id), { headers: noAuth, body: bodyFor(id) });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const unknown = await raw(ctx.sandbox, operations[id].method, pathFor(id), { headers: headersFor(id, 'nope'), body: bodyFor(id) });
    expect(unknown.status).toBe(401);
  });

  it.each(operationIds)('%s: 400 naming the version when it is missing or wrong', async (id) => {
    const { 'x-store-api-version': _, ...noVersion } = headersFor(id);
    const missing = await raw(ctx.sandbox, operations[id].method, pathFor(id), { headers: noVersion, body: bodyFor(id) });
    expect(missing.status).toBe(400);
    expect(missing.body?.detail).toContain(`"${operations[id].version}"`);
    const wrong = await raw(ctx.sandbox, operations[id].method, pathFor(id), {
      headers: { ...headersFor(id), 'x-store-api-version': '1999-01-01' },
      body: bodyFor(id),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body?.detail).toContain('got "1999-01-01"');
  });

  it.each(operationIds.filter((id) => operations[id].scopes.length > 0))('%s: 403 naming the missing scope', async (id) => {
    const response = await raw(ctx.sandbox, operations[id].method, pathFor(id), {
      headers: headersFor(id, 'no-scopes'),
      body: bodyFor(id),
    });
    expect(response.status).toBe(403);
    for (const scope of operations[id].scopes) expect(response.body?.detail).toContain(scope);
  });

  it('4.9 needs both of its scopes', async () => {
    const id = 'cancellationRequestReject';
    const half = await raw(ctx.sandbox, 'POST', pathFor(id), { headers: headersFor(id, 'half-fulfillment'), body: '{}' });
    expect(half.status).toBe(403);
    expect(half.body?.detail).toBe('This token lacks the scope fulfillment_service:write.');
    const both = await raw(ctx.sandbox, 'POST', fillPath(operations[id].path, { id: 402 }), {
      headers: headersFor(id, 'both-fulfillment'),
      body: '{}',
    });
    expect(both.status).toBe(400); // past the scope check: 402 has no pending request
  });

  it('4.14 needs a token but no scope', async () => {
    const id = 'appsSettingsPartialUpdate';
    const response = await raw(ctx.sandbox, 'PATCH', pathFor(id), { headers: headersFor(id, 'no-scopes'), body: '{"a":1}' });
    expect(response.status).toBe(200);
    expect(response.body?.a).toBe(1);
  });

  it('a scoped token reaches the operations it has scopes for', async () => {
    const response = await raw(ctx.sandbox, 'GET', '/exports/types/', { headers: headersFor('exportsTypesRetrieve', 'reader') });
    expect(response.status).toBe(200);
  });

  it.each([
    ['ordersLinesDestroy', { number: '99999', lineId: 101 }, 'Order 99999 not found.'],
    ['ordersLinesDestroy', { number: '10001', lineId: 999 }, 'Line 999 of order 10001 not found.'],
    ['ordersNotesCreate', { number: 'nope' }, 'Order nope not found.'],
    ['subscriptionsCancelCreate', { id: 99 }, 'Subscription 99 not found.'],
    ['subscriptionsRenewCreate', { id: 99 }, 'Subscription 99 not found.'],
    ['subscriptionsPartialUpdate', { id: 99 }, 'Subscription 99 not found.'],
    ['ordersFulfillmentsEventsRetrieve', { number: '10001', fulfillmentId: 999, eventId: '301' }, 'Fulfillment 999 of order 10001 not found.'],
    ['ordersFulfillmentsEventsRetrieve', { number: '10001', fulfillmentId: 201, eventId: '999' }, 'Event 999 of fulfillment 201 not found.'],
    ['ordersFulfillmentOrdersRetrieve', { number: '99999' }, 'Order 99999 not found.'],
    ['usersNotesCreate', { id: 99 }, 'Customer 99 not found.'],
    ['cancellationRequestReject', { id: 999 }, 'Fulfillment order 999 not found.'],
    ['categoriesRetrieve', { id: 99 }, 'Category 99 not found.'],
    ['appsSettingsPartialUpdate', { clientId: 'unknown-app' }, 'App unknown-app not found.'],
    ['webhooksRetrieve', { id: 99 }, 'Webhook 99 not found.'],
  ] as const)('%s: 404 for unknown ids %j', async (id, params, detail) => {
    const response = await raw(ctx.sandbox, operations[id].method, fillPath(operations[id].path, params), {
      headers: headersFor(id),
      body: bodyFor(id),
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail });
  });

  it.each(['/categories/abc/', '/categories/0/', '/categories/-1/', '/categories/1.5/', '/categories/2147483648/', '/nothing/'])(
    '404 for a path no operation matches: %s',
    async (path) => {
      const response = await raw(ctx.sandbox, 'GET', path, { headers: headersFor('categoriesRetrieve') });
      expect(response.status).toBe(404);
    },
  );

  it('405 for a known path with the wrong method', async () => {
    const response = await raw(ctx.sandbox, 'PUT', '/categories/1/', { headers: headersFor('categoriesRetrieve') });
    expect(response.status).toBe(405);
  });

  it('400 for a body that is not JSON', async () => {
    const response = await raw(ctx.sandbox, 'POST', '/exports/', { headers: headersFor('exportsCreate'), body: '{"type":' });
    expect(response.status).toBe(400);
    expect(response.body?.detail).toMatch(/^JSON parse error/);
  });

  it('400 with field errors in the platform shape', async () => {
    const response = await raw(ctx.sandbox, 'POST', '/webhooks/', {
      headers: headersFor('webhooksCreate'),
      body: JSON.stringify({ target: 'not a url', events: [], colour: 'red' }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      target: ['must be an http(s) URL'],
      events: ['must name at least one event'],
      non_field_errors: ['unknown field: colour'],
    });
  });

  it.each(operationIds.filter((id) => (validInputs[id] as { body?: unknown }).body !== undefined))(
    '%s: 400 for a body of the wrong type',
    async (id) => {
      const response = await raw(ctx.sandbox, operations[id].method, pathFor(id), { headers: headersFor(id), body: '[1,2]' });
      expect(response.status).toBe(400);
    },
  );
});
