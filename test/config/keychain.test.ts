// Tokens in a real Secret Service (gnome-keyring in a private D-Bus session): run by
// scripts/test-keychain.sh (npm run test:keychain, and CI). Without a session bus it is skipped;
// the file fallback is tested in test/cli/auth-tokens.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { useSandbox } from '../helpers.js';
import { freePort, STAND_IN, startLogin } from '../cli/app-login.js';
import { runCli, useConfigDir } from '../cli/run.js';

const TOKEN = 'keychain-token-for-tests-5150';
const bus = process.env.DBUS_SESSION_BUS_ADDRESS;

describe.skipIf(!bus)('tokens in the OS keychain', () => {
  const ctx = useSandbox({ token: TOKEN });
  const root = useConfigDir();
  let n = 0;
  const freshDir = () => join(root, `cfg-${n++}`);
  const cli = (dir: string, args: string[], stdin?: string) =>
    runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: bus }, stdin });
  const login = (dir: string, extra: string[] = []) =>
    cli(dir, ['auth', 'login', '--base-url', ctx.sandbox.url, '--with-token', ...extra], `${TOKEN}\n`);
  const file = (dir: string) => readFileSync(join(dir, 'config.json'), 'utf8');

  it('keeps the token in the keychain, not the file, and every command finds it there', async () => {
    const dir = freshDir();
    const r = await login(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json(), r.stderr).toMatchObject({ storage: 'keychain', token: '…5150' });
    expect(r.stderr).toContain('the token is kept in the OS keychain');
    expect(file(dir)).not.toContain(TOKEN);
    expect(JSON.parse(file(dir)).profiles.default).toEqual({ baseUrl: ctx.sandbox.url, keychain: true });
    expect((await cli(dir, ['categories', 'get', '1'])).code).toBe(0);
    const status = await cli(dir, ['auth', 'status', '-o', 'table']);
    expect(status.stdout).toContain('  - Token: …5150 (stored in the OS keychain)');
    expect((await cli(dir, ['auth', 'token'])).stdout).toBe(`${TOKEN}\n`);
  });

  it('--insecure-storage keeps it in the file; the next login moves it into the keychain', async () => {
    const dir = freshDir();
    const insecure = await login(dir, ['--insecure-storage']);
    expect(insecure.json()).toMatchObject({ storage: 'file' });
    expect(insecure.stderr).not.toContain('warning');
    expect(JSON.parse(file(dir)).profiles.default.token).toBe(TOKEN);
    const moved = await login(dir);
    expect(moved.json()).toMatchObject({ storage: 'keychain' });
    expect(file(dir)).not.toContain(TOKEN);
    expect((await cli(dir, ['categories', 'get', '1'])).code).toBe(0);
  });

  it('auth logout forgets the keychain entry too', async () => {
    const dir = freshDir();
    expect((await login(dir)).code).toBe(0);
    expect((await cli(dir, ['auth', 'logout'])).code).toBe(0);
    const token = await cli(dir, ['auth', 'token']);
    expect(token.code).toBe(4);
    // Logging in again to the file does not find a stale keychain entry first.
    expect((await login(dir, ['--insecure-storage'])).code).toBe(0);
    expect((await cli(dir, ['auth', 'token'])).stdout).toBe(`${TOKEN}\n`);
  });
});

describe.skipIf(!bus)("a partner app's login in the OS keychain", () => {
  const SECRET = 'keychain-app-secret-6071';
  let sandbox: Sandbox;
  let port: number;
  const root = useConfigDir();
  beforeAll(async () => {
    port = await freePort();
    sandbox = await startSandbox({ oauth: { clientSecret: SECRET, redirectUris: [`http://127.0.0.1:${port}/callback`] } });
  });
  afterAll(() => sandbox.close());

  it('keeps the token, refresh token and client secret there, none in the file; logout forgets all three', async () => {
    const dir = join(root, 'app');
    const env = { STORE_ADMIN_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: bus!, BROWSER: STAND_IN, STORE_ADMIN_CLIENT_SECRET: SECRET };
    const end = await startLogin(['--client-id', 'sandbox-app', '--base-url', sandbox.url, '--redirect-port', String(port)], env).exited;
    expect(end.code, end.stderr).toBe(0);
    expect(JSON.parse(end.stdout)).toMatchObject({ storage: 'keychain' });
    const file = readFileSync(join(dir, 'config.json'), 'utf8');
    expect(file).not.toContain(SECRET);
    const profile = JSON.parse(file).profiles.default;
    expect(Object.keys(profile).sort()).toEqual(['app', 'baseUrl', 'keychain']);
    const { readFromKeychain } = await import('../../src/config/keychain.js');
    const path = join(dir, 'config.json');
    expect(await readFromKeychain(path, 'default', 'client secret')).toBe(SECRET);
    expect(await readFromKeychain(path, 'default', 'refresh token')).toMatch(/^sbx_refresh_/);
    const token = await readFromKeychain(path, 'default', 'token');
    expect(file).not.toContain(token);
    const run = (args: string[]) => runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: bus } });
    expect((await run(['categories', 'get', '1'])).code).toBe(0);
    expect((await run(['auth', 'logout'])).code).toBe(0);
    for (const kind of ['token', 'refresh token', 'client secret'] as const) expect(await readFromKeychain(path, 'default', kind)).toBeUndefined();
  });
});
