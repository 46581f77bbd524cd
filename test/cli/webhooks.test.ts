// webhooks listen, trigger and verify, end to end: the built CLI in its own processes, a sandbox
// and receivers on real sockets.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_RETRIES } from '../../src/sandbox/settings.js';
import { WEBHOOK_EVENTS } from '../../src/api/enums.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { ANCHOR_IDS } from '../../src/sandbox/seed/anchors.js';
import { createSeed } from '../../src/sandbox/seed.js';
import { FIXTURES, TRIGGERS } from '../../src/webhooks/trigger.js';
import { webhookHmac } from '../../src/api/webhook-signature.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { independentDumps, pythonMissing, pythonSignature } from '../webhooks/python.js';
import { outcomeLog, startReceiver } from '../webhooks/receiver.js';
import { runCli, startCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

describe('webhooks listen --register against a sandbox store', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });

  it('prints subscription.updated with a valid signature after `subscriptions cancel`, and stops cleanly on Ctrl-C', async () => {
    const listener = startCli(['webhooks', 'listen', '--register', '--event', 'subscription.updated'], env());
    const [, id] = (await listener.printed('stderr', /Registered webhook (\d+) for subscription\.updated/))!;
    await listener.printed('stderr', /Listening for webhook deliveries on (http:\/\/127\.0\.0\.1:\d+\/)/);
    const hook = (await ctx.client.webhooks.get({ params: { id: Number(id) } })) as { secret_key: string };
    expect(hook).toMatchObject({ active: true, events: ['subscription.updated'], target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/) });
    expect(hook.secret_key).toMatch(/^whsec_[0-9a-f]{48}$/);

    const cancel = await runCli(['subscriptions', 'cancel', '1', '--reason', 'other', '--other-message', 'Moving abroad', '--yes'], { env: env() });
    expect(cancel.code).toBe(0);
    // Piped: one JSON record on stdout (headers, body as received, the envelope), the person's line on stderr.
    const [line] = (await listener.printed('stdout', /^.*\n/))!;
    const envelope = JSON.parse(line!).event;
    expect(envelope).toMatchObject({ event_type: 'subscription.updated', object: 'subscription', data: { id: 1, status: 'canceled' } });
    expect(envelope.webhook.id).toBe(Number(id));
    // The person's line ends with the id the listen log keeps it under, which the JSON record carries too.
    const [, received] = (await listener.printed('stderr', /\d\d:\d\d:\d\d {2}subscription\.updated {2}1 {2}signature ✓ \(re-serialised body\) {2}(rcv_[0-9a-z]+)\n/))!;
    expect(JSON.parse(line!).id).toBe(received);

    listener.interrupt();
    expect(await listener.exited).toBe(0);
    expect(listener.out.stderr).toContain(`Removed webhook ${id}.`);
    expect(listener.out.stderr).toMatch(/Stopped listening\.\n$/);
    // Its own webhook is gone; the seed's webhook 1 is still there.
    await expect(ctx.client.webhooks.get({ params: { id: Number(id) } })).rejects.toMatchObject({ status: 404 });
    await expect(ctx.client.webhooks.get({ params: { id: 1 } })).resolves.toMatchObject({ id: 1 });
  });

  it('saves the generated secret in a private file it names (never printed), and its --json records verify', async () => {
    const listener = startCli(['webhooks', 'listen', '--register', '--event', 'order.updated', '--json'], env());
    const [, id, file] = (await listener.printed('stderr', /Registered webhook (\d+) for order\.updated, signed with a generated secret, saved in (\S+) \(for webhooks verify --secret-file\)/))!;
    await listener.printed('stderr', /Listening for webhook deliveries/);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    const secret = readFileSync(file!, 'utf8').trim();
    expect(await ctx.client.webhooks.get({ params: { id: Number(id) } })).toMatchObject({ secret_key: secret });

    expect((await runCli(['orders', 'add-note', '10001', '--message', 'Leave at the door'], { env: env() })).code).toBe(0);
    const [line] = (await listener.printed('stdout', /^.*\n/))!;
    const record = JSON.parse(line!);
    expect(record).toMatchObject({ headers: { 'x-store-signature': expect.stringMatching(/^[0-9a-f]{64}$/) }, body: expect.any(String), event: { event_type: 'order.updated' } });
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    expect(listener.out.stdout + listener.out.stderr).not.toContain(secret);

    // The record as saved, from a file or a pipe: its own headers carry the signature.
    writeFileSync(join(dir, 'delivery.json'), line!);
    const verified = await runCli(['webhooks', 'verify', '--secret-file', file!, join(dir, 'delivery.json')], { env: env() });
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json()).toEqual({ valid: true, matched: 'python-json' });
    const piped = await runCli(['webhooks', 'verify', '--secret-file', file!], { env: env(), stdin: line });
    expect(piped.code, piped.stderr).toBe(0);
    const tampered = JSON.stringify({ ...record, body: record.body.replace('order.updated', 'order.created') });
    expect((await runCli(['webhooks', 'verify', '--secret-file', file!], { env: env(), stdin: tampered })).code).toBe(1);
    const two = await runCli(['webhooks', 'verify', '--secret-file', file!], { env: env(), stdin: `${line}${line}` });
    expect(two.code).toBe(2);
    expect(two.stderr.split('\n')[0]).toBe('store-admin: The input holds 2 deliveries recorded by webhooks listen: verify one at a time');
  });

  it('marks a delivery signed with another secret ✗', async () => {
    writeFileSync(join(dir, 'listen-secret'), 'whsec_listener\n');
    const listener = startCli(['webhooks', 'listen', '--secret-file', join(dir, 'listen-secret'), '--output', 'table'], env());
    const [, url] = (await listener.printed('stderr', /on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    await ctx.client.webhooks.create({ body: { target: url!, events: ['customer.updated'], secret_key: 'whsec_someone_else' } });
    await ctx.client.customers.addNote({ params: { id: 2 }, body: { message: 'hello' } });
    await listener.printed('stdout', /customer\.updated {2}2 {2}signature ✗ {2}rcv_[0-9a-z]+\n/);
    listener.interrupt();
    expect(await listener.exited).toBe(0);
  });

  it('refuses --register without --public-url against a store that is not a sandbox: a real store cannot reach 127.0.0.1', async () => {
    const plain = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    const r = await runCli(['webhooks', 'listen', '--register'], { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: 't', STORE_ADMIN_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${url} is not a sandbox store, and a real store cannot reach http://127\\.0\\.0\\.1:\\d+/ on this machine`));
    expect(r.stderr).toMatch(/hint: Start a tunnel to it \(ngrok http \d+, or cloudflared tunnel --url http:\/\/127\.0\.0\.1:\d+\/\) and pass its public address: --public-url https:/);
    const t = await runCli(['webhooks', 'trigger', 'order.created'], { env: { STORE_ADMIN_BASE_URL: url, STORE_ADMIN_TOKEN: 't', STORE_ADMIN_CONFIG_DIR: dir } });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('webhooks trigger works only with a sandbox store');
    plain.close();
  });
});

describe('webhooks listen --forward-to', () => {
  const dir = useConfigDir();
  it('passes body and headers untouched and answers with the app’s status', async () => {
    const app = await startReceiver(() => 202);
    const listener = startCli(['webhooks', 'listen', '--forward-to', app.url], { STORE_ADMIN_CONFIG_DIR: dir });
    const [, url] = (await listener.printed('stderr', /on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    // Bytes no serialiser would produce, and headers in an odd case and order.
    const body = '{ "event_type" :"order.updated","data":{"number":"10001","note":"Zoë 😀"} ,"x":1.0}';
    const answer = await fetch(url!, {
      method: 'POST',
      headers: { 'X-Store-Signature': 'ab'.repeat(32), 'Content-Type': 'application/json; charset=utf-8', 'X-Custom-Thing': 'Kept As Is' },
      body,
    });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ answered: 202 });
    const [received] = await app.received(1);
    expect(received!.body.equals(Buffer.from(body))).toBe(true);
    expect(received!.url).toBe('/hook');
    expect(received!.rawHeaders).toEqual(expect.arrayContaining(['X-Store-Signature', 'ab'.repeat(32), 'X-Custom-Thing', 'Kept As Is', 'Content-Type', 'application/json; charset=utf-8']));
    expect(received!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    await listener.printed('stderr', /order\.updated {2}10001 {2}signature not checked \(no --secret-file\) {2}→ 202 from/);
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    await app.close();
  });
});

describe('webhooks listen --forward-to an app that does not answer', () => {
  const dir = useConfigDir();
  it('gives up after --timeout, answers the sender 502 and says why', async () => {
    const app = await startReceiver(() => new Promise<number>(() => {}));
    const listener = startCli(['webhooks', 'listen', '--forward-to', app.url, '--timeout', '0.3'], { STORE_ADMIN_CONFIG_DIR: dir });
    const [, url] = (await listener.printed('stderr', /on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    const answer = await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event_type":"order.updated","data":{"number":"10001"}}' });
    expect(answer.status).toBe(502);
    await listener.printed('stderr', /order\.updated {2}10001 {2}unsigned {2}→ forwarding failed: No complete answer from 127\.0\.0\.1:\d+ within 0\.3 s/);
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    await app.close();
  });
});

describe('webhooks listen --secret-file --forward-to: a door to the app', () => {
  const dir = useConfigDir();
  const SECRET = 'whsec_door_for_tests';
  const body = (id: string, number = '10001') => JSON.stringify({ event_id: id, event_type: 'order.updated', data: { number } });
  /** A POST with its headers as a raw list (which gets no Host or length of its own), so that one may be sent twice. */
  const post = (url: string, text: string | Buffer, headers: string[]) =>
    new Promise<number>((resolve, reject) => {
      const list = ['host', new URL(url).host, 'content-type', 'application/json', 'content-length', String(Buffer.byteLength(text)), ...headers];
      const req = request(url, { method: 'POST', headers: list as unknown as Record<string, string> });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(text);
    });

  it('forwards only deliveries that verify, each event once; --forward-unverified opts out', async () => {
    const app = await startReceiver(() => 200);
    writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
    const listener = startCli(['webhooks', 'listen', '--secret-file', join(dir, 'secret'), '--forward-to', app.url], { STORE_ADMIN_CONFIG_DIR: dir });
    const [, url] = (await listener.printed('stderr', /on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    const genuine = body('e-1');
    const signature = webhookHmac(genuine, SECRET);
    const forged: [string, string, string[]][] = [
      ['unsigned', genuine, []],
      ['zeros', genuine, ['x-store-signature', '0'.repeat(64)]],
      ['tampered', body('e-1', '10002'), ['x-store-signature', signature]],
      ['signed with another secret', genuine, ['x-store-signature', webhookHmac(genuine, 'whsec_other')]],
      ['two signature headers', genuine, ['x-store-signature', signature, 'X-Store-Signature', signature]],
    ];
    for (const [what, text, headers] of forged) expect(await post(url!, text, headers), what).toBe(401);
    expect(await post(url!, genuine, ['x-store-signature', signature])).toBe(200);
    // The same event again, a replay: refused.
    expect(await post(url!, genuine, ['x-store-signature', signature])).toBe(409);
    expect(app.requests.map((r) => r.json.event_id)).toEqual(['e-1']);
    await listener.printed('stderr', /order\.updated {2}10002 {2}signature ✗ {2}→ not forwarded \(--forward-unverified forwards it\)/);
    await listener.printed('stderr', /order\.updated {2}10001 {2}signature ✓ \(raw body\) {2}→ not forwarded: this event was delivered already/);
    listener.interrupt();
    expect(await listener.exited).toBe(0);

    const open = startCli(['webhooks', 'listen', '--secret-file', join(dir, 'secret'), '--forward-to', app.url, '--forward-unverified'], { STORE_ADMIN_CONFIG_DIR: dir });
    const [, second] = (await open.printed('stderr', /on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    expect(await post(second!, body('e-2'), [])).toBe(200);
    expect(app.requests.map((r) => r.json.event_id)).toEqual(['e-1', 'e-2']);
    open.interrupt();
    expect(await open.exited).toBe(0);
    await app.close();
  });

  it('refuses a body past 10 MB with 413, without reading it, and keeps listening', async () => {
    const app = await startReceiver(() => 200);
    const listener = startCli(['webhooks', 'listen', '--forward-to', app.url], { STORE_ADMIN_CONFIG_DIR: dir });
    const [, url] = (await listener.printed('stderr', /on (http:\/\/127\.0\.0\.1:\d+\/)/))!;
    // Declared too large: refused before a byte of it is read (the sender, still writing, may see the reset before the 413).
    expect([413, 'reset']).toContain(await post(url!, Buffer.alloc(11 * 1024 * 1024, 0x20), []).catch(() => 'reset'));
    await listener.printed('stderr', /refused a POST to \/: its body is larger than 10 MB/);
    // Streamed with no length, 1 MB at a time: refused once past the limit, the rest never read.
    const streamed = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      const req = request(url!, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
      let sent = 0;
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = () => {
        while (sent < 200 && req.write(chunk)) sent++;
        if (sent < 200) req.once('drain', () => (sent++, pump()));
        else req.end();
      };
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode!, sent });
        req.destroy();
      });
      req.on('error', (error) => (sent > 10 ? resolve({ status: 0, sent }) : reject(error)));
      pump();
    });
    expect([413, 0]).toContain(streamed.status);
    expect(streamed.sent).toBeLessThan(200);
    await listener.printed('stderr', /(refused a POST to \/: its body is larger than 10 MB[^]*){2}/);
    // Still there for the next delivery.
    expect(await post(url!, body('e-3'), [])).toBe(200);
    expect(app.requests).toHaveLength(1);
    listener.interrupt();
    expect(await listener.exited).toBe(0);
    await app.close();
  });
});

describe('deliveries that fail, seen from the CLI', () => {
  const log = outcomeLog();
  const store = memoryStore();
  // Retried on the platform's schedule, on the sandbox's clock, which `sandbox clock advance` moves.
  const ctx = useSandbox({ store, webhooks: { onDelivery: log.onDelivery } });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const get = async (id: number) => (await runCli(['webhooks', 'get', String(id)], { env: env() })).json();
  const advance = async (by: string) => (await runCli(['sandbox', 'clock', 'advance', by, '--json'], { env: env() })).json();

  it('a receiver that answers 500 sees retries, and `webhooks get` a rising warning_count', async () => {
    const receiver = await startReceiver(() => 500);
    const created = await runCli(['webhooks', 'create', '--target', receiver.url, '--event', 'order.updated'], { env: env() });
    expect(created.code).toBe(0);
    const { id } = created.json();
    expect((await runCli(['orders', 'add-note', '10002', '--message', 'Gift wrap'], { env: env() })).code).toBe(0);

    await log.until((o) => o.some((x) => x.webhook === id));
    expect(await get(id)).toMatchObject({ active: true, warning_count: 1, next_check_date: expect.any(String) });
    // The first retry is due 5 minutes after the first try.
    expect((await advance('6m')).delivery_attempts).toBeGreaterThanOrEqual(1);
    expect(receiver.requests).toHaveLength(2);
    expect(await get(id)).toMatchObject({ active: true, warning_count: 2 });

    // The schedule runs out some 85 hours after the first try.
    await advance('4d');
    await log.until((o) => o.some((x) => x.webhook === id && x.deactivated));
    expect(receiver.requests).toHaveLength(MAX_RETRIES + 1);
    expect(new Set(receiver.requests.map((r) => r.json.event_id)).size).toBe(1);
    expect(await get(id)).toMatchObject({ active: false, warning_count: MAX_RETRIES + 1, next_check_date: null });
    await receiver.close();
  });

  it('a 410 deactivates the webhook', async () => {
    const receiver = await startReceiver(() => 410);
    const { id } = (await runCli(['webhooks', 'create', '--target', receiver.url, '--event', 'dispute.created'], { env: env() })).json();
    expect((await runCli(['disputes', 'create', '--type', 'chargeback'], { env: env() })).code).toBe(0);
    await log.until((o) => o.some((x) => x.webhook === id));
    expect(await get(id)).toMatchObject({ active: false, warning_count: 1 });
    expect(receiver.requests).toHaveLength(1);
    await receiver.close();
  });
});

describe('webhooks trigger and the embedded sandbox', () => {
  it('can cause every event the platform publishes, each through a change that emits it', () => {
    for (const [event, { emits }] of TRIGGERS) expect(emits).toContain(event);
    expect([...TRIGGERS.keys()].sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });

  it('starts from objects of the seed data: the first order, its customer, payment and parcel, the active subscription, the renewable ones, the socks, PayPal, the second app, a ticket', () => {
    const { records } = createSeed();
    const order = records.orders[FIXTURES.order]!;
    expect(order.user_id).toBe(FIXTURES.customer);
    expect(records.transactions[String(FIXTURES.transaction)]!.order).toBe(FIXTURES.order);
    expect(records.subscriptions[String(FIXTURES.subscription)]!.status).toBe('active');
    for (const id of FIXTURES.renewable) expect(records.subscriptions[String(id)], `subscription ${id}`).toBeDefined();
    expect(records.fulfillments[String(FIXTURES.fulfillment)]!.order_number).toBe(FIXTURES.order);
    expect(records.variants[String(FIXTURES.socks.variant)]!.product_id).toBe(FIXTURES.socks.product);
    expect(records.gateways[String(FIXTURES.gateway)]).toMatchObject({ name: 'PayPal', active: true });
    expect(Object.keys(records.apps)).toEqual(['sandbox-app', FIXTURES.app]);
    expect(records.tickets[String(FIXTURES.ticket)]).toBeDefined();
    void ANCHOR_IDS;
  });

  const dir = useConfigDir();
  const cli = (args: string[]) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir } });

  it('--help names every event it takes', async () => {
    const help = (await runCli(['webhooks', 'trigger', '--help'], { env: { COLUMNS: '80' } })).stdout;
    // Wrapped to the width: an event may sit at a line's end or start.
    const words = help.split(/[\s,:]+/);
    for (const event of WEBHOOK_EVENTS) expect(words, event).toContain(event);
  });

  it('performs a real change that emits the event, says what it did, and delivers before exiting', async () => {
    const receiver = await startReceiver(() => 200);
    const hook = await cli(['webhooks', 'create', '--target', receiver.url, '--event', 'order.created', '--secret-key', 'whsec_trigger']);
    expect(hook.code).toBe(0);
    // The seed's webhook 1 subscribes to order.created as well.
    const r = await cli(['webhooks', 'trigger', 'order.created', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Renewed subscription 1, which created order (\d+)\.\nEmitted order\.created \(and transaction\.created, subscription\.updated\): queued for webhooks 1, \d+\.\n$/);
    const order = /created order (\d+)/.exec(r.stdout)![1];
    // The command has exited: its delivery has already arrived.
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.json).toMatchObject({ event_type: 'order.created', data: { number: order } });
    const body = receiver.requests[0]!.body.toString('utf8');
    expect(receiver.requests[0]!.headers['x-store-signature']).toBe(webhookHmac(independentDumps(JSON.parse(body)), 'whsec_trigger'));
    await receiver.close();
  });

  it('warns when no webhook subscribes, refuses events it cannot cause, and says when the seed is used up', async () => {
    const none = await cli(['webhooks', 'trigger', 'customer.updated', '--json']);
    expect(none.code).toBe(0);
    expect(none.json()).toMatchObject({ event: 'customer.updated', did: 'Added a note to customer 1', webhooks: [] });
    expect(none.stderr).toContain('warning: no active webhook subscribes to customer.updated, so nothing was sent');
    for (const odd of ['__proto__', 'constructor']) {
      const r = await cli(['webhooks', 'trigger', odd]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`The sandbox cannot trigger "${odd}"`);
    }
    const dry = await cli(['webhooks', 'trigger', 'order.updated', '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('it has no --dry-run');
    const unknown = await cli(['webhooks', 'trigger', 'order.exploded']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('The sandbox cannot trigger "order.exploded"');
    expect(unknown.stderr).toMatch(/hint: It can trigger: app\.uninstalled, cart\.abandoned, customer\.created, /);
    // The seed's second app can be uninstalled once.
    expect((await cli(['webhooks', 'trigger', 'app.uninstalled'])).code).toBe(0);
    const again = await cli(['webhooks', 'trigger', 'app.uninstalled']);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('Cannot trigger the event: the app loyalty-points is uninstalled already')]);
    expect(again.stderr).toContain('hint: Restore the seed data: store-admin sandbox reset');
  });

  it('moves a parcel on for fulfillment.updated, and deletes a product it made for product.deleted', async () => {
    const receiver = await startReceiver(() => 200);
    const hook = await cli(['webhooks', 'create', '--target', receiver.url, '--event', 'fulfillment.updated', '--event', 'product.deleted']);
    const r = await cli(['webhooks', 'trigger', 'fulfillment.updated', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Added a tracking event (out_for_delivery) to fulfillment 201 of order 10001.\nEmitted fulfillment.updated: queued for webhook ${hook.json().id}.\n`);
    expect(receiver.requests[0]!.json).toMatchObject({ event_type: 'fulfillment.updated', object: 'fulfillment', data: { id: 201, order_number: '10001', tracking_code: '1Z9NW4210345678901' } });
    const deleted = await cli(['webhooks', 'trigger', 'product.deleted', '--json']);
    expect(deleted.code).toBe(0);
    const { object_id: product } = deleted.json();
    expect(deleted.json()).toMatchObject({ did: `Created product ${product} and deleted it`, emitted: ['product.created', 'product.deleted'] });
    expect(receiver.requests[1]!.json).toMatchObject({ event_type: 'product.deleted', data: { id: product } });
    expect(Object.keys(receiver.requests[1]!.json.data)).toEqual(['id']);
    expect((await cli(['products', 'get', String(product)])).code).toBe(1);
    await receiver.close();
  });

  it('keeps a failed delivery in its state file for the next run', async () => {
    const receiver = await startReceiver(() => 503);
    const { id } = (await cli(['webhooks', 'create', '--target', receiver.url, '--event', 'export.created'])).json();
    // The export turns available on the sandbox's clock, moved on to that moment: no wait.
    const triggered = await cli(['webhooks', 'trigger', 'export.created', '--json']);
    expect(triggered.code, triggered.stderr).toBe(0);
    expect(triggered.json().did).toMatch(/^Created export \d+ \(order_list, .*\) and moved the sandbox's clock on to when it turned available$/);
    expect(receiver.requests).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(dir, 'sandbox-state.json'), 'utf8'));
    expect(state.webhookOutbox.filter((d: { webhook: number }) => d.webhook === id)).toEqual([
      expect.objectContaining({ event_type: 'export.created', failures: 1, dueAt: expect.any(Number) }),
    ]);
    expect((await cli(['webhooks', 'get', String(id)])).json()).toMatchObject({ active: true, warning_count: 1, next_check_date: expect.any(String) });
    const table = (await cli(['webhooks', 'get', String(id), '-o', 'table'])).stdout;
    expect(table).toMatch(/│ Warnings +│ 1 +│/);
    expect(table).toMatch(/│ Next check +│ \d{4}-\d\d-\d\d \d\d:\d\d UTC +│/);
    // Once due, any later command makes the retry: bring it forward, then run a read.
    for (const delivery of state.webhookOutbox) delivery.dueAt = 0;
    writeFileSync(join(dir, 'sandbox-state.json'), JSON.stringify(state));
    expect((await cli(['exports', 'types'])).code).toBe(0);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.body.equals(receiver.requests[0]!.body)).toBe(true);
    expect((await cli(['webhooks', 'get', String(id)])).json()).toMatchObject({ warning_count: 2 });
    await receiver.close();
  });
});

describe('webhooks verify', () => {
  const dir = useConfigDir();
  const secretFile = join(dir, 'secret');
  const bodyFile = join(dir, 'delivery.json');
  // Compact JSON with non-ASCII text: Node's bytes and Python's re-serialisation differ.
  const body = '{"api_version":"2024-04-01","data":{"id":9,"name":"Zoë Ünal","ratio":0.25,"tags":["ü","😀"]},"event_type":"customer.updated"}';
  beforeAll(() => {
    writeFileSync(secretFile, 'whsec_verify\n');
    writeFileSync(bodyFile, body);
  });
  const verify = (args: string[], stdin?: string) => runCli(['webhooks', 'verify', '--secret-file', secretFile, ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir }, ...(stdin ? { stdin } : {}) });
  const platformSignature = () => webhookHmac(independentDumps(JSON.parse(body)), 'whsec_verify');

  it('agrees with an HMAC computed the platform’s way, and says the re-serialisation matched', async () => {
    const r = await verify(['--signature', platformSignature(), bodyFile, '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("The signature matches the platform's re-serialisation of the body (Python json.dumps), not its raw bytes.\n");
    const json = await verify(['--signature', platformSignature(), '-'], body);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({ valid: true, matched: 'python-json' });
  });

  it.skipIf(pythonMissing)(`agrees with python3's own HMAC${pythonMissing ? ` (skipped: ${pythonMissing})` : ''}`, async () => {
    const signature = pythonSignature(body, 'whsec_verify');
    expect(signature).toBe(platformSignature());
    expect((await verify(['--signature', signature, bodyFile])).code).toBe(0);
  });

  it('says when the raw body matched, reads a saved request’s header, and exits 1 on a mismatch', async () => {
    const raw = await verify(['--signature', webhookHmac(body, 'whsec_verify'), bodyFile, '-o', 'table']);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toContain('matches the body as received (raw bytes)');
    const saved = join(dir, 'saved.http');
    writeFileSync(saved, `POST /hook HTTP/1.1\r\nContent-Type: application/json\r\nX-Store-Signature: ${platformSignature()}\r\n\r\n${body}`);
    expect((await verify([saved])).code).toBe(0);
    const wrong = await verify(['--signature', webhookHmac(body, 'another secret'), bodyFile, '-o', 'table']);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('matches neither the raw body nor its re-serialisation');
    expect(wrong.stderr).toBe('store-admin: the signature does not match this delivery and secret\n');
    const missing = await verify([bodyFile]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No signature to check');
  });

  it('takes --query and --raw like any result', async () => {
    const matched = await verify(['--signature', platformSignature(), bodyFile, '-q', 'matched', '--raw']);
    expect(matched.code).toBe(0);
    expect(matched.stdout).toBe('python-json\n');
    const quoted = await verify(['--signature', platformSignature(), bodyFile, '-q', 'matched']);
    expect(quoted.stdout).toBe('"python-json"\n');
  });
});

describe.skipIf(!hasTmux)('webhooks listen in a terminal', () => {
  const dir = useConfigDir();
  it('prints a line per event with its signature mark, and Ctrl-C stops it', async () => {
    const terminal = Terminal.start(['--sandbox', 'webhooks', 'listen', '--register', '--event', 'order.updated'], { STORE_ADMIN_CONFIG_DIR: dir });
    try {
      await terminal.waitFor(/Listening for webhook deliveries/);
      const r = await runCli(['--sandbox', 'webhooks', 'trigger', 'order.updated'], { env: { STORE_ADMIN_CONFIG_DIR: dir } });
      expect(r.code).toBe(0);
      const screen = await terminal.waitFor(/order\.updated {2}10001 {2}signature/);
      const [, received] = /^\d\d:\d\d:\d\d {2}order\.updated {2}10001 {2}signature ✓ \(re-serialised body\) {2}(rcv_[0-9a-z]+)$/m.exec(screen) ?? [];
      expect(received, screen).toBeDefined();
      expect(screen).not.toContain('"event_type"');
      // The id shown is the one to replay or show it by.
      const kept = await runCli(['webhooks', 'deliveries', 'show', received!, '--json'], { env: { STORE_ADMIN_CONFIG_DIR: dir } });
      expect(kept.json()).toMatchObject({ id: received, event_type: 'order.updated' });
      terminal.keys('C-c');
      expect(await terminal.exitCode()).toBe(0);
      expect(terminal.screen()).toMatch(/Removed webhook \d+\.\nStopped listening\./);
    } finally {
      terminal.kill();
    }
  });
});
