// The checks on prompt answers, case by case, through the run's prompter seam: a scripted person
// at a terminal answers, and every question and what its check said to each answer is read back.
// test/cli/prompts.test.ts drives the same flows in a real terminal, which proves the wiring.
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runInProcess } from './in-process.js';
import { useConfigDir } from './run.js';
import { scriptedPrompter, type Answer } from './scripted-prompter.js';

describe('prompt answers are checked as the flags are, and asked again', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const ask = async (args: string[], script: Answer[]) => {
    const person = scriptedPrompter(script);
    const env = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' };
    const r = await runInProcess([...args, '--json'], env, '', { terminal: true, overrides: { prompter: person } });
    return { ...r, asked: person.asked, left: script };
  };
  const received = (id: OperationId) => ctx.sandbox.counters.byOperation[id]?.received ?? 0;

  it('a date: each wrong answer is refused saying why, and the dates sent are the ones accepted', async () => {
    const r = await ask(['exports', 'create', '--type', 'order_list'], [
      { tries: ['01/01/2026', '2026-02-30', '2026-13-01', '2026-01-01'] },
      { tries: ['tomorrow', '2026-01-31'] },
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.asked.map(({ flag, verdicts }) => ({ flag, verdicts }))).toEqual([
      {
        flag: '--from',
        verdicts: [
          '"01/01/2026" is not a date: use YYYY-MM-DD or an ISO 8601 date-time such as 2026-01-31T09:30:00Z',
          '"2026-02-30" is not a date: February 2026 has 28 days',
          '"2026-13-01" is not a date: there is no month 13',
          true,
        ],
      },
      { flag: '--to', verdicts: ['"tomorrow" is not a date: use YYYY-MM-DD or an ISO 8601 date-time such as 2026-01-31T09:30:00Z', true] },
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ date_from: '2026-01-01T00:00:00Z', date_to: '2026-01-31T23:59:59Z' });
  });

  it('a missing argument is checked as the argument is, then the change is confirmed; a no sends nothing', async () => {
    const before = received('subscriptionsRenewCreate');
    const r = await ask(['subscriptions', 'renew'], [{ tries: ['two', '0', '-3', '2.5', '2'] }, false]);
    expect(r.asked.map(({ kind, flag, message, verdicts }) => ({ kind, flag, message, verdicts }))).toEqual([
      {
        kind: 'text',
        flag: '<id>',
        message: 'Subscription id:',
        verdicts: ['must be a positive whole number', 'must be a positive whole number', 'must be a positive whole number', 'must be a positive whole number', true],
      },
      {
        kind: 'confirm',
        flag: undefined,
        message: "Renew subscription 2 now? This creates a renewal order and charges the customer's saved card the subscription's total. Continue?",
        verdicts: [],
      },
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: Canceled; nothing was sent$/m);
    expect(received('subscriptionsRenewCreate')).toBe(before);
  });

  // The reference asks for a URI (of any scheme) as the target.
  it('a webhook: the target must be a URL, an event name one the platform publishes', async () => {
    const r = await ask(['webhooks', 'create'], [
      { tries: ['hooks.example.com/x', 'https://hooks.example.com/x'] },
      { ticked: ['order.updated'], others: ['order.craeted', 'order.created, customer.updatd', 'order.created'] },
      '',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const [target, events] = r.asked;
    expect(target).toMatchObject({ flag: '--target', verdicts: ['must be a valid url', true] });
    expect(events!.verdicts).toEqual([
      expect.stringMatching(/^unknown event "order\.craeted"; did you mean order\.created\?/),
      expect.stringMatching(/^unknown event "customer\.updatd"; did you mean customer\.updated\?/),
      true,
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ target: 'https://hooks.example.com/x', events: ['order.updated', 'order.created'] });
  });

  it('a cancel reason is picked from readable labels, and "other" asks for the explanation', async () => {
    const r = await ask(['subscriptions', 'cancel', '4'], ['other', 'Moving abroad', true]);
    expect(r.code, r.stderr).toBe(0);
    const [reason, explanation, confirmation] = r.asked;
    expect(reason!.choices).toContain('Not satisfied with product');
    expect(reason!.choices).not.toContain('not_satisfied_with_product');
    expect(explanation).toMatchObject({ kind: 'text', message: 'Explain the reason:' });
    expect(confirmation).toMatchObject({ kind: 'confirm', message: expect.stringMatching(/^Cancel subscription 4 \(reason: other\)/) });
    expect(JSON.parse(r.stdout)).toMatchObject({ cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad' });
  });
});
