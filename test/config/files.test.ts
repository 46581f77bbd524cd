// A config dir that fights back: loose permissions, a symbolic link, wrong-typed fields, a full
// disk, and lock files that are stale, in the way or contended. Each ends in one clear line.
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileStore } from '../../src/config/profiles.js';
import { holdLock, withLockFile } from '../../src/lock.js';
import { hostname } from 'node:os';
import { useSandbox } from '../helpers.js';
import { spawnSync } from 'node:child_process';
import { BIN, runCli, useConfigDir } from '../cli/run.js';

/** Runs the CLI after a shell setting (umask) that only a shell can make. */
function runUnder(setting: string, args: string[], env: Record<string, string>, stdin = '', withoutOverride = false) {
  const command = ['sh', '-c', `${setting}; exec "$0" "$@"`, process.execPath, BIN, ...args];
  const [file, ...rest] = withoutOverride ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', ...command] : command;
  const r = spawnSync(file!, rest, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    input: stdin,
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const TOKEN = 'file-test-token-abcd-7777';

describe('a hostile config dir', () => {
  const ctx = useSandbox({ token: TOKEN });
  const root = useConfigDir();
  let n = 0;
  const freshDir = () => join(root, `cfg-${n++}`);
  const cli = (dir: string, args: string[], stdin?: string) => runCli(args, { env: { STORE_ADMIN_CONFIG_DIR: dir }, stdin });
  const login = (dir: string) =>
    cli(dir, ['auth', 'login', '--profile', 'main', '--base-url', ctx.sandbox.url, '--with-token', '--skip-verify'], `${TOKEN}\n`);
  const firstLine = (text: string) => text.split('\n')[0];

  it('refuses to write a token into a dir other users can read, and makes its own dir private', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const r = await login(dir);
    expect(r.code).toBe(2);
    expect(firstLine(r.stderr)).toBe(`store-admin: ${dir} can be read by other users (mode 0755); not writing a token there`);
    expect(r.stderr).toContain(`chmod 700 ${dir}`);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
    chmodSync(dir, 0o700);
    expect((await login(dir)).code).toBe(0);

    // A dir the tool makes itself is private even under a permissive umask.
    const made = join(freshDir(), 'nested');
    const loose = runUnder('umask 000', ['auth', 'login', '--base-url', ctx.sandbox.url, '--with-token', '--skip-verify'], { STORE_ADMIN_CONFIG_DIR: made }, TOKEN);
    expect(loose.code, loose.stderr).toBe(0);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    expect(statSync(join(made, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('does not follow a config.json that is a symbolic link', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    const elsewhere = join(root, `elsewhere-${n}.json`);
    const original = JSON.stringify({ profiles: { other: { baseUrl: 'https://other.example.com', token: 'someone-elses-token-0000' } } });
    writeFileSync(elsewhere, original);
    symlinkSync(elsewhere, join(dir, 'config.json'));
    for (const args of [['profiles', 'list'], ['categories', 'get', '1']]) {
      const r = await cli(dir, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(firstLine(r.stderr)).toBe(`store-admin: Cannot read ${join(dir, 'config.json')}: it is a symbolic link, which is not followed`);
    }
    expect((await login(dir)).code).toBe(2);
    expect(readFileSync(elsewhere, 'utf8')).toBe(original);
  });

  it('says permission denied, naming the file, when the config cannot be read', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles":{}}', { mode: 0o600 });
    chmodSync(file, 0o000);
    // Root reads everything: it runs without the capabilities that let it ignore permissions.
    const asRoot = process.getuid?.() === 0;
    for (const [args, stdin] of [[['profiles', 'list'], ''], [['auth', 'login', '--base-url', ctx.sandbox.url, '--with-token', '--skip-verify'], `${TOKEN}\n`]] as const) {
      const r = runUnder('true', [...args], { STORE_ADMIN_CONFIG_DIR: dir }, stdin, asRoot);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`store-admin: Cannot read ${file}: permission denied`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    chmodSync(file, 0o600);
    expect(readFileSync(file, 'utf8')).toBe('{"profiles":{}}');
  });

  it('says so when the config dir is a file', async () => {
    const notDir = join(freshDir(), 'plain-file');
    mkdirSync(join(notDir, '..'), { recursive: true });
    writeFileSync(notDir, 'not a dir');
    for (const r of [await cli(notDir, ['profiles', 'list']), await login(notDir)]) {
      expect(r.code).toBe(2);
      expect(firstLine(r.stderr)).toBe(`store-admin: Cannot use ${notDir} as the config dir: it is not a directory`);
    }
    expect(readFileSync(notDir, 'utf8')).toBe('not a dir');
  });

  it('names a wrong-typed field instead of failing later', async () => {
    const cases: [unknown, string][] = [
      [{ activeProfile: 'main', profiles: { main: { baseUrl: 123, token: TOKEN } } }, '"baseUrl" of profile "main" is a number, expected text'],
      [{ activeProfile: 'main', profiles: { main: { baseUrl: ctx.sandbox.url, token: ['x'] } } }, '"token" of profile "main" is a list, expected text'],
      [{ activeProfile: 7, profiles: {} }, '"activeProfile" is a number, expected text'],
      [{ profiles: { main: 'https://x' } }, 'profile "main" is not an object'],
      [{ profiles: { main: { allowHttp: 'yes' } } }, '"allowHttp" of profile "main" is a string, expected true or false'],
    ];
    for (const [content, problem] of cases) {
      const dir = freshDir();
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, 'config.json'), JSON.stringify(content));
      for (const args of [['categories', 'get', '1'], ['auth', 'status'], ['profiles', 'list']]) {
        const r = await cli(dir, args);
        expect(r.code, `${problem}: ${args.join(' ')}`).toBe(2);
        expect(firstLine(r.stderr)).toBe(`store-admin: Cannot read ${join(dir, 'config.json')}: ${problem}`);
        expect(r.stderr).not.toMatch(/unexpected/i);
      }
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual(content);
    }
  });

  it('says where a config file that is not JSON breaks, and quotes none of its tokens', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, `{"activeProfile":"main","profiles":{"main":{\n  "token": ${TOKEN}}}}`, { mode: 0o600 });
    const r = await cli(dir, ['profiles', 'list']);
    expect(r.code).toBe(2);
    expect(firstLine(r.stderr)).toBe(`store-admin: Cannot read ${file}: not valid JSON (line 2, column 12)`);
    expect(r.stderr).not.toContain(TOKEN.slice(0, 6));
  });

  it('writes through the same shape it reads: a profile of the wrong shape never lands on disk, and fields it does not know are kept', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ activeProfile: 'main', profiles: { main: { baseUrl: 'https://shop.example.com', region: 'eu' } }, theme: 'dark' }), { mode: 0o600 });
    const store = new ProfileStore(dir);
    await expect(store.update((data) => void (data.profiles.main!.allowHttp = 'yes' as never))).rejects.toThrow(`Cannot write ${file}`);
    await store.update((data) => void (data.profiles.other = { baseUrl: 'https://other.example.com' }));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      activeProfile: 'main',
      profiles: { main: { baseUrl: 'https://shop.example.com', region: 'eu' }, other: { baseUrl: 'https://other.example.com' } },
      theme: 'dark',
    });
  });

  // A real full disk: a tiny tmpfs in a private mount namespace (root, as in CI). Without one
  // (no unshare, no right to mount) the test says so and is skipped.
  const fullDisk = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!fullDisk)(
    `keeps the config as it was when the disk is full${fullDisk ? '' : ' (skipped: cannot mount a small tmpfs here)'}`,
    async () => {
      const dir = freshDir();
      expect((await login(dir)).code).toBe(0);
      const padded = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      for (let i = 0; i < 20; i++) padded.profiles[`p${i}`] = { baseUrl: `https://store-${i}.example.com` };
      const before = JSON.stringify(padded, null, '\t');
      const disk = join(root, `disk-${n++}`);
      mkdirSync(disk, { mode: 0o700 });
      // Mount, put the config there, fill every byte left, then ask for a change that must be written.
      const script = [
        'set -u',
        `mount -t tmpfs -o size=16k,mode=0700 tmpfs "$DISK"`,
        `printf '%s' "$BEFORE" > "$DISK/config.json"`,
        `head -c 1000000 /dev/zero > "$DISK/filler" 2>/dev/null`,
        `STORE_ADMIN_CONFIG_DIR="$DISK" "$NODE" "$BIN" profiles use p3 2>"$DISK.stderr"; echo "exit=$?"`,
        `cat "$DISK/config.json" > "$DISK.after"`,
      ].join('\n');
      const r = spawnSync('unshare', ['-m', 'sh', '-c', script], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DISK: disk, BEFORE: before, NODE: process.execPath, BIN },
        encoding: 'utf8',
      });
      expect(r.stdout).toContain('exit=2');
      const path = join(disk, 'config.json');
      expect(firstLine(readFileSync(`${disk}.stderr`, 'utf8'))).toBe(`store-admin: Cannot write ${path} (ENOSPC); it was kept as it was`);
      expect(readFileSync(`${disk}.after`, 'utf8')).toBe(before);
    },
  );
});

