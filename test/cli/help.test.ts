// Help for every command: summary, arguments, flags with allowed values, scope, version, examples.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { operations } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { processIO } from '../../src/io.js';
import { runCli } from './run.js';

function leaves(command: Command, path: string[] = []): [string, Command][] {
  if (command.commands.length === 0) return [[path.join(' '), command]];
  return command.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

const operationLeaves = leaves(await commandTree(processIO())).filter(([, c]) => fullHelp(c).includes('Operation:'));

describe('help', () => {
  it('covers all sixteen operations of the spec and those from the platform\'s reference', () => {
    const named = new Set<string>();
    for (const [, command] of operationLeaves) {
      const text = fullHelp(command);
      const section = /\(spec (4\.\d+)\)/.exec(text)?.[1];
      if (section) named.add(section);
      if (text.includes("(the platform's published reference)")) named.add('ref');
    }
    expect([...named].sort()).toEqual([...new Set(Object.values(operations).map((op) => op.section))].sort());
  });

  it.each(operationLeaves.map(([name, command]) => [name, command] as const))('%s', (_name, command) => {
    const text = fullHelp(command);
    expect(text).toMatch(/^Usage: /);
    expect(text).toMatch(/Scope: /);
    expect(text).toMatch(/API version: /);
    expect(text.match(/^\s+\$ .*store-admin /gm)?.length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['environment', /STORE_ADMIN_TOKEN/],
    ['exit-codes', /130\s+interrupted/],
    ['formatting', /JMESPath/],
  ])('help %s', async (topic, pattern) => {
    const r = await runCli(['help', topic]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(pattern);
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
  command.configureOutput({ writeOut: (s) => (out += s) });
  command.outputHelp();
  return out;
}
