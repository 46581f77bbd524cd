// The sandbox enforces the platform's rate limit by default: 4 requests per second per access
// token, then 429 with Retry-After, so scripts meet throttling here first. `--faults rate=0`
// lifts it; the embedded `--sandbox` and `store-admin sandbox start` keep the default.
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/sandbox/faults.js';
import { startEmbeddedSandbox } from '../../src/sandbox/embedded.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { PLATFORM_RATE_PER_SECOND } from '../../src/sandbox/settings.js';
import { runCli, useConfigDir } from '../cli/run.js';

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** `count` requests at once with one token; the statuses in order, and the Retry-After of each 429. */
async function burst(sandbox: Sandbox, token: string, count: number) {
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${sandbox.url}/api/admin/exports/types/`, { headers: { authorization: `Bearer ${token}`, 'x-store-api-version': '2024-04-01' } }),
    ),
  );
  await Promise.all(answers.map((a) => a.arrayBuffer()));
  return { statuses: answers.map((a) => a.status).sort(), retryAfter: answers.filter((a) => a.status === 429).map((a) => a.headers.get('retry-after')) };
}

describe('the rate limit', () => {
  it('is 4 requests per second per token by default, as on the platform', async () => {
    expect(PLATFORM_RATE_PER_SECOND).toBe(4);
    const sandbox = await startSandbox({ token: 'one', scopedTokens: { two: ['exports:read'] } });
    open.push(sandbox);
    const first = await burst(sandbox, 'one', 6);
    expect(first.statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(first.retryAfter).toEqual(['1', '1']);
    // Another token has its own allowance.
    expect((await burst(sandbox, 'two', 4)).statuses).toEqual([200, 200, 200, 200]);
    expect(sandbox.counters.faults['rate-limit']).toBe(2);
  });

  it('--faults rate=0 lifts it', async () => {
    const sandbox = await startSandbox({ token: 'one', faults: parseFaults('rate=0') });
    open.push(sandbox);
    expect((await burst(sandbox, 'one', 12)).statuses).toEqual(Array.from({ length: 12 }, () => 200));
  });

  const dir = useConfigDir();
  it('holds in the embedded --sandbox too', async () => {
    const sandbox = await startEmbeddedSandbox({ STORE_ADMIN_CONFIG_DIR: dir });
    open.push(sandbox);
    expect((await burst(sandbox, sandbox.token, 6)).statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});

describe('store-admin sandbox start', () => {
  it('keeps the default and says so; rate=0 lifts it', async () => {
    expect(parseFaults('rate=0').rate).toBe(0);
    expect(() => parseFaults('rate=-1')).toThrow('--faults: rate takes requests per second, 0 for no limit (got "-1")');
    const help = await runCli(['sandbox', 'start', '--help']);
    expect(help.stdout).toContain('rate=N');
  });
});
