// A property-based sweep over every command's arguments and flags: random Unicode, huge and
// negative and fractional numbers, malformed JSON, dates and URLs. Every case must end with exit
// 0, 1 or 2, one line of error at most, no stack trace, and no invalid request reaching the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Option } from 'commander';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../../src/cli.js';
import { metaOf } from '../../src/commands/meta.js';
import { commandPath, leafCommands } from '../../src/commands/meta.js';
import { processIO } from '../../src/output/stream.js';
import { type Sandbox } from '../../src/sandbox/server.js';
import { runInProcess } from '../cli/in-process.js';
import { FULL_TOKEN, startTestSandbox } from '../helpers.js';
import { writeFigures } from './figures.js';

/**
 * 1,000 cases on every run (about a second); the figures in docs/reliability.md come from a wider
 * sweep (npm run docs:reliability, 10,000), and STORE_ADMIN_SWEEP_CASES sets any other number.
 */
const CASES = Number(process.env.STORE_ADMIN_SWEEP_CASES ?? (process.env.STORE_ADMIN_WRITE_DOCS === '1' ? 10_000 : 1_000));

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

// What a flag's value looks like, read from its placeholder: a new flag is fuzzed without an entry here.
function valuesFor(option: Option): fc.Arbitrary<string> | null {
  if (!option.required && !option.optional) return null;
  if (option.argChoices) return fc.oneof(text, fc.constantFrom(...option.argChoices));
  const placeholder = /<(\w+)/.exec(option.flags)?.[1] ?? '';
  if (placeholder === 'json') return jsonLike;
  // Files are read (--each, --message-file) or written (--download, --failed): keep them out of the repository.
  if (placeholder === 'file') return fc.constantFrom(join(scratch, 'file'), join(scratch, 'missing', 'file'));
  if (placeholder === 'date') return dateLike;
  if (placeholder === 'url' || option.long === '--target') return urlLike;
  if (['n', 'count', 'amount', 'price', 'transaction'].includes(placeholder)) return numberLike;
  return anyValue;
}

const scratch = mkdtempSync(join(tmpdir(), 'store-admin-sweep-'));

// Every command that runs an operation, with its arguments and flags, read from the built tree.
const program = await commandTree(processIO());
const commands = leafCommands(program)
  .filter((command) => metaOf(command)?.operation)
  .map((command) => ({
    path: commandPath(command).split(' ').slice(1),
    args: command.registeredArguments.map(() => fc.oneof(numberLike, anyValue)),
    flags: command.options.filter((option) => option.long !== '--help').map((option): Flag => [option.long!, valuesFor(option)]),
  }));

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
  // The runs share this process: a download with no --output-file (export-ID.csv) lands in the scratch dir, not the repository.
  const cwd = process.cwd();
  beforeAll(() => process.chdir(scratch));
  afterAll(async () => {
    process.chdir(cwd);
    await sandbox?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(`${CASES} random command lines end cleanly`, { timeout: 600_000 }, async () => {
    sandbox = await startTestSandbox({ token: FULL_TOKEN });
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
        setup: `${CASES} cases over all ${commands.length} operation commands and their flags: random Unicode, huge, negative and fractional numbers, malformed JSON, dates and URLs, random global flags (seed 20261121)`,
        result: `exit 0: ${codes[0] ?? 0}, exit 1: ${codes[1] ?? 0}, exit 2: ${codes[2] ?? 0}; no stack trace; ${sandbox.counters.received} requests reached the sandbox, none of them invalid`,
      },
    ]);
  });
});
