// The one HTTP core under the client, over both of its wires (Node's own HTTP, and an undici
// dispatcher), against raw node:http servers that misbehave: a body that trickles, one too large,
// one cut short, an abort; and keep-alive reuse when all is well. The same limits hold on both.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { ExchangeError, httpPool as makePool, type Limits, type Route } from '../../src/api/http.js';
import { until, within } from '../helpers.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const exchange = (url: string, extra = {}) => ({ method: 'GET', url, headers: {}, ...extra });
const limits = { timeoutMs: 2000, connectTimeoutMs: 1000, maxBytes: 1024 };
const text = (answer: { body: Buffer }) => answer.body.toString('utf8');

const dispatcher = new Agent();
afterAll(() => dispatcher.close());

describe.each([
  ['Node HTTP', {}],
  ['an undici dispatcher', { dispatcher }],
] as [string, Route][])('httpPool through %s', (_wire, route) => {
  const httpPool = (limits: Limits) => makePool(limits, route);
  const pool = httpPool(limits);
  afterAll(() => pool.close());

  it('reads an answer and reuses the connection for the next', async () => {
    const sockets = new Set<unknown>();
    const url = await serve((req, res) => {
      sockets.add(req.socket);
      res.setHeader('content-type', 'application/json');
      // A body goes with its length in bytes, never chunked (some proxies refuse that).
      const body = req.method === 'GET' ? {} : { length: req.headers['content-length'], chunked: req.headers['transfer-encoding'] ?? null };
      res.end(JSON.stringify({ path: req.url, method: req.method, ...body }));
    });
    const first = await pool.send(exchange(url));
    const second = await pool.send(exchange(`${url}again`, { method: 'PATCH', body: '{"note":"café"}' }));
    expect(first.status).toBe(200);
    expect(text(first)).toBe('{"path":"/","method":"GET"}');
    expect(JSON.parse(text(second))).toEqual({ path: '/again', method: 'PATCH', length: '16', chunked: null });
    expect(first.headers['content-type']).toBe('application/json');
    // How a dispatcher a program brings pools its connections is its own affair.
    if (!route.dispatcher) expect(sockets.size).toBe(1);
  });

  it('writes the headers as given, adds the Host and body length Node would, and drops framing headers given by the caller', async () => {
    const seen: { raw: string[]; keepAlive: boolean; body: string }[] = [];
    const url = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ raw: req.rawHeaders, keepAlive: req.headers.connection === 'keep-alive', body });
        res.end('{}');
      });
    });
    const headers = { accept: 'application/json', 'X-Store-API-Version': '2024-04-01', 'Content-Length': '999', 'transfer-encoding': 'chunked', Connection: 'close' };
    await pool.send(exchange(url, { method: 'POST', headers, body: '{"note":"naïve"}' }));
    await pool.send(exchange(url, { headers: { host: 'shop.example.com' } }));
    const [post, get] = seen;
    // undici writes its Host and Connection first; the same lines either way.
    const pairs = (raw: string[]) => {
      const list = raw.flatMap((value, i) => (i % 2 ? [] : [[value.toLowerCase(), raw[i + 1]]]));
      return route.dispatcher ? list.sort() : list;
    };
    const inOrder = (list: string[][]) => (route.dispatcher ? list.sort() : list);
    expect(pairs(post!.raw)).toEqual(inOrder([
      ['accept', 'application/json'],
      ['x-store-api-version', '2024-04-01'],
      ['host', new URL(url).host],
      ['content-length', '17'],
      ['connection', 'keep-alive'],
    ]));
    expect(post!.body).toBe('{"note":"naïve"}');
    // The Host is the URL's, once, whatever the caller names: where the request goes is the URL's alone.
    expect(pairs(get!.raw).filter(([name]) => name === 'host')).toEqual([['host', new URL(url).host]]);
    expect(get!.keepAlive).toBe(true);
  });

  it('sends every URL to the path a URL parser gives it, whatever the one before it was', async () => {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      seen.push(req.url!);
      res.end('{}');
    });
    const tricky = [
      'api/admin/orders/1/',
      'a/./b/../c/',
      'a/%2e%2E/b?x=1',
      'a/.%2e',
      "it's/here?q='quoted'",
      'caf%C3%A9/?q=a b&r=<x>',
      'tab\there/\\back',
      'a/b?next=/../x#fragment',
      'x/%zz/~user/(1)*!$@:;=+,',
      'orders/?',
    ];
    for (const path of tricky) {
      await pool.send(exchange(`${url}plain/`));
      await pool.send(exchange(`${url}${path}`));
    }
    const expected = tricky.flatMap((path) => {
      const parsed = new URL(`${url}${path}`);
      return ['/plain/', `${parsed.pathname}${parsed.search}`];
    });
    expect(seen).toEqual(expected);
    // Another origin after the first is parsed for itself.
    const other = await serve((req, res) => res.end(JSON.stringify({ host: req.headers.host, path: req.url })));
    const answer = await pool.send(exchange(`${other}z/./y`));
    expect(JSON.parse(text(answer))).toEqual({ host: new URL(other).host, path: '/z/y' });
    // A blob: URL names another's origin, not its own: refused, and what follows is unaffected.
    await expect(pool.send(exchange(`blob:${other}x`))).rejects.toThrow();
    expect(JSON.parse(text(await pool.send(exchange(`${other}after`))))).toEqual({ host: new URL(other).host, path: '/after' });
  });

  it('refuses a header value that would split the request, before anything is sent', async () => {
    let requests = 0;
    const url = await serve((_req, res) => {
      requests++;
      res.end('{}');
    });
    const error = await pool.send(exchange(url, { headers: { 'x-note': 'a\r\nx-injected: 1' } })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_HEADER', message: expect.stringMatching(/x-note/i) });
    await pool.send(exchange(url));
    expect(requests).toBe(1);
  });

  it('sends the Host of an IPv6 store in brackets, with its port', async () => {
    const server = createServer((req, res) => res.end(JSON.stringify({ host: req.headers.host })));
    servers.push(server);
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(0, '::1', () => resolve(true));
    });
    if (!listening) return; // no IPv6 loopback on this machine
    const { port } = server.address() as AddressInfo;
    const answer = await pool.send(exchange(`http://[::1]:${port}/`));
    expect(JSON.parse(text(answer))).toEqual({ host: `[::1]:${port}` });
  });

  it('bounds the whole attempt, even a body that trickles a byte at a time', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    });
    const short = httpPool({ ...limits, timeoutMs: 600 });
    const error = await short.send(exchange(url)).catch((e: unknown) => e);
    await short.close();
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: 200 });
  });

  it('refuses an answer over the size limit without reading the rest', async () => {
    let hungUp!: () => void;
    const closed = new Promise<void>((resolve) => (hungUp = resolve));
    const url = await serve((_req, res) => {
      res.writeHead(200);
      // An answer without end, sent as fast as it is read.
      const chunk = Buffer.alloc(512, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      res.on('close', hungUp);
      more();
    });
    const error = await pool.send(exchange(url)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TOO_LARGE', status: 200 });
    // The connection is closed: the store stops sending.
    await within('the client to close the connection', closed);
  });

  it('says an answer was cut short', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":', () => req.socket.destroy());
    });
    await expect(pool.send(exchange(url))).rejects.toMatchObject({ code: 'CUT_SHORT', status: 200 });
  });

  it('stops at once when aborted, and never rejects twice', async () => {
    let arrived!: () => void;
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const url = await serve(() => arrived());
    const controller = new AbortController();
    // A time limit that cannot be what stops it.
    const patient = httpPool({ ...limits, timeoutMs: 60_000 });
    const sent = patient.send(exchange(url, { signal: controller.signal }));
    await within('the request to arrive', waiting);
    controller.abort();
    await expect(within('the request to stop', sent)).rejects.toMatchObject({ code: 'ABORTED' });
    await patient.close();
  });

  it('one abort stops every request it guards, and a request guarded by a signal already aborted is never sent', async () => {
    const received: string[] = [];
    const url = await serve((req, res) => {
      received.push(req.url!);
      if (req.url === '/after') res.end('{}');
    });
    const controller = new AbortController();
    const sent = Array.from({ length: 5 }, () => pool.send(exchange(url, { signal: controller.signal })));
    await until('five requests at the server', () => received.length === 5);
    controller.abort();
    for (const request of sent) await expect(request).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(pool.send(exchange(url, { signal: controller.signal }))).rejects.toMatchObject({ code: 'ABORTED' });
    // A request sent after it arrives after it: had the aborted one gone out, the server would have it first.
    await pool.send(exchange(`${url}after`));
    expect(received).toEqual(['/', '/', '/', '/', '/', '/after']);
  });

  it('refused connections keep their system code', async () => {
    const url = await serve(() => {});
    const port = new URL(url).port;
    await new Promise((r) => servers.pop()!.close(r));
    await expect(pool.send(exchange(`http://127.0.0.1:${port}/`))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('hands a download its body unread and keeps the attempt bounded until it is done', async () => {
    let finish!: () => void;
    const opened = new Promise<void>((resolve) => (finish = resolve));
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write('a,b\n');
      // The rest only once the download has been handed over.
      void opened.then(() => res.end('1,2\n'));
    });
    const { body, done } = await pool.open(exchange(url));
    finish();
    let text = '';
    for await (const chunk of body) text += chunk;
    done();
    expect(text).toBe('a,b\n1,2\n');
  });
});
