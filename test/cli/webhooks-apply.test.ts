// webhooks apply -f FILE against a sandbox on a real socket, the store read through several pages,
// its state checked directly. The first run is the built CLI in its own process; the others run
// main() in process, their pacing (the platform's 4 requests a second) on a clock that never
// waits. What a plan is made of, and what a file may say, are unit-tested (webhooks/).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { FULL_TOKEN, jumpClock, useSandbox } from '../helpers.js';
import { runInProcess } from './in-process.js';
import { runCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

const ORDERS_SECRET = 'whsec_orders_from_env_0123456789';
const DISPUTES_SECRET = 'whsec_disputes_from_file_9876543210';

function useFiles() {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-apply-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'disputes.secret'), `${DISPUTES_SECRET}\n`);
  return {
    dir,
    /** Writes a webhooks file and returns its path. */
    write(name: string, content: unknown): string {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
  };
}

const declared = () => ({
  webhooks: [
    { name: 'orders', events: ['order.created', 'order.updated'], target: 'https://hooks.example.com/orders', secret: { env: 'ORDERS_HOOK_SECRET' } },
    { name: 'disputes', events: ['dispute.created'], target: 'https://hooks.example.com/disputes', secret: { file: 'disputes.secret' } },
    { name: 'audit', events: ['store.updated'], target: 'https://hooks.example.com/audit', active: false, api_version: '2024-04-01' },
  ],
});

/** The store's webhooks, read from its state: no request, so no fault and no counter touched. */
async function stored(sandbox: Sandbox): Promise<Rec[]> {
  return sandbox.store.transact((state) => Object.values(state.records.webhooks).map((w) => structuredClone(w)), false);
}

/** `webhooks apply ARGS` in process, paced on a clock that never waits. */
async function applyIn(env: Record<string, string>, args: string[]) {
  const r = await runInProcess(['webhooks', 'apply', ...args, '--secret-env', 'ORDERS_HOOK_SECRET'], env, '', { overrides: { clock: jumpClock() } });
  return { ...r, json: () => JSON.parse(r.stdout) };
}

const changesSent = (sandbox: Sandbox) =>
  (['webhooksCreate', 'webhooksPartialUpdate', 'webhooksDestroy'] as const).reduce((sum, id) => sum + (sandbox.counters.byOperation[id]?.received ?? 0), 0);

