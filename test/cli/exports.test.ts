// The export flow for CI, as a user runs it: the CLI against a sandbox whose exports start pending
// and turn available after the sandbox's delay. A command that waits runs in process with its
// clock on the sandbox's (sandboxClock): it sees `pending` and polls on its schedule, and each of
// its pauses moves the sandbox's clock instead of passing in wall time.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runWaiting } from './in-process.js';
import { BIN, runCli, useConfigDir } from './run.js';

const CREATE = ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31'];
const CSV_HEADER = /^number,date_placed,status,/;

describe('exports create --wait / --download', () => {
  // Pending for the sandbox's default 5 s: polled at 2, 4 and 6 s of its clock.
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], cwd?: string) => runCli(args, { env: env(), cwd });
  const wait = (args: string[]) => runWaiting(ctx.sandbox, args, env());
  const created = () => ctx.sandbox.counters.byOperation['exportsCreate']?.received ?? 0;

  it('waits for a pending export and downloads it to a file', async () => {
    const file = join(dir, 'orders.csv');
    const gets = ctx.sandbox.counters.byOperation['exportsRetrieve']?.received ?? 0;
    const r = await wait([...CREATE, '--download', file]);
    expect(r.code, r.stderr).toBe(0);
    const shown = r.json();
    expect(shown).toMatchObject({ status: 'available', url: `${ctx.sandbox.url}/api/admin/exports/${shown.id}/` });
    expect(r.stderr).toContain(`Export ${shown.id} is pending; waiting until it is available (at most 30m00s)`);
    expect(r.stderr).toContain(`Saved export ${shown.id} to ${file}`);
    expect(readFileSync(file, 'utf8')).toMatch(CSV_HEADER);
    // After 2 s, then every half of the time waited but at least 2 s: still pending at 2 and 4, available at 6.
    expect(r.waits).toEqual([2000, 2000, 2000]);
    expect(ctx.sandbox.counters.byOperation['exportsRetrieve']?.received).toBe(gets + 3);
    expect(readdirSync(dir).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('--wait alone prints the export once it is available', async () => {
    const r = await wait([...CREATE, '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().status).toBe('available');
  });

  it('--download - streams the CSV to stdout and creates no file named -', async () => {
    const r = await wait([...CREATE, '--download', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(CSV_HEADER);
    expect(r.stdout).toContain('10001');
    expect(existsSync('-')).toBe(false);
  });

  it('refuses to overwrite a file without --force, before creating the export', async () => {
    const file = join(dir, 'existing.csv');
    writeFileSync(file, 'keep me');
    const before = created();
    const r = await cli([...CREATE, '--download', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`store-admin: ${file} already exists`);
    expect(r.stderr).toContain('hint: Pass --force to replace it');
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    expect(created()).toBe(before);
    const forced = await wait([...CREATE, '--download', file, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(CSV_HEADER);
  });

  it('checks the directory before the export is created', async () => {
    const file = join(dir, 'no-such-dir', 'orders.csv');
    const before = created();
    const r = await cli([...CREATE, '--download', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`store-admin: Cannot save to ${file}: the directory ${join(dir, 'no-such-dir')} does not exist`);
    expect(created()).toBe(before);
  });

  it('flags that go with --download or --wait alone are usage errors', async () => {
    const force = await cli([...CREATE, '--force']);
    expect(force.code).toBe(2);
    expect(force.stderr).toContain('--force goes with --download');
    const timeout = await cli([...CREATE, '--wait-timeout', '10m']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--wait-timeout goes with --wait or --download');
    const bad = await cli([...CREATE, '--wait', '--wait-timeout', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('takes a duration such as 90s, 10m or 1h');
  });

  it('exports get and exports download work on an existing export', async () => {
    const got = await cli(['exports', 'get', '1']);
    expect(got.json()).toMatchObject({ id: 1, status: 'available' });
    const piped = await cli(['exports', 'download', '1', '--output-file', '-']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(CSV_HEADER);
    const cwd = join(dir, 'default-name');
    mkdirSync(cwd);
    const saved = await cli(['exports', 'download', '1'], cwd);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.json()).toMatchObject({ export_id: 1, path: 'export-1.csv', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(readFileSync(join(cwd, 'export-1.csv'), 'utf8')).toMatch(CSV_HEADER);
    const again = await cli(['exports', 'download', '1'], cwd);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('export-1.csv already exists');
  });
});

describe('a pending export that takes long', () => {
  const ctx = useSandbox({ exportDelaySeconds: 600 });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });

  it('Ctrl-C while waiting exits 130 and names the export to fetch later', async () => {
    const child = spawn(process.execPath, [BIN, ...CREATE, '--download', join(dir, 'later.csv')], { env: { PATH: process.env.PATH, ...env() }, stdio: 'pipe' });
    let stderr = '';
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('waiting until it is available')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await waiting;
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const id = /Export (\d+) is pending/.exec(stderr)?.[1];
    expect(id).toBeDefined();
    expect(stderr).toContain(`store-admin: Stopped waiting for export ${id}; the export itself goes on`);
    // The hint keeps the user's file, and works on the pending export: it waits first.
    expect(stderr).toContain(`hint: Fetch it later: store-admin exports download ${id} --wait --output-file ${join(dir, 'later.csv')}`);
    expect(existsSync(join(dir, 'later.csv'))).toBe(false);
  });

  it('--wait-timeout gives up with exit 5, naming the export and how to finish', async () => {
    const r = await runWaiting(ctx.sandbox, [...CREATE, '--download', join(dir, 'my orders.csv'), '--wait-timeout', '1s'], env());
    expect(r.code).toBe(5);
    // The first poll would come after 2 s: the wait ends at its deadline instead.
    expect(r.waits).toEqual([1000]);
    const id = /Export (\d+) is pending/.exec(r.stderr)?.[1];
    expect(r.stderr).toContain(`store-admin: Gave up waiting for export ${id} after 1s: it is still pending`);
    expect(r.stderr).toContain(`hint: The export goes on; fetch it later: store-admin exports download ${id} --wait --output-file '${join(dir, 'my orders.csv')}'`);
    const json = await runWaiting(ctx.sandbox, [...CREATE, '--wait', '--wait-timeout', '1s', '--json'], env());
    expect(json.code).toBe(5);
    expect(json.stderr).toMatch(/"exitCode":5,"type":"TimedOutError"/);
  });

  it('exports download --wait gives up the same way on a pending export', async () => {
    const { id } = (await runCli(CREATE, { env: env() })).json();
    const r = await runWaiting(ctx.sandbox, ['exports', 'download', String(id), '--wait', '--wait-timeout', '1s', '--output-file', join(dir, 'x.csv')], env());
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`store-admin: Gave up waiting for export ${id} after 1s: it is still pending`);
    expect(ctx.sandbox.counters.byOperation['exportsDownloadRetrieve']?.received ?? 0).toBe(0);
    const lone = await runCli(['exports', 'download', String(id), '--wait-timeout', '1s'], { env: env() });
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('--wait-timeout goes with --wait');
  });

  it('downloading a pending export is a 400 with a clear detail', async () => {
    const created = await runCli(CREATE, { env: env() });
    const { id } = created.json();
    const r = await runCli(['exports', 'download', String(id), '--output-file', '-'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`store-admin: Export ${id} is still pending; its file can be downloaded once its status is "available". (HTTP 400)`);
    expect(r.stdout).toBe('');
  });
});

describe('signed links that expire on the way', () => {
  const ctx = useSandbox({ faults: { expiredLinks: 1, seed: 1 } });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });

  it('an expired link is fetched again through exports.download', async () => {
    const file = join(dir, 'fresh.csv');
    const r = await runCli(['exports', 'download', '1', '--output-file', file], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('The download link of export 1 was refused (expired?); asking for a fresh one');
    expect(ctx.sandbox.counters.faults['expired-link']).toBe(1);
    expect(ctx.sandbox.counters.byOperation['exportsDownloadRetrieve']?.received).toBe(2);
    expect(readFileSync(file, 'utf8')).toMatch(CSV_HEADER);
  });
});

describe('links that never work', () => {
  const ctx = useSandbox({ faults: { expiredLinks: 100, seed: 1 } });
  const dir = useConfigDir();

  it('gives up after three links, writes nothing, exit 1', async () => {
    const file = join(dir, 'never.csv');
    const r = await runCli(['exports', 'download', '1', '--output-file', file], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('store-admin: The download link was refused (403): it has expired or its signature is not valid');
    expect(ctx.sandbox.counters.byOperation['exportsDownloadRetrieve']?.received).toBe(3);
    expect(readdirSync(dir).filter((name) => name.includes('never'))).toEqual([]);
  });
});

describe('a download cut short', () => {
  // A store whose file link announces 1 MB, sends a little and hangs up.
  let server: Server;
  const dir = useConfigDir();
  afterAll(() => server?.close());

  it('leaves no partial file and names the user\'s file', async () => {
    server = createServer((req, res) => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (req.url === '/api/admin/exports/7/download/') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ url: `${origin}/media/store/export_csv/orders.csv?signature=x` }));
      } else {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(1024 * 1024) });
        res.write('number,date_placed\n10001,2026-01-11\n', () => res.destroy());
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const file = join(dir, 'cut.csv');
    const r = await runCli(['exports', 'download', '7', '--output-file', file], {
      env: { STORE_ADMIN_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, STORE_ADMIN_TOKEN: 't', STORE_ADMIN_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(1);
    const line = r.stderr.split('\n').find((l) => l.startsWith('store-admin:'));
    expect(line).toMatch(new RegExp(`^store-admin: Cannot save the export to ${file}: `));
    expect(line).not.toContain('.part');
    expect(readdirSync(dir).filter((name) => name.includes('cut'))).toEqual([]);
  });
});

describe('the embedded sandbox keeps exports across commands', () => {
  const dir = useConfigDir();
  const cli = (args: string[]) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_SANDBOX_EXPORT_DELAY: '1' } });

  it('an export created by one command turns available, on the sandbox clock, for the next ones', async () => {
    const created = await cli(CREATE);
    expect(created.json().status).toBe('pending');
    const { id } = created.json();
    // The clock reads whole seconds, so an advance of 2s moves it on 1 s at least: past the delay.
    const moved = await cli(['sandbox', 'clock', 'advance', '2s']);
    expect(moved.json().exports).toEqual([expect.objectContaining({ id })]);
    expect((await cli(['exports', 'get', String(id)])).json().status).toBe('available');
    const downloaded = await cli(['exports', 'download', String(id), '--output-file', '-']);
    expect(downloaded.code, downloaded.stderr).toBe(0);
    expect(downloaded.stdout).toMatch(CSV_HEADER);
  });

  it('a bad STORE_ADMIN_SANDBOX_EXPORT_DELAY is a usage error', async () => {
    const r = await runCli(['--sandbox', 'exports', 'types'], { env: { STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_SANDBOX_EXPORT_DELAY: 'soon' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('STORE_ADMIN_SANDBOX_EXPORT_DELAY takes seconds');
  });
});
