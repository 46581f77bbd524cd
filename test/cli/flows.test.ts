// What a person does with the whole tool, end to end through the built CLI against the sandbox:
// from `orders list` to a change and back, and a list's CSV piped into an --each run.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sockClubSubscription } from '../fixtures.js';
import { FULL_TOKEN, startTestSandbox } from '../helpers.js';
import { BIN, runCli, useConfigDir } from './run.js';

let sandbox: Sandbox;
const dir = useConfigDir();
const env = () => ({ STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
const cli = async (...args: string[]) => {
  const r = await runCli(args, { env: env() });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
};

/** An order as a store keeps one: two lines that can still be changed (a number the seeded store does not use, so none of its notes). */
const ORDER = {
  number: '20001',
  status: 'open',
  currency: 'USD',
  user: { id: 1, email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
  lines: [
    { id: 101, product_title: 'Mug', sku: 'MUG-1', quantity: 2, current_quantity: 2, editable_quantity: 2, price_incl_tax: '12.00', price_excl_tax: '10.00' },
    { id: 102, product_title: 'Tea', sku: 'TEA-1', quantity: 1, current_quantity: 1, editable_quantity: 1, price_incl_tax: '6.00', price_excl_tax: '5.00' },
  ],
  date_placed: '2026-02-01T10:00:00Z',
  created_at: '2026-02-01T10:00:00Z',
  updated_at: '2026-02-01T10:00:00Z',
};

beforeAll(async () => {
  sandbox = await startTestSandbox({ token: FULL_TOKEN });
  await sandbox.store.transact((state) => {
    state.records.orders[ORDER.number] = structuredClone(ORDER);
  }, true);
});
afterAll(() => sandbox.close());

describe('from orders list to a change and back', () => {
  it('finds an order, reads it, removes a line and adds a note, and sees both', async () => {
    // The seeded store has many orders: a search for its number finds this one.
    const listed = await cli('orders', 'list', '--search-text', '20001', '-o', 'csv', '--columns', 'number,status,user.email');
    expect(listed.stdout).toBe('number,status,user.email\n20001,open,ada@example.com\n');

    const lines = await cli('orders', 'get', '20001', '-q', 'lines[].id', '--raw');
    expect(lines.stdout).toBe('101\n102\n');

    const removed = await cli('orders', 'lines', 'delete', '20001', '102', '--yes', '--json');
    // A removed line stays on the order, with nothing left of it (current_quantity 0).
    const kept = (JSON.parse(removed.stdout) as { lines: { id: number; current_quantity: number }[] }).lines;
    expect(kept.filter((line) => line.current_quantity > 0).map((line) => line.id)).toEqual([101]);
    expect(kept.find((line) => line.id === 102)).toMatchObject({ current_quantity: 0 });
    await cli('orders', 'notes', 'create', '20001', '--message', 'Tea out of stock: removed');

    expect((await cli('orders', 'get', '20001', '-q', 'lines[?current_quantity > `0`].sku', '--raw')).stdout).toBe('MUG-1\n');
    const notes = await cli('orders', 'notes', 'list', '20001', '-o', 'csv', '--columns', 'message');
    expect(notes.stdout).toBe('message\nTea out of stock: removed\n');

    const history = await cli('history', 'list', '--json');
    expect((JSON.parse(history.stdout) as { command: string; target: string }[]).slice(0, 2)).toMatchObject([
      { command: 'orders notes create', target: '20001' },
      { command: 'orders lines delete', target: '20001 102' },
    ]);
  });

  it('still answers to the earlier names of the commands', async () => {
    const r = await runCli(['orders', 'remove-line', '20001', '101'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: Remove line 101 from order 20001\? The order's totals will be recomputed: confirmation needed$/m);
    await cli('orders', 'add-note', '20001', '--message', 'Called the customer');
    expect((await cli('orders', 'notes', 'list', '20001', '-q', 'results[].message', '--raw')).stdout).toContain('Called the customer\n');
  });
});

describe("a list's CSV feeds --each as it is", () => {
  it('cancels every past-due subscription in one pipeline', async () => {
    const created: number[] = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
      created.push((JSON.parse((await cli('subscriptions', 'create', '--data', JSON.stringify(sockClubSubscription(email)), '--json')).stdout) as { id: number }).id);
    }
    const [first, second, third, fourth] = created as [number, number, number, number];
    await cli('subscriptions', 'update', String(second), '--status', 'past_due', '--yes');
    await cli('subscriptions', 'update', String(fourth), '--status', 'past_due', '--yes');
    // The seeded store has past-due subscriptions of its own: the pipeline cancels those too.
    const pastDue = (await cli('subscriptions', 'list', '--status', 'past_due', '--all', '-q', 'results[].id', '--raw')).stdout.trim().split('\n');
    expect(pastDue).toEqual(expect.arrayContaining([String(second), String(fourth)]));

    const store = `"${process.execPath}" "${BIN}"`;
    // Asynchronously: the sandbox answers from this very process.
    const pipeline = await promisify(execFile)(
      'sh',
      ['-c', `${store} subscriptions list --status past_due --all -o csv --columns id | ${store} subscriptions cancel --each - --reason other --other-message "card expired" --yes`],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env() }, encoding: 'utf8' },
    );
    expect(pipeline.stderr).toContain(`subscriptions cancel: ${pastDue.length} lines — ${pastDue.length} succeeded, 0 failed`);

    const after = await cli('subscriptions', 'list', '--all', '-o', 'csv', '--columns', 'id,status,cancel_reason,cancel_reason_other_message');
    expect(after.stdout.split('\n')).toEqual(expect.arrayContaining(pastDue.map((id) => `${id},canceled,other,card expired`)));
    expect(after.stdout).not.toMatch(new RegExp(`^(${first}|${third}),canceled`, 'm'));
    expect((await cli('subscriptions', 'list', '--status', 'past_due', '--all', '-q', 'results', '--raw')).stdout.trim()).toBe('');
  });
});
