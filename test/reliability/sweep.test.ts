// A property-based sweep over every command's arguments and flags: random Unicode, huge and
// negative and fractional numbers, malformed JSON, dates and URLs. Every case must end with exit
// 0, 1 or 2, one line of error at most, no stack trace, and no invalid request reaching the store.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runInProcess } from '../cli/in-process.js';
import { FULL_TOKEN } from '../helpers.js';
import { writeFigures } from './figures.js';

const CASES = Number(process.env.STORE_ADMIN_SWEEP_CASES ?? 10_000);

// What users type: mostly garbage, sometimes something valid.
const numberLike = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('0', '-1', '1.5', '2147483647', '2147483648', '1e3', '0x10', ' 7 ', '', '10001', '101', '1', '2', '401'),
);
const jsonLike = fc.oneof(
  fc.json(),
  fc.string().map((s) => `{${s}`),
  fc.constantFrom('{}', '[]', 'null', '{"a":', '{"colour":"red"}', '{"interval":"week"}', '@/nonexistent/file.json', '-'),
);
const dateLike = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2026-02-30', 'yesterday', '2026-01-01T25:00:00Z', '31/01/2026', 'null', ''),
);
const urlLike = fc.oneof(fc.webUrl(), fc.webUrl().map((u) => u + '/' + 'x'.repeat(300)), fc.constantFrom('ftp://x.example.com', 'example.com', 'https://', 'null'));
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
const anyValue = fc.oneof(text, numberLike, jsonLike, dateLike, urlLike);

type Flag = [name: string, value: fc.Arbitrary<string> | null];

const commands: { path: string[]; args: fc.Arbitrary<string>[]; flags: Flag[] }[] = [
  { path: ['orders', 'remove-line'], args: [anyValue, numberLike], flags: [] },
  { path: ['orders', 'add-note'], args: [anyValue], flags: [['--message', text], ['--message-file', jsonLike]] },
  { path: ['orders', 'fulfillment-orders'], args: [anyValue], flags: [] },
  { path: ['orders', 'fulfillment-event'], args: [anyValue, numberLike, anyValue], flags: [] },
  { path: ['customers', 'add-note'], args: [numberLike], flags: [['--message', text]] },
  { path: ['subscriptions', 'cancel'], args: [numberLike], flags: [['--reason', fc.oneof(text, fc.constantFrom('other', 'schedule_ended'))], ['--other-message', text], ['--no-notify', null]] },
  { path: ['subscriptions', 'renew'], args: [numberLike], flags: [] },
  {
    path: ['subscriptions', 'update'],
    args: [numberLike],
    flags: [
      ['--interval', fc.oneof(text, fc.constantFrom('week', 'month'))],
      ['--interval-count', numberLike],
      ['--status', fc.oneof(text, fc.constantFrom('active', 'paused'))],
      ['--next-renewal-date', dateLike],
      ['--shipping-code', text],
      ['--shipping-price', numberLike],
      ['--is-test', null],
      ['--no-is-test', null],
      ['--attribution', jsonLike],
      ['--billing-address', jsonLike],
      ['--shipping-address', jsonLike],
      ['--payment-details', jsonLike],
      ['--data', jsonLike],
    ],
  },
  { path: ['fulfillment-orders', 'reject-cancellation'], args: [numberLike], flags: [['--message', text]] },
  { path: ['exports', 'create'], args: [], flags: [['--type', fc.oneof(text, fc.constantFrom('order_list'))], ['--from', dateLike], ['--to', dateLike]] },
  { path: ['exports', 'types'], args: [], flags: [] },
  {
    path: ['disputes', 'create'],
    args: [],
    flags: [
      ['--type', fc.oneof(text, fc.constantFrom('alert'))],
      ['--amount', numberLike],
      ['--currency', text],
      ['--transaction', numberLike],
      ['--arn', text],
      ['--case-number', text],
      ['--happened-at', dateLike],
      ['--resolution', fc.oneof(text, fc.constantFrom('won', 'none', 'null'))],
      ['--metadata', jsonLike],
      ['--data', jsonLike],
    ],
  },
  { path: ['categories', 'get'], args: [numberLike], flags: [] },
  { path: ['apps', 'update-settings'], args: [fc.oneof(text, fc.constant('sandbox-app'))], flags: [['--set', anyValue], ['--data', jsonLike]] },
  {
    path: ['webhooks', 'create'],
    args: [],
    flags: [['--target', urlLike], ['--event', text], ['--name', text], ['--secret-key', text], ['--webhook-api-version', text], ['--inactive', null]],
  },
  { path: ['webhooks', 'get'], args: [numberLike], flags: [] },
];

const globals: Flag[] = [
  ['--yes', null],
  ['--json', null],
  ['--dry-run', null],
  ['--query', fc.oneof(text, fc.constantFrom('id', 'lines[].id', 'abs(id)', '[0]'))],
  ['--api-version', fc.oneof(text, fc.constantFrom('2024-04-01'))],
  ['--retries', numberLike],
  ['--timeout', numberLike],
];

const flagArgs = (flags: Flag[]) =>
  fc.subarray(flags, { maxLength: Math.min(5, flags.length) }).chain((chosen) =>
    chosen.length === 0
      ? fc.constant<string[]>([])
      : fc.tuple(...chosen.map(([name, value]) => (value ? value.map((v) => [name, v]) : fc.constant([name])))).map((parts) => parts.flat()),
  );

const argv = fc.constantFrom(...commands).chain((command) =>
  fc.tuple(fc.tuple(...command.args.map((a) => a), fc.constant('')), flagArgs(command.flags), flagArgs(globals)).map(([args, flags, global]) => [
    ...command.path,
    ...args.slice(0, -1),
    ...flags,
    ...global,
  ]),
);

describe('hostile input', () => {
  let sandbox: Sandbox;
  afterAll(async () => sandbox?.close());

  it(`${CASES} random command lines end cleanly`, { timeout: 600_000 }, async () => {
    sandbox = await startSandbox({ token: FULL_TOKEN });
    const env = { STORE_ADMIN_BASE_URL: sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN };
    const codes: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        const before = sandbox.counters.invalid;
        const r = await runInProcess(args, env);
        codes[r.code] = (codes[r.code] ?? 0) + 1;
        expect([0, 1, 2]).toContain(r.code);
        expect(r.stderr).not.toMatch(/^\s+at /m);
        expect(r.stderr).not.toContain('unexpected error');
        if (r.code !== 0) expect(r.stderr.split('\n').filter((line) => line.startsWith('store-admin:'))).toHaveLength(1);
        expect(sandbox.counters.invalid).toBe(before);
      }),
      { numRuns: CASES, seed: 20261121 },
    );
    writeFigures('sweep', [
      {
        scenario: 'Random command lines (fast-check)',
        setup: `${CASES} cases over all 16 commands: random Unicode, huge, negative and fractional numbers, malformed JSON, dates and URLs, random global flags (seed 20261121)`,
        result: `exit 0: ${codes[0] ?? 0}, exit 1: ${codes[1] ?? 0}, exit 2: ${codes[2] ?? 0}; no stack trace; ${sandbox.counters.received} requests reached the sandbox, none of them invalid`,
      },
    ]);
  });
});
