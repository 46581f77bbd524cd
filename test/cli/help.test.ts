// Help for every command: gh's layout, wrapped to the terminal; arguments, flags with allowed
// values, scope, version and examples; the global flags in one line pointing to `help flags`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { loadAllOperations } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { metaOf } from '../../src/commands/meta.js';
import type { IO } from '../../src/io.js';
import { processIO } from '../../src/output/stream.js';
import { runCli } from './run.js';

function leaves(command: Command, path: string[] = []): [string, Command][] {
  if (command.commands.length === 0) return [[path.join(' '), command]];
  return command.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

function commands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commands)];
}

/** A program whose stdout is a terminal this many columns wide. */
async function programAt(columns: number): Promise<Command> {
  const io: IO = { ...processIO(), stdout: { isTTY: true, columns, write: () => true }, env: {} };
  return commandTree(io);
}

const program = await commandTree(processIO());
const operationLeaves = leaves(program).filter(([, c]) => metaOf(c)?.operation);

describe('help', () => {
  // Every operation of the table is a command, those of the spec and of earlier releases among them.
  it('covers every operation of the table', async () => {
    const named = new Set(operationLeaves.map(([, c]) => metaOf(c)!.operation));
    const known = await loadAllOperations();
    expect([...named].sort()).toEqual(known.map((op) => op.id).sort());
    expect(known.filter((op) => op.section !== undefined || op.renamed !== undefined).length).toBeGreaterThanOrEqual(21);
  });

  it.each(operationLeaves.map(([name, command]) => [name, command] as const))('%s', (_name, command) => {
    const text = fullHelp(command);
    const headings = text.split('\n').filter((line) => /^[A-Z][A-Z ]+$/.test(line));
    expect(headings.filter((h) => !['ARGUMENTS', 'BULK FLAGS', 'FILTER FLAGS', 'JOB FLAGS'].includes(h))).toEqual(['USAGE', 'FLAGS', 'INHERITED FLAGS', 'EXAMPLES', 'LEARN MORE']);
    expect(text).toMatch(/^USAGE\n {2}store-admin \S+ \S+ [^]*?\[flags\]\n\n/m);
    expect(text).toMatch(/Scope: /);
    expect(text).toMatch(/API version: /);
    expect(text.match(/^\s+\$ .*store-admin /gm)?.length).toBeGreaterThanOrEqual(2);
    // Developer notes belong to docs/commands.md; the global flags to `help flags`.
    expect(text).not.toContain('(spec ');
    expect(text).not.toContain('--allow-http');
    expect(text).toMatch(/^INHERITED FLAGS\n {2}--json -o -q -y --dry-run --sandbox …  \(all: `store-admin help flags`\)\n\n/m);
  });

  it('no help shows an empty default as it is ("(default: {})", "(default: [])")', () => {
    for (const command of commands(program)) expect(fullHelp(command), command.name()).not.toMatch(/\(default: (\{\}|\[\])\)/);
  });

  it("a group that runs one of its commands when none is named shows that command's flags", () => {
    const group = (name: string) => program.commands.find((c) => c.name() === name)!;
    const sandbox = fullHelp(group('sandbox'));
    expect(sandbox).toMatch(/^START FLAGS \(sandbox with no command runs start\)\n {2}--host <host> [^]*^ {2}--port <port> /m);
    expect(sandbox.indexOf('START FLAGS')).toBeGreaterThan(sandbox.indexOf('COMMANDS'));
    expect(fullHelp(group('history'))).toMatch(/^LIST FLAGS \(history with no command runs list\)\n {2}--since <duration> /m);
    // A group with no such command shows none.
    expect(fullHelp(group('orders'))).not.toMatch(/FLAGS \(/);
  });

  it('a group lists its commands before any flag', () => {
    const text = fullHelp(program.commands.find((c) => c.name() === 'orders')!);
    expect(text.indexOf('COMMANDS')).toBeGreaterThan(-1);
    expect(text.indexOf('COMMANDS')).toBeLessThan(text.indexOf('FLAGS'));
    expect(text).toMatch(/^ {2}list +List orders, filtered by status/m);
    expect(text).toMatch(/^ {2}lines +Lines of an order: create, update, delete$/m);
    const root = fullHelp(program);
    expect(root.indexOf('COMMANDS')).toBeLessThan(root.indexOf('FLAGS'));
  });

  it.each([80, 120])('every help fits %i columns', async (columns) => {
    const wide = await programAt(columns);
    for (const command of commands(wide)) {
      const lines = fullHelp(command).split('\n');
      const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
      expect(longest.length, `${command.name()}: ${longest}`).toBeLessThanOrEqual(columns);
    }
    // A wider terminal uses the room: fewer lines than a narrower one.
    const lines = async (width: number) => {
      const update = (await programAt(width)).commands.find((c) => c.name() === 'subscriptions')!.commands.find((c) => c.name() === 'update')!;
      return fullHelp(update).split('\n').length;
    };
    expect(await lines(columns)).toBeLessThan(await lines(columns - 20));
  });

  it.each([80, 120])('at %i columns, an example too long for a line continues with a trailing \\, never mid-word', async (columns) => {
    const wide = await programAt(columns);
    let continued = 0;
    for (const command of commands(wide)) {
      const examples = metaOf(command)?.examples ?? [];
      if (examples.length === 0) continue;
      const text = fullHelp(command);
      const lines = text.slice(text.indexOf('EXAMPLES\n') + 'EXAMPLES\n'.length).split('\n\n')[0]!.split('\n');
      // Each example starts at a prompt; every other line follows one ending in " \".
      const shown: string[] = [];
      for (const [i, line] of lines.entries()) {
        if (line.startsWith('  $ ')) shown.push(line.slice(4));
        else {
          expect(lines[i - 1], `${command.name()}: ${line}`).toMatch(/ \\$/);
          expect(line).toMatch(/^ {6}\S/);
          shown[shown.length - 1] = `${shown.at(-1)!.replace(/ \\$/, '')} ${line.trim()}`;
          continued++;
        }
      }
      // Joined again, the lines are the examples' words: nothing was broken inside a word.
      const words = (line: string) => line.replace(/ \\$/, '').split(/\s+/);
      expect(shown.map(words)).toEqual(examples.map(words));
    }
    if (columns === 80) expect(continued).toBeGreaterThan(0);
  });

  it.each([
    ['environment', /STORE_ADMIN_TOKEN/],
    ['exit-codes', /130\s+interrupted/],
    ['formatting', /JMESPath/],
    ['flags', /--allow-http\s+allow sending the token/],
  ])('help %s', async (topic, pattern) => {
    const r = await runCli(['help', topic]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(pattern);
  });

  it('help flags lists every global flag', async () => {
    const r = await runCli(['help', 'flags']);
    for (const option of program.options) expect(r.stdout).toContain(option.long);
  });

  it('help for a command names its allowed values', async () => {
    const r = await runCli(['help', 'subscriptions', 'cancel']);
    expect(r.stdout).toContain('product_too_expensive');
    const unknown = await runCli(['help', 'nothing']);
    expect(unknown.code).toBe(2);
  });
});

function fullHelp(command: Command): string {
  let out = '';
  const previous = command.configureOutput();
  command.configureOutput({ ...previous, writeOut: (s) => (out += s) });
  command.outputHelp();
  command.configureOutput(previous);
  return out;
}

describe('help topics', () => {
  it.each(['environment', 'formatting', 'flags'])('%s is wrapped to the terminal', async (topic) => {
    const io: IO = { ...processIO(), stdout: { isTTY: true, columns: 60, write: (s: string) => ((out += s), true) }, env: {} };
    let out = '';
    const program = await commandTree(io);
    await program.parseAsync(['help', topic], { from: 'user' });
    const lines = out.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(lines.length).toBeGreaterThan(8);
  });

  it('keeps items aligned and examples whole', async () => {
    const { wrapTopic } = await import('../../src/output/help-layout.js');
    const text = 'Title\n\n  TERM   a description long enough to wrap\n         onto a second line\n  {"json": "example kept as typed"}\n\nA paragraph\nthat flows.\n';
    expect(wrapTopic(text, 30)).toBe(
      'Title\n\n  TERM   a description long\n         enough to wrap onto a\n         second line\n  {"json": "example kept as typed"}\n\nA paragraph that flows.\n',
    );
  });
});

describe('the JSON error object', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

  it('comes only when JSON output is asked for by name, as help exit-codes and the README say', async () => {
    const env = { STORE_ADMIN_CONFIG_DIR: '/nonexistent-store-admin-test' };
    const piped = await runCli(['categories', 'get', 'x'], { env });
    expect(piped.code).toBe(2);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).not.toContain('{"error"');
    for (const flag of [['--json'], ['-o', 'json'], ['-o', 'ndjson']]) {
      const asked = await runCli(['categories', 'get', 'x', ...flag], { env });
      expect(JSON.parse(asked.stderr.trim().split('\n').at(-1)!), flag.join(' ')).toMatchObject({ error: { exitCode: 2, type: 'UsageError' } });
    }
    const topic = (await runCli(['help', 'exit-codes'])).stdout.replace(/\s+/g, ' ');
    for (const text of [topic, readme.replace(/\s+/g, ' ')]) {
      expect(text).not.toMatch(/by default when stdout is not a terminal\), a failure/);
      expect(text).toMatch(/asked for by name \(`?--json`?, `?-o json`? or `?-o ndjson`?\), a failure also prints/);
      expect(text).toMatch(/Without those flags,? a pipe gets the one-line message/);
    }
  });
});
