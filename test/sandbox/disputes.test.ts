// Disputes through the CLI against the seeded sandbox, as the platform's dispute-service guide
// describes them: resolved with an outcome its type allows, matched to a transaction after it was
// opened, noted, changed and removed; and each refusal. Answers and events are held to the
// reference by the harness.
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/sandbox/kinds.js';
import { VERSIONS } from './reference-answers.js';
import { WEBHOOK_EVENTS } from '../../src/api/enums.js';
import { useOrderSandbox } from './order-store.js';

describe('resolving a dispute', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it.each(VERSIONS)('resolves a chargeback as won at %s', async (version) => {
    const resolved = await s.cli('POST', '/disputes/1/resolve/', { resolution: 'won' }, version);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.json).toMatchObject({ id: 1, status: 'resolved', resolution: 'won', type: 'chargeback' });
    expect(s.events().map((e) => [e.event_type, e.data.status])).toEqual([['dispute.updated', 'resolved']]);
  });

  it("resolves an alert with an alert's outcome, and keeps what other says", async () => {
    const resolved = await s.cli('POST', '/disputes/2/resolve/', { resolution: 'other', resolution_other_message: 'Customer withdrew the alert.' });
    expect(resolved.json).toMatchObject({ status: 'resolved', resolution: 'other', resolution_other_message: 'Customer withdrew the alert.' });
  });

  it('refuses an outcome of the other type, none at all, and a dispute that is not there', async () => {
    const won = await s.cli('POST', '/disputes/2/resolve/', { resolution: 'won' });
    expect([won.code, won.stderr]).toEqual([1, expect.stringContaining('"won" does not resolve an alert; one of: could_not_find_order, declined_or_canceled_nothing_to_do, issued_full_refund,')]);
    expect((await s.cli('POST', '/disputes/1/resolve/', { resolution: 'issued_full_refund' })).stderr).toContain('"issued_full_refund" does not resolve a chargeback; one of: won, lost, accepted, other.');
    expect((await s.cli('POST', '/disputes/1/resolve/', {})).stderr).toContain('This field is required.');
    expect((await s.cli('POST', '/disputes/1/resolve/', { resolution: 'maybe' })).stderr).toContain('"maybe" is not a valid choice.');
    expect((await s.cli('POST', '/disputes/4040/resolve/', { resolution: 'won' })).stderr).toContain('Not found.');
    expect(s.record('disputes', 1)).toMatchObject({ status: 'new', resolution: null });
    expect(s.events()).toEqual([]);
  });
});

