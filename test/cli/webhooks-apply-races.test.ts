// Two `webhooks apply` runs for one store at once: on one machine the second is refused by the
// store's lock (naming the first), and a run elsewhere that creates a webhook after the plan was
// read is seen before anything is created twice.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { normalizeStoreUrl } from '../../src/api/url.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

const names = async (sandbox: Sandbox) => sandbox.store.transact((state) => Object.values(state.records.webhooks).map((w) => w.name), false);
const creates = (sandbox: Sandbox) => sandbox.counters.byOperation['webhooksCreate']?.received ?? 0;

/** The start time /proc gives a process (Linux), as the lock records it. */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe('webhooks apply: two runs for one store', () => {
  const ctx = useSandbox();
  const config = useConfigDir();
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-races-'));
  const children: ChildProcess[] = [];
  afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'webhooks.json');
  writeFileSync(file, JSON.stringify({ webhooks: ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => ({ name: `race-${n}`, events: ['order.created'], target: `https://hooks.example.com/${n}` })) }));
  const apply = () => runCli(['webhooks', 'apply', '-f', file, '--json'], { env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config } });
  const lockPath = () => join(config, 'locks', `webhooks-apply-${createHash('sha256').update(normalizeStoreUrl(ctx.sandbox.url)).digest('hex').slice(0, 16)}.lock`);

  it('a second run while one holds the store\'s lock is refused, naming its process, and sends nothing', async () => {
    const holder = spawn('sleep', ['30']);
    children.push(holder);
    mkdirSync(join(config, 'locks'), { recursive: true });
    writeFileSync(lockPath(), JSON.stringify({ pid: holder.pid, started: startTime(holder.pid!), host: hostname(), at: '2026-01-01T00:00:00.000Z' }));
    const before = creates(ctx.sandbox);
    const run = await apply();
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(`store-admin: Another webhooks apply for ${normalizeStoreUrl(ctx.sandbox.url)} is running (process ${holder.pid}, since 2026-01-01T00:00:00.000Z); nothing was sent`);
    expect(run.stderr).toContain('hint: Let it finish, then run this again: it plans afresh from the store');
    expect(creates(ctx.sandbox)).toBe(before);
  });

  it('a lock left by a process that has ended is taken over', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(lockPath(), JSON.stringify({ pid: gone.pid, started: '1', host: hostname(), at: '2026-01-01T00:00:00.000Z' }));
    const run = await apply();
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().counts.created).toBe(6);
  });

  it('runs started together create each webhook once, and none exits 0 having done half', async () => {
    await ctx.sandbox.store.transact((state) => {
      for (const [id, webhook] of Object.entries(state.records.webhooks)) if (String(webhook.name ?? '').startsWith('race-')) delete state.records.webhooks[id];
    }, true);
    const runs = await Promise.all([apply(), apply(), apply()]);
    for (const run of runs) {
      expect([0, 1], run.stderr).toContain(run.code);
      if (run.code === 1) expect(run.stderr).toMatch(/Another webhooks apply for .* is running \(process \d+/);
      else expect(['applied', 'no changes']).toContain(run.json().result);
    }
    const made = (await names(ctx.sandbox)).filter((name) => String(name ?? '').startsWith('race-'));
    expect(made.sort()).toEqual(['race-a', 'race-b', 'race-c', 'race-d', 'race-e', 'race-f']);
  });
});

describe('webhooks apply: a webhook made elsewhere after the plan was read', () => {
  const config = useConfigDir();
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-races-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is found before it is created again: the run stops, exit 1, and says why', async () => {
    const sent: string[] = [];
    let lists = 0;
    const server = createServer((req, res) => {
      sent.push(`${req.method} ${req.url}`);
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      // The first read finds nothing; by the time of the create, another run has made it.
      const results = lists++ === 0 ? [] : [{ id: 9, name: 'orders', target: 'https://hooks.example.com/o', events: ['order.created'], active: true, api_version: null, created_at: '2026-01-01T00:00:00Z' }];
      res.end(JSON.stringify(req.method === 'GET' ? { next: null, previous: null, results } : { id: 10 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const file = join(dir, 'webhooks.json');
      writeFileSync(file, JSON.stringify({ webhooks: [{ name: 'orders', events: ['order.created'], target: 'https://hooks.example.com/o' }] }));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await runCli(['webhooks', 'apply', '-f', file], { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config } });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('store-admin: The store has a webhook named "orders" (id 9) that it did not have when the plan was made: another run is changing this store\'s webhooks; not creating it twice');
      expect(sent.filter((line) => line.startsWith('POST'))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
