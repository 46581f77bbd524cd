// `store-admin api`: raw requests with the tool's auth, versions from the table, gh-style fields.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOperation } from '../../src/api/operations.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { BIN, runCli, useConfigDir } from './run.js';

describe('store-admin api', () => {
  const ctx = useSandbox({ scopedTokens: { reader: ['catalogue:read'] } });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const api = (args: string[], extra: Record<string, string> = {}, stdin?: string) =>
    runCli(['api', ...args], { env: { ...env(), ...extra }, stdin });

  it("every example of api, in the README and in its help, is answered by the sandbox: none shows a path it cannot serve", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').match(/^store-admin api .*$/gm) ?? [];
    const help = (await api(['--help'])).stdout;
    // The help's examples, each `$ ` line with the lines it continues onto after a trailing ` \`.
    const helped = help.slice(help.indexOf('EXAMPLES\n')).split('\n  $ ').slice(1).map((example) => example.split('\n\n')[0]!);
    expect(readme.length).toBeGreaterThanOrEqual(2);
    expect(helped.length).toBeGreaterThanOrEqual(4);
    writeFileSync(join(dir, 'store-admin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
    for (const example of [...readme, ...helped]) {
      // Run as a shell would run the line typed in: its quoting and continuation lines included.
      const child = spawn('bash', ['-c', example], { env: { ...env(), PATH: `${dir}:${process.env.PATH}`, HOME: dir }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code, `${example}\n${stderr}`).toBe(0);
    }
  });

  it('takes the version of a known operation from the table', async () => {
    const r = await api(['/exports/types/']);
    expect(r.code).toBe(0);
    expect(r.json().types).toHaveLength(13);
    const bare = await api(['exports/types', '--query', 'types[0].code']);
    expect(bare.json()).toBe('order_list');
    const prefixed = await api(['/api/admin/categories/1']);
    expect(prefixed.json().id).toBe(1);
  });

  it('sends typed and raw fields as a JSON body, nesting and appending as gh does', async () => {
    const file = join(dir, 'message.txt');
    writeFileSync(file, 'from a file');
    const r = await api([
      '/subscriptions/4/', '-X', 'patch',
      '-F', 'interval_count=3', '-F', 'is_test=false', '-f', 'attribution[utm_content]=null',
      '-F', 'attribution[utm_source]=newsletter', '-f', 'attribution[utm_campaign]=spring',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      interval_count: 3, is_test: false,
      attribution: { utm_source: 'newsletter', utm_campaign: 'spring', utm_content: 'null' },
    });
    // Deeper than the reference's attribution goes: the body as built, not sent.
    const deep = await api(['/subscriptions/4/', '-X', 'patch', '-F', 'attribution[agent][id]=7', '-f', 'attribution[agent][name]=Ada', '--dry-run']);
    expect(deep.json().body).toEqual({ attribution: { agent: { id: 7, name: 'Ada' } } });
    const hook = await api(['/webhooks/', '-F', 'events[]=order.created', '-F', 'events[]=order.updated', '-f', 'target=https://h.example.com/a', '-F', `name=@${file}`]);
    expect(hook.json()).toMatchObject({ events: ['order.created', 'order.updated'], name: 'from a file' });
    const secret = await api(['/webhooks/', '-F', 'events[]=a.b', '-f', 'target=https://h.example.com/b', '-f', 'secret_key=s3cr3t-value']);
    expect(secret.json().secret_key).toBe('***');
    const shown = await api([`/webhooks/${secret.json().id}/`, '--show-secret']);
    expect(shown.json().secret_key).toBe('s3cr3t-value');
  });

  it('takes a body from --input', async () => {
    const r = await api(['/orders/10001/notes/', '--input', '-'], {}, JSON.stringify({ message: 'raw note' }));
    expect(r.json()).toMatchObject({ message: 'raw note' });
  });

  it('needs --api-version for a path the table does not know', async () => {
    const before = ctx.sandbox.counters.received;
    const r = await api(['/reports/']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('GET /reports/ is not one of the operations this tool knows: pass --api-version');
    expect(ctx.sandbox.counters.received).toBe(before);
    const sent = await api(['/reports/', '--api-version', '2024-04-01']);
    expect(sent.code).toBe(1);
    expect(sent.stdout).toBe('');
    expect(sent.stderr).toContain('Not found.');
    expect(sent.stderr).not.toContain('warning');
  });

  it('prints nothing on stdout for an error answer, its body in the JSON error, and exits with its code', async () => {
    const missing = await api(['/categories/99/']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('store-admin: Not found. (HTTP 404)\n');
    // A query has nothing to print either (it printed null).
    const queried = await api(['/categories/99/', '-q', 'name']);
    expect(queried.code).toBe(1);
    expect(queried.stdout).toBe('');
    const asJson = await api(['/categories/99/', '--json', '--include']);
    expect(asJson.stdout).toBe('');
    expect(asJson.stderr).toMatch(/^HTTP\/1\.1 404 Not Found\n/);
    expect(JSON.parse(asJson.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { status: 404, body: { detail: 'Not found.' } } });
    const forbidden = await api(['/webhooks/1/'], { STORE_ADMIN_TOKEN: 'reader' });
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toContain('webhooks:read');
  });

  it('--include prints the status line and headers first', async () => {
    const r = await api(['/categories/1/', '--include']);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\ncontent-type: application\/json\n/);
    // The body follows a blank line, as the store sent it (its keys in the store's order).
    const [head, body] = r.stdout.split('\n\n');
    expect(head).toMatch(/\ncontent-length: \d+$/m);
    expect(JSON.parse(body!)).toMatchObject({ id: 1, name: 'Apparel' });
  });

  it('refuses reserved headers, bad fields and nested query fields', async () => {
    for (const [args, message] of [
      [['/categories/1/', '-H', 'Authorization: Bearer x'], /-H Authorization: set by the tool/],
      [['/categories/1/', '-H', 'X-Store-API-Version: 1'], /use --api-version/],
      [['/categories/1/', '-H', 'nonsense'], /-H takes "Name: value"/],
      [['/categories/1/', '-F', 'novalue'], /-F takes key=value/],
      [['/categories/1/', '-X', 'GET', '-F', 'a[b]=1'], /only plain values fit/],
      [['https://evil.example.com/x/'], /relative to \/api\/admin, not a URL/],
      [['/categories/1/', '-X', 'POST', '--paginate'], /--paginate goes with GET/],
    ] as const) {
      const r = await api([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('never prints the token, even when tracing', async () => {
    const r = await api(['/categories/1/', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(FULL_TOKEN);
    expect(r.stderr).toContain('authorization: Bearer ***');
    const dry = await api(['/categories/1/', '--dry-run']);
    expect(dry.json()).toMatchObject({ method: 'GET', url: `${ctx.sandbox.url}/api/admin/categories/1/` });
    expect(dry.json().headers['x-store-api-version']).toBe((await loadOperation('categoriesRetrieve')).version);
  });
});

describe('store-admin api --paginate', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  const seen: IncomingHttpHeaders[] = [];

  async function listServer(pages: (base: string) => unknown[]) {
    const server = createServer((req, res) => {
      seen.push(req.headers);
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(pages(base)[page]));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return base;
  }

  it('follows next links and prints one merged array', async () => {
    const base = await listServer((b) => [
      { next: `${b}/api/admin/orders/?cursor=1`, previous: null, results: [{ n: 1 }, { n: 2 }] },
      { next: `${b}/api/admin/orders/?cursor=2`, previous: `${b}/api/admin/orders/`, results: [{ n: 3 }] },
      { next: null, previous: `${b}/api/admin/orders/?cursor=1`, results: [{ n: 4 }] },
    ]);
    const r = await runCli(['api', '/orders/', '--api-version', '2024-04-01', '--paginate', '-f', 'status=open'], {
      env: { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: 'tok' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(seen.every((h) => h.authorization === 'Bearer tok' && h['x-store-api-version'] === '2024-04-01')).toBe(true);
  });

  it('-o ndjson prints each record of each page as one line, a query applying to each', async () => {
    const base = await listServer((b) => [
      { next: `${b}/api/admin/orders/?cursor=1`, results: [{ n: 1, s: 'a' }, { n: 2, s: 'b' }] },
      { next: null, results: [{ n: 3, s: 'c' }] },
    ]);
    const env = { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: 'tok' };
    const r = await runCli(['api', '/orders/', '--api-version', '2024-04-01', '--paginate', '-o', 'ndjson'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('{"n":1,"s":"a"}\n{"n":2,"s":"b"}\n{"n":3,"s":"c"}\n');
    const queried = await runCli(['api', '/orders/', '--api-version', '2024-04-01', '--paginate', '-o', 'ndjson', '-q', 's'], { env });
    expect(queried.stdout).toBe('"a"\n"b"\n"c"\n');
    const contradiction = await runCli(['api', '/orders/', '--api-version', '2024-04-01', '--json', '-o', 'ndjson'], { env });
    expect(contradiction.code).toBe(2);
    expect(contradiction.stderr).toContain('--json and --output ndjson contradict each other');
  });

  it('refuses a next link to another host', async () => {
    const base = await listServer(() => [{ next: 'https://elsewhere.example.com/api/admin/orders/?cursor=1', results: [{ n: 1 }] }]);
    const r = await runCli(['api', '/orders/', '--api-version', '2024-04-01', '--paginate'], {
      env: { STORE_ADMIN_BASE_URL: base, STORE_ADMIN_TOKEN: 'tok' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--paginate: not following https://elsewhere.example.com/api/admin/orders/: it is outside');
  });
});
