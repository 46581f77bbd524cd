// Usage errors name what the user typed and what to type instead.
import { describe, expect, it } from 'vitest';
import { runInProcess } from './in-process.js';

const run = (args: string[]) => runInProcess(args, { STORE_ADMIN_CONFIG_DIR: '/nonexistent-store-admin-test' });

describe('usage errors', () => {
  it.each([
    [['sandbox', 'serve'], "unknown command 'serve' for 'store-admin sandbox'; its commands: start, reset, clock"],
    [['webhooks', 'remove'], "unknown command 'remove' for 'store-admin webhooks'; its commands: list, create, get, replace, update, delete, apply, deliveries, replay, listen, trigger, verify"],
    [['categories', '1'], "unknown command '1' for 'store-admin categories'; its commands: list, create, get, replace"],
    [['subscriptions', 'update', '1', '--is-test=false'], "--is-test takes no value (got '--is-test=false'); write --no-is-test (or --is-test for the opposite)"],
    [['subscriptions', 'update', '1', '--is-test=true'], "--is-test takes no value (got '--is-test=true'); write --is-test (or --no-is-test for the opposite)"],
    [['orders', 'add-note', '1', '--json=false'], "--json takes no value (got '--json=false'); leave it out to turn it off"],
    [
      ['orders', 'add-note', '10001', '--message', '--', '--yes'],
      "--message took '--' as its value, and --yes after it was read as a stray word; to give a value that starts with a dash, write --message=--yes",
    ],
  ])('%j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`store-admin: ${message}`);
    expect(r.stderr).not.toMatch(/Did you mean --yes\?|'start'/);
  });

  it('help environment keeps the backslashes of the Windows path', async () => {
    const r = await run(['help', 'environment']);
    expect(r.stdout).toContain('%APPDATA%\\store-admin\\Config');
  });
});
