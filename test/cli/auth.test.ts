// Profiles and authentication: login, status, logout, token, the resolution order, file modes,
// transport safety, a corrupt config, concurrent writers, and a sweep proving the token never
// appears in any output but `auth token`'s.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { useSandbox } from '../helpers.js';
import { commandIds, commandLines } from './cases.js';
import { runInProcess } from './in-process.js';
import { runCli, useConfigDir } from './run.js';

const TOKEN_A = 'aaaa-token-for-tests-1111';
const TOKEN_B = 'bbbb-token-for-tests-2222';
const READER = 'rrrr-reader-only-token-9999';

describe('auth and profiles', () => {
  const ctx = useSandbox({ token: TOKEN_A, scopedTokens: { [TOKEN_B]: ['exports:read', 'catalogue:read'], [READER]: ['orders:read'] } });
  const root = useConfigDir();
  let n = 0;
  const freshDir = () => join(root, `cfg-${n++}`);
  const cli = (dir: string, args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
    runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir, ...options.env }, stdin: options.stdin });
  const login = (dir: string, profile: string, token: string, extra: string[] = [], baseUrl = ctx.sandbox.url) =>
    cli(dir, ['auth', 'login', '--profile', profile, '--base-url', baseUrl, '--with-token', ...extra], { stdin: `${token}\n` });
  const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

  it('logs in from stdin, verifies, stores a normalised URL, makes the first profile active, privately', async () => {
    const dir = freshDir();
    const first = await login(dir, 'main', TOKEN_A, [], `${ctx.sandbox.url}/api/admin/`);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({ profile: 'main', active: true, token: '…1111', verified: 'token accepted' });
    expect(first.stdout).not.toContain(TOKEN_A);
    const second = await login(dir, 'reader', READER);
    expect(second.json()).toMatchObject({ active: false, verified: 'token accepted (it lacks exports:read)' });
    expect(config(dir)).toEqual({
      activeProfile: 'main',
      profiles: { main: { baseUrl: ctx.sandbox.url, token: TOKEN_A }, reader: { baseUrl: ctx.sandbox.url, token: READER } },
    });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it("in CI no output shows the token's last 4 characters: login, status and the profile list show ***", async () => {
    const dir = freshDir();
    const ci = { CI: 'true' };
    const logged = await cli(dir, ['auth', 'login', '--profile', 'ci', '--base-url', ctx.sandbox.url, '--with-token'], { env: ci, stdin: `${TOKEN_A}\n` });
    expect(logged.json()).toMatchObject({ profile: 'ci', token: '***' });
    expect((await cli(dir, ['auth', 'status', '--json'], { env: ci })).json()).toMatchObject({ token: '***', authenticated: true });
    expect((await cli(dir, ['profiles', 'list', '--json'], { env: ci })).json()).toEqual([{ name: 'ci', active: true, base_url: ctx.sandbox.url, token: '***' }]);
    const again = await cli(dir, ['auth', 'login', '--profile', 'ci', '--base-url', ctx.sandbox.url, '--with-token'], { env: ci, stdin: `${TOKEN_A}\n` });
    for (const text of [logged.stdout, logged.stderr, again.stdout, again.stderr]) expect(text).not.toContain(TOKEN_A.slice(-4));
    // CI=false is no CI: the last 4 tell tokens apart again.
    expect((await cli(dir, ['auth', 'status', '--json'], { env: { CI: 'false' } })).json()).toMatchObject({ token: '…1111' });
  });

  it('saves nothing when the store rejects the token (exit 4), unless --skip-verify', async () => {
    const dir = freshDir();
    const rejected = await login(dir, 'bad', 'not-a-valid-token-at-all');
    expect(rejected.code).toBe(4);
    expect(rejected.stderr).toContain('nothing was saved');
    const listed = await cli(dir, ['profiles', 'list']);
    expect(listed.json()).toEqual([]);
    const skipped = await login(dir, 'bad', 'not-a-valid-token-at-all', ['--skip-verify']);
    expect(skipped.code).toBe(0);
    const status = await cli(dir, ['auth', 'status']);
    expect(status.code).toBe(4);
    expect(status.json()).toMatchObject({ authenticated: false });
  });

  it('needs --with-token without a terminal, and no empty token', async () => {
    const dir = freshDir();
    const noToken = await cli(dir, ['auth', 'login', '--base-url', ctx.sandbox.url]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--with-token');
    const empty = await login(dir, 'x', '   ');
    expect(empty.code).toBe(2);
  });

  it('auth status: exit 0 when the token works, 4 when missing, 1 when the store is unreachable', async () => {
    const dir = freshDir();
    await login(dir, 'main', TOKEN_A);
    const ok = await cli(dir, ['auth', 'status']);
    expect(ok.code).toBe(0);
    expect(ok.json()).toMatchObject({ profile: 'main', profile_source: 'active profile', base_url_source: 'profile', token: '…1111', token_source: 'profile', authenticated: true });
    await cli(dir, ['auth', 'logout']);
    const missing = await cli(dir, ['auth', 'status']);
    expect(missing.code).toBe(4);
    const down = await cli(dir, ['auth', 'status'], { env: { STORE_ADMIN_BASE_URL: 'http://127.0.0.1:9', STORE_ADMIN_TOKEN: TOKEN_A } });
    expect(down.code).toBe(1);
  });

  it('logout forgets the token and keeps the URL; --all forgets the profile', async () => {
    const dir = freshDir();
    await login(dir, 'main', TOKEN_A);
    expect((await cli(dir, ['auth', 'logout'])).code).toBe(0);
    expect(config(dir).profiles.main).toEqual({ baseUrl: ctx.sandbox.url });
    const command = await cli(dir, ['categories', 'get', '1']);
    expect(command.code).toBe(4);
    expect(command.stderr).toContain('store-admin auth login');
    // The whole profile cannot be brought back: without a terminal, --yes is needed.
    const refused = await cli(dir, ['auth', 'logout', '--all']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Removing profile "main" needs confirmation');
    expect(config(dir).profiles.main).toEqual({ baseUrl: ctx.sandbox.url });
    expect((await cli(dir, ['auth', 'logout', '--all', '--yes'])).code).toBe(0);
    expect(config(dir)).toEqual({ profiles: {} });
    expect((await cli(dir, ['auth', 'logout', '--profile', 'ghost'])).code).toBe(2);
  });

  it('profiles use and remove without a name: one usage line without a terminal, not a parser error', async () => {
    const dir = freshDir();
    await login(dir, 'main', TOKEN_A);
    for (const verb of ['use', 'remove']) {
      const r = await cli(dir, ['profiles', verb]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`store-admin: Missing <name>: prompts need a terminal\nhint: Run: store-admin profiles ${verb} NAME (see store-admin profiles list)\n`);
    }
    const off = await cli(dir, ['profiles', 'use', '--no-input']);
    expect(off.stderr.split('\n')[0]).toBe('store-admin: Missing <name>: prompts are off (--no-input)');
    expect(config(dir).profiles.main).toBeDefined();
  });

  it('a store URL without a scheme that fails TLS says https was assumed', async () => {
    const host = new URL(ctx.sandbox.url).host;
    const dir = freshDir();
    const r = await login(dir, 'bare', TOKEN_A, [], host);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^store-admin: TLS failure talking to ${host.replace(/\./g, '\\.')} `));
    expect(r.stderr).toContain(`hint: https://${host} was assumed, as the store URL names no scheme; if the store speaks plain http, give http://${host}`);
    // The same for any command given the URL so.
    const command = await cli(dir, ['categories', 'get', '1'], { env: { STORE_ADMIN_BASE_URL: host, STORE_ADMIN_TOKEN: TOKEN_A } });
    expect(command.code).toBe(1);
    expect(command.stderr).toContain(`hint: https://${host} was assumed`);
    // Given with its scheme, nothing is assumed, and nothing said.
    const explicit = await cli(dir, ['categories', 'get', '1'], { env: { STORE_ADMIN_BASE_URL: `https://${host}`, STORE_ADMIN_TOKEN: TOKEN_A } });
    expect(explicit.stderr).not.toContain('was assumed');
  });

  it('auth login --help lists --profile, --base-url and --allow-http with its own flags', async () => {
    const r = await runCli(['auth', 'login', '--help']);
    const flags = r.stdout.slice(r.stdout.indexOf('FLAGS\n'), r.stdout.indexOf('INHERITED FLAGS'));
    for (const flag of ['--with-token', '--profile <name>', '--base-url <url>', '--allow-http']) expect(flags).toContain(flag);
  });

  it('auth token prints the token alone', async () => {
    const dir = freshDir();
    await login(dir, 'main', TOKEN_A);
    const r = await cli(dir, ['auth', 'token']);
    expect(r.stdout).toBe(`${TOKEN_A}\n`);
    const none = await cli(freshDir(), ['auth', 'token']);
    expect(none.code).toBe(4);
  });

  it('profiles list, use and remove', async () => {
    const dir = freshDir();
    await login(dir, 'one', TOKEN_A);
    await login(dir, 'two', TOKEN_B);
    expect((await cli(dir, ['profiles', 'use', 'two'])).code).toBe(0);
    const list = await cli(dir, ['profiles', 'list']);
    expect(list.json()).toEqual([
      { name: 'one', active: false, base_url: ctx.sandbox.url, token: '…1111' },
      { name: 'two', active: true, base_url: ctx.sandbox.url, token: '…2222' },
    ]);
    const table = await cli(dir, ['profiles', 'list', '-o', 'table']);
    expect(table.stdout).toMatch(/│ two\s+│ \*/);
    expect((await cli(dir, ['profiles', 'use', 'three'])).code).toBe(2);
    const unconfirmed = await cli(dir, ['profiles', 'remove', 'two']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('needs confirmation');
    expect((await cli(dir, ['profiles', 'remove', 'two', '--yes'])).code).toBe(0);
    expect(config(dir)).toEqual({ profiles: { one: { baseUrl: ctx.sandbox.url, token: TOKEN_A } } });
  });

  describe('resolution order: flag > environment > active profile', () => {
    const dir = freshDir();
    const localhostUrl = () => ctx.sandbox.url.replace('127.0.0.1', 'localhost');
    const status = async (args: string[], env: Record<string, string> = {}) => (await cli(dir, ['auth', 'status', ...args], { env })).json();

    it('sets up two profiles', async () => {
      expect((await login(dir, 'a', TOKEN_A)).code).toBe(0);
      expect((await login(dir, 'b', TOKEN_B, [], localhostUrl())).code).toBe(0);
    });

    it('the active profile', async () => {
      expect(await status([])).toMatchObject({ profile: 'a', profile_source: 'active profile', token: '…1111', base_url: ctx.sandbox.url });
    });

    it('STORE_ADMIN_PROFILE over the active profile', async () => {
      expect(await status([], { STORE_ADMIN_PROFILE: 'b' })).toMatchObject({ profile: 'b', profile_source: 'environment', token: '…2222', base_url: localhostUrl() });
    });

    it('--profile over STORE_ADMIN_PROFILE, and over the token in the environment', async () => {
      expect(await status(['--profile', 'a'], { STORE_ADMIN_PROFILE: 'b', STORE_ADMIN_TOKEN: TOKEN_B })).toMatchObject({
        profile: 'a', profile_source: 'flag', token: '…1111', token_source: 'profile',
      });
    });

    it('STORE_ADMIN_TOKEN and STORE_ADMIN_BASE_URL over the active profile', async () => {
      expect(await status([], { STORE_ADMIN_TOKEN: TOKEN_B, STORE_ADMIN_BASE_URL: localhostUrl() })).toMatchObject({
        token: '…2222', token_source: 'environment', base_url: localhostUrl(), base_url_source: 'environment',
      });
    });

    it('--base-url over everything', async () => {
      expect(await status(['--base-url', localhostUrl()], { STORE_ADMIN_BASE_URL: ctx.sandbox.url })).toMatchObject({
        base_url: localhostUrl(), base_url_source: 'flag',
      });
    });

    it("a profile's token never goes to a store URL from elsewhere", async () => {
      const before = ctx.sandbox.counters.received;
      const ways: [string[], Record<string, string>][] = [
        [['--base-url', localhostUrl()], {}],
        [[], { STORE_ADMIN_BASE_URL: localhostUrl() }],
      ];
      for (const [flags, env] of ways) {
        const r = await cli(dir, ['categories', 'get', '1', ...flags], { env });
        expect(r.code).toBe(4);
        expect(r.stderr).toContain(`No API token for ${localhostUrl()}`);
      }
      expect(ctx.sandbox.counters.received).toBe(before);
    });

    it("the environment's token goes only to the store STORE_ADMIN_BASE_URL names, never to another profile's", async () => {
      const staging = await startSandbox({ token: TOKEN_B });
      try {
        const own = freshDir();
        expect((await login(own, 'staging', TOKEN_B, [], staging.url)).code).toBe(0);
        expect((await cli(own, ['auth', 'logout', '--profile', 'staging'])).code).toBe(0);
        const prod = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: TOKEN_A };
        const before = staging.counters.received;
        for (const args of [
          ['categories', 'get', '1', '--profile', 'staging'],
          ['api', '/categories/1/', '--profile', 'staging'],
          ['categories', 'get', '1', '--base-url', staging.url],
        ]) {
          const r = await cli(own, args, { env: prod });
          expect(r.code, args.join(' ')).toBe(4);
          expect(r.stderr.split('\n')[0]).toBe(
            `store-admin: No token for ${staging.url}: STORE_ADMIN_TOKEN belongs to ${ctx.sandbox.url} (STORE_ADMIN_BASE_URL), not ${staging.url}, and a token goes only to the store it came with`,
          );
        }
        const status = await cli(own, ['auth', 'status', '--profile', 'staging', '--json'], { env: prod });
        expect(status.code).toBe(4);
        expect(status.json()).toMatchObject({ base_url: staging.url, token: null });
        expect(staging.counters.received).toBe(before);
        // Prod itself still takes it; and a token set with no store URL names no store, so it goes with the profile's.
        expect((await cli(own, ['categories', 'get', '1'], { env: prod })).code).toBe(0);
        const paired = await cli(own, ['categories', 'get', '1', '--profile', 'staging'], { env: { STORE_ADMIN_TOKEN: TOKEN_B } });
        expect(paired.code, paired.stderr).toBe(0);
        expect(staging.counters.received).toBe(before + 1);
      } finally {
        await staging.close();
      }
    });

    it('auth login picks the store URL in the same order as every other command', async () => {
      const relogin = (flags: string[], env: Record<string, string>) =>
        cli(dir, ['auth', 'login', '--with-token', ...flags], { env, stdin: `${TOKEN_B}\n` });
      // A profile named by flag keeps its own URL over the environment's ...
      expect((await relogin(['--profile', 'b'], { STORE_ADMIN_BASE_URL: ctx.sandbox.url })).json()).toMatchObject({ profile: 'b', base_url: localhostUrl() });
      // ... one named by the environment ranks below STORE_ADMIN_BASE_URL, as for auth status.
      const byEnv = await relogin([], { STORE_ADMIN_PROFILE: 'b', STORE_ADMIN_BASE_URL: ctx.sandbox.url });
      expect(byEnv.json()).toMatchObject({ profile: 'b', base_url: ctx.sandbox.url });
      expect((await relogin(['--profile', 'b', '--base-url', localhostUrl()], {})).json()).toMatchObject({ base_url: localhostUrl() });
      expect(await status(['--profile', 'b'])).toMatchObject({ base_url: localhostUrl(), base_url_source: 'profile' });
    });

    it('an unknown profile named by flag or environment is an error', async () => {
      expect((await cli(dir, ['categories', 'get', '1', '--profile', 'zzz'])).code).toBe(2);
      expect((await cli(dir, ['categories', 'get', '1'], { env: { STORE_ADMIN_PROFILE: 'zzz' } })).code).toBe(2);
    });

    it('STORE_ADMIN_PROFILE naming no profile yet is no error while the environment gives the store and the token', async () => {
      const empty = freshDir();
      const ci = { STORE_ADMIN_PROFILE: 'ci', STORE_ADMIN_TOKEN: TOKEN_A, STORE_ADMIN_BASE_URL: ctx.sandbox.url };
      const r = await cli(empty, ['categories', 'get', '1'], { env: ci });
      expect(r.code, r.stderr).toBe(0);
      expect((await cli(empty, ['auth', 'status'], { env: ci })).json()).toMatchObject({ profile: null, token_source: 'environment', base_url_source: 'environment', authenticated: true });
      // With the store from --base-url instead, the same.
      const { STORE_ADMIN_BASE_URL: _url, ...tokenOnly } = ci;
      expect((await cli(empty, ['categories', 'get', '1', '--base-url', ctx.sandbox.url], { env: tokenOnly })).code).toBe(0);
      // Something still to come from the profile (here the store) makes the missing profile an error.
      const half = await cli(empty, ['categories', 'get', '1'], { env: tokenOnly });
      expect(half.code).toBe(2);
      expect(half.stderr).toContain('No profile named "ci"');
    });

    it('a CI job needs no config file at all', async () => {
      const empty = freshDir();
      const r = await cli(empty, ['categories', 'get', '1'], { env: { STORE_ADMIN_TOKEN: TOKEN_A, STORE_ADMIN_BASE_URL: ctx.sandbox.url } });
      expect(r.code).toBe(0);
      expect(() => statSync(join(empty, 'config.json'))).toThrow();
    });
  });

  describe('transport safety', () => {
    const servers: Server[] = [];
    afterAll(() => servers.forEach((s) => s.close()));

    it('refuses an http URL that is not on this machine, unless --allow-http', async () => {
      const dir = freshDir();
      const r = await cli(dir, ['categories', 'get', '1'], { env: { STORE_ADMIN_BASE_URL: 'http://shop.example.com', STORE_ADMIN_TOKEN: TOKEN_A } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('Refusing to send the token in clear text to shop.example.com');
      const login = await cli(dir, ['auth', 'login', '--base-url', 'http://shop.example.com', '--with-token'], { stdin: TOKEN_A });
      expect(login.code).toBe(2);
      const allowed = await cli(dir, ['categories', 'get', '1', '--allow-http', '--dry-run'], {
        env: { STORE_ADMIN_BASE_URL: 'http://shop.example.com', STORE_ADMIN_TOKEN: TOKEN_A },
      });
      expect(allowed.code).toBe(0);
      expect(allowed.json().url).toBe('http://shop.example.com/api/admin/categories/1/');
    });

    it('reports a redirect to another host without following it', async () => {
      const server = createServer((_req, res) => {
        res.writeHead(301, { location: `${ctx.sandbox.url}/api/admin/categories/1/` });
        res.end();
      });
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const before = ctx.sandbox.counters.received;
      const r = await cli(freshDir(), ['categories', 'get', '1'], {
        env: { STORE_ADMIN_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, STORE_ADMIN_TOKEN: TOKEN_A },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`pointing to ${ctx.sandbox.url}/api/admin/categories/1/; not followed`);
      expect(ctx.sandbox.counters.received).toBe(before);
    });
  });

  it('reports a corrupt config with its path and keeps it as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-admin-corrupt-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {"main": {"token": "x"', { mode: 0o600 });
    for (const args of [['profiles', 'list'], ['categories', 'get', '1'], ['auth', 'status']]) {
      const r = await cli(dir, args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Cannot read ${file}`);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('store-admin:'))).toHaveLength(1);
    }
    const login = await cli(dir, ['auth', 'login', '--base-url', ctx.sandbox.url, '--with-token'], { stdin: TOKEN_A });
    expect(login.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {"main": {"token": "x"');
  });

  it('keeps both of two concurrent logins', async () => {
    const dir = freshDir();
    const results = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((name) => login(dir, name, TOKEN_A, ['--skip-verify'])));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(Object.keys(config(dir).profiles).sort()).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  // The one sweep of outputs for the token. Every operation's command runs in process (main(), as
  // the binary runs it, minus the process): plain, traced, dry-run in JSON and as a table, with an
  // API version the store refuses, with a query that finds nothing. The commands about profiles
  // and logins run as processes.
  it('never shows the token, nor a secret given on the command line, in any output but auth token', { timeout: 60_000 }, async () => {
    const dir = freshDir();
    await login(dir, 'main', TOKEN_A);
    const outputs: string[] = [];
    const variants = [[], ['--verbose'], ['--dry-run'], ['--dry-run', '-o', 'table'], ['--api-version', 'bogus'], ['--json', '--query', 'nope']];
    for (const id of commandIds) {
      for (const extra of variants) {
        const args = [...commandLines[id], ...extra];
        const r = await runInProcess(args, { STORE_ADMIN_CONFIG_DIR: dir });
        const all = `${args.join(' ')}\n${r.stdout}${r.stderr}`;
        outputs.push(all);
        // A trace and a dry run show where the token goes, masked; repeating a change may meet a state rule (exit 1).
        if (extra.length === 1) {
          expect([0, 1], all).toContain(r.code);
          expect(all).toMatch(/Bearer \*\*\*/);
        }
      }
    }
    const runs: [string[], { env?: Record<string, string>; stdin?: string }?][] = [
      [['categories', 'get', '999']],
      [['categories', 'get', 'x']],
      [['orders', 'add-note', '10001', '-m', 'x'], { env: { STORE_ADMIN_BASE_URL: 'http://127.0.0.1:9' } }],
      [['auth', 'status']],
      [['auth', 'status', '-o', 'table', '--verbose']],
      [['profiles', 'list']],
      [['profiles', 'list', '-o', 'table']],
      [['auth', 'login', '--profile', 'again', '--base-url', ctx.sandbox.url, '--with-token'], { stdin: TOKEN_A }],
      [['auth', 'login', '--profile', 'wrong', '--base-url', 'http://127.0.0.1:9', '--with-token'], { stdin: TOKEN_A }],
      [['auth', 'logout', '--profile', 'again']],
    ];
    for (const [args, options] of runs) {
      const r = await cli(dir, args, options);
      outputs.push(`${args.join(' ')}\n${r.stdout}${r.stderr}`);
    }
    expect(outputs).toHaveLength(commandIds.length * variants.length + runs.length);
    for (const output of outputs) {
      expect(output).not.toContain(TOKEN_A);
      expect(output.split('\n').slice(1).join('\n')).not.toContain('topsecret');
    }
    expect((await cli(dir, ['auth', 'token'])).stdout).toBe(`${TOKEN_A}\n`);
  });
});