describe('the lock file', () => {
  const root = useConfigDir();

  it('names a directory in the lock\'s place at once', async () => {
    const lock = join(root, 'dir.lock');
    mkdirSync(lock);
    await expect(withLockFile(lock, async () => 1)).rejects.toThrow(`${lock} is a directory where a lock file belongs`);
  });

  it('gives up on a held lock after its wait, naming the path', async () => {
    const lock = join(root, 'held.lock');
    writeFileSync(lock, '');
    await expect(withLockFile(lock, async () => 1, { waitMs: 100 })).rejects.toThrow(`Gave up waiting for ${lock}: another command holds it`);
  });

  it('takes over at once a lock whose holder has ended, without waiting for it to age', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const lock = join(root, 'dead.lock');
    for (const started of ['1', undefined]) {
      writeFileSync(lock, JSON.stringify({ pid: Number(gone.stdout), started, host: hostname(), at: new Date().toISOString() }));
      expect(await withLockFile(lock, async () => 'taken', { waitMs: 200, staleMs: 60_000 })).toBe('taken');
    }
    // A pid given to another process since (this one) is told apart by its start time.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, started: 'another-start', host: hostname(), at: new Date().toISOString() }));
    expect(await withLockFile(lock, async () => 'taken', { waitMs: 200, staleMs: 60_000 })).toBe('taken');
  });

  it('names the live process that holds a lock, however old the lock: waiting gives up, a run is refused', async () => {
    const lock = join(root, 'live.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), at: '2026-01-01T00:00:00.000Z' }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await expect(withLockFile(lock, async () => 1, { waitMs: 100, staleMs: 1_000 })).rejects.toThrow(
      `Gave up waiting for ${lock}: process ${process.ppid} holds it (since 2026-01-01T00:00:00.000Z)`,
    );
    await expect(holdLock(lock, (holder) => new Error(`held by ${holder.pid}`))).rejects.toThrow(`held by ${process.ppid}`);
    // Taken and given back, a lock names its holder while held, and is gone after.
    const free = join(root, 'free.lock');
    const held = await holdLock(free, () => new Error('refused'));
    expect(JSON.parse(readFileSync(free, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    held.release();
    await expect(holdLock(free, () => new Error('refused')).then((again) => again.release())).resolves.toBeUndefined();
  });

  it('breaks a stale lock once, however many waiters saw it stale', async () => {
    const lock = join(root, 'stale.lock');
    for (let round = 0; round < 30; round++) {
      writeFileSync(lock, '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      let inside = 0;
      let most = 0;
      const work = async () => {
        most = Math.max(most, ++inside);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inside--;
      };
      await Promise.all(Array.from({ length: 6 }, () => withLockFile(lock, work, { staleMs: 1_000 })));
      expect(most, `round ${round}`).toBe(1);
    }
  });
});
