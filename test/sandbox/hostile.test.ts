// The sandbox as a server facing hostile requests: ids that name Object.prototype's members,
// bodies that try to set a prototype, JSON nested far too deep, many tokens, a full disk.
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { faultInjector } from '../../src/sandbox/faults.js';
import { fileStore } from '../../src/sandbox/file-store.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';
import { inputFor, requestOf, type Input } from './inputs.js';
import { RULES_TO_COME } from './rules-to-come.js';

const HOSTILE_IDS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];

const ops = await loadAllOperations();
const inputs = new Map<Operation, Input>(await Promise.all(ops.map(async (op) => [op, inputFor(op, op.version, await op.schemas(op.version))] as const)));
const headersFor = (op: Operation) => ({
  authorization: `Bearer ${FULL_TOKEN}`,
  'x-store-api-version': op.version,
  'content-type': 'application/json',
});
const settingsPatch = ops.find((op) => op.id === 'appsSettingsPartialUpdate')!;

describe('hostile ids and bodies', () => {
  const ctx = useSandbox();
  const stringParamOps = ops.filter((op) => Object.values(op.params).includes('string'));

  it.each(stringParamOps.flatMap((op) => HOSTILE_IDS.map((hostile) => [op.id, hostile, op] as const)))('%s with the id %s answers 404, not 500', async (_id, hostile, op) => {
    const input = inputs.get(op)!;
    const params: Record<string, string | number> = { ...input.params };
    for (const [name, kind] of Object.entries(op.params)) if (kind === 'string') params[name] = hostile;
    const { method, body } = requestOf(op, input);
    const response = await raw(ctx.sandbox, method, fillPath(op.path, params), { headers: headersFor(op), ...(body ? { body } : {}) });
    // 404; an operation whose rule is still to come may not be allowed at all yet (405).
    expect(RULES_TO_COME[op.id] ? [404, 405] : [404]).toContain(response.status);
  });

  it('a body that names __proto__ changes neither the prototype nor another app', async () => {
    const before = (await ctx.client.apps.updateSettings({ params: { clientId: 'sandbox-app' }, body: {} })) as Rec;
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', {
      headers: headersFor(settingsPatch),
      body: '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
    });
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const after = (await ctx.client.apps.updateSettings({ params: { clientId: 'sandbox-app' }, body: {} })) as Rec;
    expect(Object.keys(after).filter((key) => !['__proto__', 'constructor'].includes(key))).toEqual(Object.keys(before));
  });

  it('after all of that, every operation still answers, and every read as before', async () => {
    for (const op of ops.filter((candidate) => !RULES_TO_COME[candidate.id])) {
      const { method, path, body } = requestOf(op, inputs.get(op)!);
      const answer = await raw(ctx.sandbox, method, path, { headers: headersFor(op), ...(body ? { body } : {}) });
      // The writes run in turn on one store (a record one removed, the next may not find): none fails inside.
      expect(answer.status, `${op.id}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
      if (op.method === 'GET' && answer.status !== 404) expect(answer.status, op.id).toBe(op.success);
    }
    expect(ctx.sandbox.counters.received).toBeGreaterThan(ops.length);
  });

  it('JSON nested 150,000 deep is a 400 that says so', async () => {
    const body = `{"deep": ${'['.repeat(150_000)}${']'.repeat(150_000)}}`;
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor(settingsPatch), body });
    expect(response.status).toBe(400);
    expect(response.body?.detail).toBe('JSON parse error - nested deeper than 256 levels.');
  });

  it('brackets inside strings do not count as nesting', async () => {
    const body = JSON.stringify({ text: '['.repeat(1000) });
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor(settingsPatch), body });
    expect(response.status).toBe(200);
  });
});

describe('rate-limit bookkeeping', () => {
  it('forgets tokens that have been quiet for a second', () => {
    const injector = faultInjector({ rate: 4, seed: 1 });
    for (let i = 0; i < 10_000; i++) injector.decide(`token-${i}`, 1_000 + (i % 500));
    expect(injector.trackedTokens()).toBe(10_000);
    injector.decide('late', 3_000);
    expect(injector.trackedTokens()).toBe(1);
  });

  it('still limits a busy token', () => {
    const injector = faultInjector({ rate: 2, seed: 1 });
    const decisions = [0, 10, 20].map((at) => injector.decide('busy', 5_000 + at));
    expect(decisions.map((d) => d.retryAfter)).toEqual([undefined, undefined, 1]);
  });
});

describe('the state file on a full disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-enospc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with a clear error, keeps the old state and leaves no temporary file', async () => {
    const path = join(dir, 'sandbox-state.json');
    const store = fileStore(path);
    const settings = (state: { records: { apps: Record<string, Rec> } }) => state.records.apps['sandbox-app']!.settings as Rec;
    await store.transact((state) => void (settings(state).kept = 1), true);
    // The writer's temporary file lands on /dev/full: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', `${path}.${process.pid}.tmp`);
    const error = (await store.transact((state) => void (settings(state).lost = 1), true).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`Cannot save the sandbox state to ${path}: no space left on the device; it is kept as it was`);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const kept = await store.transact((state) => ({ ...settings(state) }), false);
    expect(kept).toMatchObject({ kept: 1 });
    expect(kept).not.toHaveProperty('lost');
  });
});
