// The commands made from the operation table, end to end against the sandbox, once per kind of
// thing they do: a list with filters, a create from flags, --data and @file, a change, a delete
// that asks first, an action, and the checks that refuse bad input before anything is sent. Runs
// go through main() in process, over real sockets.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sockClubSubscription } from '../fixtures.js';
import { FULL_TOKEN, startTestSandbox } from '../helpers.js';
import { runInProcess } from './in-process.js';
import { scriptedPrompter } from './scripted-prompter.js';

let sandbox: Sandbox;
const NARROW_TOKEN = 'narrow-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'store-admin-ops-'));
beforeAll(async () => {
  sandbox = await startTestSandbox({ token: FULL_TOKEN, scopedTokens: { [NARROW_TOKEN]: ['catalogue:read'] } });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
const run = (args: string[], stdin = '') => runInProcess(args, env(), stdin);
const json = async (args: string[]) => {
  const r = await run([...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as any;
};

/** Runs `work` and says how many requests reached the store meanwhile. */
async function sent(work: () => Promise<unknown>): Promise<number> {
  const before = sandbox.counters.received;
  await work();
  return sandbox.counters.received - before;
}

describe('a create', () => {
  it('takes its body from flags, from --data, and from --data @file, flags winning', async () => {
    const fromFlags = await json(['categories', 'create', '--name', 'Shoes', '--slug', 'shoes', '--no-is-public']);
    expect(fromFlags).toMatchObject({ name: 'Shoes', slug: 'shoes' });
    const fromData = await json(['categories', 'create', '--data', '{"name":"Hats","slug":"hats"}']);
    expect(fromData).toMatchObject({ name: 'Hats', slug: 'hats' });
    const file = join(dir, 'category.json');
    writeFileSync(file, '{"name":"Socks","slug":"socks"}');
    const overridden = await json(['categories', 'create', '--data', `@${file}`, '--name', 'Warm socks']);
    expect(overridden).toMatchObject({ name: 'Warm socks', slug: 'socks' });
    expect(await json(['categories', 'get', String(overridden.id)])).toMatchObject({ name: 'Warm socks' });
  });

  it('names every missing required flag in one error without a terminal, and sends nothing', async () => {
    let r!: Awaited<ReturnType<typeof run>>;
    expect(await sent(async () => (r = await run(['categories', 'create'])))).toBe(0);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: Missing --name and --slug$/m);
    // Arguments and flags together; what --data may hold is left to the body's own check.
    expect((await run(['categories', 'replace'])).stderr).toMatch(/^store-admin: Missing <id>, --name and --slug$/m);
    expect((await run(['categories', 'replace', '--data', '{"name":"A","slug":"a"}'])).stderr).toMatch(/^store-admin: Missing <id>$/m);
  });

  it('asks for the required fields at a terminal, each checked by its schema', async () => {
    const person = scriptedPrompter([{ tries: ['Belts'] }, { tries: ['not a slug!', 'belts'] }]);
    const r = await runInProcess(['categories', 'create', '-q', 'id', '--raw'], env(), '', { terminal: true, overrides: { prompter: person } });
    expect(r.code, r.stderr).toBe(0);
    expect(person.asked.map(({ flag }) => flag)).toEqual(['--name', '--slug']);
    expect(person.asked[1]!.verdicts).toEqual([expect.stringMatching(/must match/), true]);
    expect(await json(['categories', 'get', r.stdout.trim()])).toMatchObject({ name: 'Belts', slug: 'belts' });
  });

  it('refuses what the reference forbids before sending, naming the flag: a pattern, JSON, a field of another version', async () => {
    for (const [args, message] of [
      [['categories', 'create', '--name', 'A', '--slug', 'a b'], /^store-admin: --slug: must match .* \(got "a b"\)$/m],
      [['categories', 'create', '--data', '{"name":"A","slug":"a","colour":"red"}'], /^store-admin: --data: "colour" is not a field of this operation$/m],
      [['orders', 'create', '--lines', '[{'], /^store-admin: --lines: not valid JSON/m],
      [['subscriptions', 'update', '1', '--interval-count', '1.5'], /^store-admin: --interval-count: must be a whole number \(got "1.5"\)$/m],
      [['orders', 'list', '--product', '2,x'], /^store-admin: --product: must be a number \(got "x"\)$/m],
      [['products', 'create', '--title', 'A', '--slug', 'a'], /^store-admin: --slug: only in API version 2023-02-10 \(pass --api-version 2023-02-10\)$/m],
    ] as const) {
      let r!: Awaited<ReturnType<typeof run>>;
      expect(await sent(async () => (r = await run([...args])))).toBe(0);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('a list', () => {
  beforeAll(async () => {
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await json(['subscriptions', 'create', '--data', JSON.stringify(sockClubSubscription(email))]);
    await json(['subscriptions', 'update', '2', '--status', 'past_due', '--yes']);
    await json(['subscriptions', 'update', '3', '--status', 'canceled', '--yes']);
  });

  it('filters by an enum given repeated or comma-separated, sent as repeated parameters', async () => {
    const r = await run(['subscriptions', 'list', '--status', 'past_due,canceled', '--dry-run', '-q', 'url', '--raw']);
    expect(r.stdout.trim()).toBe(`${sandbox.url}/api/admin/subscriptions/?status=past_due&status=canceled`);
    // The seeded store has subscriptions in every status: the filter keeps exactly those of either.
    const every: { id: number; status: string }[] = (await json(['subscriptions', 'list', '--all'])).results;
    const ids = (list: { id: number }[]) => list.map((s) => s.id).sort((a, b) => a - b);
    const listed = await json(['subscriptions', 'list', '--status', 'past_due', '--status', 'canceled', '--all']);
    expect(ids(listed.results)).toEqual(ids(every.filter((s) => s.status === 'past_due' || s.status === 'canceled')));
    expect(ids(listed.results)).toEqual(expect.arrayContaining([2, 3]));
    const pastDue = await json(['subscriptions', 'list', '--status', 'past_due', '--all']);
    expect(ids(pastDue.results)).toEqual(ids(every.filter((s) => s.status === 'past_due')));
    expect(pastDue.results).toContainEqual(expect.objectContaining({ id: 2, status: 'past_due' }));
  });

  it('checks an enum before sending and suggests the nearest value', async () => {
    let r!: Awaited<ReturnType<typeof run>>;
    expect(await sent(async () => (r = await run(['subscriptions', 'list', '--status', 'pastdue'])))).toBe(0);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: --status: must be one of: .* \(got "pastdue"\); did you mean past_due\?$/m);
  });

  it('reads a date filter in the forms the tool takes, as the day it names', async () => {
    const url = async (...flags: string[]) => (await run(['orders', 'list', ...flags, '--dry-run', '-q', 'url', '--raw'])).stdout.trim();
    expect(await url('--date-placed-from', '2026-01-31T22:30:00-05:00', '--date-placed-to', '2026-02-28')).toMatch(/date_placed_from=2026-01-31&date_placed_to=2026-02-28$/);
    const r = await run(['orders', 'list', '--date-placed-to', '2026-02-30']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: --date-placed-to: "2026-02-30" is not a date: February 2026 has 28 days$/m);
  });

  it('takes a yes-or-no filter as --x or --no-x', async () => {
    const r = await run(['orders', 'list', '--no-is-test', '--has-outstanding-balance', '--dry-run', '-q', 'url', '--raw']);
    expect(r.stdout.trim()).toMatch(/\?has_outstanding_balance=true&is_test=false$|\?is_test=false&has_outstanding_balance=true$/);
  });
});

describe('a change', () => {
  it('sends only the fields given, and a person is told which', async () => {
    const made = await json(['customers', 'create', '--email', 'ada@example.com', '--first-name', 'Ada']);
    const r = await runInProcess(['customers', 'update', String(made.id), '--last-name', 'Lovelace', '--tags', 'vip,newsletter'], env(), '', { terminal: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Changed: last_name = "Lovelace", tags = ["vip","newsletter"]');
    expect(await json(['customers', 'get', String(made.id)])).toMatchObject({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('takes null where the field may be null, on a partial update as anywhere', async () => {
    const r = await run(['subscriptions', 'update', '1', '--shipping-code', 'null', '--dry-run', '-q', 'body', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ shipping_code: null });
    const help = await run(['subscriptions', 'update', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--shipping-price <price> shipping price \(a decimal [^)]*; or null\)/);
  });

  it('refuses a partial update that changes nothing', async () => {
    const r = await run(['customers', 'update', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: Nothing to change: pass at least one field flag, or fields in --data$/m);
  });
});

describe('a delete', () => {
  it('asks first, needs --yes without a terminal, and is gone afterwards', async () => {
    const made = await json(['locations', 'create', '--data', '{"name":"Warehouse","address":{"line1":"1 Main St","line4":"Town","country":"US"}}']);
    let r!: Awaited<ReturnType<typeof run>>;
    expect(await sent(async () => (r = await run(['locations', 'delete', String(made.id)])))).toBe(0);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^store-admin: Delete location ${made.id}\\? This cannot be undone: confirmation needed$`, 'm'));
    const person = scriptedPrompter([false]);
    const declined = await runInProcess(['locations', 'delete', String(made.id)], env(), '', { terminal: true, overrides: { prompter: person } });
    expect(declined.code).toBe(2);
    expect(person.asked[0]!.message).toBe(`Delete location ${made.id}? This cannot be undone. Continue?`);
    expect((await run(['locations', 'delete', String(made.id), '--yes'])).code).toBe(0);
    const gone = await run(['locations', 'get', String(made.id)]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/\(HTTP 404\)/);
  });
});

describe('an action', () => {
  it('runs an action of the path, confirming one that cannot be undone', async () => {
    const made = await json(['subscriptions', 'create', '--data', JSON.stringify(sockClubSubscription('d@example.com'))]);
    const refused = await run(['subscriptions', 'cancel', String(made.id), '--reason', 'other']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/confirmation needed/);
    const canceled = await json(['subscriptions', 'cancel', String(made.id), '--reason', 'other', '--other-message', 'Moving abroad', '--yes']);
    expect(canceled).toMatchObject({ id: made.id, status: 'canceled', cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad' });
  });

  it('writes every change to the history under its command', async () => {
    const history = await json(['history', 'list']);
    expect(history.map((entry: { command: string }) => entry.command)).toEqual(expect.arrayContaining(['categories create', 'subscriptions cancel', 'locations delete']));
  });

  it('says which scope a refused command needs', async () => {
    const r = await runInProcess(['orders', 'list'], { ...env(), STORE_ADMIN_TOKEN: NARROW_TOKEN });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^hint: This command needs a token with the scope orders:read$/m);
  });
});
