// The run every job shares, seen through `orders refund` and the subscription jobs, the built CLI
// against the sandbox over real HTTP: the plan file (a row per input line, its class in a column),
// --plan-only changing nothing, the one confirmation (refused without a terminal and --yes before
// anything is read; asked once at a real terminal), --apply-plan refusing a line whose state
// changed, the report (no customer data; a table on the GitHub step's summary) and the history.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from '../cli/run.js';
import { hasTmux, Terminal } from '../cli/tmux.js';

type Rec = Record<string, any>;
const records = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Rec);

describe('a job run: plan, confirmation, report, history', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env(), ...extra } });
  const order = async (number: string) => (await ctx.client.call('ordersRetrieve', { params: { number } })) as Rec;
  const subscription = async (id: number) => (await ctx.client.call('subscriptionsRetrieve', { params: { id } })) as Rec;
  const refunds = () => ctx.sandbox.counters.byOperation.ordersRefundCreate?.received ?? 0;

  it('--plan writes a row per input line with its class; --plan-only changes nothing', async () => {
    const input = join(dir, 'plan-input.csv');
    writeFileSync(input, 'order_number\n9945\n9977\n12345\n9968\n');
    const plan = join(dir, 'plan.csv');
    const before = await order('9945');
    const made = refunds();
    const r = await cli(['orders', 'refund', '--each', input, '--plan', plan, '--plan-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Plan written to ${plan}`);
    const [mark, header, ...rows] = readFileSync(plan, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(mark!.replace('# store-admin plan ', ''))).toMatchObject({ job: 'orders refund', settings: { restock: 'no_restock', notify: true } });
    expect(header).toBe('line,order_number,lines,shipping,note,class,object,state,reason,amount');
    const classOf = header!.split(',').indexOf('class');
    expect(rows.map((row) => [row.split(',')[0], row.split(',')[1], row.split(',')[classOf]])).toEqual([
      ['2', '9945', 'READY'],
      ['3', '9977', 'ALREADY_DONE'],
      ['4', '12345', 'NOT_FOUND'],
      ['5', '9968', 'NOT_ALLOWED'],
    ]);
    expect(rows[0]).toMatch(/,66\.00 USD$/);
    expect(refunds()).toBe(made);
    expect(await order('9945')).toEqual(before);

    // A subscription job's plan changes nothing either.
    const cancels = ctx.sandbox.counters.byOperation.subscriptionsCancelCreate?.received ?? 0;
    const sub = await cli(['subscriptions', 'cancel-cohort', '1', '2', '--reason', 'other', '--plan-only']);
    expect(sub.code, sub.stderr).toBe(0);
    expect(records(sub.stdout).map((row) => row.class)).toEqual(['READY', 'READY']);
    expect(ctx.sandbox.counters.byOperation.subscriptionsCancelCreate?.received ?? 0).toBe(cancels);
    expect((await subscription(1)).status).toBe('active');
  });

  it('without a terminal and without --yes, refuses before anything is read', async () => {
    const before = ctx.sandbox.counters.received;
    const refund = await cli(['orders', 'refund', '10003']);
    expect(refund.code).toBe(2);
    expect(refund.stderr).toContain('Refund every unit left and the shipping of each order, e-mailing each customer; money goes back and cannot be taken again: confirmation needed');
    expect(refund.stderr).toContain('Pass --yes to confirm without a prompt');
    const cancel = await cli(['subscriptions', 'cancel-cohort', '--status', 'active', '--reason', 'other']);
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toContain('confirmation needed');
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it.skipIf(!hasTmux)('asks once at a terminal, after the plan, and applies on yes', async () => {
    const t = Terminal.start(['subscriptions', 'cancel-cohort', '4', '5', '3', '--reason', 'other'], { ...env(), NO_COLOR: '1' });
    try {
      const screen = await t.waitFor(/without e-mailing the customers: 2 subscriptions, as planned above\.?\s.*\(y\/N\)/s);
      // The plan is on the screen before the question.
      expect(screen).toMatch(/Plan for subscriptions cancel-cohort over arguments \(3 lines\)/);
      expect(screen).toMatch(/ALREADY_DONE\s+1/);
      t.keys('y', 'Enter');
      expect(await t.exitCode()).toBe(0);
      const end = t.screen();
      expect(end).toMatch(/subscriptions cancel-cohort: 3 lines — 2 applied, 1 skipped, 0 failed/);
      expect(end.match(/as planned above/g)).toHaveLength(1);
    } finally {
      t.kill();
    }
    for (const id of [4, 5]) expect((await subscription(id)).status).toBe('canceled');
  });

  it('--apply-plan refuses a line whose state changed; the report has no customer data, goes to the step summary, and the run is in history', async () => {
    const plan = join(dir, 'apply.csv');
    const planned = await cli(['orders', 'refund', '10002', '10003', '--plan', plan, '--plan-only']);
    expect(planned.code, planned.stderr).toBe(0);
    // Meanwhile, someone refunds a line of 10002.
    const meanwhile = await cli(['orders', 'refund', '10002', '--line', '104', '--yes']);
    expect(meanwhile.code, meanwhile.stderr).toBe(0);

    // The plan says how each line is changed: a flag that would change it is refused.
    expect((await cli(['orders', 'refund', '--apply-plan', plan, '--note', 'x', '--yes'])).stderr).toContain('--apply-plan: the plan says how each line is changed; drop --note');

    const report = join(dir, 'report.csv');
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '## Earlier step\n');
    const made = refunds();
    const r = await cli(['orders', 'refund', '--apply-plan', plan, '--report', report, '--yes'], { GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 left for a person of 2 lines');
    expect(refunds()).toBe(made + 1);
    expect((await order('10003')).payment_status).toBe('refunded');
    expect((await order('10002')).payment_status).toBe('partially_refunded');

    const text = readFileSync(report, 'utf8');
    const [header, ...rows] = text.trimEnd().split('\n');
    expect(header).toBe('line,object_id,outcome,class,error');
    expect(rows[0]).toMatch(/^1,10002,skipped,CHANGED,"planned READY \(0 refunds, .*\); now READY \(1 refunds, /);
    expect(rows[1]).toBe('2,10003,applied,READY,');
    // Whose orders they are stays on this machine.
    const customers = await Promise.all(['10002', '10003'].map(order));
    for (const { user, billing_address, shipping_address } of customers) {
      for (const value of [user?.email, user?.first_name, user?.last_name, billing_address?.line1, shipping_address?.line1]) if (value) expect(text).not.toContain(value);
    }
    expect(text).not.toMatch(/@/);

    const page = readFileSync(summary, 'utf8');
    expect(page.startsWith('## Earlier step\n')).toBe(true);
    expect(page).toContain('### orders refund: 2 lines — 1 applied, 1 skipped, 0 failed');
    expect(page).toContain('| line | object id | outcome | class | error |');
    expect(page).toMatch(/\| 1 \| `10002` \| skipped \| CHANGED \| `planned READY/);
    expect(page).toContain('| 2 | `10003` | applied | READY |  |');

    const history = await cli(['history', '--json']);
    const run = (history.json() as Rec[]).find((entry) => entry.command === 'orders refund' && entry.lines === 2);
    expect(run).toMatchObject({ outcome: 'run', store: expect.any(String), applied: 1, skipped: 1, failed: 0 });
    const shown = await cli(['history', 'show', run!.run, '--json']);
    expect(shown.json().lines).toEqual([expect.objectContaining({ line: 1, outcome: 'skipped', class: 'CHANGED' }), expect.objectContaining({ line: 2, outcome: 'applied', class: 'READY' })]);
  });
});
