// Hostile values on the command line and in input files: no value may send a request somewhere
// else, and input that cannot be a store's data is a usage error before anything is sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('path values', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], stdin?: string) => runCli(args, { env: env(), stdin });

  it('refuses "." and ".." as a path value, in arguments and in --each lines, and sends nothing', async () => {
    const before = ctx.sandbox.counters.received;
    const dots = await cli(['orders', 'remove-line', '..', '101', '--yes']);
    expect(dots.code).toBe(2);
    expect(dots.stderr).toContain('<number>: cannot be "." or ".." (it would change the request\'s path) (got "..")');
    const one = await cli(['apps', 'update-settings', '.', '--set', 'x=1', '--yes']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('<client-id>: cannot be "." or ".."');
    const each = await cli(['orders', 'add-note', '--each', '-', '--message', 'hi'], '10001\n..\n');
    expect(each.code).toBe(2);
    expect(each.stderr).toContain('line 2: <number>: cannot be "." or ".."');
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('encodes / ? # % and control characters so the value stays one segment, as --dry-run shows', async () => {
    const value = 'a/b?c#d%e\u0007f ..';
    const dry = await cli(['apps', 'update-settings', value, '--set', 'x=1', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json().url).toBe(`${ctx.sandbox.url}/api/admin/apps/a%2Fb%3Fc%23d%25e%07f%20../settings/`);
    const before = ctx.sandbox.counters.byOperation['appsSettingsPartialUpdate']?.received ?? 0;
    const sent = await cli(['apps', 'update-settings', value, '--set', 'x=1', '--yes']);
    // The request reached the settings route of that one app id, whatever the store answered.
    expect(ctx.sandbox.counters.byOperation['appsSettingsPartialUpdate']?.received).toBe(before + 1);
    expect(sent.stderr).not.toMatch(/unexpected/i);
  });

  it('accepts an order number copied from the dashboard with its "#"', async () => {
    const r = await cli(['orders', 'remove-line', '#10001', '102', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().url).toBe(`${ctx.sandbox.url}/api/admin/orders/10001/lines/102/`);
  });

  // A URI (the reference's format) has no space or control character (api/schemas/web-address.ts).
  it('refuses webhook targets with spaces or control characters', async () => {
    const before = ctx.sandbox.counters.received;
    for (const target of ['https://hooks.example.com/a b', 'https://hooks.example.com/a\tb', 'https://hooks.example.com/\u001bx']) {
      const r = await cli(['webhooks', 'create', '--target', target, '--event', 'order.created']);
      expect(r.code, target).toBe(2);
      expect(r.stderr).toMatch(/^store-admin: --target: /);
    }
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('makes JSON nested thousands deep a usage error in --metadata, --data, --set and api input', async () => {
    const before = ctx.sandbox.counters.received;
    const file = join(dir, 'deep.json');
    writeFileSync(file, deep(5000));
    const runs = [
      ['disputes', 'create', '--metadata', deep(5000), '--yes'],
      ['subscriptions', 'update', '2', '--data', `@${file}`, '--yes'],
      ['apps', 'update-settings', 'app-1', '--set', `x=${deep(5000)}`, '--yes'],
      ['api', '/subscriptions/2/', '-X', 'PATCH', '--input', file],
      ['api', '/subscriptions/2/', '-X', 'PATCH', '-F', `a${'[b]'.repeat(5000)}=1`],
    ];
    for (const args of runs) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/nested more than 100 levels deep/);
      expect(r.stderr).not.toMatch(/stack|unexpected/i);
    }
    // 100 levels is still data.
    const fine = await cli(['disputes', 'create', '--metadata', deep(99), '--dry-run']);
    expect(fine.code, fine.stderr).toBe(0);
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('says where a JSON file breaks without quoting what it holds: it may be a file of secrets', async () => {
    const before = ctx.sandbox.counters.received;
    const shadow = join(dir, 'shadow');
    writeFileSync(shadow, 'root:*:20250:0:99999:7:::\ndaemon:*:20250:0:99999:7:::\n');
    const token = join(dir, 'token.json');
    writeFileSync(token, '{\n  "token": tok_live_9f8e7d6c5b4a\n}\n');
    const cases: [string[], string][] = [
      [['customers', 'update', '1', '--metadata', `@${shadow}`], '--metadata: not valid JSON (line 1, column 1)'],
      [['subscriptions', 'update', '2', '--data', `@${token}`], '--data: not valid JSON (line 2, column 12)'],
      [['webhooks', 'apply', '-f', token], `${token}: not valid JSON (line 2, column 12)`],
      [['customers', 'update', '1', '--metadata', '{"a": secret-value}'], '--metadata: not valid JSON (line 1, column 7)'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`store-admin: ${message}`);
      expect(r.stderr).not.toMatch(/root:|tok_live|secret-value/);
    }
    const piped = await cli(['subscriptions', 'update', '2', '--data', '-'], '{"token": "tok_live_9f8e7d6c5b4a"');
    expect(piped.stderr.split('\n')[0]).toBe('store-admin: --data: not valid JSON (it ends early, at line 1, column 34)');
    expect(ctx.sandbox.counters.received).toBe(before);
  });
});

describe('inputs read from files', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], stdin?: string) => runCli(args, { env: env(), stdin });

  it('refuses directories and devices, files over the cap, and an empty secret key file', async () => {
    const before = ctx.sandbox.counters.received;
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const big = join(dir, 'big.txt');
    writeFileSync(big, Buffer.alloc(16 * 1024 * 1024 + 1, 'a'));
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n');
    const cases: [string[], string][] = [
      [['orders', 'add-note', '10001', '--message-file', folder], `--message-file: ${folder} is a directory, not a file`],
      [['orders', 'add-note', '10001', '--message-file', '/dev/zero'], '--message-file: /dev/zero is a device, not a file'],
      [['subscriptions', 'update', '2', '--data', '@/dev/urandom'], '--data: /dev/urandom is a device, not a file'],
      [['api', '/webhooks/', '-F', `name=@${folder}`, '-f', 'target=https://h.example.com/'], `-F: ${folder} is a directory, not a file`],
      [['api', '/subscriptions/2/', '-X', 'PATCH', '--input', folder], `--input: ${folder} is a directory, not a file`],
      [['orders', 'add-note', '10001', '--message-file', big], `--message-file: ${big} is larger than 16 MB`],
      [['webhooks', 'create', '--target', 'https://h.example.com/', '--event', 'order.created', '--secret-key-file', empty], `--secret-key-file: ${empty} is empty`],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`store-admin: ${message}`);
    }
    const piped = await cli(['orders', 'add-note', '10001', '--message-file', '-'], 'x'.repeat(16 * 1024 * 1024 + 1));
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('--message-file: standard input is larger than 16 MB');
    expect(ctx.sandbox.counters.received).toBe(before);
  });
});

describe('api --paginate against a store that links elsewhere', () => {
  let server: Server;
  let base = '';
  const seen: string[] = [];
  const dir = useConfigDir();
  // Each path answers a page whose `next` is given by the test's table.
  const pages: Record<string, unknown> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.url ?? '');
      const next = pages[new URL(req.url ?? '/', 'http://x').pathname];
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ results: [req.url], next }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/store-a`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const api = (path: string) =>
    runCli(['api', path, '--paginate', '--api-version', '2024-04-01'], {
      env: { STORE_ADMIN_BASE_URL: `${base}/api/admin`, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
    });

  it('follows links under the store\'s API root and no others', async () => {
    const origin = base.replace('/store-a', '');
    pages['/store-a/api/admin/list/'] = `${base}/api/admin/list/2/`;
    pages['/store-a/api/admin/list/2/'] = null;
    const ok = await api('/list/');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json()).toEqual(['/store-a/api/admin/list/', '/store-a/api/admin/list/2/']);

    for (const [name, next] of [
      ['other-store', `${origin}/store-b/api/admin/list/`],
      ['dot-segments', `${base}/api/admin/../../store-b/api/admin/list/`],
      ['encoded-dots', `${base}/api/admin/%2e%2e/%2E%2E/store-b/`],
      ['outside-api', `${base}/admin/list/`],
    ] as const) {
      pages[`/store-a/api/admin/${name}/`] = next;
      seen.length = 0;
      const r = await api(`/${name}/`);
      expect(r.code, name).toBe(1);
      expect(r.stderr.split('\n')[0]).toMatch(/^store-admin: --paginate: not following .* it is outside .*\/store-a\/api\/admin\/, and the token would go with it$/);
      expect(seen).toEqual([`/store-a/api/admin/${name}/`]);
    }
  });

  it('says a non-string next link is not a URL', async () => {
    pages['/store-a/api/admin/numeric/'] = 123;
    const r = await api('/numeric/');
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('store-admin: --paginate: the store\'s "next" link is not a URL (got 123)');
  });
});
