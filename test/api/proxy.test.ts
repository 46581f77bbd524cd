// Behind a corporate proxy: HTTPS_PROXY / https_proxy, HTTP_PROXY and NO_PROXY, and a dispatcher
// a program brings. The store is the sandbox behind TLS as `store.test` (a certificate made for
// the test, trusted through NODE_EXTRA_CA_CERTS); the proxy is a CONNECT proxy written here that
// keeps every byte it relays. The token must reach the store, and the proxy must never see it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { proxyFor, proxyFromEnv } from '../../src/api/proxy.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { BIN, runCli } from '../cli/run.js';

const run = promisify(execFile);
const TLS = new URL('../fixtures/tls/', import.meta.url).pathname;
const CA = `${TLS}store.test.crt`;
const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

async function listen<T extends Server>(server: T): Promise<T> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

interface Tunnel {
  /** The CONNECT line's target, `store.test:443`. */
  target: string;
  headers: IncomingHttpHeaders;
  /** Every byte relayed from the client. */
  relayed: Buffer[];
}

/**
 * A CONNECT proxy that sends every tunnel to 127.0.0.1 on the port asked for, and keeps what it
 * saw; with `credentials`, it asks for them (407) until they come. A request sent to it in
 * clear (not tunnelled) is kept too, and refused.
 */
async function startProxy(credentials?: string) {
  const tunnels: Tunnel[] = [];
  const plain: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    plain.push({ url: req.url!, headers: req.headers });
    res.writeHead(502).end();
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const tunnel: Tunnel = { target: req.url!, headers: req.headers, relayed: [head] };
    tunnels.push(tunnel);
    if (credentials && req.headers['proxy-authorization'] !== `Basic ${Buffer.from(credentials).toString('base64')}`) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(new URL(`http://${req.url}`).port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      client.on('data', (chunk: Buffer) => tunnel.relayed.push(chunk));
      client.pipe(upstream).pipe(client);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', close);
    client.on('error', close);
  });
  await listen(server);
  return { url: `http://127.0.0.1:${portOf(server)}`, tunnels, plain, seen: () => Buffer.concat(tunnels.flatMap((t) => t.relayed)).toString('latin1') };
}