describe('an alert refunded at the gateway, recorded as it is resolved', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it.each(VERSIONS)('records an external refund of the whole charge at %s', async (version) => {
    const resolved = await s.cli('POST', '/disputes/2/resolve/', { resolution: 'issued_full_refund', create_external_refund: true }, version);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.json).toMatchObject({ status: 'resolved', resolution: 'issued_full_refund' });
    const refund = Object.values(s.store.state.records.transactions).find((t) => t.parent_id === 512 && t.type === 'refund')!;
    expect(refund).toMatchObject({ amount: '66.00', is_external: true, status: 'succeeded' });
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.created', 'transaction.updated', 'order.updated', 'dispute.updated']);
    expect(s.events().find((e) => e.event_type === 'transaction.updated')!.data).toMatchObject({ id: 512, amount_available_for_refund: '0.00' });
  });

  it('refunds what is left after a refund in part, and refuses to call that a full refund', async () => {
    expect((await s.cli('POST', '/transactions/512/refund/', { amount: '10.00' })).code).toBe(0);
    const full = await s.cli('POST', '/disputes/2/resolve/', { resolution: 'issued_full_refund', create_external_refund: true });
    expect([full.code, full.stderr]).toEqual([1, expect.stringContaining('Transaction 512 was refunded in part already (56.00 of 66.00 left): resolve with issued_refund_for_remaining_amount.')]);
    expect(s.record('disputes', 2)).toMatchObject({ status: 'new' });
    expect((await s.cli('POST', '/disputes/2/resolve/', { resolution: 'issued_refund_for_remaining_amount', create_external_refund: true })).code).toBe(0);
    const refunds = Object.values(s.store.state.records.transactions).filter((t) => t.parent_id === 512 && t.type === 'refund');
    expect(refunds.map((t) => [t.amount, t.is_external])).toEqual([
      ['10.00', false],
      ['56.00', true],
    ]);
  });

  it('records a refund only for a resolution that refunds, on a charge with money left, of a dispute matched to one', async () => {
    expect((await s.cli('POST', '/disputes/1/resolve/', { resolution: 'won', create_external_refund: true })).stderr).toContain('Only a resolution that refunds (issued_full_refund, issued_refund_for_remaining_amount) records a refund; "won" does not.');
    const unmatched = await s.cli('POST', '/disputes/', { type: 'alert' });
    expect((await s.cli('POST', `/disputes/${unmatched.json.id}/resolve/`, { resolution: 'issued_full_refund', create_external_refund: true })).stderr).toContain(`Dispute ${unmatched.json.id} is not matched to a transaction`);
    expect((await s.cli('POST', '/transactions/512/refund/', { amount: '66.00' })).code).toBe(0);
    expect((await s.cli('POST', '/disputes/2/resolve/', { resolution: 'issued_refund_for_remaining_amount', create_external_refund: true })).stderr).toContain('Transaction 512 has nothing left to refund: resolve with previously_refunded_nothing_to_do.');
    expect(s.record('disputes', 2)).toMatchObject({ status: 'new', resolution: '' });
  });
});

describe('changing a dispute', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it.each(VERSIONS)('matches a dispute to its transaction at %s: the charge is disputed, and its order named', async (version) => {
    expect(s.record('disputes', 6)).toMatchObject({ transaction: null, order: null });
    const matched = await s.cli('PUT', '/disputes/6/', { transaction: 503 }, version);
    expect(matched.code, matched.stderr).toBe(0);
    expect(matched.json).toMatchObject({ transaction: 503, order: 10002 });
    expect(s.record('transactions', 503)).toMatchObject({ is_disputed: true });
    expect(s.events().map((e) => e.event_type)).toEqual(['transaction.updated', 'order.updated', 'dispute.updated']);
  });

  it('resolves through an update, as the guide resolves, and opens again when the resolution is cleared', async () => {
    expect((await s.cli('PATCH', '/disputes/3/', { resolution: 'lost' })).json).toMatchObject({ status: 'resolved', resolution: 'lost' });
    expect((await s.cli('PATCH', '/disputes/3/', { resolution: '' })).json).toMatchObject({ status: 'open', resolution: '' });
    expect((await s.cli('PATCH', '/disputes/3/', { transaction: 77777 })).stderr).toContain('Invalid pk "77777" - object does not exist.');
    expect((await s.cli('PATCH', '/disputes/3/', { amount: '12.5', case_number: 'CB-9' })).json).toMatchObject({ amount: '12.50', report_amount: '12.50', case_number: 'CB-9' });
  });

  it('keeps notes on a dispute, and removes a dispute', async () => {
    const noted = await s.cli('POST', '/disputes/3/notes/', { message: 'Evidence uploaded to the processor.' });
    expect(noted.code, noted.stderr).toBe(0);
    expect(noted.json).toMatchObject({ message: 'Evidence uploaded to the processor.', author: { email: 'admin@sandbox.example' } });
    const listed = await s.cli('GET', '/disputes/3/notes/');
    expect(listed.json.results.map((note: Rec) => note.message)).toContain('Evidence uploaded to the processor.');
    expect(s.events().map((e) => [e.event_type, e.data.id])).toEqual([['dispute.updated', 3]]);
    expect((await s.cli('DELETE', '/disputes/3/')).code).toBe(0);
    expect((await s.cli('GET', '/disputes/3/')).stderr).toContain('Not found.');
  });
});
