// The rate limiter against a store that enforces the platform's limit (N requests in any one
// second per token): at the same rate, a run is never answered 429, however its timers fire.
import { afterAll, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN } from '../helpers.js';
import { runCli } from '../cli/run.js';
import { rateLimiter } from '../../src/bulk/limiter.js';

describe('--each at the store\'s own rate limit', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('draws no 429 from a store enforcing the same rate, at any concurrency', async () => {
    const sandbox = await startSandbox({ token: FULL_TOKEN, faults: parseFaults('rate=4', 1) });
    closers.push(() => sandbox.close());
    for (const concurrency of ['1', '8']) {
      // The store counts per token across processes: the previous run's last second must pass.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const r = await runCli(['categories', 'get', '--each', '-', '--rate', '4', '--concurrency', concurrency], {
        env: { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN },
        stdin: '1\n2\n'.repeat(8),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toHaveLength(16);
      expect(r.stderr).not.toContain('429');
    }
    expect(sandbox.counters.faults['rate-limit'] ?? 0).toBe(0);
    expect(sandbox.counters.received).toBe(32);
  });
});

describe('rateLimiter', () => {
  it('without a limit lets every request go at once, except while a 429 pauses everyone', async () => {
    const limiter = rateLimiter(0);
    expect(limiter.acquire()).toBeUndefined();
    limiter.pause(60);
    const started = Date.now();
    const turns = [limiter.acquire(), limiter.acquire()];
    expect(turns.every((turn) => turn instanceof Promise)).toBe(true);
    await Promise.all(turns);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(limiter.acquire()).toBeUndefined();
  });
});
