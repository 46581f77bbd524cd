// @ts-nocheck rewritten with the reference-driven sandbox
// The store accepts every version in which the platform's reference has an operation (the
// 2023-02-10 operations exist unchanged in 2024-04-01), and refuses the others, naming them.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { operationIds, operations, versionsOf } from '../../src/api/operations.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { validInputs } from '../fixtures.js';
import { useSandbox } from '../helpers.js';

const KNOWN = ['2023-02-10', '2024-04-01', 'unstable'];

// rewritten with the reference-driven sandbox
describe.skip('API versions per operation', () => {
  const store = memoryStore();
  const ctx = useSandbox({ store });

  it('the 2023-02-10 operations are also in 2024-04-01, and nothing else changed', () => {
    const twoVersions = operationIds.filter((id) => versionsOf(operations[id]).length > 1);
    expect(twoVersions.sort()).toEqual(['ordersFulfillmentsEventsRetrieve', 'ordersFulfillmentOrdersRetrieve', 'subscriptionsCancelCreate', 'subscriptionsRenewCreate']);
    for (const id of twoVersions) expect(versionsOf(operations[id])).toEqual(['2023-02-10', '2024-04-01']);
  });

  it.each(operationIds)('%s is served at its versions and refused at the others', async (id) => {
    const accepted = versionsOf(operations[id]);
    for (const version of KNOWN) {
      await store.reset();
      const outcome = await ctx
        .clientWith({ apiVersion: version })
        .call(id, validInputs[id] as never)
        .then(() => 'served', (error: unknown) => error);
      if (accepted.includes(version)) {
        expect(outcome, `${id} at ${version}`).toBe('served');
      } else {
        expect(outcome, `${id} at ${version}`).toBeInstanceOf(ApiError);
        expect((outcome as ApiError).status).toBe(400);
        expect((outcome as ApiError).message).toBe(
          `X-Store-API-Version must be ${accepted.map((v) => `"${v}"`).join(' or ')} for this operation (got "${version}").`,
        );
      }
    }
  });
});
