// Usage errors name what the user typed and what to type instead.
import fc from 'fast-check';
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

  it("never echoes an unknown flag's value, which may be a secret: not in the message, the JSON error, nor the ::error annotation", async () => {
    for (const flag of ['--client-secret=s3cr3t-value-1234', '--token=s3cr3t-value-1234', '--tokn=s3cr3t-value-1234']) {
      const r = await runInProcess(['orders', 'add-note', '10001', '--message', 'x', flag, '--json'], { STORE_ADMIN_CONFIG_DIR: '/nonexistent-store-admin-test', GITHUB_ACTIONS: 'true' });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`store-admin: unknown option '${flag.split('=')[0]}=***'`);
      expect(r.stderr).toContain('::error title=store-admin (exit 2)::');
      expect(r.stdout + r.stderr).not.toContain('s3cr3t');
    }
  });

  it('shows what the user typed with its control characters escaped, in every usage error (1,000 fuzzed lines)', async () => {
    const control = fc.constantFrom('\u001b[31m', '\u001b]0;title\u0007', '\r', '\b', '\u009b2J', '\u202e', '\n::add-mask::x');
    const word = fc.tuple(fc.string({ maxLength: 6 }), control, fc.string({ maxLength: 6 })).map(([a, c, b]) => `${a}${c}${b}`);
    const line = fc.oneof(
      word.map((w) => [w]),
      word.map((w) => ['orders', w]),
      word.map((w) => ['orders', 'add-note', '1', `--${w}`]),
      word.map((w) => ['webhooks', 'list', `--${w}=${w}`]),
      word.map((w) => ['subscriptions', 'update', w, '--is-test=maybe']),
    );
    await fc.assert(
      fc.asyncProperty(line, async (args) => {
        const r = await run(args);
        expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
        for (const shown of r.stderr.split('\n')) expect(shown.trimStart()).not.toMatch(/^::/);
      }),
      { numRuns: 1000, seed: 33 },
    );
  });
});
