// What `webhooks apply` plans, without a store: the declared webhooks against the store's, matched
// by name. webhooks-apply.test.ts carries plans out against the sandbox.
import { describe, expect, it } from 'vitest';
import type { DeclaredWebhook } from '../../src/webhooks/declared.js';
import type { StoreWebhook } from '../../src/webhooks/list.js';
import { DuplicateWebhooksError, planWebhooks } from '../../src/webhooks/plan.js';

const fields = (name: string | null) => ({ events: ['order.created'], target: `https://hooks.example.com/${name}`, active: true, api_version: null });
const declared = (name: string, more: Partial<DeclaredWebhook> = {}): DeclaredWebhook => ({ name, ...fields(name), ...more });
const stored = (id: number, name: string | null, more: Partial<StoreWebhook> = {}): StoreWebhook => ({ id, name, ...fields(name), ...more });
const keep = { prune: false, rotateSecrets: false };

describe('planWebhooks', () => {
  it('creates what the store lacks, with its secret sent but shown by its source only', () => {
    const [step] = planWebhooks([declared('orders', { secret: 's3cret', secretSource: 'env ORDERS', api_version: '2024-04-01' })], [], keep);
    expect(step).toEqual({
      action: 'create',
      name: 'orders',
      id: null,
      changes: [
        { field: 'events', from: null, to: ['order.created'] },
        { field: 'target', from: null, to: 'https://hooks.example.com/orders' },
        { field: 'active', from: null, to: true },
        { field: 'api_version', from: null, to: '2024-04-01' },
        { field: 'secret_key', from: null, to: 'env ORDERS' },
      ],
      body: { name: 'orders', events: ['order.created'], target: 'https://hooks.example.com/orders', active: true, api_version: '2024-04-01', secret_key: 's3cret' },
    });
  });

  it('leaves alone what matches: events in another order, a null event, a version the file does not name', () => {
    const steps = planWebhooks(
      [declared('orders', { events: ['order.created', 'order.updated'] })],
      [stored(7, 'orders', { events: ['order.updated', null as unknown as string, 'order.created'], api_version: '2023-02-10' })],
      keep,
    );
    expect(steps).toEqual([{ action: 'unchanged', name: 'orders', id: 7, changes: [] }]);
  });

  it('updates field by field what differs, and only those fields', () => {
    const [step] = planWebhooks(
      [declared('orders', { events: ['order.created', 'order.updated'], api_version: '2024-04-01' })],
      [stored(7, 'orders', { target: 'https://old.example.com/orders', active: false })],
      keep,
    );
    expect(step).toMatchObject({ action: 'update', id: 7 });
    expect(step!.changes).toEqual([
      { field: 'events', from: ['order.created'], to: ['order.created', 'order.updated'] },
      { field: 'target', from: 'https://old.example.com/orders', to: 'https://hooks.example.com/orders' },
      { field: 'active', from: false, to: true },
      { field: 'api_version', from: null, to: '2024-04-01' },
    ]);
    expect(step!.body).toEqual({ events: ['order.created', 'order.updated'], target: 'https://hooks.example.com/orders', active: true, api_version: '2024-04-01' });
  });

  it('sets a secret again only with --rotate-secrets: it cannot be read back to compare', () => {
    const d = [declared('orders', { secret: 'new', secretSource: 'file orders.secret' })];
    expect(planWebhooks(d, [stored(7, 'orders')], keep)[0]!.action).toBe('unchanged');
    const [rotated] = planWebhooks(d, [stored(7, 'orders')], { prune: false, rotateSecrets: true });
    expect(rotated).toMatchObject({ action: 'update', changes: [{ field: 'secret_key', from: null, to: 'file orders.secret' }], body: { secret_key: 'new' } });
  });

  it('with --prune deletes every store webhook the file does not name, unnamed ones too; without it, none', () => {
    const store = [stored(1, 'orders'), stored(2, 'legacy'), stored(3, null)];
    expect(planWebhooks([declared('orders')], store, keep).map((s) => s.action)).toEqual(['unchanged']);
    expect(planWebhooks([declared('orders')], store, { prune: true, rotateSecrets: false }).map((s) => [s.action, s.id, s.name])).toEqual([
      ['unchanged', 1, 'orders'],
      ['delete', 2, 'legacy'],
      ['delete', 3, null],
    ]);
  });

  it('lists the store\'s webhooks by id, whatever order the store pages them in (newest first, say)', () => {
    const newestFirst = [stored(9, 'twin'), stored(5, null), stored(4, 'twin'), stored(2, 'legacy')];
    expect(() => planWebhooks([declared('twin')], newestFirst, keep)).toThrow('(webhooks 4 and 9)');
    expect(planWebhooks([declared('other')], newestFirst.filter((w) => w.id !== 9), { prune: true, rotateSecrets: false }).map((s) => [s.action, s.id])).toEqual([
      ['create', null],
      ['delete', 2],
      ['delete', 4],
      ['delete', 5],
    ]);
  });

  it('refuses to guess between two store webhooks of a declared name, naming both', () => {
    const plan = () => planWebhooks([declared('twin')], [stored(4, 'twin'), stored(9, 'twin')], keep);
    expect(plan).toThrow(DuplicateWebhooksError);
    expect(plan).toThrow('The store has more than one webhook named "twin" (webhooks 4 and 9): apply does not guess which one the file means');
  });
});
