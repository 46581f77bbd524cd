// `sandbox clock` end to end: the built CLI with the embedded sandbox, whose clock is kept in its
// state file across commands, a listener on a real socket, and the refusal of a real store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, useConfigDir } from './run.js';

describe('sandbox clock with --sandbox', () => {
  const dir = useConfigDir();
  const cli = (args: string[]) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir } });

  it('advance 30d renews the active subscriptions, each at its date, and a listening app sees their deliveries', async () => {
    const listener = startCli(
      ['--sandbox', 'webhooks', 'listen', '--register', '--event', 'order.created', '--event', 'subscription.updated', '--json'],
      { STORE_ADMIN_CONFIG_DIR: dir },
    );
    await listener.printed('stderr', /Listening for webhook deliveries/);
    expect((await cli(['sandbox', 'clock', '--json'])).json()).toEqual({ now: expect.stringMatching(/^2026-02-02T09:00:\d\dZ$/) });
    const ordersBefore = (await cli(['subscriptions', 'get', '1', '-q', 'num_orders'])).json() as number;

    const moved = await cli(['sandbox', 'clock', 'advance', '30d', '-o', 'table']);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/^The sandbox's clock moved from 2026-02-02T09:00:\d\dZ to 2026-03-04T09:00:\d\dZ\.\n/);
    // The seeded store has several active subscriptions: each renewal is a line, in time order.
    const renewals = [...moved.stdout.matchAll(/^ {2}(\S+) {2}renewed subscription (\d+): order (\d+)$/gm)].map(([, at, id, order]) => ({ at: at!, id: Number(id), order: order! }));
    expect(renewals.map((r) => r.at)).toEqual(renewals.map((r) => r.at).sort());
    const monthly = renewals.find((r) => r.id === 1)!;
    expect(monthly).toMatchObject({ at: '2026-02-15T08:00:00Z' });
    // Each renewal is delivered as its order.created, then its subscription.updated.
    const [events] = (await listener.printed('stdout', new RegExp(`^(.*\n){${2 * renewals.length}}`)))!;
    const envelopes = events!.trim().split('\n').map((line) => JSON.parse(line).event);
    expect(envelopes.map((e) => e.event_type)).toEqual(renewals.flatMap(() => ['order.created', 'subscription.updated']));
    const at = envelopes.findIndex((e) => e.data.number === monthly.order);
    expect(envelopes[at].data).toMatchObject({ number: monthly.order, created_at: '2026-02-15T08:00:00Z' });
    expect(envelopes[at + 1].data).toMatchObject({ id: 1, num_orders: ordersBefore + 1, next_renewal_date: '2026-03-15T08:00:00Z' });
    listener.interrupt();
    expect(await listener.exited).toBe(0);

    // The clock is kept in the state file: the next command reads the time it was moved to.
    expect((await cli(['sandbox', 'clock', '--json'])).json().now).toMatch(/^2026-03-04T09:0\d:\d\dZ$/);
    const set = await cli(['sandbox', 'clock', 'set', '2026-06-01T00:00:00Z', '--json']);
    expect(set.json()).toMatchObject({ now: '2026-06-01T00:00:00Z' });
    const renewed = (set.json().renewals as { subscription: number; at: string }[]).filter((r) => r.subscription === 1).map((r) => r.at);
    expect(renewed).toEqual(['2026-03-15T08:00:00Z', '2026-04-15T08:00:00Z', '2026-05-15T08:00:00Z']);
  });

  it('advance says which webhook an attempt on the way switched off, and how to turn it on again', async () => {
    const own = useConfigDir();
    const run = (args: string[]) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: own } });
    // Seeded webhook 1 subscribes to order.created at a host that never resolves: four days run its whole schedule.
    expect((await run(['subscriptions', 'renew', '1', '--yes'])).code).toBe(0);
    const moved = await run(['sandbox', 'clock', 'advance', '4d', '-o', 'table']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(
      /^ {2}2026-02-0\dT\d\d:\d\d:\d\dZ {2}webhook 1 switched off: attempt 11 \(dlv_\d+\) got .*never resolves.*; store-admin webhooks update 1 --active turns it on again$/m,
    );
    expect((await run(['webhooks', 'get', '1', '--json'])).json().active).toBe(false);
    // As data too, and nothing said when nothing was switched off.
    expect((await run(['webhooks', 'update', '1', '--active'])).code).toBe(0);
    const quiet = await run(['sandbox', 'clock', 'advance', '1h', '--json']);
    expect(quiet.json().webhooks_switched_off).toEqual([]);
  });

  it('refuses to go back, bad durations and dates, each with exit 2', async () => {
    const back = await cli(['sandbox', 'clock', 'set', '2026-01-01T00:00:00Z']);
    expect(back.code).toBe(2);
    expect(back.stderr).toMatch(/The sandbox's clock only moves forward, and it reads 20\d\d-/);
    for (const [args, message] of [
      [['advance', '3x'], 'takes a duration such as 30d, 2h, 90m or 1d12h (got "3x")'],
      [['advance', '0d'], 'takes a duration above zero'],
      [['set', '2027-01-01'], 'takes an ISO 8601 date-time with its zone'],
    ] as const) {
      const r = await cli(['sandbox', 'clock', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    const reset = await runCli(['sandbox', 'reset'], { env: { STORE_ADMIN_CONFIG_DIR: dir } });
    expect(reset.code).toBe(0);
    expect((await cli(['sandbox', 'clock', '--json'])).json().now).toMatch(/^2026-02-02T09:00:\d\dZ$/);
  });

  it('refuses a store that is not a sandbox, and changes nothing there', async () => {
    const seen: string[] = [];
    const plain = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    for (const args of [['sandbox', 'clock'], ['sandbox', 'clock', 'advance', '30d']]) {
      const r = await runCli(args, { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: 't', STORE_ADMIN_CONFIG_DIR: dir } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`sandbox clock works only with a sandbox store, and ${url} is not one`);
    }
    expect(seen.every((line) => line.startsWith('GET '))).toBe(true);
    plain.close();
  });
});
