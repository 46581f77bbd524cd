// Output for a person at a terminal and for a script: raw query results, tables fitted to the
// width, summaries of nested values, what a change did, JSON colour and the pager only on a terminal.
import { describe, expect, it } from 'vitest';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

describe('terminal output', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, ...extra } });

  it('--raw prints a string bare and a list of strings one per line; objects stay JSON', async () => {
    const one = await cli(['exports', 'types', '-q', 'types[0].code', '--raw']);
    expect(one.stdout).toBe('order_list\n');
    const quoted = await cli(['exports', 'types', '-q', 'types[0].code']);
    expect(quoted.stdout).toBe('"order_list"\n');
    const many = await cli(['exports', 'types', '-q', 'types[:2].code', '--raw']);
    expect(many.stdout).toBe('order_list\norder_line_items\n');
    const object = await cli(['exports', 'types', '-q', 'types[0]', '--raw']);
    expect(object.json()).toEqual({ code: 'order_list', name: 'Order list' });
  });

  it('a jq-style --query is answered with its JMESPath spelling', async () => {
    const r = await cli(['exports', 'types', '-q', '.types[0]']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("hint: --query takes JMESPath (https://jmespath.org), not jq: try --query 'types[0]'");
  });

  it('-o table renders the query result as a table; -q alone prints JSON', async () => {
    const table = await cli(['exports', 'types', '-q', 'types[:2]', '-o', 'table']);
    expect(table.stdout).toMatch(/│ CODE\s+│ NAME\s+│\n│ order_list\s+│ Order list\s+│/);
    const scalars = await cli(['exports', 'types', '-q', 'types[:2].code', '-o', 'table']);
    expect(scalars.stdout).toMatch(/│ order_list\s+│\n│ order_line_items\s+│/);
    const json = await cli(['exports', 'types', '-q', 'types[0].code']);
    expect(json.stdout).toBe('"order_list"\n');
  });

  it('tables fit COLUMNS: long cells wrap at words, a word too long is broken across lines, never cut', async () => {
    const wide = await cli(['categories', 'get', '1', '-o', 'table'], { COLUMNS: '200' });
    expect(Math.max(...wide.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(60);
    const image = /│ Image\s+│ (https:\/\/\S+)\s*│/.exec(wide.stdout)![1]!;
    const narrow = await cli(['categories', 'get', '1', '-o', 'table'], { COLUMNS: '60' });
    const lines = narrow.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(narrow.stdout).not.toContain('…');
    // The image URL, read down its column, is whole.
    const start = lines.findIndex((l) => /│ Image\s+│/.test(l));
    const pieces = lines.slice(start).map((l) => /^│[^│]*│ (\S*)\s*│$/.exec(l)?.[1] ?? '');
    expect(pieces.join('').startsWith(image)).toBe(true);
    // The category's description, a long text, wraps at its words: read down its column, it is whole.
    const description = /│ Meta description\s+│ (.+?)\s*│/.exec(wide.stdout)![1]!;
    const from = lines.findIndex((l) => /^│ Meta\s/.test(l));
    const to = lines.findIndex((l) => /^│ Meta title/.test(l));
    const cell = lines.slice(from, to).map((l) => /^│[^│]*│ (.*?)\s*│$/.exec(l)![1]!);
    expect(cell.length).toBeGreaterThan(1);
    expect(cell.join(' ')).toBe(description);
  });

  it('nested values are summarised in cells, whole in JSON', async () => {
    const nested = '{"a":{"b":[1,2,3]},"c":"a long string value, long enough"}';
    const r = await cli(['apps', 'update-settings', 'sandbox-app', '--set', `nested=${nested}`, '-o', 'table']);
    expect(r.stdout).toMatch(/│ nested\s+│ \{a, c\}\s+│/);
    const short = await cli(['apps', 'update-settings', 'sandbox-app', '--set', 'tiny={"a":1}', '-o', 'table']);
    expect(short.stdout).toMatch(/│ tiny\s+│ \{"a":1\}\s+│/);
  });

  it('a renewal shows the order it created; subscription prices carry their currency', async () => {
    const r = await cli(['subscriptions', 'renew', '1', '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const latest = await cli(['subscriptions', 'renew', '1', '--yes', '--json']);
    const newest = latest.json().orders.at(-1).order_number;
    const again = await cli(['subscriptions', 'renew', '1', '--yes', '-o', 'table']);
    const next = String(Number(newest) + 1);
    expect(again.stdout).toMatch(new RegExp(`│ Latest order\\s+│ ${next} \\(cycle \\d+\\)`));
    expect(again.stdout).toMatch(/│ 701 │ Merino Trail Socks \(3-pack\) │ 1\s+│ 24\.00 USD │/);
    // What it charged, and to what: the subscription's total, on the saved card.
    const { total, currency } = latest.json();
    expect(again.stderr).toContain(`Charged ${total} ${currency}, the subscription's total, to the customer's saved card for order ${next}.`);
    expect(latest.stderr).toContain(`Charged ${total} ${currency}, the subscription's total, to the customer's saved card for order ${newest}.`);
    expect((await cli(['subscriptions', 'renew', '1', '--yes', '--quiet'])).stderr).toBe('');
  });

  it('renewing a past-due subscription is refused naming the platform operation that retries its payment', async () => {
    const r = await cli(['subscriptions', 'renew', '2', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Subscription 2 is past_due: its payment is retried (POST /subscriptions/{id}/retry/), not renewed.');
  });

  it("an order's table shows what is left of each line: a removed line stays on the order with nothing left of it", async () => {
    const removed = await cli(['orders', 'lines', 'delete', '10002', '105', '--yes', '-o', 'table']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/│ 104 │ [^│]+│ NWO-BEAN-NV-OS │ 1\s+│/);
    expect(removed.stdout).toMatch(/│ 105 │ [^│]+│ NWO-SOCK-HG-M +│ 0 of 2 │/);
  });

  it('exports create says how to save the export once it is available', async () => {
    const r = await cli(['exports', 'create', '--type', 'order_list', '--from', '2026-01-01', '--to', '2026-01-31', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const id = /│ ID\s+│ (\d+)/.exec(r.stdout)?.[1];
    expect(r.stderr).toContain(`Export ${id} is pending; save it once it is available with: store-admin exports download ${id} --wait`);
  });

  it('an update names the fields it sent, for people only', async () => {
    const r = await cli(['subscriptions', 'update', '1', '--interval', 'week', '--interval-count', '2', '-o', 'table']);
    expect(r.stderr).toContain('Changed: interval = "week", interval_count = 2');
    const json = await cli(['subscriptions', 'update', '1', '--interval', 'month', '--json']);
    expect(json.stderr).not.toContain('Changed');
  });

  it('in a pipe: no JSON colour, no pager', async () => {
    const r = await cli(['exports', 'types', '--json'], { FORCE_COLOR: '1', STORE_ADMIN_PAGER: "sed 's/^/PAGED /'" });
    expect(r.stdout).not.toContain('\x1b[');
    expect(r.stdout).not.toContain('PAGED');
    expect(r.json().types.length).toBeGreaterThan(2);
  });
});
