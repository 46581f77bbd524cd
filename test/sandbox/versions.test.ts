// The store serves each operation at every version the platform's reference lists for it (the
// answers test holds each of those answers to the reference) and refuses the others, naming them.
import { describe, expect, it } from 'vitest';
import { loadAllOperations, REFERENCE_VERSIONS } from '../../src/api/operations.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';
import { inputFor, requestOf } from './inputs.js';

const ops = await loadAllOperations();
const refused = ops.flatMap((op) => REFERENCE_VERSIONS.filter((version) => !op.versions.includes(version)).map((version) => [op.id, version, op] as const));

describe('API versions per operation', () => {
  const ctx = useSandbox();

  it('some operations are in fewer versions than the three the reference publishes', () => {
    expect([...REFERENCE_VERSIONS].sort()).toEqual(['2023-02-10', '2024-04-01', 'unstable']);
    expect(refused.length).toBeGreaterThan(10);
    // Every operation's default version is one it has.
    expect(ops.filter((op) => !op.versions.includes(op.version)).map((op) => op.id)).toEqual([]);
  });

  it.each(refused)('%s is refused at %s, naming the versions that have it', async (_id, version, op) => {
    const { method, path, body } = requestOf(op, inputFor(op, op.version, await op.schemas(op.version)));
    const answer = await raw(ctx.sandbox, method, path, { headers: { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': version, 'content-type': 'application/json' }, ...(body ? { body } : {}) });
    expect(answer).toEqual({ status: 400, body: { detail: `X-Store-API-Version must be one of ${op.versions.map((v) => `"${v}"`).join(', ')} for this operation (got "${version}").` } });
    expect(ctx.sandbox.counters.byOperation[op.id]?.applied ?? 0).toBe(0);
  });
});
