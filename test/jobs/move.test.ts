// `fulfillment-orders move` through the CLI against the seeded sandbox, over real HTTP: every
// class a line can reach, the selections by --sku and --from, a plan saved and applied after the
// store changed, the report, and the waits for a location's answer to a cancellation request. The
// location is played as the platform's fulfillment services play it: with a token of its own, it
// lists the cancellation requests assigned to it and accepts them (the store never answers for
// it). A wait runs on the command's clock, whose pauses here are where the location answers; a
// run killed with SIGKILL during a wait and resumed sends every request once, counted per
// fulfillment order from the store's own answers and the requests it received.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { runInProcess } from '../cli/in-process.js';
import { BIN, runCli, useConfigDir } from '../cli/run.js';
import { FULL_TOKEN, movedClock, until, useSandbox } from '../helpers.js';

const LOCATION_TOKEN = 'test-location-token';
const SCOPED = { [LOCATION_TOKEN]: ['fulfillment_service:read', 'fulfillment_service:write'] };

/** The move and cancellation-request POSTs the store answered, per fulfillment order. */
function countingSandbox() {
  const answered: Record<string, number[]> = { fulfillmentOrdersMove: [], cancellationRequestSend: [] };
  const store = memoryStore();
  const s = useSandbox({
    store,
    scopedTokens: SCOPED,
    onAnswer: (id: OperationId, body: unknown) => {
      if (id === 'fulfillmentOrdersMove') answered[id]!.push(Number((body as { original_fulfillment_order: Rec }).original_fulfillment_order.id));
      if (id === 'cancellationRequestSend') answered[id]!.push(Number((body as Rec).id));
    },
  });
  const times = (id: 'fulfillmentOrdersMove' | 'cancellationRequestSend', fo: number) => answered[id]!.filter((one) => one === fo).length;
  const received = (id: OperationId) => s.sandbox.counters.byOperation[id]?.received ?? 0;
  return { s, store, times, received };
}

