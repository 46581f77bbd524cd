// A webhooks file is hostile input (it comes from a repository, often from a pull request): each
// way a file could lift a token or a file of this machine into the store, where anyone with
// webhooks:read may read it back, is refused with one line and exit 2, and nothing is sent.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

const changesSent = (sandbox: Sandbox) =>
  (['webhooksCreate', 'webhooksPartialUpdate', 'webhooksDestroy'] as const).reduce((sum, id) => sum + (sandbox.counters.byOperation[id]?.received ?? 0), 0);

const webhook = (secret: unknown) => ({ webhooks: [{ name: 'exfiltrate', events: ['order.created'], target: 'https://attacker.example.com/h', secret }] });

describe('webhooks apply: secrets from a hostile file', () => {
  const ctx = useSandbox();
  const config = useConfigDir();
  // The repository: the webhooks file, a secret of its own, and what a pull request may add.
  const repo = mkdtempSync(join(tmpdir(), 'store-admin-repo-'));
  const outside = mkdtempSync(join(tmpdir(), 'store-admin-outside-'));
  let socket: Server | undefined;
  afterAll(() => {
    socket?.close();
    rmSync(repo, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  writeFileSync(join(repo, 'orders.secret'), 'whsec_from_the_repository_0123\n');
  writeFileSync(join(outside, 'elsewhere.secret'), 'whsec_kept_elsewhere_456789\n');
  mkdirSync(join(repo, 'hooks'));

  // The CI's way: the token logged in from STORE_TOKEN into a profile (docs/ci.md).
  const profileToken = FULL_TOKEN;
  const withProfile = () => {
    writeFileSync(join(config, 'config.json'), JSON.stringify({ activeProfile: 'ci', profiles: { ci: { baseUrl: ctx.sandbox.url, token: profileToken } } }), { mode: 0o600 });
  };
  const apply = (file: unknown, args: string[] = [], env: Record<string, string> = {}) => {
    const path = join(repo, 'webhooks.json');
    writeFileSync(path, JSON.stringify(file));
    return runCli(['webhooks', 'apply', '-f', path, '--json', ...args], {
      env: { STORE_ADMIN_CONFIG_DIR: config, STORE_TOKEN: profileToken, CI_DEPLOY_KEY: 'ssh-key-material-abcdef', ...env },
    });
  };

  /** One line naming the secret's place, exit 2, and no change sent. */
  async function refused(file: unknown, message: RegExp, args: string[] = [], env: Record<string, string> = {}) {
    const before = changesSent(ctx.sandbox);
    const run = await apply(file, args, env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(/^store-admin: .*webhooks\.json: webhooks\[0\]\.secret\.(env|file): /);
    expect(run.stderr.split('\n')[0]).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
    expect(changesSent(ctx.sandbox)).toBe(before);
    expect(run.stderr).not.toContain(profileToken);
  }

  it('refuses /proc/self/environ, which holds the token, and every other file under /proc, /dev or /sys', async () => {
    withProfile();
    await refused(webhook({ file: '/proc/self/environ' }), /\/proc\/self\/environ is under \/proc, which holds no secret files/, [], { STORE_ADMIN_TOKEN: profileToken });
    await refused(webhook({ file: '/dev/zero' }), /\/dev\/zero is under \/dev/);
    await refused(webhook({ file: '/sys/kernel/mm/transparent_hugepage/enabled' }), /is under \/sys|cannot read/);
    // --secret-root cannot open them up either.
    await refused(webhook({ file: '/proc/self/environ' }), /is under \/proc/, ['--secret-root', '/']);
  });

  it('refuses the config file however it is reached: a link in the repository, /proc/self/root, a path outside the folder', async () => {
    withProfile();
    symlinkSync(join(config, 'config.json'), join(repo, 'innocent.secret'));
    await refused(webhook({ file: 'innocent.secret' }), /innocent\.secret is in store-admin's config directory, which holds its tokens/);
    await refused(webhook({ file: `/proc/self/root${config}/config.json` }), /\/proc\/self\/root.* is under \/proc/);
    await refused(webhook({ file: relative(repo, join(config, 'config.json')) }), /is in store-admin's config directory/);
    // Through a link to a folder of /proc's that leads back to the config dir.
    symlinkSync('/proc/self/root', join(repo, 'root'));
    await refused(webhook({ file: `root${config}/config.json` }), /is in store-admin's config directory/);
  });

  it('reads secret files only inside the webhooks file\'s folder, unless --secret-root names another', async () => {
    withProfile();
    await refused(webhook({ file: '/etc/passwd' }), /\/etc\/passwd is outside the webhooks file's folder \(.*\): secret files are read from there only \(--secret-root DIR names another\)/);
    await refused(webhook({ file: '../../x' }), /\.\.\/\.\.\/x is outside/);
    await refused(webhook({ file: join(outside, 'elsewhere.secret') }), /is outside the webhooks file's folder/);
    symlinkSync(join(outside, 'elsewhere.secret'), join(repo, 'hooks', 'linked.secret'));
    await refused(webhook({ file: 'hooks/linked.secret' }), /hooks\/linked\.secret is outside the webhooks file's folder/);
    // Named by the person running it, another folder is read.
    const run = await apply(webhook({ file: join(outside, 'elsewhere.secret') }), ['--secret-root', outside, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    // A file of the folder itself, through a link that stays inside it, is read.
    symlinkSync('../orders.secret', join(repo, 'hooks', 'orders.secret'));
    const inside = await apply(webhook({ file: 'hooks/orders.secret' }), ['--dry-run']);
    expect(inside.code, inside.stderr).toBe(0);
    expect(inside.json().plan[0].changes).toContainEqual({ field: 'secret_key', from: null, to: 'file hooks/orders.secret' });
  });

  it('refuses a FIFO, a socket and a directory without waiting on them', async () => {
    withProfile();
    execFileSync('mkfifo', [join(repo, 'fifo.secret')]);
    await refused(webhook({ file: 'fifo.secret' }), /fifo\.secret is not a regular file/);
    const path = join(repo, 'socket.secret');
    socket = createServer();
    await new Promise<void>((resolve) => socket!.listen(path, resolve));
    await refused(webhook({ file: 'socket.secret' }), /socket\.secret is not a regular file/);
    await refused(webhook({ file: 'hooks' }), /hooks is not a regular file/);
  });

  it('reads a variable only when --secret-env names it, never one of the tool\'s own, never one holding a token', async () => {
    withProfile();
    // docs/ci.md's STORE_TOKEN holds the very token the profile was logged in with.
    await refused(webhook({ env: 'STORE_TOKEN' }), /STORE_TOKEN is read only when the command names it: add --secret-env STORE_TOKEN/);
    await refused(webhook({ env: 'STORE_TOKEN' }), /STORE_TOKEN: its value is one of store-admin's own tokens or secrets/, ['--secret-env', 'STORE_TOKEN']);
    await refused(webhook({ env: 'CI_DEPLOY_KEY' }), /CI_DEPLOY_KEY is read only when the command names it/);
    await refused(webhook({ env: 'STORE_ADMIN_TOKEN' }), /STORE_ADMIN_TOKEN is one of store-admin's own settings/, ['--secret-env', 'STORE_ADMIN_TOKEN'], { STORE_ADMIN_TOKEN: profileToken });
    await refused(webhook({ env: 'STORE_ADMIN_CLIENT_SECRET' }), /STORE_ADMIN_CLIENT_SECRET is one of store-admin's own settings/, ['--secret-env', 'STORE_ADMIN_CLIENT_SECRET']);
    // A variable the environment shares with the tool's token (a second name for it) is refused by its value.
    await refused(webhook({ env: 'HOOK' }), /HOOK: its value is one of store-admin's own tokens/, ['--secret-env', 'HOOK'], { HOOK: `${profileToken}\n` });
    const allowed = await apply(webhook({ env: 'HOOK' }), ['--secret-env', 'HOOK', '--dry-run'], { HOOK: 'whsec_a_real_webhook_secret_1' });
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  it('refuses a secret file whose text is, or holds, a token the tool holds', async () => {
    withProfile();
    writeFileSync(join(repo, 'token.secret'), `${profileToken}\n`);
    await refused(webhook({ file: 'token.secret' }), /token\.secret: its value is one of store-admin's own tokens or secrets/);
    writeFileSync(join(repo, 'env.secret'), `PATH=/usr/bin\nSTORE_ADMIN_TOKEN=${profileToken}\n`);
    await refused(webhook({ file: 'env.secret' }), /env\.secret: its value is one of store-admin's own tokens/);
    writeFileSync(join(repo, 'app.secret'), 'the-apps-client-secret-42');
    await refused(webhook({ file: 'app.secret' }), /app\.secret: its value is one of store-admin's own tokens/, [], { STORE_ADMIN_CLIENT_SECRET: 'the-apps-client-secret-42' });
  });

  it('sends a secret read within the rules, and nothing of it is printed', async () => {
    withProfile();
    const run = await apply(webhook({ file: 'orders.secret' }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().counts.created).toBe(1);
    expect(run.stdout + run.stderr).not.toContain('whsec_from_the_repository_0123');
    const stored = await ctx.sandbox.store.transact((state) => Object.values(state.records.webhooks).find((w) => w.name === 'exfiltrate'), false);
    expect(stored?.secret_key).toBe('whsec_from_the_repository_0123');
  });
});
