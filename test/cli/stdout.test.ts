// stdout as scripts meet it: a file, a pipe or /dev/null get the same bytes (written straight to
// the file descriptor until a command needs the stream itself, or the pipe is full), and a reader
// that is gone before anything is written ends the run quietly.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { within } from '../helpers.js';
import { BIN, runCli, useConfigDir } from './run.js';

/**
 * Loaded into the CLI before it starts. Making process.stdout turns a pipe non-blocking, as a
 * Node process sharing the pipe would; the first time the stream then holds bytes the pipe would
 * not take, one line on stderr says so.
 */
const WAITING_FOR_READER = `
const out = process.stdout;
const write = out.write;
let told = false;
out.write = function (...args) {
  const accepted = write.apply(this, args);
  if (!told && this.writableLength > 0) {
    told = true;
    process.stderr.write('waiting for the reader\\n');
  }
  return accepted;
};`;

describe('stdout', () => {
  const dir = useConfigDir();
  const env = { PATH: process.env.PATH ?? '', HOME: dir, STORE_ADMIN_CONFIG_DIR: dir };

  it('writes the same output to a file, a pipe and /dev/null', async () => {
    const piped = await runCli(['help', 'formatting'], { env });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('Output formats');
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    const toFile = spawnSync(process.execPath, [BIN, 'help', 'formatting'], { env, stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    expect(toFile.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
    const toNull = spawnSync(process.execPath, [BIN, 'help', 'formatting'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    expect(toNull.status).toBe(0);
    expect(String(toNull.stderr)).toBe('');
  });

  it('gives a slow reader the same bytes as a file, multibyte text and all, when the pipe is full and non-blocking', async () => {
    const ids = join(dir, 'ids.txt');
    writeFileSync(ids, Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join(''));
    const args = [BIN, 'customers', 'add-note', '--each', ids, '--message', 'café — ✓ naïve', '--dry-run'];
    const runEnv = { ...env, STORE_ADMIN_BASE_URL: 'https://shop.example.com', STORE_ADMIN_TOKEN: 'tok_stdout_test' };
    const file = join(dir, 'notes.ndjson');
    const fd = openSync(file, 'w');
    expect(spawnSync(process.execPath, args, { env: runEnv, stdio: ['ignore', fd, 'ignore'] }).status).toBe(0);
    closeSync(fd);
    const expected = readFileSync(file);
    expect(expected.length).toBeGreaterThan(900 * 1024);
    // A non-blocking pipe refuses a write it has no room for (EAGAIN) instead of holding the writer:
    // the bytes it did not take must still come, in order. Nothing is read until the run says
    // its stdout holds bytes the pipe would not take.
    const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(WAITING_FOR_READER)}`, ...args], {
      env: runEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    let stderr = '';
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('waiting for the reader\n')) resolve();
      }),
    );
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk)).pause();
    await within('the run to find its stdout full', waiting, { seen: () => `stderr: ${JSON.stringify(stderr)}` });
    expect(child.exitCode).toBeNull();
    child.stdout.resume();
    expect(await closed).toBe(0);
    expect(Buffer.concat(chunks).equals(expected), 'the bytes read, against the file').toBe(true);
    expect(expected.toString('utf8')).toContain('café — ✓ naïve');
  });

  it('--help and a help topic load none of Node\'s stream modules into a pipe: making a stream costs more than the rest', () => {
    for (const [args, shown] of [[['--help'], 'USAGE'], [['help', 'exit-codes'], 'Exit codes']] as const) {
      // The CLI required in place of a script, the modules Node loaded listed as it exits.
      const script = `process.on('exit', () => process._rawDebug(JSON.stringify(process.moduleLoadList))); process.argv.splice(1, 0, ${JSON.stringify(BIN)}); require(${JSON.stringify(BIN)});`;
      const r = spawnSync(process.execPath, ['-e', script, '--', ...args], { env, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(shown);
      const loaded = (JSON.parse(r.stderr.trim().split('\n').pop()!) as string[]).filter((name) => name.startsWith('NativeModule '));
      expect(loaded.filter((name) => /^NativeModule (stream|net|tty)$/.test(name)), args.join(' ')).toEqual([]);
    }
  });

  it('ends quietly, exit 0, when the reader has gone before anything is written', async () => {
    for (const args of [['--help'], ['help', 'exit-codes'], ['--version']]) {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      // Closed long before the process has started: its first write meets a closed pipe.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
    }
  });
});