describe('webhooks apply', () => {
  const ctx = useSandbox({ pageSize: 2 });
  const config = useConfigDir();
  const files = useFiles();
  const env = { STORE_ADMIN_BASE_URL: '', STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config, ORDERS_HOOK_SECRET: ORDERS_SECRET };
  const apply = (args: string[], extra: Record<string, string> = {}) => applyIn({ ...env, STORE_ADMIN_BASE_URL: ctx.sandbox.url, ...extra }, args);

  it('creates what the file declares, prints the plan and counts, and never a secret', async () => {
    const file = files.write('webhooks.json', declared());
    // The built CLI, end to end.
    const run = await runCli(['webhooks', 'apply', '-f', file, '--json', '--secret-env', 'ORDERS_HOOK_SECRET'], { env: { ...env, STORE_ADMIN_BASE_URL: ctx.sandbox.url } });
    expect(run.code, run.stderr).toBe(0);
    const result = run.json();
    expect(result).toMatchObject({ result: 'applied', dry_run: false, counts: { created: 3, updated: 0, deleted: 0, unchanged: 0 } });
    expect(result.plan.map((s: { action: string; name: string; status: string }) => [s.action, s.name, s.status])).toEqual([
      ['create', 'orders', 'done'],
      ['create', 'disputes', 'done'],
      ['create', 'audit', 'done'],
    ]);
    expect(result.plan[0].changes).toContainEqual({ field: 'secret_key', from: null, to: 'env ORDERS_HOOK_SECRET' });
    expect(result.secrets).toMatch(/cannot be read back/);
    // The plan for the log goes to stderr when stdout carries JSON.
    expect(run.stderr).toMatch(/\+ create +"orders"/);
    expect(run.stdout + run.stderr).not.toContain(ORDERS_SECRET);
    expect(run.stdout + run.stderr).not.toContain(DISPUTES_SECRET);

    const byName = new Map((await stored(ctx.sandbox)).map((w) => [w.name, w]));
    expect(byName.get('orders')).toMatchObject({ id: result.plan[0].id, active: true, secret_key: ORDERS_SECRET, api_version: null });
    expect(byName.get('disputes')).toMatchObject({ secret_key: DISPUTES_SECRET, events: ['dispute.created'] });
    expect(byName.get('audit')).toMatchObject({ active: false, api_version: '2024-04-01', secret_key: null });
  });

  it('a second run with the same file changes nothing, says so, and exits 0', async () => {
    const file = files.write('webhooks.json', declared());
    const before = await stored(ctx.sandbox);
    const sent = changesSent(ctx.sandbox);
    const table = await apply(['-f', file, '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/= unchanged +"orders" \(id \d+\)/);
    expect(table.stdout).toContain(`No changes: the store's webhooks already match ${file} (3 unchanged).`);
    expect(table.stdout).toContain('Secrets cannot be read back');
    const json = await apply(['-f', file, '--json']);
    expect(json.json()).toMatchObject({ result: 'no changes', counts: { created: 0, updated: 0, deleted: 0, unchanged: 3 } });
    expect(changesSent(ctx.sandbox)).toBe(sent);
    expect(await stored(ctx.sandbox)).toEqual(before);
  });

  it('updates field by field what drifted or what the file changed; --dry-run only shows it', async () => {
    const orders = (await stored(ctx.sandbox)).find((w) => w.name === 'orders')!;
    // Someone changed it by hand: the events in another order are no change, a missing one is.
    await ctx.client.webhooks.update({ params: { id: Number(orders.id) }, body: { events: ['order.updated'], active: false } });
    const next = declared();
    next.webhooks[1]!.target = 'https://hooks.example.com/disputes-v2';
    next.webhooks[2]!.events = ['store.updated', 'app.uninstalled'].reverse();
    const file = files.write('changed.json', next);

    const sent = changesSent(ctx.sandbox);
    const dry = await apply(['-f', file, '--dry-run', '-o', 'table']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/~ update +"orders" \(id \d+\)\n +events +order\.updated → order\.created, order\.updated\n +active +false → true/);
    expect(dry.stdout).toMatch(/target +https:\/\/hooks\.example\.com\/disputes → https:\/\/hooks\.example\.com\/disputes-v2/);
    expect(dry.stdout).toContain('Dry run: would make 0 created, 3 updated, 0 deleted, 0 unchanged; nothing was changed.');
    expect(changesSent(ctx.sandbox)).toBe(sent);

    const run = await apply(['-f', file, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().counts).toEqual({ created: 0, updated: 3, deleted: 0, unchanged: 0 });
    const disputes = run.json().plan.find((s: { name: string }) => s.name === 'disputes');
    expect(disputes.changes).toEqual([{ field: 'target', from: 'https://hooks.example.com/disputes', to: 'https://hooks.example.com/disputes-v2' }]);
    const byName = new Map((await stored(ctx.sandbox)).map((w) => [w.name, w]));
    expect(byName.get('orders')).toMatchObject({ events: ['order.created', 'order.updated'], active: true, secret_key: ORDERS_SECRET });
    expect(byName.get('disputes')?.target).toBe('https://hooks.example.com/disputes-v2');
    expect((await apply(['-f', file, '--json'])).json().result).toBe('no changes');
  });

  it('--rotate-secrets sets each declared secret again; without it a changed secret is invisible', async () => {
    const file = files.write('changed.json', (() => {
      const next = declared();
      next.webhooks[1]!.target = 'https://hooks.example.com/disputes-v2';
      next.webhooks[2]!.events = ['app.uninstalled', 'store.updated'];
      return next;
    })());
    const rotated = 'whsec_orders_rotated_5555';
    const unseen = await apply(['-f', file, '--json'], { ORDERS_HOOK_SECRET: rotated });
    expect(unseen.json().result).toBe('no changes');
    expect((await stored(ctx.sandbox)).find((w) => w.name === 'orders')?.secret_key).toBe(ORDERS_SECRET);

    const run = await apply(['-f', file, '--rotate-secrets', '-o', 'table'], { ORDERS_HOOK_SECRET: rotated });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/secret_key +set again from env ORDERS_HOOK_SECRET/);
    expect(run.stdout).toContain('Applied: 0 created, 2 updated, 0 deleted, 1 unchanged.');
    expect(run.stdout + run.stderr).not.toContain(rotated);
    const byName = new Map((await stored(ctx.sandbox)).map((w) => [w.name, w]));
    expect(byName.get('orders')?.secret_key).toBe(rotated);
    expect(byName.get('disputes')?.secret_key).toBe(DISPUTES_SECRET);
  });

  it('refuses an invalid file with the path of each bad field, exit 2, before sending anything', async () => {
    const received = ctx.sandbox.counters.received;
    const bad = declared() as { webhooks: Record<string, unknown>[] };
    bad.webhooks[2]!.target = 'ftp://hooks.example.com/audit';
    bad.webhooks[0]!.events = ['order.craeted'];
    const cases: [unknown, RegExp, Record<string, string>?][] = [
      [bad, /webhooks\[2\]\.target: must be an http\(s\) URL; webhooks\[0\]\.events\[0\]: unknown event "order\.craeted"; did you mean order\.created\?/],
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com', secret: 'hunter2' }] }, /webhooks\[0\]\.secret: a secret is never written in the file/],
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com', secret: { env: 'ORDERS_HOOK_SECRET' } }] }, /webhooks\[0\]\.secret\.env: ORDERS_HOOK_SECRET is not set \(it is empty\)/, { ORDERS_HOOK_SECRET: '' }],
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com', secret: { env: 'NOT_NAMED' } }] }, /webhooks\[0\]\.secret\.env: NOT_NAMED is read only when the command names it: add --secret-env NOT_NAMED/],
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com', secret: { file: 'missing.secret' } }] }, /webhooks\[0\]\.secret\.file: cannot read missing\.secret \(ENOENT\)/],
      // The tool's own token and files are never a webhook's secret (the store may show it back).
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com', secret: { env: 'STORE_ADMIN_TOKEN' } }] }, /webhooks\[0\]\.secret\.env: STORE_ADMIN_TOKEN is one of store-admin's own settings, not a webhook secret/],
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com', secret: { file: join(config, 'config.json') } }] }, /webhooks\[0\]\.secret\.file: .*config\.json is in store-admin's config directory/],
      [{ webhooks: [{ name: 'x', events: ['order.created'], target: 'https://h.example.com' }, { name: 'x', events: ['order.created'], target: 'https://h.example.com' }] }, /webhooks\[1\]\.name: "x" is declared twice \(also webhooks\[0\]\)/],
      [{ webhooks: [{ name: 'x', events: [], target: 'https://h.example.com', colour: 'red' }] }, /webhooks\[0\]\.events: must name at least one event; webhooks\[0\]: unknown field: colour/],
      [{ hooks: [] }, /webhooks: is required; \(file\): unknown field: hooks/],
      ['{"webhooks": [', /not valid JSON/],
    ];
    for (const [content, message, extra] of cases) {
      const run = await apply(['-f', files.write('bad.json', content)], extra);
      expect(run.code, String(message)).toBe(2);
      expect(run.stderr.split('\n')[0]).toMatch(message);
      expect(run.stderr).not.toContain('hunter2');
    }
    expect((await apply(['-f', join(files.dir, 'nowhere.json')])).stderr).toMatch(/-f: cannot read .*nowhere\.json \(ENOENT\)/);
    expect(ctx.sandbox.counters.received).toBe(received);
    // A name the platform adds later passes when allowed.
    const later = files.write('later.json', { webhooks: [{ name: 'later', events: ['inventory.changed'], target: 'https://h.example.com/l' }] });
    expect((await apply(['-f', later, '--allow-unknown-event', '--dry-run', '--json'])).json().plan[0]).toMatchObject({ action: 'create', status: 'planned' });
  });

  it('a file that names no api_version leaves the store\'s alone: no update, whatever version the store shows', async () => {
    const file = files.write('unversioned.json', { webhooks: [{ name: 'unversioned', events: ['order.created'], target: 'https://hooks.example.com/u' }] });
    expect((await apply(['-f', file, '--json'])).json().counts).toMatchObject({ created: 1 });
    const made = (await stored(ctx.sandbox)).find((w) => w.name === 'unversioned')!;
    // The store (or a person) sets a version: the file, which names none, does not manage it.
    await ctx.client.webhooks.update({ params: { id: Number(made.id) }, body: { api_version: '2023-02-10' } });
    const again = await apply(['-f', file, '--json']);
    expect(again.json()).toMatchObject({ result: 'no changes', counts: { created: 0, updated: 0, unchanged: 1 } });
    expect((await stored(ctx.sandbox)).find((w) => w.name === 'unversioned')?.api_version).toBe('2023-02-10');
    await ctx.client.webhooks.delete({ params: { id: Number(made.id) } });
  });

  it('two store webhooks with a declared name are an error naming both ids; nothing changes', async () => {
    const body = { name: 'twin', events: ['order.created'], target: 'https://hooks.example.com/twin' };
    const a = (await ctx.client.webhooks.create({ body })) as { id: number };
    const b = (await ctx.client.webhooks.create({ body })) as { id: number };
    const file = files.write('twin.json', { webhooks: [...declared().webhooks, body] });
    const sent = changesSent(ctx.sandbox);
    const run = await apply(['-f', file]);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(`store-admin: The store has more than one webhook named "twin" (webhooks ${a.id} and ${b.id}): apply does not guess which one the file means`);
    expect(changesSent(ctx.sandbox)).toBe(sent);
    await ctx.client.webhooks.delete({ params: { id: b.id } });
  });

  it('--prune deletes what the file does not declare: needs --yes without a terminal, then deletes exactly those', async () => {
    const file = files.write('prune.json', {
      webhooks: [...declared().webhooks, { name: 'twin', events: ['order.created'], target: 'https://hooks.example.com/twin' }, { name: 'fresh', events: ['cart.abandoned'], target: 'https://hooks.example.com/fresh' }],
    });
    const sent = changesSent(ctx.sandbox);
    const received = ctx.sandbox.counters.received;
    const refused = await apply(['-f', file, '--prune']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Delete the webhooks the file does not declare \(--prune\): confirmation needed/);
    // Nothing at all went out: without a terminal the question comes before the store is read.
    expect(ctx.sandbox.counters.received).toBe(received);
    const dry = await apply(['-f', file, '--prune', '--dry-run', '-o', 'table']);
    expect(dry.stdout).toMatch(/- delete +"Order sync to warehouse system" \(id 1\)\n +- delete +"Legacy CRM import \(paused\)" \(id 2\)/);
    expect(changesSent(ctx.sandbox)).toBe(sent);

    const run = await apply(['-f', file, '--prune', '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    // disputes and audit go back to the file's version; orders and twin are as declared.
    expect(run.json()).toMatchObject({ prune: true, counts: { created: 1, updated: 2, deleted: 2, unchanged: 2 } });
    expect((await stored(ctx.sandbox)).map((w) => w.name).sort()).toEqual(['audit', 'disputes', 'fresh', 'orders', 'twin']);
    const again = await apply(['-f', file, '--prune', '--yes']);
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ result: 'no changes', counts: { unchanged: 5 } });
  });
});

