// @ts-nocheck rewritten with the reference-driven sandbox
// The sandbox's webhook management from the platform's published reference: the list in the
// platform's cursor pagination, partial updates and deletes, as a client sees them over HTTP.
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';

const headers = (token = FULL_TOKEN) => ({
  authorization: `Bearer ${token}`,
  'x-store-api-version': operations['webhooksList'].version,
  'content-type': 'application/json',
});

/** GETs an absolute link as a client following it would. */
async function follow(link: string, token = FULL_TOKEN) {
  const response = await fetch(link, { headers: headers(token) });
  return { status: response.status, body: (await response.json()) as { next: string | null; previous: string | null; results: { id: number; name: string }[] } };
}

// rewritten with the reference-driven sandbox
describe.skip('webhooks.list, update and delete in the sandbox', () => {
  const ctx = useSandbox({ pageSize: 2, scopedTokens: { reader: ['webhooks:read'], writer: ['webhooks:write'], admin: ['admin:read'] } });

  it('pages through every webhook with absolute next and previous links carrying an opaque cursor', async () => {
    for (const name of ['a', 'b', 'c']) {
      await ctx.client.webhooks.create({ body: { name: `page-${name}`, target: 'https://hooks.example.com/p', events: ['order.created'] } });
    }
    // 2 seeded + 3 created = 5 webhooks: pages of 2, 2 and 1.
    const first = await ctx.client.webhooks.list({});
    expect(first.previous).toBeNull();
    expect(first.results?.map((w) => w.id)).toEqual([1, 2]);
    const nextUrl = new URL(first.next!);
    expect(nextUrl.origin).toBe(ctx.sandbox.url);
    expect(nextUrl.pathname).toBe('/api/admin/webhooks/');
    const cursor = nextUrl.searchParams.get('cursor')!;
    expect(cursor).not.toMatch(/^\d+$/);

    const second = await follow(first.next!);
    expect(second.body.results.map((w) => w.id)).toEqual([3, 4]);
    const third = await follow(second.body.next!);
    expect(third.body.results.map((w) => w.id)).toEqual([5]);
    expect(third.body.next).toBeNull();
    // Back again: the previous page of the last is the second.
    const back = await follow(third.body.previous!);
    expect(back.body.results.map((w) => w.id)).toEqual([3, 4]);
    expect((await follow(back.body.previous!)).body).toMatchObject({ previous: null, results: [{ id: 1 }, { id: 2 }] });
  });

  it('filters by exact name and by active, and keeps the filters in its links', async () => {
    const named = await ctx.client.webhooks.list({ query: { name: 'page-b' } });
    expect(named.results?.map((w) => w.name)).toEqual(['page-b']);
    expect((await ctx.client.webhooks.list({ query: { name: 'page' } })).results).toEqual([]);
    const inactive = await ctx.client.webhooks.list({ query: { active: 'false' } });
    expect(inactive.results?.map((w) => w.id)).toEqual([2]);
    const active = await ctx.client.webhooks.list({ query: { active: 'true' } });
    expect(active.results?.map((w) => w.id)).toEqual([1, 3]);
    const rest = await follow(active.next!);
    expect(new URL(active.next!).searchParams.get('active')).toBe('true');
    expect(rest.body.results.map((w) => w.id)).toEqual([4, 5]);
  });

  it('answers 404 "Invalid cursor" to a cursor it did not make, and 400 to a bad filter', async () => {
    const bad = await raw(ctx.sandbox, 'GET', '/webhooks/?cursor=bm90LWEtY3Vyc29y', { headers: headers() });
    expect(bad).toEqual({ status: 404, body: { detail: 'Invalid cursor' } });
    const filter = await raw(ctx.sandbox, 'GET', '/webhooks/?active=maybe', { headers: headers() });
    expect(filter.status).toBe(400);
    expect(filter.body).toHaveProperty('active');
    // Unknown query parameters are ignored, as the platform ignores them.
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/?page=7', { headers: headers() })).status).toBe(200);
  });

  it('updates only the fields sent, and checks them as create does', async () => {
    const before = await ctx.client.webhooks.get({ params: { id: 3 } });
    const after = await ctx.client.webhooks.update({ params: { id: 3 }, body: { active: false, events: ['dispute.created'] } });
    expect(after).toMatchObject({ id: 3, active: false, events: ['dispute.created'], name: 'page-a', target: before.target });
    expect(await ctx.client.webhooks.get({ params: { id: 3 } })).toEqual(after);
    const refused = await raw(ctx.sandbox, 'PATCH', '/webhooks/3/', { headers: headers(), body: JSON.stringify({ target: 'http://example.com/x' }) });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('target');
    const empty = await raw(ctx.sandbox, 'PATCH', '/webhooks/3/', { headers: headers(), body: JSON.stringify({ events: [] }) });
    expect(empty.status).toBe(400);
    expect((await raw(ctx.sandbox, 'PATCH', '/webhooks/999/', { headers: headers(), body: '{}' })).status).toBe(404);
  });

  it('deletes with 204 and no body; the webhook is gone and a second delete is a 404', async () => {
    const response = await fetch(`${ctx.sandbox.url}/api/admin/webhooks/5/`, { method: 'DELETE', headers: headers() });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/5/', { headers: headers() })).status).toBe(404);
    expect((await raw(ctx.sandbox, 'DELETE', '/webhooks/5/', { headers: headers() })).status).toBe(404);
    expect((await ctx.client.webhooks.list({ query: { name: 'page-c' } })).results).toEqual([]);
  });

  it('enforces the scopes: webhooks:read lists, webhooks:write changes, admin:read grants the read', async () => {
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/', { headers: headers('reader') })).status).toBe(200);
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/', { headers: headers('admin') })).status).toBe(200);
    expect(await raw(ctx.sandbox, 'GET', '/webhooks/', { headers: headers('writer') })).toEqual({
      status: 403,
      body: { detail: 'This token lacks the scope webhooks:read.' },
    });
    for (const [method, body] of [['PATCH', '{"active": true}'], ['DELETE', undefined]] as const) {
      const refused = await raw(ctx.sandbox, method, '/webhooks/4/', { headers: headers('reader'), body });
      expect(refused.status, method).toBe(403);
    }
    expect((await ctx.client.webhooks.get({ params: { id: 4 } })).id).toBe(4);
  });
});
