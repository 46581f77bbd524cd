// The subscription jobs, the built CLI against the sandbox over real HTTP, the store back to its
// seed before each test: shift-renewals keeps each date's time of day and offset, cancel-cohort
// e-mails nobody unless --notify, move-gateway refuses a gateway that cannot take the
// subscription, retry-past-due retries only past-due ones; lines chosen by a CSV, by ids or by
// `subscriptions list`'s filters; every class each job reaches.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_PATH, SANDBOX_ROUTES } from '../../src/sandbox/paths.js';
import { FULL_TOKEN } from '../helpers.js';
import { useProxiedSandbox } from './recording-proxy.js';

type Rec = Record<string, any>;
const records = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Rec);
/** `{line: [class, outcome]}` of a run's records (or of a plan's, with no outcome). */
const classes = (stdout: string) => Object.fromEntries(records(stdout).map((row) => [row.line, row.outcome ? [row.class, row.outcome] : row.class]));

describe('subscription jobs', () => {
  const { ctx, proxy, dir, cli } = useProxiedSandbox();
  const subscription = async (id: number) => (await ctx.client.call('subscriptionsRetrieve', { params: { id } })) as Rec;
  const changesSince = (from: number) => proxy.sent.slice(from).filter((r) => r.method !== 'GET');
  beforeEach(async () => {
    const reset = await fetch(`${ctx.sandbox.url}${SANDBOX_PATH}${SANDBOX_ROUTES.reset}`, { method: 'POST', headers: { authorization: `Bearer ${FULL_TOKEN}` } });
    expect(reset.status).toBe(200);
  });

  describe('shift-renewals', () => {
    it('moves each date by --days keeping its time of day, fractions and offset, and reaches each class', async () => {
      // A date the store keeps with an offset and fractions of a second: the day moves, nothing else.
      await ctx.client.call('subscriptionsPartialUpdate', { params: { id: 5 }, body: { next_renewal_date: '2026-02-28T22:30:15.250-04:00' } });
      const r = await cli('subscriptions', 'shift-renewals', '1', '5', '3', '9', '99', 'abc', '--days', '3', '--yes');
      expect(r.code).toBe(1);
      expect(classes(r.stdout)).toEqual({
        1: ['READY', 'applied'],
        2: ['READY', 'applied'],
        3: ['NOT_ALLOWED', 'skipped'],
        4: ['NOT_ALLOWED', 'skipped'],
        5: ['NOT_FOUND', 'skipped'],
        6: ['INVALID', 'skipped'],
      });
      expect((await subscription(1)).next_renewal_date).toBe('2026-02-18T08:00:00Z');
      expect((await subscription(5)).next_renewal_date).toBe('2026-03-03T22:30:15.250-04:00');
      expect(records(r.stdout).find((row) => row.line === 4)!.error).toBe('paused has no next renewal to move');

      const earlier = await cli('subscriptions', 'shift-renewals', '5', '--days=-4', '--yes');
      expect(earlier.code, earlier.stderr).toBe(0);
      expect((await subscription(5)).next_renewal_date).toBe('2026-02-27T22:30:15.250-04:00');
    });

    it('moves each date to --to-date keeping its time of day and offset; a date on that day already is ALREADY_DONE', async () => {
      await ctx.client.call('subscriptionsPartialUpdate', { params: { id: 5 }, body: { next_renewal_date: '2026-02-03T23:45:00+05:30' } });
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'shift-renewals', '1', '5', '10', '--to-date', '2026-02-03', '--yes');
      expect(r.code, r.stderr).toBe(0);
      expect(classes(r.stdout)).toEqual({ 1: ['READY', 'applied'], 2: ['ALREADY_DONE', 'skipped'], 3: ['ALREADY_DONE', 'skipped'] });
      expect(changesSince(from)).toEqual([{ method: 'PATCH', path: '/subscriptions/1/', body: { next_renewal_date: '2026-02-03T08:00:00Z' } }]);
      expect((await subscription(5)).next_renewal_date).toBe('2026-02-03T23:45:00+05:30');
      const bad = await cli('subscriptions', 'shift-renewals', '1', '--to-date', '2026-02-30', '--yes');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--to-date takes a day that exists');
    });

    it('selects by `subscriptions list` filters and by a CSV of ids', async () => {
      const byFilter = await cli('subscriptions', 'shift-renewals', '--status', 'active', '--days', '1', '--plan-only');
      expect(byFilter.code, byFilter.stderr).toBe(0);
      expect(byFilter.stderr).toContain('Plan for subscriptions shift-renewals over --status active');
      expect(records(byFilter.stdout).map((row) => row.object_id).sort()).toEqual(['1', '10', '5']);

      const file = join(dir, 'cohort.csv');
      writeFileSync(file, 'subscription_id\n2\n10\n');
      const byFile = await cli('subscriptions', 'shift-renewals', '--each', file, '--days', '7', '--yes');
      expect(byFile.code, byFile.stderr).toBe(0);
      expect(records(byFile.stdout).map((row) => [row.line, row.object_id, row.outcome])).toEqual([
        [2, '2', 'applied'],
        [3, '10', 'applied'],
      ]);
      expect((await subscription(2)).next_renewal_date).toBe('2026-01-31T12:00:00Z');
      expect((await subscription(10)).next_renewal_date).toBe('2026-02-10T09:00:00Z');
    });
  });

  describe('cancel-cohort', () => {
    it('cancels with the reason given and asks the store to notify nobody; canceled ones are ALREADY_DONE', async () => {
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'cancel-cohort', '1', '2', '7', '99', '--reason', 'other', '--other-message', 'Product discontinued', '--yes');
      expect(r.code).toBe(1);
      expect(classes(r.stdout)).toEqual({ 1: ['READY', 'applied'], 2: ['READY', 'applied'], 3: ['ALREADY_DONE', 'skipped'], 4: ['NOT_FOUND', 'skipped'] });
      const body = { cancel_reason: 'other', cancel_reason_other_message: 'Product discontinued', send_cancel_notification: false };
      expect(changesSince(from).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
        { method: 'POST', path: '/subscriptions/1/cancel/', body },
        { method: 'POST', path: '/subscriptions/2/cancel/', body },
      ]);
      for (const id of [1, 2]) expect(await subscription(id)).toMatchObject({ status: 'canceled', cancel_reason: 'other', next_renewal_date: null });
    });

    it('e-mails each customer with --notify', async () => {
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'cancel-cohort', '5', '--reason', 'product_too_expensive', '--notify', '--yes');
      expect(r.code, r.stderr).toBe(0);
      expect(changesSince(from)).toEqual([{ method: 'POST', path: '/subscriptions/5/cancel/', body: { cancel_reason: 'product_too_expensive', send_cancel_notification: true } }]);
      expect(r.stderr).not.toContain('without e-mailing');
    });

    it('plans a line whose state the store could not give as UNCHECKED, and sends it nothing', async () => {
      const file = join(dir, 'unchecked-plan.csv');
      proxy.failing.add('GET /subscriptions/2/');
      try {
        const from = proxy.sent.length;
        const r = await cli('--retries', '0', 'subscriptions', 'cancel-cohort', '1', '2', '--reason', 'other', '--plan', file, '--yes');
        expect(r.code).toBe(1);
        expect(classes(r.stdout)).toEqual({ 1: ['READY', 'applied'], 2: ['UNCHECKED', 'failed'] });
        expect(r.stderr).toContain('UNCHECKED');
        const rows = readFileSync(file, 'utf8').trimEnd().split('\n').slice(2);
        expect(rows.map((row) => row.split(',').slice(0, 3))).toEqual([['1', '1', 'READY'], ['2', '2', 'UNCHECKED']]);
        expect(rows[1]).toContain('A server error occurred.');
        expect(changesSince(from)).toEqual([{ method: 'POST', path: '/subscriptions/1/cancel/', body: { cancel_reason: 'other', send_cancel_notification: false } }]);
      } finally {
        proxy.failing.clear();
      }
    });
  });

  describe('move-gateway', () => {
    it('moves card subscriptions to a gateway that takes cards in their currency', async () => {
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'move-gateway', '1', '5', '--to', '4', '--yes');
      expect(r.code, r.stderr).toBe(0);
      expect(classes(r.stdout)).toEqual({ 1: ['READY', 'applied'], 2: ['READY', 'applied'] });
      // The gateway is read once for the run, then each subscription changed.
      expect(proxy.sent.slice(from).filter((s) => s.path === '/gateways/4/')).toHaveLength(1);
      expect(changesSince(from).map((s) => s.body)).toEqual([{ payment_details: { payment_gateway: 4 } }, { payment_details: { payment_gateway: 4 } }]);
      for (const id of [1, 5]) expect((await subscription(id)).payment_details.gateway).toMatchObject({ id: 4, name: 'Adyen' });
      const again = await cli('subscriptions', 'move-gateway', '1', '--to', '4', '--yes');
      expect(classes(again.stdout)).toEqual({ 1: ['ALREADY_DONE', 'skipped'] });
    });

    it('refuses a gateway switched off, one that takes no cards, one without the currency, and one the store lacks, sending nothing', async () => {
      const plan = async (...args: string[]) => {
        const r = await cli('subscriptions', 'move-gateway', ...args, '--plan-only');
        expect(r.code, r.stderr).toBe(0);
        return records(r.stdout).map((row) => `${row.object_id} ${row.class}: ${row.reason}`);
      };
      const from = proxy.sent.length;
      expect(await plan('1', '--to', '3')).toEqual(['1 NOT_ALLOWED: Klarna (3) is switched off']);
      expect(await plan('1', '--to', '2')).toEqual(['1 NOT_ALLOWED: PayPal (2) takes no cards']);
      expect(await plan('1', '--to', '77')).toEqual(['1 NOT_ALLOWED: the store has no gateway 77 (see: store-admin gateways list)']);
      // Adyen set up for euros only: a dollar subscription cannot move there, a euro one can.
      await ctx.sandbox.store.transact((state) => {
        state.records.gateways['4']!.currencies = [{ code: 'EUR', label: 'Euro' }];
      }, true);
      expect(await plan('1', '10', '--to', '4')).toEqual(['1 NOT_ALLOWED: Adyen (4) does not take USD', '10 READY: gateway 1 → Adyen (4)']);
      // Not a card (Klarna), canceled, already there (PayPal).
      expect(await plan('6', '7', '8', '--to', '2')).toEqual([
        '6 NOT_ALLOWED: it pays by klarna: only a card subscription moves to another gateway',
        '7 NOT_ALLOWED: canceled: it renews no more',
        '8 ALREADY_DONE: on gateway 2 already',
      ]);
      expect(changesSince(from)).toEqual([]);
    });
  });

  describe('retry-past-due', () => {
    it('retries only the past-due subscriptions when none are named, on the gateway asked for', async () => {
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'retry-past-due', '--retry-gateway', '1', '--yes');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('over --status past_due');
      expect(records(r.stdout).map((row) => [row.object_id, row.class, row.outcome]).sort()).toEqual([
        ['2', 'READY', 'applied'],
        ['6', 'READY', 'applied'],
      ]);
      expect(changesSince(from).map((s) => [s.path, s.body]).sort()).toEqual([
        ['/subscriptions/2/retry/', { payment_gateway: 1 }],
        ['/subscriptions/6/retry/', { payment_gateway: 1 }],
      ]);
      for (const id of [2, 6]) expect((await subscription(id)).status).toBe('active');
    });

    it('leaves alone the subscriptions named that are not past due', async () => {
      const file = join(dir, 'declined.csv');
      writeFileSync(file, 'id\n2\n1\n4\n7\n9\n');
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'retry-past-due', '--each', file, '--yes');
      expect(r.code).toBe(1);
      expect(classes(r.stdout)).toEqual({ 2: ['READY', 'applied'], 3: ['ALREADY_DONE', 'skipped'], 4: ['NOT_ALLOWED', 'skipped'], 5: ['NOT_ALLOWED', 'skipped'], 6: ['NOT_ALLOWED', 'skipped'] });
      expect(changesSince(from)).toEqual([{ method: 'POST', path: '/subscriptions/2/retry/', body: {} }]);
      expect((await subscription(4)).status).toBe('retrying');
    });

    it('leaves alone one that pays through a gateway switched off, unless another is named', async () => {
      const from = proxy.sent.length;
      const r = await cli('subscriptions', 'retry-past-due', '6', '--yes');
      expect(r.code).toBe(1);
      expect(classes(r.stdout)).toEqual({ 1: ['NOT_ALLOWED', 'skipped'] });
      expect(r.stderr).toContain('Klarna (3) is switched off: retry on another (--retry-gateway)');
      expect(changesSince(from)).toEqual([]);
      expect((await subscription(6)).status).toBe('past_due');
    });
  });
});
