// `--sandbox`: the embedded store keeps its state in the config dir between commands.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

describe('the embedded sandbox', () => {
  const dir = useConfigDir();
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir, ...env } });

  it('keeps effects between commands, in a private file, until reset', async () => {
    const removed = await cli(['--sandbox', 'orders', 'remove-line', '10002', '105', '--yes']);
    expect(removed.code).toBe(0);
    const state = join(dir, 'sandbox-state.json');
    expect(statSync(state).mode & 0o777).toBe(0o600);
    const again = await cli(['orders', 'remove-line', '10002', '105', '--yes'], { STORE_ADMIN_SANDBOX: '1' });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('store-admin: Not found. (HTTP 404)\n');
    const reset = await cli(['sandbox', 'reset']);
    expect(reset.code).toBe(0);
    const afterReset = await cli(['--sandbox', 'orders', 'remove-line', '10002', '105', '--yes']);
    expect(afterReset.code).toBe(0);
  });

  it('loses no update when invocations run at once', async () => {
    const keys = Array.from({ length: 6 }, (_, i) => `k${i}`);
    const results = await Promise.all(keys.map((key) => cli(['--sandbox', 'apps', 'update-settings', 'sandbox-app', '--set', `${key}=1`])));
    expect(results.map((r) => r.code)).toEqual(keys.map(() => 0));
    const final = await cli(['--sandbox', 'apps', 'update-settings', 'sandbox-app', '--set', 'last=1']);
    for (const key of keys) expect(final.json()[key]).toBe(1);
    expect(existsSync(join(dir, 'sandbox-state.json.lock'))).toBe(false);
  });

  it('needs no token or store URL', async () => {
    const r = await runCli(['--sandbox', 'exports', 'types'], { env: { STORE_ADMIN_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.json().types).toHaveLength(13);
  });

  it('refuses a flag naming another store beside it, rather than silently using the sandbox', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['--sandbox', '--base-url', 'https://shop.example.com'], {}, '--sandbox runs the command against the embedded sandbox, and --base-url names another store: give one of them'],
      [['--sandbox', '--profile', 'prod'], {}, '--sandbox runs the command against the embedded sandbox, and --profile names another store: give one of them'],
      [['--base-url', 'https://shop.example.com'], { STORE_ADMIN_SANDBOX: '1' }, 'STORE_ADMIN_SANDBOX=1 runs the command against the embedded sandbox, and --base-url names another store: give one of them'],
    ];
    for (const [flags, env, message] of cases) {
      for (const command of [['exports', 'types'], ['auth', 'status']]) {
        const r = await runCli([...flags, ...command], { env: { STORE_ADMIN_CONFIG_DIR: dir, ...env } });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.split('\n')[0]).toBe(`store-admin: ${message}`);
        expect(r.stdout).toBe('');
      }
    }
    // The environment's store gives way to the --sandbox flag, as flags win over the environment.
    const flagWins = await runCli(['--sandbox', 'exports', 'types'], { env: { STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_BASE_URL: 'https://shop.example.com' } });
    expect(flagWins.code, flagWins.stderr).toBe(0);
  });
});

describe('STORE_ADMIN_SANDBOX', () => {
  // The profile's store stands for the real one: nothing meant for the sandbox may reach it.
  const real = useSandbox();
  const dir = useConfigDir();
  const changesToReal = () => real.sandbox.counters.byOperation['ordersNotesCreate']?.received ?? 0;
  const cli = (value: string) => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ activeProfile: 'live', profiles: { live: { baseUrl: real.sandbox.url, token: FULL_TOKEN } } }), { mode: 0o600 });
    return runCli(['orders', 'add-note', '10001', '--message', 'meant for the sandbox', '--json'], { env: { STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_SANDBOX: value } });
  };

  it('is trimmed: a Windows line end or a space still means the sandbox', async () => {
    for (const value of ['1\r', ' 1', '1 ', 'on', 'TRUE']) {
      const run = await cli(value);
      expect(run.code, `${JSON.stringify(value)}: ${run.stderr}`).toBe(0);
      expect(changesToReal(), JSON.stringify(value)).toBe(0);
    }
  });

  it('refuses a value that is neither clearly on nor off, exit 2, and sends nothing anywhere', async () => {
    for (const value of ['enabled', '2', 'y e s', '1\r\n1']) {
      const run = await cli(value);
      expect(run.code, JSON.stringify(value)).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(`store-admin: STORE_ADMIN_SANDBOX takes 1 or 0 (or true/false, yes/no, on/off); got ${JSON.stringify(value)}, so nothing was sent`);
    }
    expect(changesToReal()).toBe(0);
    // Off is off: the profile's store is used.
    expect((await cli('0')).code).toBe(0);
    expect(changesToReal()).toBe(1);
  });
});
