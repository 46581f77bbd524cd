// What `webhooks listen --register` leaves on a store: its webhook is tagged with the listener's
// process and host, one left behind by a listen killed hard is removed by the next, and a real
// store (here a sandbox behind a proxy that hides the sandbox's own paths, as a store has none)
// is given the tunnel's public URL and has the webhook removed on exit.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, startCli, useConfigDir } from './run.js';

describe('webhooks listen --register, killed hard', () => {
  const dir = useConfigDir();
  const env = { STORE_ADMIN_CONFIG_DIR: dir };
  const hooks = async () => (await runCli(['--sandbox', 'webhooks', 'list', '--all', '--json'], { env })).json().results as { id: number; name: string }[];

  it('leaves its tagged webhook behind; the next listen --register removes it and says so', async () => {
    const killed = startCli(['--sandbox', 'webhooks', 'listen', '--register', '--event', 'order.updated'], env);
    const [, left] = (await killed.printed('stderr', /Registered webhook (\d+) for order\.updated/))!;
    await killed.printed('stderr', /Listening for webhook deliveries/);
    killed.kill();
    await killed.exited;
    const tagged = (await hooks()).find((h) => h.id === Number(left));
    expect(tagged?.name).toMatch(new RegExp(`^store-admin webhooks listen \\(pid \\d+ on ${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));

    const next = startCli(['--sandbox', 'webhooks', 'listen', '--register', '--event', 'order.updated'], env);
    const [line] = (await next.printed('stderr', /Removed webhook (\d+), left behind by a listen \(pid \d+\) that stopped without removing it\./))!;
    expect(line).toContain(`Removed webhook ${left},`);
    const [, mine] = (await next.printed('stderr', /Registered webhook (\d+)/))!;
    await next.printed('stderr', /Listening for webhook deliveries/);
    const ids = (await hooks()).map((h) => h.id);
    expect(ids).not.toContain(Number(left));
    expect(ids).toContain(Number(mine));
    // The seed's own webhooks, and this live listen's, are no one's leftovers.
    expect(ids).toEqual(expect.arrayContaining([1, 2]));
    next.interrupt();
    expect(await next.exited).toBe(0);
    expect((await hooks()).map((h) => h.id)).not.toContain(Number(mine));
  });
});

describe('webhooks listen --public-url against a real store', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  let store: Server;
  let storeUrl = '';
  beforeAll(async () => {
    // A real store has no /sandbox/ paths: the proxy answers them 404 and passes the API on.
    store = createServer((req, res) => {
      if (!req.url!.startsWith('/api/admin/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
      const out = request(`${ctx.sandbox.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(out);
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => store.close(() => resolve())));

  it('registers the public URL, not the loopback one, and removes the webhook on exit', async () => {
    const listener = startCli(['webhooks', 'listen', '--public-url', 'https://abc123.tunnel.example/hooks', '--event', 'dispute.created'], {
      STORE_ADMIN_BASE_URL: storeUrl,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      STORE_ADMIN_CONFIG_DIR: dir,
    });
    const [, id] = (await listener.printed('stderr', /Registered webhook (\d+) for dispute\.created at https:\/\/abc123\.tunnel\.example\/hooks,/))!;
    await listener.printed('stderr', /Listening for webhook deliveries on http:\/\/127\.0\.0\.1:\d+\//);
    expect(await ctx.client.webhooks.get({ params: { id: Number(id) } })).toMatchObject({ target: 'https://abc123.tunnel.example/hooks', events: ['dispute.created'] });
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    expect(listener.out.stderr).toContain(`Removed webhook ${id}.`);
    await expect(ctx.client.webhooks.get({ params: { id: Number(id) } })).rejects.toMatchObject({ status: 404 });
  });
});
