// The question every command that cannot be undone asks, made from its operation: it names the
// object by the values given, for every irreversible operation of the table.
import { describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation } from '../../src/api/operations.js';
import { confirmQuestion } from '../../src/commands/confirm-text.js';

const operations = await loadAllOperations();
const op = (command: string) => operations.find((o) => o.command === command)!;
const ask = (command: string, params: Record<string, unknown>) => confirmQuestion(op(command), params);

describe('the question before a change that cannot be undone', () => {
  it('names the object by what was typed, and says it cannot be undone', () => {
    expect(ask('orders cancel', { number: '10001' })).toBe('Cancel order 10001? This cannot be undone.');
    expect(ask('orders lines delete', { number: '10001', lineId: 5 })).toBe('Delete line 5 of order 10001? This cannot be undone.');
    expect(ask('orders fulfillments events delete', { number: '10001', fulfillmentId: 2, eventId: '3' })).toBe(
      'Delete event 3 of fulfillment 2 of order 10001? This cannot be undone.',
    );
    expect(ask('customers addresses delete', { id: 7, addressId: 2 })).toBe('Delete address 2 of customer 7? This cannot be undone.');
    expect(ask('products variants delete', { id: 9 })).toBe('Delete variant 9? This cannot be undone.');
    expect(ask('themes templates delete', { id: 3 })).toBe('Delete the templates of theme 3? This cannot be undone.');
    expect(ask('apps settings delete', { clientId: 'my-app' })).toBe('Delete the settings of app my-app? This cannot be undone.');
  });

  it('reads an action as English', () => {
    expect(ask('orders mark-as-paid', { number: '10001' })).toBe('Mark order 10001 as paid? This cannot be undone.');
    expect(ask('orders collect-payment', { number: '10001' })).toBe('Collect the outstanding balance of order 10001? This cannot be undone.');
    expect(ask('fulfillment-orders cancellation-request-accept', { id: 4 })).toBe('Accept the cancellation request of fulfillment order 4? This cannot be undone.');
    expect(ask('fulfillment-orders fulfillments create', { id: 4 })).toBe('Create a fulfillment for fulfillment order 4? This cannot be undone.');
    expect(ask('gift-cards deactivate', { id: 8 })).toBe('Deactivate gift card 8? This cannot be undone.');
    expect(ask('transactions refund', { id: 12 })).toBe('Refund transaction 12? This cannot be undone.');
  });

  it('asks a whole question for every irreversible operation', () => {
    const irreversible = operations.filter((o: Operation) => o.irreversible);
    expect(irreversible.length).toBeGreaterThan(30);
    for (const o of irreversible) {
      const params = Object.fromEntries(Object.keys(o.params).map((name, i) => [name, i + 1]));
      const question = confirmQuestion(o, params);
      expect(question, o.command).toMatch(/^[A-Z][^?]* \d[^?]*\? This cannot be undone\.$/);
      expect(question, o.command).not.toMatch(/undefined|  /);
    }
  });
});
