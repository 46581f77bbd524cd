// Which command groups a command line loads: only the one it names, none for the root help, all of
// them when it names none (so Commander can explain a typo with the whole tree in view).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandGroups, groupsFor } from '../../src/commands/index.js';
import { addGlobalOptions } from '../../src/options.js';
import { runCli } from '../cli/run.js';

const program = addGlobalOptions(new Command());
const names = (argv: string[]) => groupsFor(argv, program).map((g) => g.name);
const ALL = commandGroups.map((g) => g.name);

describe('groupsFor', () => {
  it('loads nothing for no words, or for global flags alone', () => {
    expect(names([])).toEqual([]);
    expect(names(['--json', '--yes', '--no-color'])).toEqual([]);
    expect(names(['--profile', 'prod'])).toEqual([]);
  });

  it('loads the group a line names, and only that one', () => {
    expect(names(['subscriptions', 'cancel', '1'])).toEqual(['subscriptions']);
    expect(names(['--json', 'orders', 'remove-line', '10001', '102'])).toEqual(['orders']);
  });

  it('passes over the values of global options that take one, long and short', () => {
    // "orders" here is a profile name, "categories" a JMESPath query, "json" a format.
    expect(names(['--profile', 'orders', 'subscriptions', 'renew', '1'])).toEqual(['subscriptions']);
    expect(names(['-q', 'categories', '-o', 'json', 'webhooks', 'get', '1'])).toEqual(['webhooks']);
    expect(names(['--base-url', 'http://127.0.0.1:1', '--timeout', '3', '--retries', '0', 'exports'])).toEqual(['exports']);
    expect(names(['--api-version', '2024-04-01', 'api', 'GET', '/exports/types/'])).toEqual(['api']);
  });

  it('reads a value joined with = as part of its option', () => {
    expect(names(['--profile=orders', 'disputes', 'create'])).toEqual(['disputes']);
  });

  it('takes the word after -- as the command, as Commander does', () => {
    expect(names(['--', 'orders'])).toEqual(['orders']);
    expect(names(['--json', '--', 'categories', 'get', '1'])).toEqual(['categories']);
    expect(names(['--'])).toEqual([]);
    expect(names(['--', 'ordrs'])).toEqual(ALL);
  });

  it('loads every group for a word that names none: help topics and typos', () => {
    expect(names(['help', 'exports'])).toEqual(ALL);
    expect(names(['ordrs'])).toEqual(ALL);
    // A flag the root does not know takes no value: the next word is still the command.
    expect(names(['--frobnicate', 'orders'])).toEqual(['orders']);
  });
});

describe('those lines, run', () => {
  it('runs the group named after a global option value that looks like a group', async () => {
    const r = await runCli(['--profile', 'orders', 'subscriptions', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Subscriptions: list, cancel, renew, retry and change them and their lines\n\nUSAGE\n  store-admin subscriptions /);
  });

  it('shows the group named after --, not an empty answer', async () => {
    const r = await runCli(['--', 'orders']);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/USAGE\n  store-admin orders /);
  });

  it('explains a typo with the whole tree in view', async () => {
    const r = await runCli(['ordrs']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: unknown command 'ordrs' for 'store-admin'; its commands: orders, .*\n\(Did you mean orders\?\)/);
  });
});
