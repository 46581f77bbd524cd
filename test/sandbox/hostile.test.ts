// The sandbox as a server facing hostile requests: ids that name Object.prototype's members,
// bodies that try to set a prototype, JSON nested far too deep, many tokens, a full disk.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operationIds, operations, type OperationId } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { faultInjector } from '../../src/sandbox/faults.js';
import { validInputs } from '../fixtures.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';
import { BIN } from '../cli/run.js';

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
      headers: headersFor('apps.updateSettings'),
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
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor('apps.updateSettings'), body });
    expect(response.status).toBe(400);
    expect(response.body?.detail).toBe('JSON parse error - nested deeper than 256 levels.');
  });

  it('brackets inside strings do not count as nesting', async () => {
    const body = JSON.stringify({ text: '['.repeat(1000) });
    const response = await raw(ctx.sandbox, 'PATCH', '/apps/sandbox-app/settings/', { headers: headersFor('apps.updateSettings'), body });
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
  // A real full disk: a small tmpfs in a private mount namespace (root, as in CI). Without one (no
  // unshare, no right to mount) the test says so and is skipped.
  const fullDisk = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { encoding: 'utf8' }).status === 0;

  it.skipIf(!fullDisk)(`fails with a clear error, keeps the old state and leaves no temporary file${fullDisk ? '' : ' (skipped: cannot mount a small tmpfs here)'}`, () => {
    // The embedded sandbox writes its state; then every byte left is taken, and a change must be saved.
    const script = [
      'set -u',
      'mount -t tmpfs -o size=256k,mode=0700 tmpfs "$DISK"',
      '"$NODE" "$BIN" --sandbox sandbox reset >/dev/null 2>&1 || exit 9',
      'cp "$DISK/sandbox-state.json" "$DISK.before"',
      'head -c 10000000 /dev/zero > "$DISK/filler" 2>/dev/null',
      '"$NODE" "$BIN" --sandbox customers add-note 1 --message lost 2>"$DISK.stderr"; echo "exit=$?"',
      'cmp -s "$DISK/sandbox-state.json" "$DISK.before" && echo same',
      'ls -A "$DISK" > "$DISK.files"',
    ].join('\n');
    const disk = join(dir, 'disk');
    mkdirSync(disk, { mode: 0o700 });
    const r = spawnSync('unshare', ['-m', 'sh', '-c', script], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, DISK: disk, STORE_ADMIN_CONFIG_DIR: disk, NODE: process.execPath, BIN },
      encoding: 'utf8',
    });
    expect(r.stdout, readFileSync(`${disk}.stderr`, 'utf8')).toContain('exit=1');
    expect(r.stdout).toContain('same');
    expect(readFileSync(`${disk}.stderr`, 'utf8')).toContain(`Cannot save the sandbox state to ${join(disk, 'sandbox-state.json')}: no space left on the device; it is kept as it was`);
    expect(readFileSync(`${disk}.files`, 'utf8').split('\n').filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