describe('webhooks apply against a store that fails now and then', () => {
  // Some requests fail with 503 before they are handled, others lose their answer after the
  // change was made; a create is never sent twice, so the run stops and a rerun finishes.
  const ctx = useSandbox({ pageSize: 2, faults: { error: { share: 0.25, codes: [503] }, resetAfter: 0.2, seed: 23 } });
  const config = useConfigDir();
  const files = useFiles();

  it('a run that fails halfway is completed by running it again, with no webhook made twice', async () => {
    const file = files.write('webhooks.json', {
      webhooks: [...declared().webhooks, ...['a', 'b', 'c', 'd'].map((n) => ({ name: `extra-${n}`, events: ['order.created'], target: `https://hooks.example.com/${n}` }))],
    });
    const env = { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config, ORDERS_HOOK_SECRET: ORDERS_SECRET };
    const runs: { code: number | null; result?: string; done: number }[] = [];
    for (let attempt = 0; attempt < 15 && runs.at(-1)?.code !== 0; attempt++) {
      const run = await applyIn(env, ['-f', file, '--json']);
      const out = run.stdout ? run.json() : undefined;
      runs.push({ code: run.code, result: out?.result, done: out ? out.counts.created + out.counts.updated : 0 });
      // A run that got as far as its plan says how to finish it.
      if (run.code !== 0 && out) expect(run.stderr).toContain('run the same apply again to finish the plan');
    }
    // Deterministic (seeded): the first run stops after making some of the webhooks.
    expect(runs[0]).toMatchObject({ code: 1, result: 'failed' });
    expect(runs.some((r) => r.code === 1 && r.result === 'failed' && r.done > 0)).toBe(true);
    expect(runs.at(-1)?.code).toBe(0);
    const names = (await stored(ctx.sandbox)).map((w) => w.name);
    for (const name of ['orders', 'disputes', 'audit', 'extra-a', 'extra-b', 'extra-c', 'extra-d']) {
      expect(names.filter((n) => n === name), name).toHaveLength(1);
    }
  });
});

