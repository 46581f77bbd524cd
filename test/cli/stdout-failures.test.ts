// A write to stdout that fails ends the run through main(), with one line and the documented exit
// code, never a stack trace: a full disk (ENOSPC) says the output is incomplete (exit 1), and a
// reader that goes away while an --each run still has lines to send ends it with 141, as a process
// killed by SIGPIPE reports, saying how to resume.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox, within } from '../helpers.js';
import { useExportStore } from './export-store.js';
import { BIN, useConfigDir } from './run.js';

/** Runs `script` in sh, with the sandbox on this process's event loop still answering. */
function sh(script: string, env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', script, 'sh', ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE: process.execPath, BIN, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs the CLI with stdout on `stdout` (a path). */
const runTo = (stdout: string, args: string[], env: Record<string, string>) => sh('"$NODE" "$BIN" "$@" > "$OUT"', { ...env, OUT: stdout }, args);

const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |node:internal|Node\.js v/);

describe('stdout on a full disk', () => {
  const ctx = useSandbox();
  const config = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config });
  const FULL = 'store-admin: cannot write to stdout (no space left on the device); the output is incomplete';

  it('a result, a table, help: one line, exit 1, no stack trace', async () => {
    for (const args of [['webhooks', 'list'], ['webhooks', 'list', '-o', 'table'], ['--help'], ['help', 'exit-codes']]) {
      const run = await runTo('/dev/full', args, env());
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.stderr.trim().split('\n')).toEqual([FULL]);
      noStackTrace(run.stderr);
    }
  });
});

describe('exports download --output-file - on a full disk', () => {
  const config = useConfigDir();
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-fullout-'));
  const CSV = `number,note\n${Array.from({ length: 4000 }, (_, i) => `${10000 + i},${'x'.repeat(40)}`).join('\n')}\n`;
  const store = useExportStore((_req, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end(CSV));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A real full disk: a small tmpfs in a private mount namespace (root, as in CI).
  const canMount = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { encoding: 'utf8' }).status === 0;

  it.skipIf(!canMount)(`says the output is incomplete, exit 1${canMount ? '' : ' (skipped: cannot mount a small tmpfs here)'}`, async () => {
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    const script = `mount -t tmpfs -o size=32k tmpfs "$DISK" && "$NODE" "$BIN" exports download 7 --output-file - > "$DISK/out.csv" 2>"$DISK.stderr"; echo "exit=$?"`;
    const r = await sh('unshare -m sh -c "$SCRIPT"', { SCRIPT: script, DISK: disk, STORE_ADMIN_BASE_URL: await store(), STORE_ADMIN_TOKEN: 'tok_full_disk_0123456789', STORE_ADMIN_CONFIG_DIR: config });
    const stderr = readFileSync(`${disk}.stderr`, 'utf8');
    expect(r.stdout, stderr).toContain('exit=1');
    expect(stderr).toContain('Stopped downloading export 7 (the output is incomplete)');
    expect(stderr.trim().split('\n').at(-1)).toBe('store-admin: cannot write to stdout (no space left on the device); the output is incomplete');
    noStackTrace(stderr);
  });
});

describe('stdout closed during --each', () => {
  const ctx = useSandbox();
  const config = useConfigDir();
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-closed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops starting lines, says how to resume, and exits 141, not 0', async () => {
    const ids = join(dir, 'ids.txt');
    writeFileSync(ids, Array.from({ length: 400 }, () => '1\n').join(''));
    // As `| head -c 100` does: the reader takes its first bytes, then goes away.
    const child = spawn(process.execPath, [BIN, 'customers', 'add-note', '--each', ids, '--message', 'hi', '--rate', '20'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await within('the first line of output', new Promise<void>((resolve) => child.stdout.once('data', () => resolve())));
    child.stdout.destroy();
    expect(await within('the run to end', exited, { seen: () => stderr })).toBe(141);
    expect(stderr).toMatch(/^store-admin: Interrupted: \d+ lines not started/m);
    expect(stderr).toMatch(/^hint: Resume with: store-admin customers add-note --each .* --resume \d{8}-\d{6}-[0-9a-f]{4}$/m);
    noStackTrace(stderr);
  });
});
