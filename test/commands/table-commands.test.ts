// Every operation of the platform's reference is one command, named by the table's one rule, and
// no two commands collide: the whole tree is walked, with the reference (when it is beside the
// repository) or the committed table as the list of operations.
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadAllOperations } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { metaOf } from '../../src/commands/meta.js';
import { processIO } from '../../src/output/stream.js';
import { runInProcess } from '../cli/in-process.js';

const program = await commandTree(processIO());
const operations = await loadAllOperations();

const hidden = (command: Command) => (command as Command & { _hidden?: boolean })._hidden === true;

/** Every command under the root with the words typed to reach it. */
function walk(command: Command, path: string[] = []): { words: string; command: Command }[] {
  return command.commands.flatMap((sub) => {
    const words = [...path, sub.name()];
    return [{ words: words.join(' '), command: sub }, ...walk(sub, words)];
  });
}
const all = walk(program);
const runs = (words: string) => all.filter((entry) => entry.words === words);

const REFERENCE = new URL('../../../shared/reference/admin-api-2024-04-01.json', import.meta.url);

describe('one command per operation', () => {
  it.skipIf(!existsSync(REFERENCE))('the reference is the table: every operation it publishes has its command', () => {
    const ids = new Set<string>();
    for (const version of ['2024-04-01', '2023-02-10', 'unstable']) {
      const reference = JSON.parse(readFileSync(new URL(`admin-api-${version}.json`, REFERENCE), 'utf8')) as { operations: { id: string }[] };
      for (const { id } of reference.operations) ids.add(id);
    }
    expect([...ids].sort()).toEqual(operations.map((op) => op.id).sort());
  });

  it('runs each operation from exactly one visible command, named by the table', () => {
    for (const op of operations) {
      const [entry, ...more] = runs(op.command);
      expect(entry, op.command).toBeDefined();
      expect(more, op.command).toEqual([]);
      expect(metaOf(entry!.command)?.operation, op.command).toBe(op.id);
      expect(hidden(entry!.command), op.command).toBe(false);
      const visible = all.filter(({ command }) => metaOf(command)?.operation === op.id && !hidden(command));
      expect(visible.map(({ words }) => words)).toEqual([op.command]);
    }
  });

  it('no two commands collide: no name twice in a group, no command that is also a group', () => {
    const seen = new Set<string>();
    for (const { words, command } of all) {
      expect(seen.has(words), words).toBe(false);
      seen.add(words);
      if (metaOf(command)?.operation) expect(command.commands, words).toEqual([]);
    }
  });

  it('keeps the earlier names working, hidden, for the same operation', () => {
    const earlier = operations.flatMap((op) => op.aliases.map((alias) => [alias, op] as const));
    expect(earlier.map(([alias]) => alias).sort()).toEqual([
      'apps update-settings',
      'customers add-note',
      'fulfillment-orders reject-cancellation',
      'orders add-note',
      'orders fulfillment-event',
      'orders remove-line',
    ]);
    for (const [alias, op] of earlier) {
      const [entry] = runs(alias);
      expect(entry, alias).toBeDefined();
      expect(hidden(entry!.command), alias).toBe(true);
      expect(metaOf(entry!.command)?.operation).toBe(op.id);
    }
  });

  it('gives each path parameter an argument, in the order of the path', () => {
    for (const op of operations) {
      const command = runs(op.command)[0]!.command;
      expect(command.registeredArguments.length, op.command).toBe(Object.keys(op.params).length);
    }
  });

  it("takes no flag that a global flag would swallow: Commander reads the root's flags anywhere on the line", () => {
    const globals = new Set(program.options.flatMap((option) => [option.long, option.short]).filter(Boolean));
    for (const { words, command } of all) {
      for (const option of command.options) {
        expect(globals.has(option.long), `${words} ${option.long}`).toBe(false);
        if (option.short) expect(globals.has(option.short), `${words} ${option.short}`).toBe(false);
      }
    }
  });

  it('describes every command and group in a line for people', () => {
    for (const { words, command } of all.filter(({ words, command }) => !hidden(command) && words !== 'help')) {
      expect(command.description(), words).toMatch(/^[A-Z]/);
      expect(command.description(), words).not.toMatch(/undefined/);
    }
  });
});

describe('store-admin operations', () => {
  it('lists every operation with its command, method, path, versions, scopes and whether it can be undone', async () => {
    const r = await runInProcess(['operations', '--json'], {});
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(listed).toHaveLength(operations.length);
    for (const op of operations) {
      expect(listed).toContainEqual(
        expect.objectContaining({ id: op.id, command: op.command, method: op.method, path: op.path, versions: op.versions, version: op.version, scopes: op.scopes, irreversible: op.irreversible }),
      );
    }
    expect(listed.find((entry) => entry.id === 'ordersLinesDestroy')).toMatchObject({ command: 'orders lines delete', irreversible: true, aliases: ['orders remove-line'] });
  });

  it('shows a table a person can scan, in 80 columns', async () => {
    const r = await runInProcess(['operations', '-o', 'table', '--no-color'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/│ orders lines delete +│ DELETE +│/);
    expect(r.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
  });
});
