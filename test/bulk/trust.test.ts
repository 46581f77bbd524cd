// Bulk runs you can trust: the lines to run again are recorded as they fail, a run cut short by
// SIGTERM keeps them all, the input file is never emptied, a refused token stops the run, a high
// concurrency warns of nothing, failures are summarised by reason, and a terminal gets one short
// line per result.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { FULL_TOKEN, useSandbox, startTestSandbox, until } from '../helpers.js';
import { BIN, runCli, useConfigDir } from '../cli/run.js';
import { hasTmux, Terminal } from '../cli/tmux.js';

const lines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

describe('--each: nothing forgotten, stop means stop', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = (extra: Record<string, string> = {}) => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, ...extra });

  it('refuses a --failed file that is the --each file, keeps it whole and sends nothing', async () => {
    const file = join(dir, 'retry.txt');
    writeFileSync(file, '1\n2\n');
    const before = ctx.sandbox.counters.received;
    const r = await runCli(['categories', 'get', '--each', file, '--failed', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`store-admin: --failed ${file} is the --each file itself: it would be emptied before the run`);
    expect(readFileSync(file, 'utf8')).toBe('1\n2\n');
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('groups the failure reasons with their counts', async () => {
    const r = await runCli(['categories', 'get', '--each', '-', '--rate', '0'], { env: env(), stdin: '1\n999991\n999992\n2\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Failures: 2 × 404 Not Found');
  });

  it('stops at the first refused token: exit 4, the rest not started', async () => {
    const input = Array.from({ length: 200 }, (_, i) => `${(i % 2) + 1}`).join('\n');
    for (const token of ['not-a-token-the-store-knows', '']) {
      const before = ctx.sandbox.counters.received;
      const r = await runCli(['categories', 'get', '--each', '-', '--rate', '0', '--concurrency', '4'], { env: env({ STORE_ADMIN_TOKEN: token }), stdin: input });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/store-admin: Stopped: the store refused the token \(.+\); \d+ lines not started/);
      expect(lines(r.stdout).length).toBeLessThanOrEqual(4);
      expect(ctx.sandbox.counters.received - before).toBeLessThanOrEqual(4);
    }
  });

  it('warns of nothing at a high concurrency', async () => {
    for (const concurrency of ['6', '64']) {
      const r = await runCli(['categories', 'get', '--each', '-', '--rate', '0', '--concurrency', concurrency], {
        env: env(),
        stdin: Array.from({ length: 150 }, (_, i) => `${(i % 2) + 1}`).join('\n'),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('MaxListenersExceededWarning');
      expect(lines(r.stdout)).toHaveLength(150);
    }
  });
});

describe('--each cut short by SIGTERM', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });
  const dir = useConfigDir();

  it('has already written every failed line, adds those not started, and never touches the input', async () => {
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, faults: parseFaults('latency=150', 1) });
    closers.push(() => sandbox.close());
    const input = join(dir, 'ids.txt');
    const failed = join(dir, 'redo.txt');
    // Every third line names a category that does not exist.
    const ids = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? `99999${i}` : `${(i % 2) + 1}`));
    writeFileSync(input, `${ids.join('\n')}\n`);
    const child = spawn(process.execPath, [BIN, 'categories', 'get', '--each', input, '--failed', failed, '--rate', '0', '--concurrency', '2'], {
      env: { PATH: process.env.PATH, STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Before the end, every failure reported so far is on disk already.
    const reportedFailures = () => lines(stdout.slice(0, stdout.lastIndexOf('\n') + 1)).filter((l) => !l.ok).map((l) => l.input[0] as string);
    const reported = await until('two failures reported', () => reportedFailures().length >= 2 && reportedFailures(), { seen: () => stdout });
    const early = readFileSync(failed, 'utf8').trim().split('\n').filter(Boolean);
    expect(early).toEqual(expect.arrayContaining(reported));
    expect(early.every((id) => id.startsWith('99999'))).toBe(true);
    expect(sandbox.counters.received).toBeLessThan(ids.length);
    child.kill('SIGTERM');
    // As a process killed by SIGTERM reports it: 128 + 15.
    expect(await exited).toBe(143);
    const ran = lines(stdout);
    const redo = readFileSync(failed, 'utf8').trim().split('\n');
    const ranOk = ran.filter((l) => l.ok).map((l) => l.input[0]);
    // Every line is either done or to run again, none twice.
    expect([...ranOk, ...redo].sort()).toEqual([...ids].sort());
    expect(readFileSync(input, 'utf8')).toBe(`${ids.join('\n')}\n`);
  });
});

describe('a single command cut short by SIGTERM', () => {
  const dir = useConfigDir();

  it('exits 143, as --each does, saying the change may or may not have been applied', async () => {
    const sandbox = await startTestSandbox({ token: FULL_TOKEN, faults: parseFaults('latency=3000', 1) });
    try {
      const child = spawn(process.execPath, [BIN, 'customers', 'add-note', '1', '--message', 'slow'], {
        env: { PATH: process.env.PATH, STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await until('the request to reach the store', () => sandbox.counters.received >= 1);
      child.kill('SIGTERM');
      expect(await exited).toBe(143);
      expect(stderr).toMatch(/may or may not have been applied/);
    } finally {
      await sandbox.close();
    }
  });
});

describe.runIf(hasTmux)('--each in an 80-column terminal', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();

  it('prints one short line per result and a clean bar, not JSON', async () => {
    const file = join(dir, 'subs.txt');
    writeFileSync(file, '1\n2\n999999\n');
    const t = Terminal.start(['subscriptions', 'update', '--each', file, '--interval-count', '2', '--rate', '5'], {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      STORE_ADMIN_CONFIG_DIR: dir,
      NO_COLOR: '1',
    }, { width: 80, height: 24 });
    try {
      expect(await t.exitCode()).toBe(1);
      const screen = t.screen();
      expect(screen).toMatch(/^✓ 1 {2}id 1 \w+$/m);
      expect(screen).toMatch(/^✓ 2 {2}id 2 \w+$/m);
      expect(screen).toMatch(/^✗ 999999 {2}.*not found/im);
      expect(screen).not.toContain('{"input"');
      expect(screen).toContain('Failures: 1 × 404 Not Found');
      expect(screen.split('\n').every((line) => line.length <= 80)).toBe(true);
    } finally {
      t.kill();
    }
  });
});