describe('through a proxy', () => {
  const ctx = useSandbox();
  /** The Authorization headers the store received. */
  const authorizations: (string | undefined)[] = [];
  let store: string;

  beforeAll(async () => {
    const key = readFileSync(`${TLS}store.test.key`);
    const cert = readFileSync(CA);
    // The sandbox behind TLS: each request passed on as it came.
    const tls = createTlsServer({ key, cert }, (req, res) => {
      authorizations.push(req.headers.authorization);
      const inner = request(`${ctx.sandbox.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(inner);
    });
    await listen(tls);
    store = `https://store.test:${portOf(tls)}`;
  });

  const env = (extra: Record<string, string>) => ({ STORE_ADMIN_BASE_URL: store, STORE_ADMIN_TOKEN: FULL_TOKEN, NODE_EXTRA_CA_CERTS: CA, ...extra });

  it.each(['HTTPS_PROXY', 'https_proxy'])('%s: the token reaches the store through the tunnel, and the proxy never sees it', async (name) => {
    const proxy = await startProxy();
    const before = authorizations.length;
    const r = await runCli(['categories', 'get', '1', '--json'], { env: env({ [name]: proxy.url }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ id: 1, name: 'Apparel' });
    expect(authorizations.slice(before)).toEqual([`Bearer ${FULL_TOKEN}`]);
    expect(proxy.tunnels.map((t) => t.target)).toEqual([new URL(store).host]);
    expect(proxy.plain).toEqual([]);
    // What the proxy relayed is TLS: neither the token nor even the path is in it.
    expect(proxy.seen()).not.toContain(FULL_TOKEN);
    expect(proxy.seen()).not.toContain('/api/admin');
    expect(JSON.stringify(proxy.tunnels.map((t) => t.headers))).not.toContain(FULL_TOKEN);
  });

  it('a proxy that asks for credentials gets them from its URL, and says so when they are missing', async () => {
    const proxy = await startProxy('clerk:pa ss');
    const refused = await runCli(['categories', 'get', '1', '--retries', '0'], { env: env({ HTTPS_PROXY: proxy.url }) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^store-admin: The proxy at 127\.0\.0\.1:\d+ refused to connect to store\.test:\d+ \(407\)\nhint: The proxy asks for credentials/);
    const given = await runCli(['categories', 'get', '1', '--json'], { env: env({ HTTPS_PROXY: proxy.url.replace('//', '//clerk:pa%20ss@') }) });
    expect(given.code, given.stderr).toBe(0);
    expect(proxy.seen()).not.toContain(FULL_TOKEN);
  });

  it('NO_PROXY names a host reached directly; a store on this machine is never sent through the proxy', async () => {
    const proxy = await startProxy();
    // store.test resolves nowhere: reached directly, it cannot be found.
    const direct = await runCli(['categories', 'get', '1', '--retries', '0'], { env: env({ HTTPS_PROXY: proxy.url, NO_PROXY: '.test' }) });
    expect(direct.code).toBe(1);
    expect(direct.stderr).toMatch(/^store-admin: Cannot resolve store\.test$/m);
    // The sandbox on 127.0.0.1, over plain http: the token stays on this machine, whatever the proxy variables say.
    const local = await runCli(['categories', 'get', '1', '--json'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
    });
    expect(local.code, local.stderr).toBe(0);
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.plain).toEqual([]);
  });

  it('a proxy that cannot be reached is named as such, not the store', async () => {
    const gone = await startProxy();
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const r = await runCli(['categories', 'get', '1', '--retries', '0'], { env: env({ https_proxy: gone.url }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^store-admin: Connection refused by the proxy at 127\.0\.0\.1:\d+\nhint: Check https_proxy/);
    const bad = await runCli(['categories', 'get', '1'], { env: env({ HTTPS_PROXY: 'http://[::1' }) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('store-admin: https_proxy (or HTTPS_PROXY) is not a proxy URL\nhint: Give it as http://proxy.example.com:3128 (with user:password@ before the host if the proxy asks for them)\n');
  });

  it('only a request through the proxy loads undici: --version, --help and a request straight to the store start without it', async () => {
    const proxy = await startProxy();
    // The CLI required in place of a script, the files it loaded listed as it exits (asynchronously: the sandbox answers from this process).
    const loaded = async (args: string[], extra: Record<string, string>) => {
      const script = `process.on('exit', () => process._rawDebug('LOADED ' + JSON.stringify(Object.keys(require.cache)))); process.argv.splice(1, 0, ${JSON.stringify(BIN)}); require(${JSON.stringify(BIN)});`;
      const r = await run(process.execPath, ['-e', script, '--', ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...extra } });
      return (JSON.parse(/^LOADED (.*)$/m.exec(r.stderr)![1]!) as string[]).filter((file) => /[\\/]node_modules[\\/]undici[\\/]/.test(file));
    };
    const local = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, HTTPS_PROXY: proxy.url };
    expect(await loaded(['--version'], local)).toEqual([]);
    expect(await loaded(['--help'], local)).toEqual([]);
    expect(await loaded(['categories', 'get', '1'], local)).toEqual([]);
    expect((await loaded(['categories', 'get', '1'], env({ HTTPS_PROXY: proxy.url }))).length).toBeGreaterThan(0);
  });

  it('a program brings its own dispatcher: the client sends through it, under its own limits', async () => {
    const proxy = await startProxy();
    const dispatcher = new ProxyAgent({ uri: proxy.url, requestTls: { ca: readFileSync(CA) } });
    const client = createClient({ baseUrl: store, token: FULL_TOKEN, dispatcher, retries: 0 });
    const before = authorizations.length;
    await expect(client.categories.get({ params: { id: 1 } })).resolves.toMatchObject({ id: 1 });
    expect(authorizations.slice(before)).toEqual([`Bearer ${FULL_TOKEN}`]);
    expect(proxy.tunnels).toHaveLength(1);
    expect(proxy.seen()).not.toContain(FULL_TOKEN);
    await client.close();
    await dispatcher.close();
  });
});

describe('proxyFor', () => {
  const settings = proxyFromEnv({ https_proxy: 'proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:8080', no_proxy: 'internal.example, .corp.example:8443, 10.1.2.3,[fd00::1]' })!;
  const via = (url: string) => proxyFor(new URL(url), settings)?.host;

  it('reads each variable in lower or upper case, lower case first, and takes a proxy without a scheme as http', () => {
    expect(settings).toEqual({ httpsProxy: 'http://proxy.corp:3128/', httpProxy: 'http://plain.corp:8080/', noProxy: 'internal.example, .corp.example:8443, 10.1.2.3,[fd00::1]' });
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' })?.httpsProxy).toBe('http://lower:2/');
    // Set but empty in lower case: no proxy, as curl reads it.
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: '' })).toBeUndefined();
    expect(proxyFromEnv({ NO_PROXY: '*' })).toBeUndefined();
  });

  it('sends https and http each to its own proxy, and nothing for this machine or a host NO_PROXY names', () => {
    expect(via('https://shop.example.com/api/admin/')).toBe('proxy.corp:3128');
    expect(via('http://shop.example.com/')).toBe('plain.corp:8080');
    expect(proxyFor(new URL('https://shop.example.com/'), { httpProxy: 'http://only:1/' })?.host).toBe('only:1');
    for (const local of ['http://127.0.0.1:4010/', 'http://localhost:4010/', 'https://[::1]:4010/', 'http://127.8.9.10/']) expect(via(local), local).toBeUndefined();
    for (const named of ['https://internal.example/', 'https://a.b.internal.example/', 'https://shop.corp.example:8443/', 'http://10.1.2.3/', 'https://[fd00::1]/']) {
      expect(via(named), named).toBeUndefined();
    }
    for (const other of ['https://notinternal.example/', 'https://shop.corp.example/', 'http://10.1.2.30/']) expect(via(other), other).toBe(other.startsWith('https') ? 'proxy.corp:3128' : 'plain.corp:8080');
    expect(proxyFor(new URL('https://shop.example.com/'), { ...settings, noProxy: '*' })).toBeUndefined();
  });
});
