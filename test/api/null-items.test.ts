// The reference allows null items in Order.tags and Webhook.events: an answer carrying them is
// the documented shape, so the client shows it without a warning, and a table leaves the null out.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runInProcess } from '../cli/in-process.js';
import { startTestSandbox } from '../helpers.js';

const webhook = {
  id: 7,
  active: true,
  api_version: '2024-04-01',
  created_at: '2026-01-10T09:00:00Z',
  updated_at: '2026-01-10T09:00:00Z',
  next_check_date: null,
  events: [null, 'order.created', null, 'order.updated'],
  name: 'Warehouse',
  secret_key: null,
  target: 'https://hooks.example.com/store',
  warning_count: 0,
};

let server: Server;
let url = '';
beforeAll(async () => {
  // A whole order as the sandbox answers it (every field the reference requires), with a null tag.
  const sandbox = await startTestSandbox({ token: 'tok' });
  const store = createClient({ baseUrl: sandbox.url, token: 'tok' });
  const order = { ...((await store.orders.removeLine({ params: { number: '10002', lineId: 105 } })) as object), tags: [null, 'vip'] };
  await store.close();
  await sandbox.close();
  server = createServer((req, res) => {
    const body = req.url?.includes('/webhooks/') ? webhook : order;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('null items the reference allows', () => {
  it('an order with a null tag and a webhook with a null event raise no warning', async () => {
    const warnings: string[] = [];
    const client = createClient({ baseUrl: url, token: 'tok', onWarning: (message) => warnings.push(message) });
    const order = (await client.orders.removeLine({ params: { number: '10001', lineId: 1 } })) as { tags: unknown };
    const got = (await client.webhooks.get({ params: { id: 7 } })) as { events: unknown };
    await client.close();
    expect(order.tags).toEqual([null, 'vip']);
    expect(got.events).toEqual([null, 'order.created', null, 'order.updated']);
    expect(warnings).toEqual([]);
  });

  it('a table lists the events without an empty item for the nulls', async () => {
    const r = await runInProcess(['webhooks', 'get', '7', '-o', 'table'], { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: 'tok', NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/│ Events\s+│ order\.created, order\.updated\s+│\n/);
  });
});