const api = async (sandbox: Sandbox, method: string, path: string, { token = FULL_TOKEN, body }: { token?: string; body?: unknown } = {}) => {
  const response = await fetch(`${sandbox.url}/api/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-store-api-version': '2024-04-01', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Rec;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
};

/** The location's side: it reads the cancellation requests assigned to it and accepts those of `ids`. */
async function locationAccepts(sandbox: Sandbox, ids: readonly number[]): Promise<number[]> {
  const assigned = await api(sandbox, 'GET', '/assigned-fulfillment-orders/?assignment_status=cancellation_requested', { token: LOCATION_TOKEN });
  const accepted = [];
  for (const fo of assigned.results as Rec[]) {
    if (!ids.includes(Number(fo.id))) continue;
    await api(sandbox, 'POST', `/fulfillment-orders/${String(fo.id)}/cancellation-request/accept/`, { token: LOCATION_TOKEN, body: { message: 'Stopped before packing.' } });
    accepted.push(Number(fo.id));
  }
  return accepted;
}

const fo = (sandbox: Sandbox, id: number) => (sandbox.store as ReturnType<typeof memoryStore>).state.records.fulfillmentOrders[String(id)] as Rec;
const where = (sandbox: Sandbox, id: number) => [fo(sandbox, id).location_id, fo(sandbox, id).status, fo(sandbox, id).request_status];

const move = (sandbox: Sandbox, dir: string, args: string[], clock = movedClock()) =>
  runInProcess(['fulfillment-orders', 'move', ...args, '--rate', '0'], { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir }, '', { overrides: { clock } });
const records = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Rec);
const classes = (stdout: string) => Object.fromEntries(records(stdout).map((row) => [row.object_id, row.class]));

describe('fulfillment-orders move: a plan, then applying it', () => {
  const { s, times, received } = countingSandbox();
  const dir = useConfigDir();
  const csv = join(dir, 'orders.csv');
  const plan = join(dir, 'plan.csv');
  const report = join(dir, 'report.csv');

  it('classes every line before anything is sent, and writes the plan', async () => {
    // Order 9946's fulfillment order split in two at its location: a person picks which one moves.
    await api(s.sandbox, 'POST', '/fulfillment-orders/407/fulfillment-request/', { body: { fulfillment_order_line_items: [{ id: 467, quantity: 1 }] } });
    writeFileSync(csv, 'order_number\n9989\n9951\n9987\n9968\n9946\n1\n9983\n9963\n9972\n9982\n9967\n');
    const r = await move(s.sandbox, dir, ['--each', csv, '--to', '1', '--plan', plan, '--plan-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(classes(r.stdout)).toEqual({
      9989: 'READY', // open at Rotterdam, and Portland takes its line
      9951: 'NEEDS_CANCEL', // accepted by Rotterdam: its cancellation is requested first
      9987: 'NEEDS_CANCEL', // its cancellation already awaits Rotterdam's answer
      9968: 'ALREADY_DONE', // at Portland already
      9946: 'MULTIPLE',
      1: 'NOT_FOUND', // no such order
      9983: 'NOT_FOUND', // nothing left to fulfil
      9963: 'NOT_ALLOWED', // on hold
      9972: 'NOT_ALLOWED', // Portland takes only one of its two lines
      9982: 'NOT_ALLOWED', // Rotterdam rejected its cancellation
      9967: 'READY',
    });
    expect(r.stderr).toContain('9972  NOT_ALLOWED: Portland Warehouse (1) takes only line 520 of 520, 521');
    expect(r.stderr).toContain('9951  NEEDS_CANCEL: fulfillment order 412: request cancellation from location 2, then → Portland Warehouse (1)');
    expect(r.stderr).toMatch(/MULTIPLE\s+1 .*\(line 6\)/);
    const written = readFileSync(plan, 'utf8').split('\n');
    expect(written[0]).toMatch(/^# store-admin plan \{"job":"fulfillment-orders move",.*"settings":\{"to":1\}\}$/);
    expect(written[1]).toBe('line,order_number,class,object,state,reason,amount');
    expect(written[2]).toMatch(/^2,9989,READY,449,"fulfillment order 449 at location 2, open\/pending",/);
    expect([received('fulfillmentOrdersMove'), received('cancellationRequestSend')]).toEqual([0, 0]);
  });

  it('applies the plan: moves, requests cancellation and waits for the location, and leaves alone a line whose state changed', async () => {
    // Between the plan and its run, someone holds order 9967's fulfillment order.
    await api(s.sandbox, 'POST', '/fulfillment-orders/428/hold/', { body: { reason: 'other' } });
    // The location answers while the run waits: at its second pause it accepts both requests.
    let pauses = 0;
    const accepted: number[] = [];
    const clock = movedClock(async () => {
      if (++pauses === 2) accepted.push(...(await locationAccepts(s.sandbox, [412, 447])));
    });
    const r = await move(s.sandbox, dir, ['--apply-plan', plan, '--yes', '--report', report], clock);
    expect(r.code, r.stderr).toBe(1);
    expect(accepted.sort()).toEqual([412, 447]);
    expect(r.stderr).toContain('fulfillment-orders move: 11 lines — 3 applied, 8 skipped, 0 failed');
    expect(r.stderr).toContain('7 left for a person of 11 lines');
    const rows = readFileSync(report, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('line,object_id,outcome,class,error');
    expect(rows.slice(1).map((row) => row.split(',').slice(0, 4).join(','))).toEqual([
      '2,9989,applied,READY',
      '3,9951,applied,NEEDS_CANCEL',
      '4,9987,applied,NEEDS_CANCEL',
      '5,9968,skipped,ALREADY_DONE',
      '6,9946,skipped,MULTIPLE',
      '7,1,skipped,NOT_FOUND',
      '8,9983,skipped,NOT_FOUND',
      '9,9963,skipped,NOT_ALLOWED',
      '10,9972,skipped,NOT_ALLOWED',
      '11,9982,skipped,NOT_ALLOWED',
      '12,9967,skipped,CHANGED',
    ]);
    expect(rows[11]).toContain('planned READY (fulfillment order 428 at location 2, open/pending); now NOT_ALLOWED (fulfillment order 428 at location 2, on_hold/pending)');
    for (const id of [449, 412, 447]) expect(where(s.sandbox, id)).toEqual([1, 'open', 'pending']);
    expect(where(s.sandbox, 428)).toEqual([2, 'on_hold', 'pending']);
    // Each moved once; only the one accepted by its location had its cancellation requested, once.
    expect([449, 412, 447, 428].map((id) => [times('fulfillmentOrdersMove', id), times('cancellationRequestSend', id)])).toEqual([
      [1, 0],
      [1, 1],
      [1, 0],
      [0, 0],
    ]);
    expect([received('fulfillmentOrdersMove'), received('cancellationRequestSend')]).toEqual([3, 1]);
  });

  it('takes a location the store does not have as an invalid line', async () => {
    const r = await move(s.sandbox, dir, ['9998', '--to', '9', '--yes']);
    expect(r.code).toBe(1);
    expect(records(r.stdout)).toEqual([expect.objectContaining({ object_id: '9998', class: 'INVALID', outcome: 'skipped', error: 'the store has no location 9 (see: store-admin locations list)' })]);
    expect(received('fulfillmentOrdersMove')).toBe(3);
  });
});

describe('fulfillment-orders move: the orders a SKU or a location selects', () => {
  const { s, store } = countingSandbox();
  const dir = useConfigDir();
  /** The orders with a fulfillment order still to fulfil that the filters name, newest fulfillment order first. */
  const selected = (keep: (fo: Rec) => boolean) =>
    (Object.values(store.state.records.fulfillmentOrders) as Rec[])
      .filter((one) => ['open', 'processing', 'on_hold'].includes(String(one.status)) && keep(one))
      .sort((a, b) => Number(b.id) - Number(a.id))
      .map((one) => String(one.order_number));

  it('--from: every order with a fulfillment order still to fulfil at the location', async () => {
    const r = await move(s.sandbox, dir, ['--from', '2', '--to', '1', '--plan-only']);
    expect(r.code, r.stderr).toBe(0);
    const lines = records(r.stdout);
    expect(lines.map((line) => line.object_id)).toEqual(selected((one) => one.location_id === 2));
    expect(lines.length).toBeGreaterThan(5);
    expect(r.stderr).toContain('Plan for fulfillment-orders move over --from 2');
    expect(classes(r.stdout)).toMatchObject({ 9989: 'READY', 9951: 'NEEDS_CANCEL', 9963: 'NOT_ALLOWED' });
  });

  it('--sku: the orders whose fulfillment orders have a line of the SKU; those at the target already are done', async () => {
    const sku = 'NWO-SOCK-HG-M';
    const r = await move(s.sandbox, dir, ['--sku', sku, '--to', '2', '--plan-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(records(r.stdout).map((line) => line.object_id)).toEqual(selected((one) => (one.line_items as Rec[]).some((line) => line.sku === sku)));
    expect(classes(r.stdout)).toEqual({ 9996: 'READY', 9989: 'ALREADY_DONE', 9988: 'NOT_ALLOWED', 9987: 'ALREADY_DONE', 10002: 'NEEDS_CANCEL' });
  });

  it('refuses a selection with other lines, and --from the target', async () => {
    const both = await move(s.sandbox, dir, ['9989', '--from', '2', '--to', '1']);
    expect([both.code, both.stderr.trim()]).toEqual([2, 'store-admin: the ids given and the list filters both name the lines: give one']);
    const same = await move(s.sandbox, dir, ['--from', '1', '--to', '1']);
    expect([same.code, same.stderr.trim()]).toEqual([2, 'store-admin: --from and --to name the same location: nothing would move']);
  });
});

describe('fulfillment-orders move: waiting for the location', () => {
  const { s, times, received } = countingSandbox();
  const dir = useConfigDir();

  it('times out with exit 5 when the location does not answer, and a resume goes on waiting without asking again', async () => {
    const silent = movedClock();
    const r = await move(s.sandbox, dir, ['9951', '--to', '1', '--yes', '--wait-timeout', '1m'], silent);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('1 line timed out waiting; what was requested stands');
    expect(records(r.stdout)).toEqual([expect.objectContaining({ object_id: '9951', outcome: 'failed', class: 'NEEDS_CANCEL', error: "timed out after 1m00s waiting for location's answer to the cancellation of fulfillment order 412" })]);
    // It waited on its clock, the minute and no longer.
    expect(silent.waits.reduce((sum, ms) => sum + ms, 0)).toBe(60_000);
    expect(where(s.sandbox, 412)).toEqual([2, 'processing', 'cancel_requested']);

    let answered = false;
    const clock = movedClock(async () => {
      if (!answered) answered = (await locationAccepts(s.sandbox, [412])).length > 0;
    });
    const resumed = await move(s.sandbox, dir, ['9951', '--to', '1', '--yes', '--resume'], clock);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(where(s.sandbox, 412)).toEqual([1, 'open', 'pending']);
    expect([times('cancellationRequestSend', 412), times('fulfillmentOrdersMove', 412)]).toEqual([1, 1]);
    expect([received('cancellationRequestSend'), received('fulfillmentOrdersMove')]).toEqual([1, 1]);
  });
});

describe('fulfillment-orders move: killed during a wait', () => {
  const { s, times, received } = countingSandbox();
  const dir = useConfigDir();

  it('after kill -9 while waiting for the location, --resume applies every line exactly once', async () => {
    const env = { PATH: process.env.PATH ?? '', STORE_ADMIN_BASE_URL: s.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir };
    const args = ['fulfillment-orders', 'move', '9989', '9951', '--to', '1', '--yes', '--rate', '0', '--concurrency', '1'];
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const gone = new Promise((resolve) => child.on('close', resolve));
    // Killed once its cancellation request is with the location: the run is waiting for the answer.
    await until('the cancellation request to reach the store', () => fo(s.sandbox, 412).request_status === 'cancel_requested', { seen: () => stderr });
    child.kill('SIGKILL');
    await gone;
    expect(where(s.sandbox, 449)).toEqual([1, 'open', 'pending']);
    expect(where(s.sandbox, 412)).toEqual([2, 'processing', 'cancel_requested']);

    // The location accepts while no run is there to see it; the resume finds it accepted and moves.
    expect(await locationAccepts(s.sandbox, [412])).toEqual([412]);
    const resumed = await runCli([...args, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming run \S+: 1 of 2 lines already applied, 1 to check again/);
    expect(where(s.sandbox, 412)).toEqual([1, 'open', 'pending']);
    expect([449, 412].map((id) => [times('fulfillmentOrdersMove', id), times('cancellationRequestSend', id)])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    expect([received('fulfillmentOrdersMove'), received('cancellationRequestSend')]).toEqual([2, 1]);

    // A finished run has nothing left to do.
    const again = await runCli([...args, '--resume'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect([received('fulfillmentOrdersMove'), received('cancellationRequestSend')]).toEqual([2, 1]);
  });
});
