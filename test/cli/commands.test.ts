// Every command run as a user runs it: the built CLI spawned against a sandbox, for its success
// path, its usage errors (exit 2, nothing reaches the store) and its API errors. An export's wait
// runs in process, its clock on the sandbox's (the spawned CLI's wait is in export-pipelines.test).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runWaiting } from './in-process.js';
import { runCli, useConfigDir } from './run.js';

describe('commands against the sandbox', () => {
  const ctx = useSandbox({ scopedTokens: { reader: ['orders:read'] } });
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], stdin?: string, extraEnv: Record<string, string> = {}) =>
    runCli(args, { env: { ...env(), ...extraEnv }, stdin });

  describe('success paths print the JSON the store answered', () => {
    it('orders remove-line', async () => {
      const r = await cli(['orders', 'remove-line', '10002', '104', '--yes']);
      expect(r.code).toBe(0);
      // The line stays on the order with nothing left (the platform's current_quantity).
      expect(r.json().lines.map((l: { id: number; current_quantity: number }) => [l.id, l.current_quantity])).toEqual([
        [104, 0],
        [105, 2],
      ]);
    });

    it('orders add-note, from a flag and from stdin', async () => {
      const flag = await cli(['orders', 'add-note', '10001', '--message', 'Gift wrap please']);
      expect(flag.code).toBe(0);
      expect(flag.json().message).toBe('Gift wrap please');
      const piped = await cli(['orders', 'add-note', '10001', '--message-file', '-'], 'Line one\nLine two\n');
      expect(piped.json().message).toBe('Line one\nLine two');
    });

    it('orders fulfillment-orders: always an array, [] when empty', async () => {
      const r = await cli(['orders', 'fulfillment-orders', '10002']);
      expect(r.json().map((fo: { id: number }) => fo.id)).toEqual([401]);
      const empty = await cli(['orders', 'fulfillment-orders', '10003']);
      expect(empty.stdout).toBe('[]\n');
    });

    it('orders fulfillment-event', async () => {
      const r = await cli(['orders', 'fulfillment-event', '10001', '201', '302']);
      expect(r.json()).toMatchObject({ id: 302, fulfillment: 201, order: '10001' });
    });

    it('customers add-note', async () => {
      const r = await cli(['customers', 'add-note', '2', '-m', 'VIP']);
      expect(r.json()).toMatchObject({ message: 'VIP' });
    });

    it('subscriptions cancel', async () => {
      const r = await cli(['subscriptions', 'cancel', '4', '--reason', 'other', '--other-message', 'Moving', '--no-notify', '--yes']);
      expect(r.code).toBe(0);
      expect(r.json()).toMatchObject({ status: 'canceled', cancel_reason: 'other', cancel_reason_other_message: 'Moving' });
    });

    it('subscriptions renew', async () => {
      const r = await cli(['subscriptions', 'renew', '1', '--yes']);
      expect(r.json()).toMatchObject({ id: 1, status: 'active' });
    });

    it('subscriptions update with field flags, null, --data and @file', async () => {
      const file = join(dir, 'address.json');
      writeFileSync(file, JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', line1: '1 Harbour Road', line4: 'Portsmouth', country: 'US' }));
      const r = await cli([
        'subscriptions', 'update', '4',
        '--interval', 'week', '--interval-count', '3', '--shipping-price', '4.99', '--shipping-code', 'null',
        '--next-renewal-date', '2026-06-01', '--no-is-test', '--shipping-address', `@${file}`,
        '--data', '{"interval":"year","status":"active"}',
      ]);
      // Null names no method (the string "null" would be refused as no method's code): the store
      // picks one, and ships nothing of this membership.
      expect(r.code, r.stderr).toBe(0);
      expect(r.json()).toMatchObject({
        interval: 'week', interval_count: 3, shipping_price: '4.99', shipping_code: 'no_shipping',
        next_renewal_date: '2026-06-01T00:00:00Z', is_test: false, status: 'active',
        shipping_address: { line1: '1 Harbour Road', country: 'US' },
      });
    });

    it('fulfillment-orders reject-cancellation', async () => {
      const r = await cli(['fulfillment-orders', 'reject-cancellation', '401', '--message', 'Shipped', '--yes']);
      expect(r.json()).toMatchObject({ id: 401, request_status: 'cancel_rejected' });
    });

    it('exports create expands plain dates, waits for the export and downloads the file', async () => {
      const file = join(dir, 'orders.csv');
      const r = await runWaiting(ctx.sandbox, ['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31', '--download', file], env());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('is pending; waiting until it is available');
      expect(r.json()).toMatchObject({ date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z', status: 'available' });
      expect(r.stderr).toContain(`Saved export ${r.json().id} to ${file}`);
      const { readFileSync } = await import('node:fs');
      expect(readFileSync(file, 'utf8')).toContain('10001');
    });

    it('exports types', async () => {
      const r = await cli(['exports', 'types', '--query', 'types[].code']);
      expect(r.json()).toHaveLength(13);
    });

    it('disputes create', async () => {
      const r = await cli(['disputes', 'create', '--type', 'alert', '--amount', '10.50', '--currency', 'USD', '--resolution', 'none', '--happened-at', '2026-02-01']);
      expect(r.json()).toMatchObject({ type: 'alert', amount: '10.50', resolution: '', happened_at: '2026-02-01T00:00:00Z', status: 'new' });
    });

    it('categories get', async () => {
      const r = await cli(['categories', 'get', '2']);
      expect(r.json().id).toBe(2);
    });

    it('apps update-settings types --set values', async () => {
      const r = await cli(['apps', 'update-settings', 'sandbox-app', '--set', 'enabled=true', '--set', 'limit=12', '--set', 'label=hello world', '--set', 'nested={"a":1}', '--set', 'gone=null']);
      expect(r.json()).toMatchObject({ enabled: true, limit: 12, label: 'hello world', nested: { a: 1 }, gone: null });
    });

    it('webhooks create masks the secret unless asked', async () => {
      const r = await cli(['webhooks', 'create', '--target', 'https://hooks.example.com/a', '--event', 'order.created', '--event', 'made.up', '--allow-unknown-event', '--secret-key-file', '-', '--inactive'], 'hush-hush\n');
      expect(r.json()).toMatchObject({ events: ['order.created', 'made.up'], active: false, secret_key: '***' });
      expect(r.stdout).not.toContain('hush-hush');
      const shown = await cli(['webhooks', 'get', String(r.json().id), '--show-secret']);
      expect(shown.json().secret_key).toBe('hush-hush');
    });

    it('webhooks get', async () => {
      const r = await cli(['webhooks', 'get', '1']);
      expect(r.json()).toMatchObject({ id: 1 });
    });
  });

  describe('usage errors exit 2 and send nothing', () => {
    it.each([
      [['orders', 'remove-line', '10001'], /Missing <line-id>\nhint: Prompts need a terminal/],
      [['orders', 'remove-line', '10001', 'abc', '--yes'], /<line-id>: must be a positive whole number \(got "abc"\)/],
      [['orders', 'remove-line', '10001', '102'], /confirmation needed/],
      [['orders', 'add-note', '10001'], /Missing --message/],
      [['orders', 'add-note', '10001', '--message', ''], /--message: is blank/],
      [['orders', 'fulfillment-event', '10001', '0', '301'], /<fulfillment-id>: must be a positive whole number \(got 0\)/],
      [['customers', 'add-note', '-5', '-m', 'x'], /<id>: must be a positive whole number \(got -5\)/],
      [['subscriptions', 'cancel', '1'], /Missing --reason/],
      [['subscriptions', 'cancel', '1', '--reason', 'bored', '--yes'], /--reason: must be one of: not_satisfied_with_product, .* \(got "bored"\)/],
      [['subscriptions', 'renew', '2'], /confirmation needed/],
      [['subscriptions', 'update', '1'], /Nothing to change/],
      [['subscriptions', 'update', '1', '--status', 'canceled'], /Set subscription 1 to canceled: confirmation needed/],
      [['subscriptions', 'update', '1', '--shipping-price', '12.345'], /--shipping-price: must be a decimal with at most 7 digits before and 2 after the point \(got "12.345"\)/],
      // Said once: two failing checks of one field used to repeat it on the line.
      [['subscriptions', 'update', '1', '--shipping-price', 'abc'], /^store-admin: --shipping-price: must be a decimal with at most 7 digits before and 2 after the point \(got "abc"\)\n/],
      [['subscriptions', 'update', '1', '--interval-count', '1.5'], /--interval-count: must be a whole number \(got "1\.5"\)/],
      [['subscriptions', 'update', '1', '--next-renewal-date', 'soon'], /--next-renewal-date: "soon" is not a date/],
      [['subscriptions', 'update', '1', '--data', '{bad json'], /--data: not valid JSON/],
      [['subscriptions', 'update', '1', '--billing-address', '[1]'], /--billing-address: expected a JSON object or null/],
      [['subscriptions', 'update', '1', '--data', '{"colour":"red"}'], /--data: "colour" is not a field of this operation/],
      [['fulfillment-orders', 'reject-cancellation', '2147483648'], /<id>: must be at most 2147483647/],
      [['exports', 'create', '--type', 'order_list', '--from', '2026-01-01'], /Missing --to/],
      [['exports', 'create', '--type', 'order_list', '--from', 'last week', '--to', '2026-01-01'], /--from: "last week" is not a date/],
      [['disputes', 'create', '--amount', '1234567'], /--amount: must be a decimal with at most 6 digits/],
      [['disputes', 'create', '--transaction', 'abc'], /--transaction: must be a number \(got "abc"\)/],
      [['categories', 'get', '1.5'], /<id>: must be a positive whole number/],
      [['apps', 'update-settings', 'sandbox-app'], /Nothing to change/],
      [['apps', 'update-settings', 'sandbox-app', '--set', 'novalue'], /--set takes key=value/],
      [['webhooks', 'create', '--target', 'https://x.example.com'], /Missing --event/],
      [['webhooks', 'create', '--target', 'not a url', '--event', 'order.created'], /--target: must be a valid url \(got "not a url"\)/],
      [['webhooks', 'create', '--target', `https://x.example.com/${'a'.repeat(250)}`, '--event', 'order.created'], /--target: must be at most 255 characters/],
      [['webhooks', 'get', 'x'], /<id>: must be a positive whole number/],
      [['categories', 'get', '1', '--query', 'foo['], /--query: not a valid JMESPath expression/],
      [['categories', 'get', '1', '--json', '--output', 'table'], /contradict/],
      [['orders', 'nope'], /unknown command 'nope'/],
    ])('%j', async (args, message) => {
      const before = ctx.sandbox.counters.received;
      const r = await cli(args);
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(ctx.sandbox.counters.received).toBe(before);
    });
  });

  describe('API errors', () => {
    it('404 is the store\'s detail in the platform framework\'s words, exit 1: one line when piped, the JSON error too with --json', async () => {
      const piped = await cli(['categories', 'get', '99']);
      expect(piped.code).toBe(1);
      expect(piped.stderr).toBe('store-admin: Not found. (HTTP 404)\n');
      const r = await cli(['categories', 'get', '99', '--json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('store-admin: Not found.');
      const jsonLine = r.stderr.trim().split('\n').at(-1)!;
      expect(JSON.parse(jsonLine)).toEqual({
        error: { message: 'Not found.', exitCode: 1, type: 'ApiError', status: 404, body: { detail: 'Not found.' } },
      });
    });

    it('400 from a state rule, exit 1', async () => {
      const r = await cli(['subscriptions', 'renew', '3', '--yes']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Subscription 3 is canceled and cannot be renewed.');
    });

    it('403 names the scope the command needs, exit 4', async () => {
      const r = await cli(['orders', 'add-note', '10001', '-m', 'x'], undefined, { STORE_ADMIN_TOKEN: 'reader' });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('store-admin: You do not have permission to perform this action. (HTTP 403)');
      expect(r.stderr).toContain('hint: This command needs a token with the scope orders:write');
    });

    it('401 says how to log in, exit 4', async () => {
      const r = await cli(['exports', 'types'], undefined, { STORE_ADMIN_TOKEN: 'wrong' });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/hint: .*store-admin auth login/);
    });

    it('no token at all: exit 4 with how to get one, nothing sent', async () => {
      const before = ctx.sandbox.counters.received;
      const r = await runCli(['exports', 'types'], { env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_CONFIG_DIR: dir } });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('No API token');
      expect(ctx.sandbox.counters.received).toBe(before);
    });

    it('an unreachable store: exit 1, one line', async () => {
      const r = await cli(['exports', 'types'], undefined, { STORE_ADMIN_BASE_URL: 'http://127.0.0.1:9' });
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n').filter((line) => line.startsWith('store-admin:'))).toEqual(['store-admin: Connection refused by 127.0.0.1:9']);
      expect(r.stderr).toContain('retrying in');
    });
  });
});
