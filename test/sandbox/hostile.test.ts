// The sandbox as a server facing hostile requests: ids that name Object.prototype's members,
// bodies that try to set a prototype, JSON nested far too deep, many tokens, a full disk under its state file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllOperations, type Operation } from '../../src/api/operations.js';
import { fillPath } from '../../src/api/url.js';
import { faultInjector } from '../../src/sandbox/faults.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { BIN } from '../cli/run.js';
import { FULL_TOKEN, raw, useSandbox } from '../helpers.js';
import { inputFor, requestOf, type Input } from './inputs.js';

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
    expect(response.status).toBe(404);
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
    for (const op of ops) {
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

  // A real full disk: a small tmpfs in a private mount namespace (root, as in CI) holds the
  // embedded sandbox's state file. Without one (no unshare, no right to mount) the test says so.
  const fullDisk = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!fullDisk)(`fails with a clear error, keeps the old state and leaves no temporary file${fullDisk ? '' : ' (skipped: cannot mount a small tmpfs here)'}`, () => {
    const disk = join(dir, 'disk');
    mkdirSync(disk, { mode: 0o700 });
    // A first change saves the state; the disk is then filled; a second change cannot be saved.
    const script = [
      'set -u',
      `mount -t tmpfs -o size=1200k,mode=0700 tmpfs "$DISK"`,
      `STORE_ADMIN_CONFIG_DIR="$DISK" "$NODE" "$BIN" --sandbox customers add-note 1 --message kept >/dev/null; echo "first=$?"`,
      `head -c 10000000 /dev/zero > "$DISK/filler" 2>/dev/null`,
      `STORE_ADMIN_CONFIG_DIR="$DISK" "$NODE" "$BIN" --sandbox customers add-note 1 --message lost >/dev/null 2>"$DISK.stderr"; echo "second=$?"`,
      `cp "$DISK/sandbox-state.json" "$DISK.after"; ls -a "$DISK" > "$DISK.files"`,
    ].join('\n');
    const run = spawnSync('unshare', ['-m', 'sh', '-c', script], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DISK: disk, NODE: process.execPath, BIN }, encoding: 'utf8' });
    expect(run.stdout).toContain('first=0');
    expect(run.stdout).toContain('second=1');
    expect(readFileSync(`${disk}.stderr`, 'utf8')).toContain(`Cannot save the sandbox state to ${join(disk, 'sandbox-state.json')}: no space left on the device; it is kept as it was`);
    const after = readFileSync(`${disk}.after`, 'utf8');
    expect(after).toContain('"message":"kept"');
    expect(after).not.toContain('"message":"lost"');
    expect(readFileSync(`${disk}.files`, 'utf8').split('\n').filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
