// The sandbox's webhook management from the platform's published reference: the list in the
// platform's cursor pagination, partial updates and deletes, as a client sees them over HTTP.
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';

type Webhook = { id: number; name: string; active: boolean; events: string[]; target: string };
type Page = { next: string | null; previous: string | null; results: Webhook[] };

const headers = (token = FULL_TOKEN) => ({
  authorization: `Bearer ${token}`,
  'x-store-api-version': '2024-04-01',
  'content-type': 'application/json',
});

/** GETs an absolute link as a client following it would. */
async function follow(link: string, token = FULL_TOKEN) {
  const response = await fetch(link, { headers: headers(token) });
  return { status: response.status, body: (await response.json()) as Page };
}

describe('webhooks.list, update and delete in the sandbox', () => {
  const ctx = useSandbox({ pageSize: 2, scopedTokens: { reader: ['webhooks:read'], writer: ['webhooks:write'], admin: ['admin:read'] } });

  it('pages through every webhook, newest first, with absolute next and previous links carrying an opaque cursor', async () => {
    for (const name of ['a', 'b', 'c']) {
      await ctx.client.webhooks.create({ body: { name: `page-${name}`, target: 'https://hooks.example.com/p', events: ['order.created'] } });
    }
    // 2 seeded + 3 created = 5 webhooks: pages of 2, 2 and 1.
    const first = (await ctx.client.webhooks.list({})) as Page;
    expect(first.previous).toBeNull();
    expect(first.results.map((w) => w.id)).toEqual([5, 4]);
    const nextUrl = new URL(first.next!);
    expect(nextUrl.origin).toBe(ctx.sandbox.url);
    expect(nextUrl.pathname).toBe('/api/admin/webhooks/');
    expect(nextUrl.searchParams.get('cursor')).not.toMatch(/^\d+$/);

    const second = await follow(first.next!);
    expect(second.body.results.map((w) => w.id)).toEqual([3, 2]);
    const third = await follow(second.body.next!);
    expect(third.body.results.map((w) => w.id)).toEqual([1]);
    expect(third.body.next).toBeNull();
    // Back again: the previous page of the last is the second.
    const back = await follow(third.body.previous!);
    expect(back.body.results.map((w) => w.id)).toEqual([3, 2]);
    expect((await follow(back.body.previous!)).body).toMatchObject({ previous: null, results: [{ id: 5 }, { id: 4 }] });
  });

  it('filters by exact name and by active, and keeps the filters in its links', async () => {
    const named = (await ctx.client.webhooks.list({ query: { name: 'page-b' } })) as Page;
    expect(named.results.map((w) => w.name)).toEqual(['page-b']);
    expect(((await ctx.client.webhooks.list({ query: { name: 'page' } })) as Page).results).toEqual([]);
    const inactive = (await ctx.client.webhooks.list({ query: { active: false } })) as Page;
    expect(inactive.results.map((w) => w.id)).toEqual([2]);
    const active = (await ctx.client.webhooks.list({ query: { active: true } })) as Page;
    expect(active.results.map((w) => w.id)).toEqual([5, 4]);
    expect(new URL(active.next!).searchParams.get('active')).toBe('true');
    expect((await follow(active.next!)).body.results.map((w) => w.id)).toEqual([3, 1]);
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
    const before = (await ctx.client.webhooks.get({ params: { id: 3 } })) as Webhook;
    const after = await ctx.client.webhooks.update({ params: { id: 3 }, body: { active: false, events: ['dispute.created'] } });
    expect(after).toMatchObject({ id: 3, active: false, events: ['dispute.created'], name: 'page-a', target: before.target });
    expect(await ctx.client.webhooks.get({ params: { id: 3 } })).toEqual(after);
    const refused = await raw(ctx.sandbox, 'PATCH', '/webhooks/3/', { headers: headers(), body: JSON.stringify({ target: 'http://example.com/x' }) });
    expect(refused.status).toBe(400);
    expect(refused.body).toHaveProperty('target');
    // The reference sets no least number of events.
    expect(await raw(ctx.sandbox, 'PATCH', '/webhooks/3/', { headers: headers(), body: JSON.stringify({ events: [] }) })).toMatchObject({ status: 200, body: { events: [] } });
    expect((await raw(ctx.sandbox, 'PATCH', '/webhooks/999/', { headers: headers(), body: '{}' })).status).toBe(404);
  });

  it('deletes with 204 and no body; the webhook is gone and a second delete is a 404', async () => {
    const response = await fetch(`${ctx.sandbox.url}/api/admin/webhooks/5/`, { method: 'DELETE', headers: headers() });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/5/', { headers: headers() })).status).toBe(404);
    expect((await raw(ctx.sandbox, 'DELETE', '/webhooks/5/', { headers: headers() })).status).toBe(404);
    expect(((await ctx.client.webhooks.list({ query: { name: 'page-c' } })) as Page).results).toEqual([]);
  });

  it('enforces the scopes: webhooks:read lists, webhooks:write changes, admin:read grants the read', async () => {
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/', { headers: headers('reader') })).status).toBe(200);
    expect((await raw(ctx.sandbox, 'GET', '/webhooks/', { headers: headers('admin') })).status).toBe(200);
    expect(await raw(ctx.sandbox, 'GET', '/webhooks/', { headers: headers('writer') })).toEqual({
      status: 403,
      body: { detail: 'You do not have permission to perform this action.' },
    });
    for (const [method, body] of [['PATCH', '{"active": true}'], ['DELETE', undefined]] as const) {
      const refused = await raw(ctx.sandbox, method, '/webhooks/4/', { headers: headers('reader'), body });
      expect(refused.status, method).toBe(403);
    }
    expect(await ctx.client.webhooks.get({ params: { id: 4 } })).toMatchObject({ id: 4 });
  });
});