describe.runIf(hasTmux)('webhooks apply --prune at a terminal', () => {
  const ctx = useSandbox();
  const config = useConfigDir();
  const files = useFiles();
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));

  it('shows the plan, then asks before deleting; no leaves the store as it was', async () => {
    const file = files.write('one.json', { webhooks: [{ name: 'only', events: ['order.created'], target: 'https://hooks.example.com/only' }] });
    const t = Terminal.start(['webhooks', 'apply', '-f', file, '--prune'], {
      STORE_ADMIN_BASE_URL: ctx.sandbox.url,
      STORE_ADMIN_TOKEN: FULL_TOKEN,
      STORE_ADMIN_CONFIG_DIR: config,
      NO_COLOR: '1',
    });
    terminals.push(t);
    await t.waitFor(/Delete 2 webhooks the file does not declare .*\? This cannot be undone\. Continue\?/);
    expect(t.screen()).toMatch(/\+ create +"only"[\s\S]*- delete +"Order sync to warehouse system" \(id 1\)/);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
    expect((await stored(ctx.sandbox)).map((w) => w.id)).toEqual([1, 2]);
  });

  it('colours the plan\'s marks at a terminal, never printing their escape codes as text', async () => {
    const file = files.write('one.json', { webhooks: [{ name: 'only', events: ['order.created'], target: 'https://hooks.example.com/only' }] });
    const t = Terminal.start(['webhooks', 'apply', '-f', file, '--prune'], { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config });
    terminals.push(t);
    await t.waitFor(/This cannot be undone\. Continue\?/);
    expect(t.screen()).not.toContain('\\u001b');
    expect(t.screen()).toMatch(/\+ create +"only"[\s\S]*- delete +"Order sync to warehouse system" \(id 1\)/);
    // The marks themselves are coloured: green for a create, red for a delete.
    expect(t.screen({ colors: true })).toMatch(/\x1b\[32m\+ create +\x1b\[(0|39)?m/);
    expect(t.screen({ colors: true })).toMatch(/\x1b\[31m- delete +\x1b\[(0|39)?m/);
    t.keys('n', 'Enter');
    expect(await t.exitCode()).toBe(2);
  });
});

describe('webhooks apply with FORCE_COLOR', () => {
  const ctx = useSandbox();
  const config = useConfigDir();
  const files = useFiles();

  it('colours the marks of the plan on stderr, and nothing else: no escape code is printed as text', async () => {
    const file = files.write('colour.json', { webhooks: [{ name: 'only', events: ['order.created'], target: 'https://hooks.example.com/only' }] });
    const run = await runCli(['webhooks', 'apply', '-f', file, '--prune', '--dry-run'], {
      env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: config, FORCE_COLOR: '1' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('\\u001b');
    expect(run.stderr).toContain('  \x1b[32m+ create   \x1b[0m "only"');
    expect(run.stderr).toContain('  \x1b[31m- delete   \x1b[0m "Order sync to warehouse system" (id 1)');
  });
});
