// Answers that fight back, through the client over both transports (Node's own HTTP, and an
// undici dispatcher a program brings) and through the CLI: a body that trickles forever, an
// answer too large to hold, and what each means for a change that may have been applied.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type ClientOptions } from '../../src/api/client.js';
import { NetworkError, UnknownOutcomeError } from '../../src/api/errors.js';
import { runCli } from '../cli/run.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

const trickle = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), 50);
  res.on('close', () => clearInterval(timer));
};
const huge = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`[${'"x",'.repeat(300_000)}"x"]`);
};

const dispatcher = new Agent();
afterAll(() => dispatcher.close());

describe.each([
  ['Node HTTP', {}],
  ['an undici dispatcher', { dispatcher }],
] as [string, Partial<ClientOptions>][])('hostile answers through %s', (_name, transport) => {
  const client = (url: string, extra: Partial<ClientOptions> = {}) =>
    createClient({ baseUrl: url, token: 'tok', baseDelayMs: 1, ...transport, ...extra });

  it('a read whose body trickles forever times out as a whole, and is retried', async () => {
    const server = await serve(trickle);
    const error = await client(server.url, { timeoutMs: 300, retries: 1 }).categories.get({ params: { id: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/^No complete answer from 127\.0\.0\.1:\d+ within 0\.3 s$/) });
    expect(server.hits()).toBe(2);
  });

  it('a change whose answer trickles is reported as an unknown outcome and never sent twice', async () => {
    const server = await serve(trickle);
    const error = await client(server.url, { timeoutMs: 300, retries: 2 })
      .customers.addNote({ params: { id: 1 }, body: { message: 'hi' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(server.hits()).toBe(1);
  });

  it('an answer over the size limit is refused without being retried', async () => {
    const server = await serve(huge);
    const error = await client(server.url, { maxResponseBytes: 100_000 }).categories.get({ params: { id: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/^The answer from 127\.0\.0\.1:\d+ is larger than 100000 bytes; stopped reading it$/);
    expect(server.hits()).toBe(1);
    // Under the limit, the same answer is read whole.
    const whole = await client(server.url, { checkResponses: false }).categories.get({ params: { id: 1 } });
    expect(whole).toHaveLength(300_001);
  });
});

describe('hostile answers through the CLI', () => {
  it('--timeout bounds a trickling answer, in one line and exit 1', async () => {
    const server = await serve(trickle);
    const r = await runCli(['categories', 'get', '1', '--timeout', '0.4', '--retries', '0'], {
      env: { STORE_ADMIN_BASE_URL: server.url, STORE_ADMIN_TOKEN: 'tok' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^store-admin: No complete answer from 127\.0\.0\.1:\d+ within 0\.4 s$/);
  });

  it('STORE_ADMIN_MAX_RESPONSE_MB caps what is read, and a bad value is a usage error', async () => {
    const server = await serve(huge);
    const env = { STORE_ADMIN_BASE_URL: server.url, STORE_ADMIN_TOKEN: 'tok' };
    const capped = await runCli(['categories', 'get', '1'], { env: { ...env, STORE_ADMIN_MAX_RESPONSE_MB: '1' } });
    expect(capped.code).toBe(1);
    expect(capped.stderr.split('\n')[0]).toMatch(/^store-admin: The answer from 127\.0\.0\.1:\d+ is larger than 1 MB; stopped reading it$/);
    const bad = await runCli(['categories', 'get', '1'], { env: { ...env, STORE_ADMIN_MAX_RESPONSE_MB: 'lots' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('store-admin: STORE_ADMIN_MAX_RESPONSE_MB takes a whole number of megabytes, 1 to 99999 (got "lots")');
  });
});

describe('what a hostile store sends back, as printed for people', () => {
  const TOKEN = 'sekret-token-0123456789abcdef';
  const env = (url: string) => ({ STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: TOKEN });
  const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J\r\u202e';

  it('an error body is echoed on one line, cut short, with its control characters shown as escapes', async () => {
    const detail = `${ESCAPES}Bad\nthings ${'x'.repeat(10_000)}`;
    const server = await serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail }));
    });
    const r = await runCli(['categories', 'get', '1'], { env: env(server.url) });
    expect(r.code).toBe(1);
    const [first, ...rest] = r.stderr.split('\n');
    expect(first).toMatch(/^store-admin: \\u001b\]0;pwned\\u0007\\u001b\[2J \\u202eBad things x+… \(HTTP 400\)$/);
    // The store's text is cut to 300 characters, the last of them the ellipsis.
    expect(first!.slice('store-admin: '.length, -' (HTTP 400)'.length)).toHaveLength(300);
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(rest.join('')).not.toContain('xxxxxxxxxx');
    // As JSON the body stays exactly what the store sent.
    const json = await runCli(['categories', 'get', '1', '--json'], { env: env(server.url) });
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1)!).error.body).toEqual({ detail });
  });

  it('table cells and --verbose headers show control characters as escapes; JSON output is exact', async () => {
    const name = `${ESCAPES}Evil\ncategory`;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-note': '\u009b31mred' });
      res.end(JSON.stringify({ id: 1, name, [`k\u001b[1m`]: 'v' }));
    });
    const table = await runCli(['categories', 'get', '1', '-o', 'table', '--verbose'], { env: env(server.url) });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('\\u001b]0;pwned\\u0007');
    expect(table.stdout + table.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u0080-\u009f\u202e]/);
    expect(table.stderr).toContain('< x-note: \\u009b31mred');
    const json = await runCli(['categories', 'get', '1', '--json'], { env: env(server.url) });
    expect(JSON.parse(json.stdout).name).toBe(name);
  });

  it('an answer nested thousands deep is a clear one-line error, and no change is said to have failed when it succeeded', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deep);
    });
    const read = await runCli(['categories', 'get', '1', '--retries', '0'], { env: env(server.url) });
    expect(read.code).toBe(1);
    expect(read.stderr).toMatch(/^store-admin: The answer \(200\) from 127\.0\.0\.1:\d+ is nested more than 256 levels deep; not read\n/);
    expect(read.stderr).not.toMatch(/\n\s+at /);
    const change = await runCli(['customers', 'add-note', '1', '--message', 'hi'], { env: env(server.url) });
    expect(change.stderr).toMatch(/^store-admin: The store accepted the change \(200\) but its answer could not be read/);
  });

  it('a store that echoes the token back never gets it printed, in errors, traces or data', async () => {
    const server = await serve((req, res) => {
      const token = String(req.headers.authorization).replace('Bearer ', '');
      res.writeHead(req.url?.includes('/categories/2/') ? 200 : 401, { 'content-type': 'application/json', 'x-echo': token });
      res.end(JSON.stringify({ detail: `Invalid token ${token}`, id: 2, name: token }));
    });
    for (const args of [
      ['categories', 'get', '1'],
      ['categories', 'get', '1', '--json', '--verbose'],
      ['categories', 'get', '2', '--json', '--verbose'],
      ['categories', 'get', '2', '-o', 'table'],
      ['api', '/categories/1/', '--include'],
    ]) {
      const r = await runCli(args, { env: env(server.url) });
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(TOKEN);
      expect(r.stdout + r.stderr, args.join(' ')).toContain('***');
    }
  });
});
