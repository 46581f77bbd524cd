// What webhooks listen lets in and keeps, and what a replay hands on: a request that does not
// address the listener by name (a page behind a rebound DNS name) or that a web page sends is
// refused before its body is read; the listen log stays within a size; a sender's credentials
// (Authorization, Cookie) are never kept, shown or sent again; a replay's URL keeps its password
// to itself; and the editor of `replay --edit` gets none of the tool's own variables.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendReceived, newReceivedId, readReceived, RECEIVED_KEPT_BYTES } from '../../src/webhooks/received-log.js';
import { startReceiver } from '../webhooks/receiver.js';
import { runCli, startCli, useConfigDir } from './run.js';

/** A raw POST, with the Host and headers the test chooses. */
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const delivery = (n: number) => JSON.stringify({ api_version: '2024-04-01', data: { id: n }, event_id: `00000000-0000-4000-8000-00000000000${n}`, event_type: 'customer.updated', object: 'customer' });

describe('webhooks listen: who may deliver', () => {
  const dir = useConfigDir();
  const env = { STORE_ADMIN_CONFIG_DIR: dir, STORE_ADMIN_TOKEN: 'tok_never_in_a_child_0123' };

  it('refuses a Host that is not its own and a request from a web page, 403, before reading it, and keeps none of them', async () => {
    const app = await startReceiver(() => 200);
    const listener = startCli(['webhooks', 'listen', '--forward-to', app.url], env);
    const [, url] = (await listener.printed('stderr', /Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    const port = new URL(url!).port;
    expect(await post(url!, delivery(1), { host: 'rebound.example.com' })).toBe(403);
    expect(await post(url!, delivery(2), { host: `rebound.example.com:${port}` })).toBe(403);
    expect(await post(url!, delivery(3), { origin: 'http://127.0.0.1:8080' })).toBe(403);
    expect(await post(url!, delivery(4), { 'sec-fetch-site': 'cross-site' })).toBe(403);
    await listener.printed('stderr', /refused a POST to \/: it comes from a web page \(cross-site\), and a store's deliveries never do/);
    expect(listener.out.stderr).toContain("refused a POST to /: its Host (rebound.example.com) is not this listener's address");
    // The app never saw them; a delivery addressed to the listener goes through.
    expect(await post(url!, delivery(5), { host: `localhost:${port}` })).toBe(200);
    await app.received(1);
    expect(app.requests).toHaveLength(1);
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    expect(readReceived({ STORE_ADMIN_CONFIG_DIR: dir }).map((entry) => JSON.parse(entry.body).data.id)).toEqual([5]);
    await app.close();
  });

  it("keeps a sender's Authorization and Cookie as ***: in the log, in deliveries show, in --json; a replay does not send them", async () => {
    const listener = startCli(['webhooks', 'listen', '--json'], env);
    const [, url] = (await listener.printed('stderr', /Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    expect(await post(url!, delivery(6), { authorization: 'Bearer someone-elses-token-123', cookie: 'session=someone-elses-cookie' })).toBe(200);
    const [line] = (await listener.printed('stdout', /^.*\n/))!;
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    expect(JSON.parse(line!).headers).toMatchObject({ authorization: '***', cookie: '***' });
    const log = readFileSync(join(dir, 'webhooks', 'received.jsonl'), 'utf8');
    expect(log).not.toMatch(/someone-elses/);
    const entry = readReceived({ STORE_ADMIN_CONFIG_DIR: dir }).at(-1)!;
    const shown = await runCli(['webhooks', 'deliveries', 'show', entry.id, '-o', 'table'], { env });
    expect(shown.stdout).toContain('  authorization: ***');
    expect(shown.stdout).not.toMatch(/someone-elses/);

    // Sent again to an app whose URL holds a password: the app gets no credential of the sender's,
    // and the password is neither printed nor kept.
    const app = await startReceiver(() => 200);
    const to = app.url.replace('http://', 'http://user:s3cret-pass@');
    const replay = await runCli(['webhooks', 'replay', entry.id, '--to', to, '-o', 'table'], { env });
    expect(replay.code, replay.stderr).toBe(0);
    const [got] = await app.received(1);
    expect(got!.headers.authorization ?? '').not.toMatch(/someone-elses/);
    expect(got!.headers.cookie).toBeUndefined();
    expect(replay.stdout + replay.stderr).not.toContain('s3cret-pass');
    expect(replay.stdout).toContain(`to ${app.url.replace('http://', 'http://user:***@')}`);
    expect(readFileSync(join(dir, 'webhooks', 'received.jsonl'), 'utf8')).not.toContain('s3cret-pass');
    await app.close();
  });

  it('gives the editor of replay --edit none of the tool\'s own variables', async () => {
    const entry = readReceived({ STORE_ADMIN_CONFIG_DIR: dir }).at(-1)!;
    const seen = join(dir, 'editor-env.txt');
    const editor = join(dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\nenv > "${seen}"\n`, { mode: 0o700 });
    const app = await startReceiver(() => 200);
    const replay = await runCli(['webhooks', 'replay', entry.id, '--to', app.url, '--edit'], { env: { ...env, EDITOR: editor, STORE_ADMIN_CLIENT_SECRET: 'client-secret-never-shared' } });
    expect(replay.code, replay.stderr).toBe(0);
    const environment = readFileSync(seen, 'utf8');
    expect(environment).toContain('EDITOR=');
    expect(environment).not.toMatch(/^STORE_ADMIN_/m);
    expect(environment).not.toMatch(/tok_never_in_a_child|client-secret-never-shared/);
    await app.close();
  });
});

describe("webhooks replay --to a URL with a password, with the sandbox's deliveries", () => {
  const dir = useConfigDir();
  const cli = (args: string[]) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir } });

  it('sends with it, but neither prints it nor keeps it in the delivery log', async () => {
    const app = await startReceiver(() => 200);
    expect((await cli(['webhooks', 'create', '--target', app.url, '--event', 'order.updated'])).code).toBe(0);
    expect((await cli(['webhooks', 'trigger', 'order.updated'])).code).toBe(0);
    const [attempt] = (await cli(['webhooks', 'deliveries', '--event', 'order.updated', '--json'])).json().filter((d: { target: string }) => d.target === app.url);
    const replay = await cli(['webhooks', 'replay', attempt.id, '--to', app.url.replace('http://', 'http://user:s3cret-pass@'), '-o', 'table']);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(`to ${app.url.replace('http://', 'http://user:***@')}`);
    const log = await cli(['webhooks', 'deliveries', '--json']);
    expect(log.stdout).not.toContain('s3cret-pass');
    expect(readFileSync(join(dir, 'sandbox-state.json'), 'utf8')).not.toContain('s3cret-pass');
    await app.close();
  });
});

describe('the listen log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-log-size-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stays within its size however large the deliveries, keeping the newest', async () => {
    const env = { STORE_ADMIN_CONFIG_DIR: dir };
    const large = 'x'.repeat(3 * 1024 * 1024);
    for (let n = 0; n < 12; n++) {
      await appendReceived(env, { id: newReceivedId(), at: new Date().toISOString(), url: 'http://127.0.0.1:1/', headers: {}, body: `${n} ${large}`, event_type: null, event_id: null, status: 200 });
    }
    const size = statSync(join(dir, 'webhooks', 'received.jsonl')).size;
    expect(size).toBeLessThanOrEqual(16 * 1024 * 1024 + large.length + 1024);
    const kept = readReceived(env).map((entry) => Number(entry.body.split(' ')[0]));
    expect(kept.at(-1)).toBe(11);
    expect(kept.length).toBeLessThan(12);
    // A delivery larger than what is kept still stays, as the newest.
    await appendReceived(env, { id: newReceivedId(), at: new Date().toISOString(), url: 'http://127.0.0.1:1/', headers: {}, body: `12 ${'y'.repeat(RECEIVED_KEPT_BYTES + 1)}`, event_type: null, event_id: null, status: 200 });
    expect(readReceived(env).at(-1)!.body.startsWith('12 ')).toBe(true);
  });
});
