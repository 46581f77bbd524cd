// @ts-nocheck rewritten with the reference-driven sandbox
// The sandbox as a server facing hostile requests: ids that name Object.prototype's members,
// bodies that try to set a prototype, JSON nested far too deep, many tokens, a full disk.
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation, type OperationId } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { faultInjector } from '../../src/sandbox/faults.js';
import { fileStore } from '../../src/sandbox/file-store.js';
import { servedIds as operationIds, validInputs } from '../fixtures.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';

const operations = Object.fromEntries((await loadAllOperations()).map((op) => [op.id, op])) as Record<OperationId, Operation>;

const HOSTILE_IDS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];

const headersFor = (id: OperationId) => ({
  authorization: `Bearer ${FULL_TOKEN}`,
  'x-store-api-version': operations[id].version,
  'content-type': 'application/json',
});
const bodyFor = (id: OperationId) => {
  const body = (validInputs[id] as { body?: unknown }).body;
  return body === undefined ? undefined : JSON.stringify(body);
};

describe('hostile ids and bodies', () => {
  const ctx = useSandbox();
  const stringParamOps = operationIds.filter((id) => Object.values(operations[id].params).includes('string'));

  it.each(stringParamOps.flatMap((id) => HOSTILE_IDS.map((hostile) => [id, hostile] as const)))(
    '%s with the id %s answers 404, not 500',
    async (id, hostile) => {
      const params = { ...(validInputs[id] as { params: Record<string, unknown> }).params };
      for (const [name, kind] of Object.entries(operations[id].params)) if (kind === 'string') params[name] = hostile;
      const response = await raw(ctx.sandbox, operations[id].method, fillPath(operations[id].path, params), { headers: headersFor(id), body: bodyFor(id) });
      expect(response.status).toBe(404);
    },
  );

  it('a body that names __proto__ changes neither the prototype nor another app', async () => {
    const before = await ctx.client.apps.updateSettings({ params: { clientId: 'sandbox-app' }, body: {} });
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', {
      headers: headersFor('appsSettingsPartialUpdate'),
      body: '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
    });
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const after = await ctx.client.apps.updateSettings({ params: { clientId: 'sandbox-app' }, body: {} });
    expect(Object.keys(after).filter((key) => !['__proto__', 'constructor'].includes(key))).toEqual(Object.keys(before));
  });

  it('after all of that, every operation still answers as before', async () => {
    for (const id of operationIds) {
      const answer = await ctx.client.call(id, validInputs[id] as never);
      // A delete answers 204 with no body; everything else answers something.
      if (operations[id].success !== 204) expect(answer, id).toBeTruthy();
    }
    expect(ctx.sandbox.counters.received).toBeGreaterThan(operationIds.length);
  });

  it('JSON nested 150,000 deep is a 400 that says so', async () => {
    const body = `{"deep": ${'['.repeat(150_000)}${']'.repeat(150_000)}}`;
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor('appsSettingsPartialUpdate'), body });
    expect(response.status).toBe(400);
    expect(response.body?.detail).toBe('JSON parse error - nested deeper than 256 levels.');
  });

  it('brackets inside strings do not count as nesting', async () => {
    const body = JSON.stringify({ text: '['.repeat(1000) });
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor('appsSettingsPartialUpdate'), body });
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
    await store.transact((state) => void (state.appSettings['sandbox-app']!.kept = 1), true);
    // The writer's temporary file lands on /dev/full: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', `${path}.${process.pid}.tmp`);
    const error = (await store.transact((state) => void (state.appSettings['sandbox-app']!.lost = 1), true).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`Cannot save the sandbox state to ${path}: no space left on the device; it is kept as it was`);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const settings = await store.transact((state) => ({ ...state.appSettings['sandbox-app'] }), false);
    expect(settings).toMatchObject({ kept: 1 });
    expect(settings).not.toHaveProperty('lost');
  });
});
