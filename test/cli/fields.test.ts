// Body fields, each declared once: what their flags accept and refuse, seen through main() run in
// process against a sandbox over HTTP (the built CLI's wiring is the other CLI tests' part), and
// what the declarations promise about help and schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadOperation, type OperationSchemas } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { shapeOf } from '../../src/fields/constraints.js';
import { flagOf } from '../../src/fields/declare.js';
import { metaOf } from '../../src/commands/meta.js';
import { DEFAULTS } from '../../src/defaults.js';
import { commandPath, leafCommands } from '../../src/commands/meta.js';
import { processIO } from '../../src/output/stream.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runInProcess } from './in-process.js';
import { runCli, useConfigDir } from './run.js';

describe('field flags against the sandbox', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const cli = async (args: string[]) => {
    const r = await runInProcess(args, { STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
    return { ...r, json: () => JSON.parse(r.stdout) };
  };

  it('--event splits on commas, and repeats add to the list', async () => {
    const r = await cli(['webhooks', 'create', '--target', 'https://hooks.example.com/f', '--event', 'order.created, order.updated', '--event', 'made.up', '--allow-unknown-event']);
    expect(r.code).toBe(0);
    expect(r.json().events).toEqual(['order.created', 'order.updated', 'made.up']);
  });

  it('dates with a space before the time and a +0100 offset are accepted and normalised', async () => {
    const r = await cli(['exports', 'create', '--type', 'order_list', '--from', '2026-03-01 10:00', '--to', '2026-03-02T10:00+0100']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ date_from: '2026-03-01T10:00:00Z', date_to: '2026-03-02T10:00:00+01:00' });
  });

  // The reference's events are a list that may be empty: separators alone make one.
  it('--event with separators alone sends an empty list', async () => {
    const r = await cli(['webhooks', 'create', '--target', 'https://hooks.example.com/f', '--event', ' , ']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().events).toEqual([]);
  });

  it('--set trims spaces around the key and the value', async () => {
    const r = await cli(['apps', 'update-settings', 'sandbox-app', '--set', 'theme = dark', '--set', ' max_items =12']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ theme: 'dark', max_items: 12 });
    expect(Object.keys(r.json())).not.toContain('theme ');
  });

  describe('bad values: one line, exit 2, nothing sent', () => {
    it.each([
      [['exports', 'create', '--type', 'order_list', '--from', '2026-02-30', '--to', '2026-03-01'], /^store-admin: --from: "2026-02-30" is not a date: February 2026 has 28 days$/m],
      [['exports', 'create', '--type', 'order_list', '--from', '2026-01-01T10:00+2500', '--to', '2026-03-01'], /--from: "2026-01-01T10:00\+2500" has no such zone offset/],
      [['subscriptions', 'cancel', '1', '--reason', 'too_expensive', '--yes'], /--reason: must be one of: .* \(got "too_expensive"\); did you mean product_too_expensive\?/],
      [['disputes', 'create', '--type', 'Chargeback'], /--type: must be one of: alert, chargeback \(got "Chargeback"\); did you mean chargeback\?/],
      [['subscriptions', 'update', '2', '--data', '{}'], /Nothing to change: --data has no fields; pass at least one field flag, or fields in --data/],
      [['orders', 'add-note', '10001', '--message', '  \t '], /--message: is blank/],
      [['fulfillment-orders', 'reject-cancellation', '401', '--message', '   '], /--message: is blank/],
      [['apps', 'update-settings', 'sandbox-app', '--set', ' =x'], /--set takes key=value/],
      [['webhooks', 'create', '--no-input'], /^store-admin: Missing --target and --event\nhint: Prompts are off \(--no-input\)/m],
      [['subscriptions', 'cancel'], /^store-admin: Missing <id> and --reason\nhint: Prompts need a terminal/m],
      [['orders', 'fulfillment-event', '10001'], /Missing <fulfillment-id> and <event-id>/],
    ])('%j', async (args, message) => {
      const before = ctx.sandbox.counters.received;
      const r = await cli(args);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.split('\n').filter((line) => line.startsWith('store-admin:'))).toHaveLength(1);
      expect(r.code).toBe(2);
      expect(ctx.sandbox.counters.received).toBe(before);
    });
  });
});

