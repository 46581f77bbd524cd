// The platform's cursor pages (issue 37): `{next, previous, results}`, with absolute links that
// carry an opaque `cursor` and keep the list's filters, and no count; followed to the end and
// back, and kept consistent while records are made and removed between pages, as a script paging
// with --all meets them: no record twice, none that stayed skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN, raw, startTestSandbox } from '../helpers.js';

const headers = { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': '2024-04-01', 'content-type': 'application/json' };

interface Page {
  next: string | null;
  previous: string | null;
  results: { id: number; title: string }[];
}

describe('cursor pages', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ token: FULL_TOKEN, pageSize: 3 });
  });
  afterAll(() => sandbox.close());

  const follow = async (link: string): Promise<Page> => {
    const response = await fetch(link, { headers });
    expect(response.status, link).toBe(200);
    return (await response.json()) as Page;
  };
  const list = (query = '') => follow(`${sandbox.url}/api/admin/products/${query}`);
  const make = async (title: string) => (await raw(sandbox, 'POST', '/products/', { headers, body: JSON.stringify({ title }) })).body!.id as number;
  const remove = async (id: number) => expect((await raw(sandbox, 'DELETE', `/products/${id}/`, { headers })).status).toBe(204);

  it('answer next, previous and results only, with absolute links that carry an opaque cursor and keep the filters', async () => {
    const first = await list('?is_public=true');
    expect(Object.keys(first).sort()).toEqual(['next', 'previous', 'results']);
    expect(first.previous).toBeNull();
    expect(first.results).toHaveLength(3);
    const next = new URL(first.next!);
    expect(`${next.origin}${next.pathname}`).toBe(`${sandbox.url}/api/admin/products/`);
    expect(next.searchParams.get('is_public')).toBe('true');
    expect(next.searchParams.get('cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(next.searchParams.get('cursor')).not.toMatch(/^\d+$/);
    const second = await follow(first.next!);
    expect(new URL(second.previous!).searchParams.get('is_public')).toBe('true');
    expect((await follow(second.previous!)).results).toEqual(first.results);
  });

  it('a cursor the store did not make is a 404', async () => {
    expect(await raw(sandbox, 'GET', '/products/?cursor=bm90LWEtY3Vyc29y', { headers })).toEqual({ status: 404, body: { detail: 'Invalid cursor' } });
    // Well-formed cursors whose position is no position of a list: every list is keyed by whole numbers.
    const cursor = (query: string) => Buffer.from(query).toString('base64url');
    for (const [path, query] of <[string, string][]>[
      ['/products/', 'p=-5'],
      ['/products/', 'p=__proto__'],
      ['/products/', 'p=1.5'],
      ['/products/', 'p=+7'],
      ['/products/', 'p='],
      ['/products/', 'p=1e3'],
      ['/orders/', 'p=10001 '],
      ['/orders/', 'p=0x10'],
    ]) {
      expect(await raw(sandbox, 'GET', `${path}?cursor=${cursor(query)}`, { headers }), `${path} ${query}`).toEqual({ status: 404, body: { detail: 'Invalid cursor' } });
    }
    // The store's own positions, and their form written by hand, page as ever.
    expect((await raw(sandbox, 'GET', `/products/?cursor=${cursor('p=5')}`, { headers })).status).toBe(200);
    expect((await raw(sandbox, 'GET', `/orders/?cursor=${cursor('p=10001&r=1')}`, { headers })).status).toBe(200);
  });

  it('lead to every record once, forward and back', async () => {
    let page = await list();
    const seen: number[] = [];
    const pages: number[][] = [];
    for (;;) {
      seen.push(...page.results.map((p) => p.id));
      pages.push(page.results.map((p) => p.id));
      if (!page.next) break;
      page = await follow(page.next);
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Newest first, by key.
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    const back: number[][] = [page.results.map((p) => p.id)];
    while (page.previous) {
      page = await follow(page.previous);
      back.unshift(page.results.map((p) => p.id));
    }
    expect(back).toEqual(pages);
  });

  it('stay consistent while records are made and removed between pages: none twice, none that stayed skipped', async () => {
    const made: number[] = [];
    for (let n = 0; n < 6; n++) made.push(await make(`Paging product ${n}`));
    let link: string | null = `${sandbox.url}/api/admin/products/`;
    const seen: number[] = [];
    const removed = new Set<number>();
    let step = 0;
    while (link) {
      const page: Page = await follow(link);
      seen.push(...page.results.map((p) => p.id));
      // Between pages: a new record, one already shown removed, and one not shown yet removed.
      made.push(await make(`Made while paging ${step}`));
      const shown = page.results.at(-1)!.id;
      await remove(shown);
      removed.add(shown);
      const ahead = made.find((id) => !seen.includes(id) && !removed.has(id) && id < shown);
      if (ahead !== undefined) {
        await remove(ahead);
        removed.add(ahead);
      }
      link = page.next;
      step++;
    }
    expect(new Set(seen).size, `pages: ${seen.join(' ')}`).toBe(seen.length);
    // Every record there from start to end was shown; nothing made after the start was.
    const stayed = Object.keys((await allProducts()).byId)
      .map(Number)
      .filter((id) => !made.slice(6).includes(id));
    expect(stayed.filter((id) => !seen.includes(id))).toEqual([]);
    expect(seen.filter((id) => made.slice(6).includes(id))).toEqual([]);
    expect(step).toBeGreaterThan(3);
  });

  async function allProducts(): Promise<{ byId: Record<string, unknown> }> {
    const byId: Record<string, unknown> = {};
    let link: string | null = `${sandbox.url}/api/admin/products/`;
    while (link) {
      const page: Page = await follow(link);
      for (const product of page.results) byId[product.id] = product;
      link = page.next;
    }
    return { byId };
  }
});
