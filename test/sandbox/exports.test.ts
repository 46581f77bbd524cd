// Exports as the platform's guide runs them, over real sockets: pending, then available after a
// wall-time delay; the file only through a signed link that expires; and the platform's other
// rules the spec leaves out (renewals, request_status values, super-scopes).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { StoreClient } from '../../src/api/client.js';
import { loadOperation } from '../../src/api/operations.js';
import { until, useSandbox } from '../helpers.js';

type Answer = Record<string, any>;
const refusal = (call: Promise<unknown>) => call.then(() => undefined, (error: unknown) => error as ApiError);

/** Polls until the export is available: the sandbox's delay is short. */
function untilAvailable(client: StoreClient, id: number) {
  return until(`export ${id} to be available`, async () => {
    const current = (await client.exports.get({ params: { id } })) as Answer;
    return current.status === 'available' && current;
  }, { everyMs: 50 });
}

describe('exports in the sandbox', () => {
  const ctx = useSandbox({ exportDelaySeconds: 0.3, scopedTokens: { reader: ['exports:read'], writer: ['exports:write'] } });

  it('a new export is pending, then available; its url is the API object', async () => {
    const created = (await ctx.client.exports.create({ body: { type: 'order_list', date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' } })) as Answer;
    expect(created.status).toBe('pending');
    expect(created.url).toBe(`${ctx.sandbox.url}/api/admin/exports/${created.id}/`);
    const early = await refusal(ctx.client.exports.download({ params: { id: created.id } }));
    expect(early).toBeInstanceOf(ApiError);
    expect(early?.status).toBe(400);
    expect(early?.message).toBe(`Export ${created.id} is still pending; its file can be downloaded once its status is "available".`);
    const available = await untilAvailable(ctx.client, created.id);
    expect(available).toMatchObject({ id: created.id, status: 'available', url: created.url });
  });

  it('download answers a signed link, fetched with no token; a tampered one is refused', async () => {
    const { url } = (await ctx.client.exports.download({ params: { id: 1 } })) as { url: string };
    expect(url).toMatch(new RegExp(`^${ctx.sandbox.url}/media/sandbox/export_csv/export-1\\.csv\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect((await file.text()).split('\n')[0]).toMatch(/^number,/);
    const forged = await fetch(url.replace(/expires=(\d+)/, (_m, s: string) => `expires=${Number(s) + 3600}`));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('SignatureDoesNotMatch');
    expect((await fetch(url.replace('export-1.csv', 'export-2.csv'))).status).toBe(403);
  });

  it('an unknown export is a 404 on both operations, in the platform framework\'s words', async () => {
    for (const call of [ctx.client.exports.get({ params: { id: 999 } }), ctx.client.exports.download({ params: { id: 999 } })]) {
      const error = await refusal(call);
      expect(error?.status).toBe(404);
      expect(error?.message).toBe('Not found.');
    }
  });

  it('the two reads need exports:read, and nothing else', async () => {
    const reader = ctx.clientWith({ token: 'reader' });
    await expect(reader.exports.get({ params: { id: 1 } })).resolves.toMatchObject({ id: 1 });
    await expect(reader.exports.download({ params: { id: 1 } })).resolves.toHaveProperty('url');
    const refused = await refusal(ctx.clientWith({ token: 'writer' }).exports.get({ params: { id: 1 } }));
    expect(refused?.status).toBe(403);
    expect(refused?.message).toBe('You do not have permission to perform this action.');
  });
});

describe('signed links expire', () => {
  const ctx = useSandbox({ linkTtlSeconds: 0 });

  it("an expired link is refused with the storage service's reason", async () => {
    const { url } = (await ctx.client.exports.download({ params: { id: 1 } })) as { url: string };
    const file = await fetch(url);
    expect(file.status).toBe(403);
    expect(await file.text()).toContain('<Message>Request has expired</Message>');
  });
});

// The guide's own words, in ../shared/platform-facts.md beside the repository when it is there.
const factsUrl = new URL('../../../shared/platform-facts.md', import.meta.url);
const factsPath = existsSync(factsUrl) ? factsUrl : undefined;

describe.skipIf(!factsPath)(
  factsPath ? "the export reads match the platform's published guide" : 'SKIPPED: ../shared/platform-facts.md not present (a clone of the repository alone)',
  () => {
    const facts = factsPath ? readFileSync(factsPath, 'utf8') : '';
    const published = [...facts.matchAll(/`(GET) \/exports\/\{id\}\/(download\/)?` \(scope `([^`]+)`, version `([^`]+)`\)/g)].map((m) => ({
      method: m[1],
      path: `/exports/{id}/${m[2] ?? ''}`,
      scopes: [m[3]],
      version: m[4],
    }));
    const ctx = useSandbox();

    it('both are published, and the table says the same', async () => {
      expect(published).toHaveLength(2);
      for (const [id, entry] of [['exportsRetrieve', published[0]], ['exportsDownloadRetrieve', published[1]]] as const) {
        const op = await loadOperation(id);
        expect({ method: op.method, path: op.path, scopes: [...op.scopes], version: op.version }).toEqual(entry);
        expect(op.section).toBeUndefined();
      }
    });

    it('the client sends exactly that method, path and version', async () => {
      const seen: { method: string; url: string; version: string | undefined }[] = [];
      const client = ctx.clientWith({ onRequest: (r) => seen.push({ method: r.method, url: r.url, version: r.headers['x-store-api-version'] }) });
      await client.exports.get({ params: { id: 1 } });
      await client.exports.download({ params: { id: 1 } });
      expect(seen).toEqual([
        { method: 'GET', url: `${ctx.sandbox.url}/api/admin/exports/1/`, version: '2024-04-01' },
        { method: 'GET', url: `${ctx.sandbox.url}/api/admin/exports/1/download/`, version: '2024-04-01' },
      ]);
      expect(ctx.sandbox.counters.wrongVersion).toBe(0);
      expect(ctx.sandbox.counters.byOperation.exportsRetrieve?.received).toBe(1);
      expect(ctx.sandbox.counters.byOperation.exportsDownloadRetrieve?.received).toBe(1);
    });
  },
);

describe('platform rules the spec leaves out', () => {
  const ctx = useSandbox({ scopedTokens: { 'all-read': ['admin:read'], 'all-write': ['admin:write'] } });

  it.each([
    [2, 'Subscription 2 is past_due: its payment is retried (POST /subscriptions/{id}/retry/), not renewed.'],
    [4, 'Subscription 4 is retrying its payment; only an active subscription can be renewed.'],
    [3, 'Subscription 3 is canceled and cannot be renewed.'],
  ])('renewing subscription %i is a 400 that says why', async (id, message) => {
    const error = await refusal(ctx.client.subscriptions.renew({ params: { id } }));
    expect(error?.status).toBe(400);
    expect(error?.message).toBe(message);
  });

  it('an active subscription renews', async () => {
    await expect(ctx.client.subscriptions.renew({ params: { id: 1 } })).resolves.toMatchObject({ id: 1, status: 'active' });
  });

  it("fulfillment orders use the platform's request_status values", async () => {
    const [before] = (await ctx.client.orders.fulfillmentOrders({ params: { number: '10002' } })) as Answer[];
    expect(before?.request_status).toBe('cancel_requested');
    const rejected = (await ctx.client.fulfillmentOrders.rejectCancellation({ params: { id: 401 }, body: {} })) as Answer;
    expect(rejected.request_status).toBe('cancel_rejected');
  });

  it('admin:read grants every read scope and no write scope; admin:write the reverse', async () => {
    const reader = ctx.clientWith({ token: 'all-read' });
    await expect(reader.categories.get({ params: { id: 1 } })).resolves.toMatchObject({ id: 1 });
    await expect(reader.exports.get({ params: { id: 1 } })).resolves.toMatchObject({ id: 1 });
    await expect(reader.orders.fulfillmentOrders({ params: { number: '10001' } })).resolves.toBeDefined();
    expect((await refusal(reader.customers.addNote({ params: { id: 1 }, body: { message: 'x' } })))?.status).toBe(403);
    const writer = ctx.clientWith({ token: 'all-write' });
    await expect(writer.customers.addNote({ params: { id: 1 }, body: { message: 'x' } })).resolves.toMatchObject({ message: 'x' });
    // 4.9 needs two write scopes; admin:write covers both.
    const both = await refusal(writer.fulfillmentOrders.rejectCancellation({ params: { id: 401 }, body: {} }));
    expect(both?.status).toBe(400); // past the scope check: the request was already rejected above
    expect((await refusal(writer.categories.get({ params: { id: 1 } })))?.status).toBe(403);
  });
});
