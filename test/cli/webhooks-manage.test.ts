// webhooks list, update and delete, and the event-name check of create and update: the built CLI
// in its own process against a sandbox on a real socket.
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';
import { hasTmux, Terminal } from './tmux.js';

const SEEDED_SECRET = 'whsec_nw_5f3c9a1e7b2d4c6f8a0e';

describe('webhooks list, update and delete', () => {
  const ctx = useSandbox({ pageSize: 2, scopedTokens: { reader: ['webhooks:read'] } });
  const dir = useConfigDir();
  const env = (token = FULL_TOKEN) => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: token, STORE_ADMIN_CONFIG_DIR: dir });
  const cli = (args: string[], token?: string) => runCli(args, { env: env(token) });

  it('list shows one page in the platform shape; --all follows every page; secrets never show', async () => {
    for (const name of ['one', 'two', 'three']) {
      await ctx.client.webhooks.create({ body: { name, target: 'https://hooks.example.com/l', events: ['order.created'], secret_key: `s3cret-${name}` } });
    }
    // Newest first, as the store lists them.
    const page = await cli(['webhooks', 'list', '--json']);
    expect(page.code).toBe(0);
    expect(page.json().results.map((w: { id: number }) => w.id)).toEqual([5, 4]);
    expect(page.json().next).toMatch(/cursor=/);
    const all = await cli(['webhooks', 'list', '--all', '--json']);
    expect(all.code).toBe(0);
    expect(all.json()).toMatchObject({ next: null, previous: null });
    expect(all.json().results.map((w: { name: string }) => w.name)).toEqual(['three', 'two', 'one', 'Legacy CRM import (paused)', 'Order sync to warehouse system']);
    // The next page by its cursor, as the table's hint says.
    const cursor = new URL(page.json().next).searchParams.get('cursor')!;
    const second = await cli(['webhooks', 'list', '--cursor', cursor, '--json']);
    expect(second.json().results.map((w: { name: string }) => w.name)).toEqual(['one', 'Legacy CRM import (paused)']);
    for (const run of [page, all, second]) {
      expect(run.stdout + run.stderr).not.toContain(SEEDED_SECRET);
      expect(run.stdout + run.stderr).not.toContain('s3cret-');
    }
    // A table in a pipe is 80 columns wide: the name may wrap at its words.
    const table = await cli(['webhooks', 'list', '-o', 'table']);
    expect(table.stderr).toContain(`--cursor ${cursor}`);
    // Drawn page by page, the first page's short values leave room for the longer ones of later pages.
    const whole = await cli(['webhooks', 'list', '--all', '-o', 'table']);
    const names = whole.stdout.split('\n').map((line) => line.split('│')[2]?.trim() ?? '').filter(Boolean);
    expect(names.join(' ')).toContain('Order sync to warehouse system');
    const seeded = all.json().results.find((w: { id: number }) => w.id === 1).target as string;
    expect(whole.stdout).toContain(`${seeded.slice(0, 31)}…`);
    const ndjson = await cli(['webhooks', 'list', '--all', '-o', 'ndjson']);
    expect(ndjson.stdout.trim().split('\n')).toHaveLength(5);
  });

  it('list sends --active and --inactive as the true or false the filter takes', async () => {
    for (const [flag, value] of [['--active', 'true'], ['--inactive', 'false']] as const) {
      const dry = await cli(['webhooks', 'list', flag, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.json().url).toBe(`${ctx.sandbox.url}/api/admin/webhooks/?active=${value}`);
    }
  });

  it('list shortens a long target with … (as gh does) rather than breaking it over lines, at 80 and 120 columns', async () => {
    const target = 'https://erp.example.com/hooks/store/v2/events?source=store-admin&region=eu';
    const { id } = (await ctx.client.webhooks.create({ body: { name: 'orders-to-erp', target, events: ['order.created', 'order.updated'] } })) as { id: number };
    for (const width of ['80', '120']) {
      const table = await runCli(['webhooks', 'list', '--all', '--name', 'orders-to-erp', '-o', 'table'], { env: { ...env(), COLUMNS: width } });
      expect(table.code, table.stderr).toBe(0);
      const lines = table.stdout.trimEnd().split('\n');
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(Number(width));
      const row = lines.find((line) => line.includes('orders-to-erp'))!;
      expect(row).toContain(`${target.slice(0, 31)}…`);
      // Nothing of the URL on another line.
      expect(lines.filter((line) => line !== row && /example\.com|source=/.test(line))).toEqual([]);
    }
    // Whole in JSON, and where the webhook is shown alone.
    const listed = (await cli(['webhooks', 'list', '--all', '--name', 'orders-to-erp', '--json'])).json();
    expect((Array.isArray(listed) ? listed : listed.results)[0].target).toBe(target);
    expect((await runCli(['webhooks', 'get', String(id), '-o', 'table'], { env: { ...env(), COLUMNS: '120' } })).stdout).toContain(target);
    await ctx.client.webhooks.delete({ params: { id: id! } });
  });

  it('list filters by name and by active, over every page', async () => {
    const named = await cli(['webhooks', 'list', '--name', 'two', '--json']);
    expect(named.json().results.map((w: { name: string }) => w.name)).toEqual(['two']);
    const inactive = await cli(['webhooks', 'list', '--inactive', '--all', '--json']);
    expect(inactive.json().results.map((w: { id: number }) => w.id)).toEqual([2]);
    const active = await cli(['webhooks', 'list', '--active', '--all', '--json']);
    expect(active.json().results.map((w: { id: number }) => w.id)).toEqual([5, 4, 3, 1]);
    const both = await cli(['webhooks', 'list', '--active', '--inactive']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--active and --inactive contradict each other');
  });

  it('list --events says the platform filters by event ids it does not publish, and shows how to find webhooks by event name instead', async () => {
    const help = await cli(['webhooks', 'list', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('the platform does not publish which id is which event');
    const before = ctx.sandbox.counters.byOperation['webhooksList']?.received ?? 0;
    const named = await cli(['webhooks', 'list', '--events', 'order.created']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('--events: "order.created" is an event name; the platform filters by event id');
    expect(named.stderr).toContain(`-q "results[?contains(events, 'order.created')]"`);
    expect(ctx.sandbox.counters.byOperation['webhooksList']?.received ?? 0).toBe(before);
    // The way the hint gives finds them.
    const found = await cli(['webhooks', 'list', '--all', '--json', '-q', "results[?contains(events, 'order.created')].name"]);
    expect(found.code, found.stderr).toBe(0);
    const all = (await cli(['webhooks', 'list', '--all', '--json'])).json().results as { name: string; events: string[] }[];
    expect(found.json()).toEqual(all.filter((w) => w.events.includes('order.created')).map((w) => w.name));
    expect(found.json()).toEqual(expect.arrayContaining(['three', 'two', 'one']));
    // An id goes to the store, which knows its own (the sandbox knows none, and says so as the platform does).
    const id = await cli(['webhooks', 'list', '--events', '3']);
    expect(id.code).toBe(1);
    expect(id.stderr).toContain('Select a valid choice. 3 is not one of the available choices.');
  });

  it('update sends only the fields given, masks the secret, and names what changed', async () => {
    const run = await cli(['webhooks', 'update', '3', '--event', 'order.created,dispute.created', '--inactive', '--secret-key', 'rotated-secret', '-o', 'table']);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('rotated-secret');
    expect(run.stderr).toContain('Changed: ');
    const stored = await ctx.client.webhooks.get({ params: { id: 3 } });
    expect(stored).toMatchObject({ name: 'one', active: false, events: ['order.created', 'dispute.created'], secret_key: 'rotated-secret' });
    const nothing = await cli(['webhooks', 'update', '3']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to change');
  });

  it('create and update refuse an unknown event with a suggestion unless --allow-unknown-event', async () => {
    const before = ctx.sandbox.counters.byOperation['webhooksCreate']?.received ?? 0;
    const typo = await cli(['webhooks', 'create', '--target', 'https://hooks.example.com/t', '--event', 'order.craeted']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--event: unknown event "order.craeted"; did you mean order.created?');
    expect(typo.stderr).toContain('--allow-unknown-event');
    expect(ctx.sandbox.counters.byOperation['webhooksCreate']?.received ?? 0).toBe(before);
    const update = await cli(['webhooks', 'update', '3', '--event', 'order.created,subscription.updatd']);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('did you mean subscription.updated?');

    const later = await cli(['webhooks', 'create', '--target', 'https://hooks.example.com/t', '--event', 'inventory.changed', '--allow-unknown-event', '--name', 'later']);
    expect(later.code).toBe(0);
    expect(later.json().events).toEqual(['inventory.changed']);
    const updated = await cli(['webhooks', 'update', String(later.json().id), '--event', 'inventory.moved', '--allow-unknown-event']);
    expect(updated.json().events).toEqual(['inventory.moved']);
  });

  it('delete needs --yes without a terminal (exit 2, nothing sent), deletes with it, and a second delete is exit 1', async () => {
    const before = ctx.sandbox.counters.byOperation['webhooksDestroy']?.received ?? 0;
    const refused = await cli(['webhooks', 'delete', '4']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('confirmation needed');
    expect(ctx.sandbox.counters.byOperation['webhooksDestroy']?.received ?? 0).toBe(before);

    const deleted = await cli(['webhooks', 'delete', '4', '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(deleted.stderr).toContain('Deleted webhook 4.');
    const again = await cli(['webhooks', 'delete', '4', '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('404');
  });

  it('a token without webhooks:write cannot update or delete (exit 4, the scope named)', async () => {
    const run = await cli(['webhooks', 'delete', '3', '--yes'], 'reader');
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('webhooks:write');
    expect((await cli(['webhooks', 'list', '--json'], 'reader')).code).toBe(0);
  });
});

describe.runIf(hasTmux)('webhooks delete at a terminal', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const terminals: Terminal[] = [];
  afterEach(() => terminals.splice(0).forEach((t) => t.kill()));
  const start = (args: string[]) => {
    const t = Terminal.start(args, { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, NO_COLOR: '1' });
    terminals.push(t);
    return t;
  };

  it('asks first; no keeps the webhook, yes deletes it', async () => {
    const declined = start(['webhooks', 'delete', '2']);
    await declined.waitFor(/Delete webhook 2\? The store stops sending its events; this cannot be undone\. Continue\?/);
    declined.keys('n', 'Enter');
    expect(await declined.exitCode()).toBe(2);
    expect(await ctx.client.webhooks.get({ params: { id: 2 } })).toMatchObject({ id: 2 });

    const accepted = start(['webhooks', 'delete', '2']);
    await accepted.waitFor(/Continue\?/);
    accepted.keys('y', 'Enter');
    expect(await accepted.exitCode()).toBe(0);
    await expect(ctx.client.webhooks.get({ params: { id: 2 } })).rejects.toMatchObject({ status: 404 });
  });
});