const program = await commandTree(processIO());

describe('field declarations', () => {
  const declared = leafCommands(program).flatMap((command) => {
    const meta = metaOf(command);
    return meta?.operation && meta.fields ? [{ command, operation: meta.operation, fields: meta.fields }] : [];
  });

  it('cover every field of each body at every version, once, with the schema’s own choices', async () => {
    expect(declared.map(({ command }) => commandPath(command))).toContain('store-admin subscriptions update');
    type Shape = Record<string, { _zod: { def: Record<string, unknown> } }>;
    for (const { command, operation, fields } of declared) {
      const op = await loadOperation(operation);
      const shapes = new Map<string, Shape>();
      for (const version of op.versions) {
        const { body }: OperationSchemas = await op.schemas(version);
        shapes.set(version, shapeOf(body) as unknown as Shape);
      }
      const keys = new Set([...shapes.values()].flatMap((shape) => Object.keys(shape)));
      expect(fields.map((f) => f.key).sort(), commandPath(command)).toEqual([...keys].sort());
      // A field some versions lack names the ones that have it (`--amount: only in API version …`).
      for (const field of fields) {
        const having = op.versions.filter((version) => field.key in shapes.get(version)!);
        expect(field.versions ?? op.versions, `${commandPath(command)} ${flagOf(field)}`).toEqual(having);
      }
      for (const field of fields.filter((f) => f.choices)) {
        const shape = [...shapes.values()].find((s) => field.key in s)!;
        let def = shape[field.key]!._zod.def;
        while (def.innerType) def = (def.innerType as { _zod: { def: Record<string, unknown> } })._zod.def;
        const allowed = Object.values(def.entries as Record<string, string>).filter((v) => v !== '');
        expect(field.choices, `${commandPath(command)} ${flagOf(field)}`).toEqual(allowed);
      }
    }
  });

  it('help states the schema’s limits, which no command module writes by hand', async () => {
    const help = async (...args: string[]) => (await runCli([...args, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await help('subscriptions', 'update')).toContain('--shipping-price <price> shipping price (a decimal with at most 7 digits before and 2 after the point; or null)');
    expect(await help('subscriptions', 'update')).toContain('--interval-count <count> intervals between renewals (at least 1)');
    expect(await help('webhooks', 'create')).toContain('--target <target> the URL that receives the events (at most 255 characters)');
    expect(await help('disputes', 'create')).toContain('(a decimal with at most 6 digits before and 2 after the point; or null)');
    // `help <command>` shows the same, by the other route.
    expect((await runCli(['help', 'webhooks', 'create'])).stdout.replace(/\s+/g, ' ')).toContain('at most 255 characters');
    const sources = readdirSync(new URL('../../src/commands/', import.meta.url)).map((name) =>
      readFileSync(new URL(`../../src/commands/${name}`, import.meta.url), 'utf8'),
    );
    for (const limit of ['7 digits', '6 digits', '255 characters', 'at least 1']) {
      expect(sources.filter((source) => source.includes(limit))).toEqual([]);
    }
  });

  it('help interpolates the shared defaults', async () => {
    const flags = (await runCli(['help', 'flags'])).stdout.replace(/\s+/g, ' ');
    expect(flags).toContain(`(default ${DEFAULTS.timeoutSeconds})`);
    expect(flags).toContain(`(default ${DEFAULTS.retries})`);
    const root = (await runCli(['categories', 'get', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(root).toContain(`requests in flight at once (default ${DEFAULTS.concurrency})`);
    expect(root).toContain(`(default ${DEFAULTS.rate}, the platform limit`);
  });
});
