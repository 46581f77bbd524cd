// Where a download may land: --force replaces a regular file only, never a device node, a FIFO
// or a socket (as root, a rename over /dev/null would replace the machine's /dev/null), and a file
// replaced through a symbolic link keeps the mode it had. The same rule holds in the one helper
// every file of the tool is written through.
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createSocketServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotRegularFileError, writeAtomically } from '../../src/atomic-write.js';
import { useExportStore } from './export-store.js';
import { runCli, useConfigDir } from './run.js';

const CSV = 'number,date_placed\n10001,2026-01-11\n';
const TOKEN = 'tok_export_targets_0123456789';

describe('exports download --force', () => {
  const config = useConfigDir();
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-targets-'));
  const downloads: string[] = [];
  const store = useExportStore((req, res) => {
    downloads.push(req.url!);
    res.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const download = async (file: string) =>
    runCli(['exports', 'download', '7', '--output-file', file, '--force'], { env: { STORE_ADMIN_BASE_URL: await store(), STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: config } });

  it.runIf(process.getuid?.() === 0)('leaves a device node in place: no file replaces it, exit 2, nothing fetched', async () => {
    // A null device of its own, so that a failure cannot break the machine's /dev/null.
    const node = join(dir, 'null');
    execFileSync('mknod', [node, 'c', '1', '3']);
    const before = downloads.length;
    const run = await download(node);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`store-admin: Cannot save to ${node}: it is not a regular file (a device, a FIFO or a socket), and only a regular file is replaced; to send the export there, use --output-file - and redirect`);
    expect(lstatSync(node).isCharacterDevice()).toBe(true);
    expect(downloads.length).toBe(before);
    // Through a link to it, the same.
    symlinkSync(node, join(dir, 'null-link'));
    expect((await download(join(dir, 'null-link'))).code).toBe(2);
    expect(lstatSync(node).isCharacterDevice()).toBe(true);
  });

  it('leaves a FIFO and a socket in place, without waiting on them', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await download(fifo);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('it is not a regular file');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const socketPath = join(dir, 'socket');
    const socket = createSocketServer();
    await new Promise<void>((resolve) => socket.listen(socketPath, resolve));
    try {
      expect((await download(socketPath)).code).toBe(2);
      expect(lstatSync(socketPath).isSocket()).toBe(true);
    } finally {
      socket.close();
    }
  });

  it('replaces a file through a symbolic link, which stays a link, and the file keeps its mode', async () => {
    const target = join(dir, 'shared.csv');
    writeFileSync(target, 'old\n');
    chmodSync(target, 0o644);
    const link = join(dir, 'latest.csv');
    symlinkSync(target, link);
    const run = await download(link);
    expect(run.code, run.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(CSV);
    expect(statSync(target).mode & 0o777).toBe(0o644);
    // A file replaced as it is keeps its mode too; a new one is private.
    const plain = join(dir, 'plain.csv');
    writeFileSync(plain, 'old\n');
    chmodSync(plain, 0o640);
    expect((await download(plain)).code).toBe(0);
    expect(statSync(plain).mode & 0o777).toBe(0o640);
    expect((await download(join(dir, 'new.csv'))).code).toBe(0);
    expect(statSync(join(dir, 'new.csv')).mode & 0o777).toBe(0o600);
  });
});

describe('exports download of a body longer than its Content-Length', () => {
  const config = useConfigDir();
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-long-'));
  // Ten bytes announced, more sent: Node's parser refuses what follows the body.
  const store = useExportStore((req) => void req.socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: 10\r\n\r\n0123456789 and more bytes than announced\n`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is one clear line and exit 1, to stdout or to a file, and no file is left', async () => {
    const env = { STORE_ADMIN_BASE_URL: await store(), STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: config };
    const toStdout = await runCli(['exports', 'download', '7', '--output-file', '-'], { env });
    expect(toStdout.code, toStdout.stderr).toBe(1);
    expect(toStdout.stderr.split('\n')[0]).toMatch(/^store-admin: Cannot download export 7: the answer holds more than the 10 B its Content-Length announced, or is not valid HTTP \(Parse Error: .*\); the output is incomplete$/);
    expect(toStdout.stderr).not.toMatch(/unexpected/);
    const file = join(dir, 'orders.csv');
    const toFile = await runCli(['exports', 'download', '7', '--output-file', file], { env });
    expect(toFile.code, toFile.stderr).toBe(1);
    expect(toFile.stderr.split('\n')[0]).toMatch(new RegExp(`^store-admin: Cannot save the export to ${file}: the answer holds more than the 10 B its Content-Length announced, or is not valid HTTP .*; nothing was written$`));
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).toBe('');
  });
});

describe('writeAtomically', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-atomic-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('never replaces what is not a regular file, even one that appeared after every check, and leaves no temporary file', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(writeAtomically(fifo, 'text')).rejects.toBeInstanceOf(NotRegularFileError);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).trim()).toBe('fifo');
  });

  it('replaces a regular file or a link (not what it leads to), and without replace refuses one that exists', async () => {
    const file = join(dir, 'state.json');
    await writeAtomically(file, 'one');
    expect(readFileSync(file, 'utf8')).toBe('one');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await writeAtomically(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, 'untouched');
    const link = join(dir, 'link.json');
    symlinkSync(elsewhere, link);
    await writeAtomically(link, 'three');
    expect(lstatSync(link).isFile()).toBe(true);
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
    await expect(writeAtomically(file, 'four', { replace: false })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('two');
  });
});
