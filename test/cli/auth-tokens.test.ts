// Tokens and store URLs as people paste them, and `auth status` telling them what is in use.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

const TOKEN = 'paste-token-for-tests-4321';
const OTHER = 'other-token-for-tests-8765';

describe('pasted tokens and URLs', () => {
  const ctx = useSandbox({ token: TOKEN });
  const root = useConfigDir();
  let n = 0;
  const freshDir = () => join(root, `cfg-${n++}`);
  const cli = (dir: string, args: string[], env: Record<string, string> = {}, stdin?: string) =>
    runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir, ...env }, stdin });
  const login = (dir: string, token: string, baseUrl = ctx.sandbox.url, extra: string[] = []) =>
    cli(dir, ['auth', 'login', '--base-url', baseUrl, '--with-token', ...extra], {}, token);
  const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const firstLine = (text: string) => text.split('\n')[0];

  it('trims a trailing newline or CR, and refuses line breaks inside or a "Bearer " prefix', async () => {
    const dir = freshDir();
    const ok = await login(dir, `${TOKEN}\r\n`);
    expect(ok.code, ok.stderr).toBe(0);
    expect(config(dir).profiles.default.token).toBe(TOKEN);

    const refused: [string, string][] = [
      [`${TOKEN}\nsecond-line`, 'store-admin: --with-token: the token contains a line break; give the token alone, on one line'],
      [`Bearer ${TOKEN}`, 'store-admin: --with-token: the token starts with "Bearer "'],
      ['\n', 'store-admin: --with-token: the token is empty'],
    ];
    for (const [token, message] of refused) {
      const r = await login(freshDir(), token);
      expect(r.code).toBe(2);
      expect(firstLine(r.stderr)).toBe(message);
    }
    expect((await login(freshDir(), `Bearer ${TOKEN}`)).stderr).toContain('hint: Give the token alone: "Bearer " is added to each request');
  });

  it('trims STORE_ADMIN_TOKEN the same way and names the variable when it cannot be used', async () => {
    const dir = freshDir();
    const env = { STORE_ADMIN_BASE_URL: ctx.sandbox.url };
    const cr = await cli(dir, ['categories', 'get', '1'], { ...env, STORE_ADMIN_TOKEN: `${TOKEN}\r` });
    expect(cr.code, cr.stderr).toBe(0);
    const broken = await cli(dir, ['categories', 'get', '1'], { ...env, STORE_ADMIN_TOKEN: `${TOKEN}\r\nX-Other: 1` });
    expect(broken.code).toBe(2);
    expect(firstLine(broken.stderr)).toBe('store-admin: STORE_ADMIN_TOKEN: the token contains a line break; give the token alone, on one line');
    expect(broken.stderr).toContain("hint: Fix STORE_ADMIN_TOKEN, or unset it to use the profile's token");
  });

  it('auth status with a rejected STORE_ADMIN_TOKEN says to fix or unset it, not to log in', async () => {
    const dir = freshDir();
    expect((await login(dir, TOKEN)).code).toBe(0);
    const r = await cli(dir, ['auth', 'status'], { STORE_ADMIN_TOKEN: OTHER });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('The store rejected the token in STORE_ADMIN_TOKEN');
    expect(r.stderr).toContain('hint: Fix STORE_ADMIN_TOKEN, or unset it to use profile "default"');
    expect(r.stderr).not.toContain('auth login');
  });

  it('auth status reads like gh: a mark, where each value came from, the last 4 characters of the token', async () => {
    const dir = freshDir();
    expect((await login(dir, TOKEN)).code).toBe(0);
    const r = await cli(dir, ['auth', 'status', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        ctx.sandbox.url,
        '  ✓ Logged in: token accepted',
        '  - Profile: default (the active profile)',
        `  - Store URL: ${ctx.sandbox.url} (from the profile)`,
        `  - Token: …4321 (stored in ${join(dir, 'config.json')})`,
        "  - Login: an API token (not a partner app's)",
        '',
      ].join('\n'),
    );
    const env = await cli(dir, ['auth', 'status', '-o', 'table'], { STORE_ADMIN_TOKEN: TOKEN });
    expect(env.stdout).toContain('  - Token: …4321 (from STORE_ADMIN_TOKEN)');
    expect(env.stdout + env.stderr).not.toContain(TOKEN);
  });

  it('--sandbox auth status reports the sandbox, not the profile', async () => {
    const dir = freshDir();
    expect((await login(dir, TOKEN)).code).toBe(0);
    const r = await cli(dir, ['--sandbox', 'auth', 'status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ store: 'embedded sandbox', base_url_source: '--sandbox', authenticated: true });
    expect(r.json().base_url).not.toBe(ctx.sandbox.url);
    const human = await cli(dir, ['auth', 'status', '-o', 'table'], { STORE_ADMIN_SANDBOX: '1' });
    expect(human.stdout).toMatch(/^embedded sandbox \(STORE_ADMIN_SANDBOX\)\n {2}✓ Logged in/);
  });

  it('auth login over an existing profile says so', async () => {
    const dir = freshDir();
    expect((await login(dir, TOKEN)).code).toBe(0);
    const again = await login(dir, TOKEN);
    expect(again.stderr).toContain(`Profile "default" already has a token (…4321) for ${ctx.sandbox.url}; it will be replaced.`);
  });

  it('keeps only the store of a pasted dashboard URL, and says what it dropped', async () => {
    const dir = freshDir();
    const r = await login(dir, TOKEN, `${ctx.sandbox.url}/admin/orders/1?tab=lines`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Using ${ctx.sandbox.url} as the store URL (the API lives at /api/admin/ on the store's host): dropped "/admin/orders/1?tab=lines"`);
    expect(config(dir).profiles.default.baseUrl).toBe(ctx.sandbox.url);
    const dry = await cli(dir, ['categories', 'get', '1', '--dry-run', '--base-url', `${ctx.sandbox.url}/admin/orders/1`], { STORE_ADMIN_TOKEN: TOKEN });
    expect(dry.json().url).toBe(`${ctx.sandbox.url}/api/admin/categories/1/`);
    expect(dry.stderr).toContain('dropped "/admin/orders/1"');
    // A path that leads to the API is a proxy's prefix, and is kept.
    const proxied = await cli(dir, ['categories', 'get', '1', '--dry-run', '--base-url', `${ctx.sandbox.url}/shop-a/api/admin/`], { STORE_ADMIN_TOKEN: TOKEN });
    expect(proxied.json().url).toBe(`${ctx.sandbox.url}/shop-a/api/admin/categories/1/`);
    expect(proxied.stderr).not.toContain('dropped');
  });

  it('keeps the token in the 0600 file when no keychain answers, and says so', async () => {
    const dir = freshDir();
    // No D-Bus session here: no Secret Service answers, as on a headless Linux machine.
    const r = await login(dir, TOKEN);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ storage: 'file' });
    expect(r.stderr).toContain(`warning: no OS keychain answered; the token is kept in ${join(dir, 'config.json')}, readable only by you`);
    expect(config(dir).profiles.default.token).toBe(TOKEN);
    const status = await cli(dir, ['auth', 'status', '-o', 'table']);
    expect(status.stdout).toContain(`  - Token: …4321 (stored in ${join(dir, 'config.json')})`);
    const insecure = await login(freshDir(), TOKEN, ctx.sandbox.url, ['--insecure-storage']);
    expect(insecure.json()).toMatchObject({ storage: 'file' });
    expect(insecure.stderr).not.toContain('warning');
  });

  it('loads the keychain module only where tokens are read or written', () => {
    const dist = new URL('../../dist/', import.meta.url).pathname;
    const files = ['', 'cli/', 'lib/'].flatMap((dir) => readdirSync(`${dist}${dir}`).map((f) => `${dist}${dir}${f}`));
    const loaders = files.filter((f) => /\.c?js$/.test(f) && readFileSync(f, 'utf8').includes('@napi-rs/keyring'));
    expect(loaders).toHaveLength(1);
    expect(loaders[0]).toMatch(/\/cli\/keychain-[\w-]+\.cjs$/);
  });
});
