// --each: many operations from one invocation, at a bounded concurrency and rate.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { FULL_TOKEN, useSandbox, startTestSandbox, until } from '../helpers.js';
import { BIN, runCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

describe('--each', () => {
  const store = memoryStore();
  const ctx = useSandbox({ store });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], stdin?: string) => runCli(args, { env: env(), stdin });

  it('runs one operation per line from stdin, one JSON line each, a summary on stderr', async () => {
    const r = await cli(['customers', 'add-note', '--each', '-', '--message', 'Bulk hello'], '1\n2\n\n# comment\n1, \n');
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.map((l) => l.input)).toEqual(expect.arrayContaining([['1'], ['2'], ['1']]));
    expect(out).toHaveLength(3);
    for (const line of out) expect(line).toMatchObject({ ok: true, status: 200, data: { message: 'Bulk hello' } });
    // Each record names the input line it came from (blank lines and comments count).
    expect(out.map((l) => [l.line, l.input]).sort((a, b) => a[0] - b[0])).toEqual([[1, ['1']], [2, ['2']], [5, ['1']]]);
    expect(r.stderr).toMatch(/customers notes create: 3 lines — 3 succeeded, 0 failed in \d+\.\ds \(\d+\.\d\/s\)$/m);
  });

  it('fills the last arguments from each line, and --query applies to each result', async () => {
    const r = await cli(['orders', 'fulfillment-event', '10001', '201', '--each', '-', '--query', 'status'], '301\n302\n');
    expect(r.code).toBe(0);
    // Lines run side by side: they are reported as they finish, in any order.
    const byInput = lines(r.stdout).sort((a, b) => String(a.input).localeCompare(String(b.input)));
    expect(byInput.map((l) => [l.input, l.data])).toEqual([
      [['10001', '201', '301'], 'label_printed'],
      [['10001', '201', '302'], expect.any(String)],
    ]);
  });

  it('reports failed lines, writes them to --failed, exits 1', async () => {
    const failed = join(dir, 'failed.txt');
    const r = await cli(['categories', 'get', '--each', '-', '--failed', failed], '1\n98\n2\n99\n');
    expect(r.code).toBe(1);
    const out = lines(r.stdout);
    expect(out.filter((l) => l.ok)).toHaveLength(2);
    expect(out.filter((l) => !l.ok).map((l) => [l.input, l.status, l.error.message])).toEqual(
      expect.arrayContaining([
        [['98'], 404, 'Not found.'],
        [['99'], 404, 'Not found.'],
      ]),
    );
    expect(readFileSync(failed, 'utf8')).toBe('98\n99\n');
    expect(r.stderr).toContain('2 of 4 failed');
  });

  it('checks every line before sending anything', async () => {
    const before = ctx.sandbox.counters.received;
    const r = await cli(['categories', 'get', '--each', '-'], '1\nabc\n2 3\n-4\nx\n5\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--each: line 2: <id>: must be a positive whole number (got "abc")');
    expect(r.stderr).toContain('line 3: expected 1 value (<id>), got 2');
    expect(r.stderr).toContain('and 1 more');
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('needs --yes for destructive work without a terminal, and confirms once with it', async () => {
    const before = ctx.sandbox.counters.received;
    const refused = await cli(['subscriptions', 'renew', '--each', '-'], '1\n2\n');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('and the same for 1 more (2 in all)');
    expect(ctx.sandbox.counters.received).toBe(before);
    // num_orders is worked out when the subscription is answered: read it as a user does.
    const orders = async () => ((await ctx.client.subscriptions.get({ params: { id: 1 } })) as { num_orders: number }).num_orders;
    const ordersBefore = await orders();
    const r = await cli(['subscriptions', 'renew', '--each', '-', '--yes'], '1\n1\n');
    expect(r.code).toBe(0);
    expect(await orders()).toBe(ordersBefore + 2);
  });

  it('asks about every line of a CSV, not just the first: a later row may be the one that cannot be undone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'store-admin-csv-'));
    try {
      const csv = join(folder, 'statuses.csv');
      writeFileSync(csv, 'id,status\n1,past_due\n2,canceled\n3,active\n4,canceled\n');
      const before = ctx.sandbox.counters.received;
      const refused = await cli(['subscriptions', 'update', '--each', csv]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('Set subscription 2 to canceled — and the same for 1 more (2 of 4 lines): confirmation needed');
      expect(ctx.sandbox.counters.received).toBe(before);
      expect(store.state.records.subscriptions['2']!.status).not.toBe('canceled');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('--dry-run shows each request and sends nothing', async () => {
    const before = ctx.sandbox.counters.received;
    const r = await cli(['orders', 'remove-line', '10001', '--each', '-', '--dry-run'], '102\n103\n');
    expect(r.code).toBe(0);
    expect(lines(r.stdout).map((l) => l.url)).toEqual([
      `${ctx.sandbox.url}/api/admin/orders/10001/lines/102/`,
      `${ctx.sandbox.url}/api/admin/orders/10001/lines/103/`,
    ]);
    expect(r.stdout).not.toContain(FULL_TOKEN);
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('--dry-run prints each line as the single command would, with the line\'s input added', async () => {
    const single = await cli(['subscriptions', 'cancel', '3', '--reason', 'other', '--other-message', 'moving', '--dry-run']);
    const bulk = await cli(['subscriptions', 'cancel', '--each', '-', '--reason', 'other', '--other-message', 'moving', '--dry-run'], '3\n');
    expect(single.code, single.stderr).toBe(0);
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(lines(bulk.stdout)).toEqual([{ input: ['3'], ...single.json() }]);
  });

  it('bulk flags without --each are a usage error', async () => {
    const r = await cli(['categories', 'get', '1', '--rate', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('go with --each');
  });
});

describe('--each against a rate-limited store', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('a 429 is waited out whatever --retries says: every line succeeds, and one line on stderr says so', async () => {
    // The platform's 4 requests a second, met at full speed: most lines are answered 429 at first.
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, faults: parseFaults('rate=4', 1) });
    closers.push(() => sandbox.close());
    const r = await runCli(['categories', 'get', '--each', '-', '--rate', '0', '--concurrency', '4', '--retries', '0'], {
      env: { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN },
      stdin: '1\n2\n'.repeat(6),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toHaveLength(12);
    expect(lines(r.stdout).every((l) => l.ok && l.status === 200)).toBe(true);
    const throttled = sandbox.counters.faults['rate-limit']!;
    expect(throttled).toBeGreaterThan(0);
    // One notice however many 429s came, and their count in the summary.
    expect(r.stderr.match(/429/g)).toHaveLength(2);
    expect(r.stderr).toContain('429 Too Many Requests: the store asks to slow down; every worker waits as it asks, and each line goes on within --timeout\n');
    expect(r.stderr).toMatch(new RegExp(`12 lines — 12 succeeded, 0 failed in .*; waited out ${throttled} × 429\\n`));
  });

  it('Ctrl-C stops taking lines, lets those in flight finish, names the rest, exits 130', async () => {
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, faults: parseFaults('latency=400', 1) });
    closers.push(() => sandbox.close());
    const dir = mkdtempSync(join(tmpdir(), 'store-admin-bulk-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const failed = join(dir, 'redo.txt');
    const child = spawn(process.execPath, [BIN, 'categories', 'get', '--each', '-', '--concurrency', '2', '--rate', '0', '--failed', failed], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN },
    });
    child.stdin.end('1\n2\n1\n2\n1\n2\n1\n2\n');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until('two requests at the store', () => sandbox.counters.received >= 2, { seen: () => stderr });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const out = lines(stdout);
    expect(out.length).toBeGreaterThanOrEqual(2);
    expect(out.every((l) => l.ok)).toBe(true);
    expect(sandbox.counters.received).toBe(out.length);
    expect(stderr).toMatch(/\d+ not started/);
    expect(readFileSync(failed, 'utf8').trim().split('\n')).toHaveLength(8 - out.length);
  });
});

describe.runIf(hasTmux)('--each in a terminal', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();

  it('shows a progress bar with rate and ETA while it works', async () => {
    const file = join(dir, 'ids.txt');
    writeFileSync(file, '1\n2\n1\n2\n');
    const t = Terminal.start(['categories', 'get', '--each', file, '--rate', '4', '--concurrency', '1'], {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      NO_COLOR: '1',
    });
    try {
      const bar = await t.waitFor(/\[[█░]{24}\] [1-3]\/4 \d+%\s+\d+\.\d\/s\s+ETA \d/);
      expect(Number(/(\d+\.\d)\/s/.exec(bar)![1])).toBeLessThanOrEqual(4);
      expect(await t.exitCode()).toBe(0);
      expect(t.screen()).toMatch(/categories get: 4 lines — 4 succeeded, 0 failed/);
    } finally {
      t.kill();
    }
  });

  it('confirms once for the whole batch, showing the count', async () => {
    const file = join(dir, 'subs.txt');
    writeFileSync(file, '1\n2\n4\n');
    const t = Terminal.start(['subscriptions', 'cancel', '--each', file, '--reason', 'other'], {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      NO_COLOR: '1',
    });
    try {
      await t.waitFor(/and the same for 2 more \(3 in all\)\. Continue\?/);
      t.keys('y', 'Enter');
      expect(await t.exitCode()).toBe(0);
      expect(ctx.sandbox.counters.byOperation['subscriptionsCancelCreate']?.received).toBe(3);
    } finally {
      t.kill();
    }
  });
});
