// Downloads from a store that misbehaves, over real sockets: bodies cut short in every way HTTP
// allows, a body that never ends (for Ctrl-C, SIGTERM and a closed pipe), a signed link that
// --verbose must not show, and a created export whose id the tool cannot use.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from '../helpers.js';
import { BIN, runCli, useConfigDir } from './run.js';

const CSV = 'number,date_placed\n10001,2026-01-11\n';
const TOKEN = 'tok_hostile_download_0123456789';

type FileHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A store whose export 7 is available; `file` answers the signed link, `create` the new export. */
async function store(file: FileHandler, create?: (res: ServerResponse) => void): Promise<{ url: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/api/admin/exports/' && req.method === 'POST' && create) return create(res);
    if (req.url === '/api/admin/exports/7/') return json(200, { id: 7, status: 'available', type: 'order_list' });
    if (req.url === '/api/admin/exports/7/download/') return json(200, { url: `${origin}/media/store/export_csv/orders.csv?expires=9999999999&signature=s3cr3t-signature` });
    if (req.url?.startsWith('/media/')) return file(req, res);
    json(404, { detail: 'Not found.' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/**
 * Sends the head and part of the body on the raw socket and resets the connection once the client
 * has the bytes (`received`): a reset sooner may reach it as a clean end, which for a body without
 * a length is a complete body.
 */
function resetAfter(head: string, body: string, received: () => Promise<void>): FileHandler {
  return (req) => {
    const socket = req.socket as Socket;
    socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\n${head}\r\n${body}`, () => void received().then(() => socket.resetAndDestroy()));
  };
}

/** Runs the CLI; `received` resolves once it has `bytes` of the file (on stdout, or in its temporary file). */
function download(args: string[], env: Record<string, string>, temporaryOf?: string) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  const received = async (bytes: number): Promise<void> => {
    await until(`${bytes} bytes of the file`, () => {
      if (!temporaryOf) return stdout.length >= bytes;
      const [dirName, base] = [temporaryOf.slice(0, temporaryOf.lastIndexOf('/')), temporaryOf.slice(temporaryOf.lastIndexOf('/') + 1)];
      return readdirSync(dirName).some((name) => name.startsWith(`.${base}.`) && statSync(join(dirName, name)).size >= bytes);
    });
  };
  return { exited, received };
}

describe('a download cut short is never saved', () => {
  const dir = useConfigDir();
  const env = (url: string) => ({ STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const size = `${CSV.length} B`;

  const cases: [string, (received: () => Promise<void>) => FileHandler][] = [
    ['no Content-Length, reset mid-body', (received) => resetAfter('connection: close\r\n', CSV, received)],
    ['chunked, reset mid-body', (received) => resetAfter('transfer-encoding: chunked\r\n', `${CSV.length.toString(16)}\r\n${CSV}\r\n`, received)],
    ['a short body against its Content-Length, reset', (received) => resetAfter(`content-length: ${CSV.length * 10}\r\n`, CSV, received)],
    [
      'a short body against its Content-Length, closed cleanly',
      () => (req) => {
        const socket = req.socket as Socket;
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: ${CSV.length * 10}\r\n\r\n${CSV}`);
      },
    ],
  ];

  cases.forEach(([name, handler], index) => {
    it(`${name}: exit 1, no file, no "Saved", the user's file named`, async () => {
      const file = join(dir, `cut-${index}.csv`);
      let run!: ReturnType<typeof download>;
      const { url } = await store(handler(() => run.received(CSV.length)));
      run = download(['exports', 'download', '7', '--output-file', file], env(url), file);
      const r = await run.exited;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).not.toContain('Saved');
      expect(r.stderr).toMatch(new RegExp(`^store-admin: Cannot save the export to ${file}: the download was cut short after \\d+ B.*; nothing was written$`, 'm'));
      expect(readdirSync(dir).filter((name) => name.includes(`cut-${index}`))).toEqual([]);
    });

    it(`${name}, to stdout: one clear line, exit 1`, async () => {
      let run!: ReturnType<typeof download>;
      const { url } = await store(handler(() => run.received(CSV.length)));
      run = download(['exports', 'download', '7', '--output-file', '-'], env(url));
      const r = await run.exited;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^store-admin: Cannot download export 7: the download was cut short after \\d+ B.*; the output is incomplete$`)),
        'hint: The export is available: store-admin exports download 7 --wait --output-file -',
      ]);
    });
  });

  it('a whole body is saved with its byte count and SHA-256', async () => {
    const { url } = await store((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(CSV);
    });
    const file = join(dir, 'whole.csv');
    const r = await runCli(['exports', 'download', '7', '--output-file', file, '--json'], { env: env(url) });
    expect(r.code, r.stderr).toBe(0);
    const sha256 = createHash('sha256').update(CSV).digest('hex');
    expect(r.stderr).toContain(`Saved export 7 to ${file}: ${CSV.length} bytes (${size}), sha256 ${sha256}`);
    expect(r.json()).toEqual({ export_id: 7, path: file, bytes: CSV.length, sha256 });
    expect(readFileSync(file, 'utf8')).toBe(CSV);
    // In a pipe JSON is the default, as everywhere else; a table asked for leaves stdout to people's prose on stderr.
    const piped = await runCli(['exports', 'download', '7', '--output-file', join(dir, 'piped.csv')], { env: env(url) });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.json()).toEqual({ export_id: 7, path: join(dir, 'piped.csv'), bytes: CSV.length, sha256 });
    const table = await runCli(['exports', 'download', '7', '--output-file', join(dir, 'table.csv'), '-o', 'table'], { env: env(url) });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toBe('');
  });
});

describe('--verbose never shows the signed link', () => {
  const dir = useConfigDir();

  it('redacts its query in the answer that hands it out and in the request that fetches it', async () => {
    const { url } = await store((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(CSV);
    });
    const r = await runCli(['--verbose', 'exports', 'download', '7', '--output-file', '-'], { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(CSV);
    expect(r.stderr).not.toContain('s3cr3t-signature');
    expect(r.stderr).not.toContain('expires=');
    expect(r.stderr).toContain(`> GET ${url}/media/store/export_csv/orders.csv?***`);
    expect(r.stderr).toContain(`"url": "${url}/media/store/export_csv/orders.csv?***"`);
  });
});

describe('a download that never ends stops at once', () => {
  const dir = useConfigDir();
  /** A file link that sends a first chunk and then holds the connection open for ever. */
  const endless = async () => {
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    const { url, server } = await store((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(CSV, () => started());
    });
    return { url, sending, server };
  };

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code}, the temporary file removed, the export named`, async () => {
      const { url, sending } = await endless();
      const file = join(dir, `endless-${signal}.csv`);
      const child = spawn(process.execPath, [BIN, 'exports', 'download', '7', '--output-file', file], {
        env: { PATH: process.env.PATH, STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
        stdio: 'pipe',
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await sending;
      // The answer has arrived once its temporary file is there.
      await until('its temporary file', () => readdirSync(dir).some((name) => name.startsWith(`.endless-${signal}.csv.`)), { seen: () => stderr });
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toContain(`store-admin: Stopped downloading export 7 (${file} was not written); the export itself goes on`);
      expect(stderr).toContain(`hint: Fetch it later: store-admin exports download 7 --wait --output-file ${file}`);
      expect(readdirSync(dir).filter((name) => name.includes(`endless-${signal}`))).toEqual([]);
    });
  }

  it('a closed stdout ends the download quietly', async () => {
    // A file link that sends lines for ever, as fast as they are read.
    const { url } = await store((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      const more = () => {
        while (!res.destroyed && res.write(CSV));
      };
      res.on('drain', more);
      more();
    });
    const child = spawn(process.execPath, [BIN, 'exports', 'download', '7', '--output-file', '-'], {
      env: { PATH: process.env.PATH, STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
      stdio: 'pipe',
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The reader takes the first lines, then goes away (as `| head -1` does).
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('a created export whose id the tool cannot use', () => {
  const dir = useConfigDir();
  const CREATE = ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31'];

  for (const id of ['../../orders', -1, null]) {
    it(`id ${JSON.stringify(id)}: exit 1 saying the export was created, never 2, nothing else sent`, async () => {
      const { url, requests } = await store(
        () => {},
        (res) => {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id, status: 'pending', type: 'order_list' }));
        },
      );
      const file = join(dir, 'hostile.csv');
      const r = await runCli([...CREATE, '--download', file], { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^store-admin: The export was created, but the store's answer gives it .*, which is not an export id/m);
      expect(requests).toEqual(['POST /api/admin/exports/']);
      expect(existsSync(file)).toBe(false);
      // Without a wait there is nothing to go on with: the answer is shown as it came.
      const plain = await runCli(CREATE, { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir } });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.json()).toMatchObject({ id, status: 'pending' });
    });
  }
});
