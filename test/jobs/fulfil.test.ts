// `fulfillment-orders fulfill` through the built CLI against the sandbox over real HTTP: every
// class a line can reach, the plan file, --plan-only, the one confirmation, --apply-plan refusing
// a changed line, the report and the step's summary, the journal and history, --resume after a
// SIGKILL in the middle of a fulfilment, and the plan's predictions against what was applied.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/run/bulk/csv.js';
import type { SandboxState } from '../../src/sandbox/state.js';
import { BIN, runCli, useConfigDir } from '../cli/run.js';
import { FULL_TOKEN, until, useSandbox } from '../helpers.js';

type Rec = Record<string, any>;

/** Called as the sandbox answers a fulfilment, before the answer leaves: the resume test kills its run there. */
let onFulfilment: (() => void) | undefined;

describe('fulfillment-orders fulfill', () => {
  const ctx = useSandbox({ onAnswer: (id) => id === 'fulfillmentsCreate' && onFulfilment?.() });
  const dir = useConfigDir();
  const env = (more: Record<string, string> = {}) => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, ...more });
  const fulfil = (args: string[], more?: Record<string, string>) => runCli(['fulfillment-orders', 'fulfill', ...args], { env: env(more) });
  const read = <T>(look: (state: SandboxState) => T) => ctx.sandbox.store.transact(look, false);
  const posts = () => ctx.sandbox.counters.byOperation.fulfillmentsCreate?.received ?? 0;
  /** The fulfilments the store has of a fulfillment order. */
  const fulfilmentsOf = (fo: number) => read((state) => (Object.values(state.records.fulfillments) as Rec[]).filter((f) => f.fulfillment_order_id === fo));
  const csvFile = (name: string, rows: string[]) => {
    const file = join(dir, name);
    writeFileSync(file, `order_number,tracking_code,carrier\n${rows.join('\n')}\n`);
    return file;
  };
  const rowsOf = (file: string) => {
    const { header, rows } = parseCsv(readFileSync(file, 'utf8').replace(/^#.*\n/, ''));
    return rows.map((row) => Object.fromEntries(header.map((name, at) => [name, row.cells[at]!])));
  };

  beforeEach(async () => {
    onFulfilment = undefined;
    await ctx.sandbox.store.reset();
  });

  /** Moves a line of fulfillment order 408 (order 9947, open) to another location: the order then has two open ones. */
  async function twoOpen(): Promise<void> {
    const fo = (await ctx.client.call('fulfillmentOrdersRetrieve', { params: { id: 408 } })) as Rec;
    const { available_locations } = (await ctx.client.call('availableLocationsRetrieve', { params: { id: 408 } })) as Rec;
    const location = Object.values(available_locations as Record<string, Rec>)[0]!;
    const line = fo.line_items.find((item: Rec) => location.fulfillment_order_line_ids.includes(item.id));
    await ctx.client.call('fulfillmentOrdersMove', { params: { id: 408 }, body: { new_location_id: location.id, fulfillment_order_line_items: [{ id: line.id }] } });
  }

  /** Each seeded class: line 2 READY (open), 3 READY (processing), 4 ALREADY_DONE, 5-7 NOT_ALLOWED, 8 NOT_FOUND, 9 INVALID, 10 MULTIPLE. */
  const EVERY_CLASS = ['10000,1Z10000,ups', '9972,1Z9972,UPS', '9997,1Z9997,fedex', '9988,1Z9988,ups', '10002,1Z10002,dhl', '10001,1Z10001,usps', '99999,1Z99999,ups', '9980,1Z9980,pigeon', '9947,1Z9947,royal mail'];
  const EXPECTED = { 2: 'READY', 3: 'READY', 4: 'ALREADY_DONE', 5: 'NOT_ALLOWED', 6: 'NOT_ALLOWED', 7: 'NOT_ALLOWED', 8: 'NOT_FOUND', 9: 'INVALID', 10: 'MULTIPLE' };

  it('reaches every class, writes the plan (a row per line, its class), and --plan-only changes nothing', async () => {
    await twoOpen();
    const file = csvFile('every-class.csv', EVERY_CLASS);
    const plan = join(dir, 'plan.csv');
    const before = { posts: posts(), received: ctx.sandbox.counters.received };
    const r = await fulfil(['--each', file, '--plan', plan, '--plan-only', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(posts()).toBe(before.posts);
    // One read per line that names a carrier the platform knows; the unknown carrier is refused unread.
    expect(ctx.sandbox.counters.received - before.received).toBe(EVERY_CLASS.length - 1);
    const printed = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Rec);
    expect(Object.fromEntries(printed.map((row) => [row.line, row.class]))).toEqual(EXPECTED);
    expect(printed.find((row) => row.line === 2)).toMatchObject({ object_id: '10000', object: '459', state: '459 open/pending 2' });
    expect(printed.find((row) => row.line === 9)!.reason).toMatch(/"pigeon" is not a carrier the platform knows/);
    expect(printed.find((row) => row.line === 6)!.reason).toContain('cancellation request pending');
    expect(printed.find((row) => row.line === 10)!.reason).toMatch(/2 open fulfillment orders \(408, \d+\)/);
    expect(r.stderr).toMatch(/Plan for fulfillment-orders fulfill over .*every-class\.csv \(9 lines\):/);

    const written = rowsOf(plan);
    expect(readFileSync(plan, 'utf8')).toMatch(/^# store-admin plan \{"job":"fulfillment-orders fulfill"/);
    expect(written.map((row) => [Number(row.line), row.class])).toEqual(Object.entries(EXPECTED).map(([line, name]) => [Number(line), name]));
    expect(written[0]).toMatchObject({ order_number: '10000', tracking_code: '1Z10000', carrier: 'ups', object: '459', state: '459 open/pending 2' });
    // Nothing fulfilled: the open fulfillment order still has its units.
    expect(await fulfilmentsOf(459)).toEqual([]);
  });

  it('takes a notify column, and a notify that is neither yes nor no is INVALID', async () => {
    const file = join(dir, 'notify.csv');
    writeFileSync(file, 'Order number,Tracking number,Carrier,Notify\n10000,1Z1,ups,no\n9999,1Z2,ups,maybe\n9998,1Z3,ups,\n');
    const r = await fulfil(['--each', file, '--plan-only', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Rec);
    expect(rows.map((row) => [row.class, row.reason])).toEqual([
      ['READY', 'fulfil fulfillment order 459 (open, 2 units) with ups 1Z1, no e-mail'],
      ['INVALID', 'notify: "maybe" is neither yes nor no'],
      ['READY', 'fulfil fulfillment order 457 (open, 2 units) with ups 1Z3'],
    ]);
  });

  it('without a terminal and without --yes is refused before anything is read', async () => {
    const file = csvFile('refused.csv', ['10000,1Z1,ups']);
    const received = ctx.sandbox.counters.received;
    const r = await fulfil(['--each', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/confirmation needed/);
    expect(r.stderr).toContain('Pass --yes to confirm without a prompt');
    expect(ctx.sandbox.counters.received).toBe(received);
  });

  it('fulfils with the tracking, reports each line without customer data, in the step summary too, and journals the run into history', async () => {
    const file = csvFile('apply.csv', ['10000,1Z10000,UPS', '9972,1Z9972,dhl_ecommerce', '9997,1Z9997,fedex', '9988,1Z9988,ups', '99999,1Z1,ups']);
    const report = join(dir, 'report.csv');
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await fulfil(['--each', file, '--report', report, '--yes', '--rate', '0'], { GITHUB_STEP_SUMMARY: summary });
    // The on-hold and the unknown order are left for a person.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('2 left for a person of 5 lines');

    const [first] = await fulfilmentsOf(459);
    expect(first).toMatchObject({ tracking_carrier: 'ups', tracking_code: '1Z10000', order_number: '10000' });
    expect((await fulfilmentsOf(433))[0]).toMatchObject({ tracking_carrier: 'dhl_ecommerce', tracking_code: '1Z9972' });
    expect(await read((state) => state.records.fulfillmentOrders['459']!.status)).toBe('closed');

    const text = readFileSync(report, 'utf8');
    expect(text.split(/\r?\n/)[0]).toBe('line,object_id,outcome,class,error');
    expect(rowsOf(report).map((row) => [row.line, row.object_id, row.outcome, row.class])).toEqual([
      ['2', '10000', 'applied', 'READY'],
      ['3', '9972', 'applied', 'READY'],
      ['4', '9997', 'skipped', 'ALREADY_DONE'],
      ['5', '9988', 'skipped', 'NOT_ALLOWED'],
      ['6', '99999', 'skipped', 'NOT_FOUND'],
    ]);
    // No customer's name, e-mail or address, though the store's answers had them.
    const people = await read((state) => (Object.values(state.records.orders) as Rec[]).filter((order) => ['10000', '9972', '9997', '9988'].includes(String(order.number))));
    for (const order of people) {
      for (const value of [order.user?.first_name, order.user?.last_name, order.user?.email, order.shipping_address?.line1, order.shipping_address?.last_name].filter(Boolean)) {
        expect(text).not.toContain(value);
      }
    }
    expect(text).not.toContain('@');
    const table = readFileSync(summary, 'utf8');
    expect(table).toContain('### fulfillment-orders fulfill: 5 lines — 2 applied, 3 skipped, 0 failed');
    expect(table).toContain('| line | object id | outcome | class | error |');
    expect(table).toContain('| 2 | `10000` | applied | READY |  |');
    expect(table).toMatch(/\| 5 \| `9988` \| skipped \| NOT_ALLOWED \| `fulfillment order 448 is on hold/);

    const id = /Run (\d{8}-\d{6}-[0-9a-f]{4});/.exec(r.stderr)![1]!;
    const journal = readFileSync(join(dir, 'history', 'runs', `${id}.jsonl`), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Rec);
    expect(journal.filter((record) => record.type === 'sent').map((record) => [record.line, record.object])).toEqual([
      [2, '459'],
      [3, '433'],
    ]);
    expect(journal.filter((record) => record.type === 'outcome').map((record) => [record.line, record.outcome]).sort()).toEqual([
      [2, 'applied'],
      [3, 'applied'],
      [4, 'skipped'],
      [5, 'skipped'],
      [6, 'skipped'],
    ]);
    const history = await runCli(['history', '--json'], { env: env() });
    expect(history.json().find((entry: Rec) => entry.run === id)).toMatchObject({ command: 'fulfillment-orders fulfill', lines: 5, applied: 2, skipped: 3, failed: 0 });
  });

  it('fulfils the orders given as arguments with one tracking, and refuses a carrier the platform does not know before reading anything', async () => {
    const received = ctx.sandbox.counters.received;
    const wrong = await fulfil(['10000', '--tracking-code', '1Z1', '--carrier', 'pigeon-post', '--yes']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--carrier: "pigeon-post" is not a carrier the platform knows/);
    expect(ctx.sandbox.counters.received).toBe(received);
    const r = await fulfil(['10000', '9999', '--tracking-code', 'RM123GB', '--carrier', 'Royal Mail', '--no-notify', '--yes', '--rate', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect((await fulfilmentsOf(459))[0]).toMatchObject({ tracking_carrier: 'royal_mail', tracking_code: 'RM123GB' });
    expect((await fulfilmentsOf(458))[0]).toMatchObject({ tracking_carrier: 'royal_mail' });
  });

  it('--apply-plan leaves alone a line whose state changed since the plan (CHANGED) and applies the others', async () => {
    const file = csvFile('changing.csv', ['10000,1Z10000,ups', '9999,1Z9999,ups', '9997,1Z9997,ups']);
    const plan = join(dir, 'changing-plan.csv');
    expect((await fulfil(['--each', file, '--plan', plan, '--plan-only'])).code).toBe(0);
    // Meanwhile someone holds order 10000's fulfillment order.
    await ctx.client.call('fulfillmentOrdersHold', { params: { id: 459 }, body: { reason: 'other', reason_message: 'Address check' } });
    const report = join(dir, 'changing-report.csv');
    const r = await fulfil(['--apply-plan', plan, '--report', report, '--yes', '--rate', '0']);
    expect(r.code, r.stderr).toBe(1);
    expect(rowsOf(report).map((row) => [row.object_id, row.outcome, row.class])).toEqual([
      ['10000', 'skipped', 'CHANGED'],
      ['9999', 'applied', 'READY'],
      ['9997', 'skipped', 'ALREADY_DONE'],
    ]);
    expect(rowsOf(report)[0]!.error).toBe('planned READY (459 open/pending 2); now NOT_ALLOWED (459 on_hold/pending 2)');
    expect(await fulfilmentsOf(459)).toEqual([]);
    expect(await fulfilmentsOf(458)).toHaveLength(1);
    // The plan's own settings are used: a flag of the job's is refused.
    const flagged = await fulfil(['--apply-plan', plan, '--no-notify', '--yes']);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain('--apply-plan: the plan says how each line is changed; drop --no-notify');
  });

  /** Every seeded order with a fulfillment order that can be fulfilled now, in a CSV, with the fulfillment orders. */
  async function readyOrders(): Promise<{ numbers: string[]; fos: number[] }> {
    const fos = await read((state) =>
      (Object.values(state.records.fulfillmentOrders) as Rec[])
        .filter((fo) => ['open', 'processing'].includes(fo.status) && !['requested', 'cancel_requested'].includes(fo.request_status) && fo.line_items.some((line: Rec) => Number(line.fulfillable_quantity) > 0))
        .sort((a, b) => a.id - b.id),
    );
    return { numbers: fos.map((fo) => String(fo.order_number)), fos: fos.map((fo) => fo.id as number) };
  }

  it.each(['--each', '--apply-plan'])('--resume after a SIGKILL in the middle of a fulfilment (%s) sends each fulfillment order one POST, and fulfils each once', async (source) => {
    const { numbers, fos } = await readyOrders();
    expect(numbers.length).toBeGreaterThanOrEqual(10);
    const file = csvFile('resume.csv', numbers.map((number) => `${number},1Z${number},ups`));
    const plan = join(dir, 'resume-plan.csv');
    if (source === '--apply-plan') expect((await fulfil(['--each', file, '--plan', plan, '--plan-only', '--rate', '0'])).code).toBe(0);
    const args = ['fulfillment-orders', 'fulfill', source, source === '--each' ? file : plan, '--yes', '--rate', '0', '--concurrency', '1'];
    const before = posts();
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env() } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const gone = new Promise((resolve) => child.on('close', resolve));
    // Killed as the store answers its fifth fulfilment: that one is made, and its answer never arrives.
    let answered = 0;
    onFulfilment = () => {
      if (++answered === 5) child.kill('SIGKILL');
    };
    await until('the run to be killed', () => child.exitCode !== null || child.signalCode !== null, { seen: () => stderr });
    await gone;
    onFulfilment = undefined;
    expect(child.signalCode).toBe('SIGKILL');
    expect(posts() - before).toBe(5);

    const resumed = await runCli([...args, '--resume'], { env: env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`Resuming run \\d{8}-\\d{6}-[0-9a-f]{4}: [45] of ${numbers.length} lines already applied`));
    // One POST per fulfillment order in all, and one fulfilment each.
    expect(posts() - before).toBe(fos.length);
    for (const fo of fos) expect(await fulfilmentsOf(fo), `fulfillment order ${fo}`).toHaveLength(1);
    const again = await runCli([...args, '--resume'], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    expect(posts() - before).toBe(fos.length);
  });

  it("the plan's predictions match the applied outcomes, line by line", async () => {
    await twoOpen();
    const orders = await read((state) => Object.keys(state.records.orders).sort());
    const file = csvFile('predicted.csv', [...orders.map((number, at) => `${number},1Z${number},${at % 17 === 5 ? 'pigeon' : 'usps'}`), '99999,1Z99999,ups']);
    const plan = join(dir, 'predicted-plan.csv');
    const report = join(dir, 'predicted-report.csv');
    expect((await fulfil(['--each', file, '--plan', plan, '--plan-only', '--rate', '0'])).code).toBe(0);
    const r = await fulfil(['--apply-plan', plan, '--report', report, '--yes', '--rate', '0']);
    expect(r.code, r.stderr).toBe(1);
    const planned = rowsOf(plan);
    const outcomes = rowsOf(report);
    expect(outcomes.map((row) => row.line)).toEqual(planned.map((row) => row.line));
    // Every class the seed can show is among them.
    expect(new Set(planned.map((row) => row.class))).toEqual(new Set(['READY', 'ALREADY_DONE', 'NOT_ALLOWED', 'NOT_FOUND', 'INVALID', 'MULTIPLE']));
    for (const [at, predicted] of planned.entries()) {
      const outcome = outcomes[at]!;
      expect([outcome.outcome, outcome.class], `line ${predicted.line} (${predicted.order_number})`).toEqual([predicted.class === 'READY' ? 'applied' : 'skipped', predicted.class]);
    }
    expect(existsSync(report)).toBe(true);
  });
});
