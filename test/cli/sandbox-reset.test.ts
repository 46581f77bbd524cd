// `sandbox reset`: the embedded sandbox's state file, or, with --base-url, a running sandbox through
// its sandbox-only route; and the hints that name it, right for the sandbox in use.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

describe('sandbox reset --base-url: a running sandbox', () => {
  const ctx = useSandbox({ scopedTokens: { reader: ['orders:read'] } });
  const dir = useConfigDir();
  const cli = (args: string[], token = FULL_TOKEN) => runCli(args, { env: { STORE_ADMIN_TOKEN: token, STORE_ADMIN_CONFIG_DIR: dir } });
  const at = () => ['--base-url', ctx.sandbox.url];

  it("restores its seed data and its clock, and webhooks trigger's hint names it", async () => {
    // Used up: with subscription 1 canceled, no seeded subscription renews, so order.created cannot be caused.
    expect((await cli(['subscriptions', 'cancel', '1', '--reason', 'other', '--other-message', 'test', '--yes', ...at()])).code).toBe(0);
    expect((await cli(['sandbox', 'clock', 'advance', '30d', ...at()])).code).toBe(0);
    const stuck = await cli(['webhooks', 'trigger', 'order.created', ...at()]);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain('store-admin: Cannot trigger the event: no seeded subscription can be renewed any more');
    const hint = /^hint: Restore the seed data: (.*)$/m.exec(stuck.stderr)?.[1];
    expect(hint).toBe(`store-admin sandbox reset --base-url ${ctx.sandbox.url}`);

    // The hint, run as it is.
    const reset = await cli(hint!.split(' ').slice(1));
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toBe(`The sandbox at ${ctx.sandbox.url} is back to its seed data; its clock reads 2026-02-02T09:00:00Z.\n`);
    expect((await cli(['sandbox', 'clock', '--json', ...at()])).json().now).toMatch(/^2026-02-02T09:0/);
    // Subscription 1 is active again: it renews.
    expect((await cli(['webhooks', 'trigger', 'order.created', ...at()])).code).toBe(0);
  });

  it('needs its full-access token (exit 4), and is refused on a real store (exit 2)', async () => {
    const scoped = await cli(['sandbox', 'reset', ...at()], 'reader');
    expect(scoped.code).toBe(4);
    expect(scoped.stderr).toContain('Resetting the sandbox needs its full-access token');
    const store = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    const real = await cli(['sandbox', 'reset', '--base-url', url]);
    expect(real.code).toBe(2);
    expect(real.stderr).toContain(`sandbox reset works only with a sandbox store, and ${url} is not one`);
    await new Promise((resolve) => store.close(resolve));
  });
});

describe('sandbox reset: the embedded sandbox', () => {
  const dir = useConfigDir();
  const cli = (args: string[]) => runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir } });

  it("is what webhooks trigger's and the clock's hints name with --sandbox", async () => {
    expect((await cli(['--sandbox', 'subscriptions', 'cancel', '1', '--reason', 'other', '--other-message', 'test', '--yes'])).code).toBe(0);
    const stuck = await cli(['--sandbox', 'webhooks', 'trigger', 'order.created']);
    expect(stuck.stderr).toMatch(/^hint: Restore the seed data: store-admin sandbox reset$/m);
    const back = await cli(['--sandbox', 'sandbox', 'clock', 'set', '2026-01-01T00:00:00Z']);
    expect(back.stderr).toMatch(/^hint: Start again from the seed with: store-admin sandbox reset$/m);
    expect((await cli(['sandbox', 'reset'])).code).toBe(0);
    expect((await cli(['--sandbox', 'webhooks', 'trigger', 'order.created'])).code).toBe(0);
  });
});
