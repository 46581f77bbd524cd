// Every delivery kept, and sent again: the built CLI with the embedded sandbox, apps on real
// sockets, and an editor that is a script. A failing handler's deliveries are listed, the handler
// fixed, the delivery replayed; the listen log keeps what a listener received for the same.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendReceived, newReceivedId } from '../../src/webhooks/received-log.js';
import { webhookHmac } from '../../src/api/webhook-signature.js';
import { independentDumps } from '../webhooks/python.js';
import { startReceiver } from '../webhooks/receiver.js';
import { runCli, startCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

const SECRET = 'whsec_replay_test';
const platformSignature = (body: string, secret = SECRET) => webhookHmac(independentDumps(JSON.parse(body)), secret);

describe('webhooks deliveries and replay with --sandbox', () => {
  const dir = useConfigDir();
  const editor = join(dir, 'edit-body.sh');
  const cli = (args: string[], env: Record<string, string> = {}) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir, ...env } });

  it("a failing handler's deliveries are listed, shown, and replayed once it is fixed", async () => {
    let fixed = false;
    const app = await startReceiver(() => (fixed ? 200 : 500));
    const { id } = (await cli(['webhooks', 'create', '--target', app.url, '--event', 'order.updated', '--secret-key', SECRET])).json();
    expect((await cli(['webhooks', 'trigger', 'order.updated'])).code).toBe(0);
    expect(app.requests).toHaveLength(1);

    const failed = await cli(['webhooks', 'deliveries', '--failed', '--webhook', String(id), '--json']);
    expect(failed.code).toBe(0);
    const [attempt] = failed.json();
    expect(attempt).toMatchObject({ id: expect.stringMatching(/^dlv_\d+$/), webhook: id, event_type: 'order.updated', attempt: 1, status: 500, ok: false, target: app.url });
    expect(attempt.next_attempt_at).toMatch(/^2026-02-02T09:05:/);
    // Exactly what went out: the bytes and the headers.
    const sent = app.requests[0]!;
    expect(attempt.body).toBe(sent.body.toString('utf8'));
    for (const name of ['content-type', 'content-length', 'user-agent', 'x-store-signature']) expect(attempt.headers[name]).toBe(sent.headers[name]);
    expect(attempt.event_id).toBe(sent.json.event_id);

    const table = await cli(['webhooks', 'deliveries', '--webhook', String(id), '-o', 'table']);
    expect(table.stdout).toContain(attempt.id);
    const shown = await cli(['webhooks', 'deliveries', 'show', attempt.id, '-o', 'table']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^Delivery ${attempt.id}: order\\.updated ${attempt.event_id} to webhook ${id}, attempt 1\\n`));
    expect(shown.stdout).toContain('Signature     ✓ (re-serialised body)');
    expect(shown.stdout).toContain(`  x-store-signature: ${sent.headers['x-store-signature']}`);
    expect(shown.stdout).toContain(`Body\n${JSON.stringify(sent.json, null, 2)}\n`);
    expect((await cli(['webhooks', 'deliveries', 'show', attempt.id, '--json'])).json().signature_check).toEqual({ signed: true, checked: true, valid: true, matched: 'python-json' });
    for (const out of [failed.stdout, table.stdout, shown.stdout]) expect(out).not.toContain(SECRET);

    // Fixed: the same bytes and headers go to the same target, recorded as a replay.
    fixed = true;
    const replay = await cli(['webhooks', 'replay', attempt.id, '-o', 'table']);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(new RegExp(`^Replayed ${attempt.id} as dlv_\\d+ to ${app.url}: 200\\.\\n$`));
    expect(app.requests).toHaveLength(2);
    expect(app.requests[1]!.body.equals(sent.body)).toBe(true);
    expect(app.requests[1]!.headers['x-store-signature']).toBe(sent.headers['x-store-signature']);
    const all = (await cli(['webhooks', 'deliveries', '--webhook', String(id), '--json'])).json();
    // Newest first. A replay is no try of the platform's: it keeps the number of the attempt it sent again.
    expect(all[0]).toMatchObject({ replay_of: attempt.id, attempt: 1, status: 200, ok: true, next_attempt_at: null });
    await app.close();
  });

  it('--to sends to a local app instead; --edit opens $EDITOR on the body and signs the edit with the webhook secret', async () => {
    const local = await startReceiver(() => 200);
    const [attempt] = (await cli(['webhooks', 'deliveries', '--failed', '--event', 'order.updated', '--json'])).json().filter((d: { target: string }) => d.target.startsWith('http://127.0.0.1'));
    // The editor is a script: it changes the order's number in the pretty-printed body.
    writeFileSync(editor, '#!/bin/sh\nsed -i \'s/"number": "10001"/"number": "99999"/\' "$1"\n');
    chmodSync(editor, 0o700);
    const replay = await cli(['webhooks', 'replay', attempt.id, '--to', local.url, '--edit', '--json'], { EDITOR: editor });
    expect(replay.code).toBe(0);
    const [got] = await local.received(1);
    expect(got!.json.data.number).toBe('99999');
    const body = got!.body.toString('utf8');
    expect(body).toBe(JSON.stringify({ ...JSON.parse(attempt.body), data: { ...JSON.parse(attempt.body).data, number: '99999' } }));
    expect(got!.headers['x-store-signature']).toBe(platformSignature(body));
    expect(replay.json()).toMatchObject({ replay_of: attempt.id, target: local.url, status: 200, body });
    expect(replay.stdout).not.toContain(SECRET);

    // An editor that fails, or an edit that is not JSON, sends nothing.
    writeFileSync(editor, '#!/bin/sh\nexit 3\n');
    const quit = await cli(['webhooks', 'replay', attempt.id, '--to', local.url, '--edit'], { EDITOR: editor });
    expect(quit.code).toBe(2);
    expect(quit.stderr).toContain('exited with 3; nothing was sent');
    writeFileSync(editor, '#!/bin/sh\necho "{ not json" > "$1"\n');
    const broken = await cli(['webhooks', 'replay', attempt.id, '--to', local.url, '--edit'], { EDITOR: editor });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('the edited body is not valid JSON (line 1, column 3); nothing was sent');
    expect(local.requests).toHaveLength(1);
    await local.close();
  });

  it('refuses what it cannot do, each with its exit code', async () => {
    const cases: [string[], number, string][] = [
      [['webhooks', 'deliveries', 'show', 'dlv_9999'], 1, 'Delivery dlv_9999 not found.'],
      [['webhooks', 'deliveries', 'show', '12'], 2, '"12" is not a delivery id'],
      [['webhooks', 'deliveries', '--webhook', 'abc'], 2, '--webhook takes a webhook id, a whole number (got "abc")'],
      [['webhooks', 'deliveries', '--received', '--webhook', '2'], 2, '--webhook does not apply to --received'],
      [['webhooks', 'replay', 'dlv_9999'], 1, 'Delivery dlv_9999 not found.'],
      [['webhooks', 'replay', 'dlv_1', '--to', 'http://10.0.0.8:9/h'], 2, 'http:// only to this machine'],
      [['webhooks', 'replay', 'dlv_1', '--edit'], 2, '--edit opens $EDITOR (or $VISUAL) on the body, and neither is set'],
      [['webhooks', 'replay', 'dlv_1', '--dry-run'], 2, 'it has no --dry-run'],
    ];
    for (const [args, code, message] of cases) {
      const r = await cli(args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([code, expect.stringContaining(message)]);
    }
  });
});

describe('the listen log', () => {
  const dir = useConfigDir();
  const secretFile = join(dir, 'secret.txt');

  it('keeps what webhooks listen received (0600), lists and shows it, and replays it re-signed with --secret-file', async () => {
    writeFileSync(secretFile, `${SECRET}\n`);
    const listener = startCli(['webhooks', 'listen'], { STORE_ADMIN_CONFIG_DIR: dir });
    const [, url] = (await listener.printed('stderr', /Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    // A delivery as a real store sends it: compact JSON, signed over its Python re-serialisation.
    const body = JSON.stringify({ api_version: '2024-04-01', data: { id: 7, name: 'Zoë' }, event_id: '6f1c2b1e-8a55-4d5e-9a43-0d7f4d2c8b10', event_type: 'customer.updated', object: 'customer', webhook: { id: 3 } });
    const status = await post(`${url}store-events`, body, { 'content-type': 'application/json', 'x-store-signature': platformSignature(body) });
    expect(status).toBe(200);
    await listener.printed('stdout', /customer\.updated/);
    listener.interrupt();
    expect(await listener.exited).toBe(0);

    const log = join(dir, 'webhooks', 'received.jsonl');
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'webhooks')).mode & 0o777).toBe(0o700);
    const env = { STORE_ADMIN_CONFIG_DIR: dir };
    const [entry] = (await runCli(['webhooks', 'deliveries', '--received', '--json'], { env })).json();
    expect(entry).toMatchObject({ id: expect.stringMatching(/^rcv_/), url: `${url}store-events`, body, event_type: 'customer.updated', status: 200 });
    expect(entry.headers['x-store-signature']).toBe(platformSignature(body));
    expect(readFileSync(log, 'utf8')).not.toContain(SECRET);

    const unchecked = await runCli(['webhooks', 'deliveries', 'show', entry.id, '-o', 'table'], { env });
    expect(unchecked.stdout).toContain('Signature  not checked (no --secret-file)');
    const checked = await runCli(['webhooks', 'deliveries', 'show', entry.id, '--secret-file', secretFile, '--json'], { env });
    expect(checked.json().signature_check).toEqual({ signed: true, checked: true, valid: true, matched: 'python-json' });

    // Replayed to a local app, edited: signed again with the secret from the file, and logged as a replay.
    const app = await startReceiver(() => 200);
    const editor = join(dir, 'edit.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i \'s/"id": 7/"id": 8/\' "$1"\n', { mode: 0o700 });
    const unsigned = await runCli(['webhooks', 'replay', entry.id, '--to', app.url, '--edit'], { env: { ...env, EDITOR: editor } });
    expect(unsigned.code).toBe(2);
    expect(unsigned.stderr).toContain('a delivery from the listen log needs the secret for that');
    const replay = await runCli(['webhooks', 'replay', entry.id, '--to', app.url, '--edit', '--secret-file', secretFile, '-o', 'table'], { env: { ...env, EDITOR: editor } });
    expect(replay.code).toBe(0);
    const [got] = await app.received(1);
    expect(got!.json.data.id).toBe(8);
    expect(got!.headers['x-store-signature']).toBe(platformSignature(got!.body.toString('utf8')));
    const after = (await runCli(['webhooks', 'deliveries', '--received', '--json'], { env })).json();
    expect(after[0]).toMatchObject({ replay_of: entry.id, sent_to: app.url, status: 200 });
    await app.close();
  });
});

describe('the delivery lists: newest first, as many as asked, whole at 80 and 120 columns', () => {
  const dir = useConfigDir();
  const env = { STORE_ADMIN_CONFIG_DIR: dir };
  const cli = (args: string[]) => runCli(['--sandbox', ...args], { env });
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));
  /** The table's lines as a terminal of `width` columns shows them (colour on: its headers as people see them). */
  async function tableAt(width: number, args: string[]): Promise<string[]> {
    const terminal = Terminal.start(args, { ...env, STORE_ADMIN_PAGER: '', NO_COLOR: '' }, { width, height: 60 });
    terminals.push(terminal);
    expect(await terminal.exitCode()).toBe(0);
    const screen = terminal.screen();
    return screen.slice(0, screen.indexOf('EXIT:')).split('\n').filter((line) => /^[│┌└]/.test(line)).map((line) => line.trimEnd());
  }
  /** Each row on one line, framed, within the width, holding its record's id, event, day and time whole. */
  function expectWhole(lines: string[], width: number, records: { id: string; event: string; at: string }[]) {
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(width);
    expect(lines.every((line) => /[│┐┘]$/.test(line))).toBe(true);
    const rows = lines.slice(2, -1);
    expect(rows).toHaveLength(records.length);
    records.forEach((record, i) => {
      const cells = rows[i]!.split('│').map((cell) => cell.trim());
      expect(cells.slice(1, 5)).toEqual([record.id, record.at.slice(5, 10), record.at.slice(11, 16), record.event]);
    });
  }

  it('lists the newest attempts first, --limit of them, and --since a time of the sandbox clock', async () => {
    const app = await startReceiver(() => 500);
    expect((await cli(['webhooks', 'create', '--target', app.url, '--event', 'subscription.updated', '--event', 'order.created'])).code).toBe(0);
    expect((await cli(['subscriptions', 'renew', '1', '--yes'])).code).toBe(0);
    // Four days run the whole retry schedule of every delivery the renewal caused.
    expect((await cli(['sandbox', 'clock', 'advance', '4d'])).code).toBe(0);
    const all = (await cli(['webhooks', 'deliveries', '--limit', '1000', '--json'])).json() as { id: string; attempt: number }[];
    const numbers = all.map((d) => Number(d.id.slice(4)));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(all.length).toBeGreaterThan(30);

    const byDefault = await cli(['webhooks', 'deliveries', '--json']);
    expect(byDefault.json()).toEqual(all.slice(0, 30));
    expect(byDefault.stderr).toContain(`The newest 30 of ${all.length} are shown; --limit ${all.length} shows them all.`);
    expect((await cli(['webhooks', 'deliveries', '--limit', '3', '--json'])).json()).toEqual(all.slice(0, 3));
    // The last retries came 10 h 45 min before the clock's time: 12 hours hold them alone.
    const recent = (await cli(['webhooks', 'deliveries', '--since', '12h', '--json'])).json() as { attempt: number }[];
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((d) => d.attempt === 11)).toBe(true);
    expect(recent).toEqual(all.slice(0, recent.length));
    for (const [flags, message] of [[['--limit', '0'], '--limit'], [['--limit', 'all'], '--limit'], [['--since', 'yesterday'], '--since']] as const) {
      const r = await cli(['webhooks', 'deliveries', ...flags]);
      expect([r.code, r.stderr], flags.join(' ')).toEqual([2, expect.stringContaining(message)]);
    }
    await app.close();
  });

  it.runIf(hasTmux)("shows each attempt's id, event, day and time whole, under title-cased headers", async () => {
    const records = ((await cli(['webhooks', 'deliveries', '--limit', '12', '--json'])).json() as { id: string; event_type: string; sent_at: string }[]).map(
      (d) => ({ id: d.id, event: d.event_type, at: d.sent_at }),
    );
    expect(records.map((r) => r.event)).toContain('subscription.updated');
    for (const width of [80, 120]) {
      const lines = await tableAt(width, ['--sandbox', 'webhooks', 'deliveries', '--limit', '12']);
      const headers = lines[1]!.split('│').map((cell) => cell.trim()).filter(Boolean);
      // What does not fit 80 columns goes whole: the retry's wait, then the webhook.
      expect(headers).toEqual(width === 80 ? ['ID', 'Date', 'Time', 'Event', 'Attempt', 'Answer'] : ['ID', 'Date', 'Time', 'Event', 'Webhook', 'Attempt', 'Answer', 'Retry']);
      expectWhole(lines, width, records);
    }
  });

  it.runIf(hasTmux)("shows what webhooks listen received the same way, each rcv_ id whole", async () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 1, 2, 9, minutes)).toISOString();
    const received = ['subscription.updated', 'fulfillment.updated', 'customer.created'].map((event, i) => ({
      id: newReceivedId(), at: at(i), url: 'http://127.0.0.1:4000/', headers: {}, body: '{}', event_type: event, event_id: null, status: 200,
    }));
    const replay = { ...received[0]!, id: newReceivedId(), at: at(5), replay_of: received[0]!.id, sent_to: 'http://localhost:3000/hooks' };
    for (const entry of [...received, replay]) await appendReceived(env, entry, Date.parse(entry.at));
    const newest = [replay, ...received.reverse()].map((e) => ({ id: e.id, event: e.event_type, at: e.at }));
    for (const width of [80, 120]) {
      const lines = await tableAt(width, ['webhooks', 'deliveries', '--received']);
      const headers = lines[1]!.split('│').map((cell) => cell.trim()).filter(Boolean);
      expect(headers.slice(0, 5)).toEqual(['ID', 'Date', 'Time', 'Event', 'Answered']);
      expectWhole(lines, width, newest);
    }
  });
});

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}
