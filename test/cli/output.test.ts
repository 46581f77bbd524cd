// Output for people and for scripts: tables, colour, JSON, queries, dry runs and traces.
import { describe, expect, it } from 'vitest';
import { loadOperation } from '../../src/api/operations.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { commandIds, commandLines } from './cases.js';
import { runCli, useConfigDir } from './run.js';

describe('output', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { env: { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir, ...extra } });

  it('every operation is reachable from a command and succeeds against the sandbox', async () => {
    for (const id of commandIds) {
      const before = ctx.sandbox.counters.byOperation[id]?.received ?? 0;
      const r = await cli(commandLines[id]);
      expect(r.code, `${id}: ${r.stderr}`).toBe(0);
      expect(ctx.sandbox.counters.byOperation[id]?.received).toBe(before + 1);
    }
  });

  it('an order renders as key fields, then its lines', async () => {
    // The seed has one removable line, which the first test removed.
    await ctx.sandbox.store.reset();
    const r = await cli(['orders', 'remove-line', '10002', '105', '--yes', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\x1b[');
    const text = r.stdout;
    expect(text.indexOf('Number')).toBeLessThan(text.indexOf('Total'));
    expect(text).toMatch(/Total\s+│ \d+\.\d{2} USD/);
    expect(text).toMatch(/Lines\n┌/);
    expect(text).toContain('NWO-BEAN-NV-OS');
  });

  it('lists render as tables, empty lists as (none) and [] in JSON', async () => {
    const table = await cli(['orders', 'fulfillment-orders', '10002', '-o', 'table']);
    expect(table.stdout).toMatch(/│ ID\s+│ ORDER\s+│ STATUS/);
    const empty = await cli(['orders', 'fulfillment-orders', '10003', '-o', 'table']);
    expect(empty.stdout).toContain('(none)');
    const json = await cli(['orders', 'fulfillment-orders', '10003', '--json']);
    expect(json.stdout).toBe('[]\n');
  });

  it('-o ndjson prints each item of a list as one line, an object as one line, and an error object on stderr', async () => {
    const list = await cli(['orders', 'fulfillment-orders', '10002', '-o', 'ndjson']);
    const json = await cli(['orders', 'fulfillment-orders', '10002', '--json']);
    expect(list.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(json.json());
    expect(json.json().length).toBeGreaterThan(0);
    const one = await cli(['categories', 'get', '1', '-o', 'ndjson']);
    expect(one.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: 1 });
    const missing = await cli(['categories', 'get', '999999', '-o', 'ndjson']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { status: 404 } });
  });

  it('exports types: a table of the types alone, and one NDJSON line per type', async () => {
    const table = await cli(['exports', 'types', '-o', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^Export types\n┌/);
    expect(table.stdout).not.toMatch(/types\s+│ \d+ items/);
    const types = (await cli(['exports', 'types', '--json'])).json().types;
    const lines = await cli(['exports', 'types', '-o', 'ndjson']);
    expect(lines.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(types);
    expect(types.length).toBeGreaterThan(1);
    // A query reshapes the answer: its result is one record, as with any other.
    const queried = await cli(['exports', 'types', '-o', 'ndjson', '-q', 'types[0]']);
    expect(JSON.parse(queried.stdout)).toEqual(types[0]);
  });

  it('-o table in a pipe without COLUMNS is 80 columns wide, and cuts no word', async () => {
    const widest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));
    const wide = await cli(['categories', 'get', '1', '-o', 'table'], { COLUMNS: '200' });
    expect(widest(wide.stdout)).toBeGreaterThan(80);
    const piped = await cli(['categories', 'get', '1', '-o', 'table']);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
    const words = (text: string) => new Set(text.replace(/[│┌┐└┘─┬┴├┤┼]/g, ' ').split(/\s+/).filter(Boolean));
    // Wrapped, none cut: every word that fits a column is still there whole (longer ones are broken across lines).
    expect(piped.stdout).not.toContain('…');
    const shown = words(piped.stdout);
    for (const word of words(wide.stdout)) if (word.length <= 20) expect(shown).toContain(word);
  });

  it('colours statuses only when allowed', async () => {
    const forced = await cli(['webhooks', 'get', '1', '-o', 'table'], { FORCE_COLOR: '1' });
    expect(forced.stdout).toContain('\x1b[');
    const noColor = await cli(['webhooks', 'get', '1', '-o', 'table'], { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(noColor.stdout).not.toContain('\x1b[');
    const flag = await cli(['webhooks', 'get', '1', '-o', 'table', '--no-color'], { FORCE_COLOR: '1' });
    expect(flag.stdout).not.toContain('\x1b[');
  });

  it('masks the webhook secret in tables', async () => {
    const r = await cli(['webhooks', 'get', '1', '-o', 'table']);
    expect(r.stdout).toContain('Secret key');
    expect(r.stdout).toMatch(/Secret key\s+│ \*\*\*/);
    const shown = await cli(['webhooks', 'get', '1', '-o', 'table', '--show-secret']);
    expect(shown.stdout).not.toMatch(/Secret key\s+│ \*\*\*/);
  });

  it('prints compact JSON in a pipe, unaltered values', async () => {
    const r = await cli(['categories', 'get', '1']);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.json()).toMatchObject({ id: 1, is_public: true });
  });

  it('filters with --query', async () => {
    const r = await cli(['categories', 'get', '1', '--query', '{n: name, s: slug}']);
    expect(r.json()).toEqual({ n: 'Apparel', s: 'apparel' });
  });

  it('--api-version overrides the header with a warning', async () => {
    const r = await cli(['categories', 'get', '1', '--api-version', '2099-01-01']);
    expect(r.stderr).toContain('warning: sending X-Store-API-Version: 2099-01-01');
    expect(r.code).toBe(1);
    // The store names every version it serves the operation at.
    const { versions } = await loadOperation('categoriesRetrieve');
    expect(r.stderr).toContain(`X-Store-API-Version must be one of ${versions.map((v) => `"${v}"`).join(', ')} for this operation (got "2099-01-01")`);
  });

  it('--quiet keeps stderr clean on success', async () => {
    const r = await cli(['categories', 'get', '1', '--api-version', '2024-04-01', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('--dry-run prints the request, sends nothing and exits 0', async () => {
    const before = ctx.sandbox.counters.received;
    const r = await cli(['subscriptions', 'cancel', '3', '--reason', 'other', '--dry-run', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`POST ${ctx.sandbox.url}/api/admin/subscriptions/3/cancel/`);
    expect(r.stdout).toContain('authorization: Bearer ***');
    expect(r.stdout).toContain(`x-store-api-version: ${(await loadOperation('subscriptionsCancelCreate')).version}`);
    expect(r.stdout).toContain('"cancel_reason": "other"');
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('--dry-run takes --query and --raw like any result: the request is the result', async () => {
    const before = ctx.sandbox.counters.received;
    const url = await cli(['subscriptions', 'cancel', '3', '--reason', 'other', '--dry-run', '-q', 'url', '--raw']);
    expect(url.code).toBe(0);
    expect(url.stdout).toBe(`${ctx.sandbox.url}/api/admin/subscriptions/3/cancel/\n`);
    const headers = await cli(['subscriptions', 'cancel', '3', '--reason', 'other', '--dry-run', '-q', 'keys(headers)', '--raw']);
    expect(headers.stdout.split('\n')).toContain('authorization');
    const record = await cli(['subscriptions', 'cancel', '3', '--reason', 'other', '--dry-run', '--raw']);
    expect(JSON.parse(record.stdout)).toMatchObject({ method: 'POST', body: { cancel_reason: 'other' } });
    expect(ctx.sandbox.counters.received).toBe(before);
  });

  it('--verbose traces the request and the response on stderr', async () => {
    const r = await cli(['categories', 'get', '1', '--verbose']);
    expect(r.stderr).toContain(`> GET ${ctx.sandbox.url}/api/admin/categories/1/`);
    expect(r.stderr).toContain('< 200');
    expect(r.json().id).toBe(1);
  });
});
