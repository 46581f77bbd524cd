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
