// Waiting for an export under the platform's rate limit: a 429 on a poll holds the wait back
// (as Retry-After says) instead of failing the command.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runWaiting } from './in-process.js';
import { useConfigDir } from './run.js';

describe('exports create --download when the store throttles', () => {
  // With seed 5 the create goes through and a poll meets a 429; --retries 0 leaves it to the wait
  // loop, whose pauses (and the rate limiter's) move the sandbox's clock.
  const ctx = useSandbox({ faults: { error: { share: 0.5, codes: [429] }, seed: 5 } });
  const dir = useConfigDir();

  it('keeps waiting through 429s and downloads the file', async () => {
    const file = join(dir, 'throttled.csv');
    const r = await runWaiting(ctx.sandbox, ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31', '--download', file, '--retries', '0'], {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      STORE_ADMIN_CONFIG_DIR: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(ctx.sandbox.counters.faults.error).toBeGreaterThan(0);
    expect(ctx.sandbox.counters.byOperation['exportsRetrieve']?.received).toBeGreaterThan(1);
    expect(readFileSync(file, 'utf8')).toMatch(/^number,/);
  });
});
