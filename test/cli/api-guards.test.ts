// What `api` and its neighbours refuse before anything leaves, and answers that used to end in
// "unexpected error": paths that climb out of /api/admin or the store's prefix, `webhooks trigger`
// against a real store, header values HTTP does not allow, `__proto__` field names, a Retry-After
// past any date, and C1 controls in the headers `api -i` prints.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { UsageError } from '../../src/api/errors.js';
import { runInProcess } from './in-process.js';
import { runCli, useConfigDir } from './run.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const TOKEN = 'guard-token-for-tests-4242';

describe('requests refused before anything is sent, and hostile answers', () => {
  const dir = useConfigDir();
  const seen: Seen[] = [];
  let answer: (req: Seen) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 200, body: '{"ok":true}' });
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const request = { method: req.method!, url: req.url!, headers: req.headers, body };
        seen.push(request);
        const { status, headers, body: text } = answer(request);
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text ?? '');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    seen.length = 0;
    answer = () => ({ status: 200, body: '{"ok":true}' });
  });
  const env = (base = url) => ({ STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], base?: string) => runCli(args, { env: env(base) });

  it('refuses api paths that leave /api/admin or the store prefix, with one line and exit 2, sending nothing', async () => {
    const escapes: [string, string | undefined][] = [
      ['../../other', undefined],
      ['%2e%2e/%2e%2e/other', undefined],
      ['/api/admin/.%2e/x', undefined],
      ['..\\..\\other', undefined],
      ['/orders/..%2F..%2Fother', undefined],
      ['../../../shop-b/api/admin/', `${url}/shop-a`],
    ];
    for (const [path, base] of escapes) {
      for (const extra of [[], ['--dry-run'], ['--api-version', '2024-04-01', '-X', 'POST']]) {
        const r = await cli(['api', path, ...extra], base);
        expect(r.code, `${path} ${extra.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/^store-admin: Refusing the path .*, outside \/api\/admin\/, and the token would go with it\n$/);
        expect(r.stdout).toBe('');
      }
    }
    expect(seen).toEqual([]);
    // A path that only wanders inside the API is sent where it leads.
    const inside = await cli(['api', '/orders/../exports/types/']);
    expect(inside.code, inside.stderr).toBe(0);
    expect(seen.map((s) => s.url)).toEqual(['/api/admin/exports/types/']);
  });

  it('webhooks trigger and listen --register against a real store send no token anywhere', async () => {
    answer = () => ({ status: 404, body: '{"detail":"Not found."}' });
    const refusals: [string[], string][] = [
      [['webhooks', 'trigger', 'order.created'], `works only with a sandbox store, and ${url} is not one`],
      // A real store could take a webhook, but cannot reach 127.0.0.1: without --public-url it is refused.
      [['webhooks', 'listen', '--register'], `${url} is not a sandbox store, and a real store cannot reach`],
    ];
    for (const [args, message] of refusals) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /sandbox/', 'GET /sandbox/']);
    expect(seen.every((s) => s.headers.authorization === undefined)).toBe(true);
  });

  it('a header value HTTP does not allow is refused as sent by no one: exit 2, nothing sent', async () => {
    const bad = await cli(['api', '/customers/1/notes/', '-X', 'POST', '--api-version', '2024-04-01', '-f', 'message=hi', '-H', 'X-Trace: a\u0001b']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('store-admin: -H X-Trace: the value holds a control character or one beyond Latin-1 (a\\u0001b); nothing was sent');
    // A program using the client is told the same where the request is made, not that a change may have been applied.
    const client = createClient({ baseUrl: url, token: TOKEN });
    const error = await client.raw({ method: 'POST', path: '/customers/1/notes/', version: '2024-04-01', headers: { 'x-trace': 'a\u0001b' }, body: {} }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^A request header holds a character HTTP does not allow \(.*\); nothing was sent$/);
    expect(seen).toEqual([]);
  });

  it('__proto__ field names are dropped with a note, and Object.prototype stays clean', async () => {
    for (const field of [['-F', '__proto__[x]=1'], ['-f', 'a[__proto__][b]=2'], ['-f', '__proto__=2']]) {
      const r = await runInProcess(['api', '/categories/1/', '-X', 'PATCH', '--api-version', '2024-04-01', ...field], env());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^warning: (-f|-F) \S+: not sent: ".*__proto__.*" \(a "__proto__" key cannot be sent as data\)\n$/);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
      expect(({} as Record<string, unknown>).b).toBeUndefined();
    }
    expect(seen.map((s) => s.body)).toEqual(['{}', '{}', '{}']);
    // A typed command's JSON flag: the key is named, not silently lost.
    const typed = await cli(['disputes', 'create', '--transaction', '501', '--type', 'chargeback', '--metadata', '{"__proto__":{"admin":true},"ref":"x"}']);
    expect(typed.stderr).toContain('warning: --metadata: not sent: "__proto__" (a "__proto__" key cannot be sent as data)');
    expect(JSON.parse(seen.at(-1)!.body).metadata).toEqual({ ref: 'x' });
  });

  it('a Retry-After past any date is a clear one-line error', async () => {
    answer = () => ({ status: 429, headers: { 'retry-after': '99999999999999999999' }, body: '{"detail":"slow down"}' });
    for (const args of [['api', '/exports/types/'], ['categories', 'get', '1']]) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.split('\n')[0]).toBe('store-admin: 429 Too Many Requests: the store asks to wait longer than a date can say');
    }
    answer = () => ({ status: 429, headers: { 'retry-after': '86400' }, body: '{}' });
    expect((await cli(['categories', 'get', '1'])).stderr).toMatch(/the store asks to wait 86400 s; retry after \d{4}-\d\d-\d\dT/);
  });

  it('api -i shows C1 controls in headers as escapes', async () => {
    answer = () => ({ status: 200, headers: { 'x-note': '\u009b31mred\u0085' }, body: '{}' });
    const r = await cli(['api', '/exports/types/', '-i']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('x-note: \\u009b31mred\\u0085');
    expect(r.stdout).not.toMatch(/[\u0080-\u009f]/);
  });
});
