// Every answer of the sandbox against the platform's reference (issues 35 and 37): for every
// (operation, version) pair the reference lists, a real request with valid input (inputs.ts:
// seeded records in the path, a body built from the version's request schema) is answered with
// the reference's success status and a body that validates against the reference's schema for
// that operation and version; after a write, so does a read of what it changed. A failure names
// the operation, the version and the field. Skipped without ../shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation, type OperationId } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { KINDS, landingOf } from '../../src/sandbox/kinds.js';
import { createSeed } from '../../src/sandbox/seed.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { memoryStore } from '../../src/sandbox/store.js';
import { FULL_TOKEN, raw, startTestSandbox } from '../helpers.js';
import { inputFor, requestOf, type Input } from './inputs.js';
import { complaints, REFERENCE_PRESENT, referenceValidators, VERSIONS } from './reference-answers.js';

/** Deletes after which the same path still answers (an app's settings, emptied). */
const STILL_THERE = new Set<OperationId>(['appsSettingsDestroy']);

const ops = await loadAllOperations();
/** Reads first, on the seeded store as it is; then each write on a fresh copy of it. */
const pairs = ops
  .flatMap((op) => op.versions.map((version) => ({ op, version })))
  .sort((a, b) => Number(a.op.method !== 'GET') - Number(b.op.method !== 'GET'));

describe.skipIf(!REFERENCE_PRESENT)("every answer of the sandbox against the platform's reference", () => {
  const seeded = createSeed();
  const store = memoryStore(structuredClone(seeded));
  let sandbox: Sandbox;
  let validators: Map<string, ReturnType<typeof referenceValidators>>;
  let changed = false;
  beforeAll(async () => {
    validators = new Map(VERSIONS.map((version) => [version, referenceValidators(version)]));
    sandbox = await startTestSandbox({ token: FULL_TOKEN, store, exportDelaySeconds: 0 });
  });
  afterAll(() => sandbox.close());

  const send = (op: Operation, version: string, input: Input) => {
    const { method, path, body } = requestOf(op, input);
    const headers = { authorization: `Bearer ${FULL_TOKEN}`, 'x-store-api-version': version, 'content-type': 'application/json' };
    return raw(sandbox, method, path, { headers, ...(body === undefined ? {} : { body }) });
  };

  /** What the reference finds wrong with an answer, each line naming the operation, version and field. */
  const problemsOf = (op: Operation, version: string, status: number, body: unknown): string[] => {
    const reference = validators.get(version)!;
    const where = `${op.id} at ${version}`;
    if (status !== reference.success(op.id)) return [`${where}: status ${status}, not ${reference.success(op.id)}: ${JSON.stringify(body)?.slice(0, 300)}`];
    const answer = reference.answer(op.id);
    if (!answer) return body === undefined ? [] : [`${where}: a body where the reference declares none`];
    // Lists the reference declares as one object are answered as a bare list of them (ANSWERS_MANY).
    const items = op.answer === 'many' ? (Array.isArray(body) ? body : [undefined]) : [body];
    const empty = op.method === 'GET' && (op.answer === 'many' ? items : op.answer === 'page' ? ((body as { results?: unknown[] }).results ?? []) : [body]).length === 0;
    return [...(empty ? [`${where}: an empty answer proves nothing`] : []), ...items.flatMap((item) => complaints(answer.validate, item).map((c) => `${where}: ${c}`))];
  };

  for (const { op, version } of pairs) {
    it(`${op.id} at ${version}`, async () => {
      if (op.method !== 'GET' || changed) store.state = structuredClone(seeded);
      changed = op.method !== 'GET';
      const input = inputFor(op, version, await op.schemas(version));
      const answered = await send(op, version, input);
      expect(problemsOf(op, version, answered.status, answered.body).join('\n')).toBe('');
      if (op.method === 'GET') return;
      // What the write changed, read back at the same version.
      const read = readBack(op, version, input, answered.body);
      if (!read) return;
      const after = await send(read.op, version, read.input);
      if (op.method === 'DELETE' && read.op.path === op.path && !STILL_THERE.has(op.id)) expect(after.status, `${read.op.id} after ${op.id} at ${version}`).toBe(404);
      else expect(problemsOf(read.op, version, after.status, after.body).join('\n')).toBe('');
    });
  }
});

/**
 * The read of what a write changed: a created record by its new key, else the nearest GET whose
 * path the write's path extends (an order after its cancellation, a product after a price).
 */
function readBack(op: Operation, version: string, input: Input, answer: unknown): { op: Operation; input: Input } | undefined {
  const reads = ops.filter((candidate) => candidate.method === 'GET' && candidate.versions.includes(version));
  const kind = landingOf(op.path);
  if (op.method === 'POST' && kind && !kind.item && answer && typeof answer === 'object') {
    const item = reads.find((candidate) => candidate.path.startsWith(op.path) && /^\{\w+\}\/$/.test(candidate.path.slice(op.path.length)));
    const key = (answer as Record<string, unknown>)[KINDS[kind.kind].key];
    if (item && key !== undefined) {
      const param = /^\{(\w+)\}/.exec(item.path.slice(op.path.length))![1]!;
      return { op: item, input: { params: { ...input.params, [param]: key as string | number } } };
    }
  }
  const nearest = reads.filter((candidate) => op.path.startsWith(candidate.path)).sort((a, b) => b.path.length - a.path.length)[0];
  if (!nearest) return undefined;
  const names = [...nearest.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  fillPath(nearest.path, input.params);
  return { op: nearest, input: { params: Object.fromEntries(names.map((name) => [name, input.params[name]!])) } };
}
