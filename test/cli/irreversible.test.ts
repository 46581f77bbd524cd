// The one rule for changes that cannot be undone (help exit-codes): every command that can make
// one asks at a terminal and, without one, refuses unless --yes is given, sending nothing. The
// command tree is walked, so a new command is held to the rule as soon as it is declared.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { metaOf } from '../../src/commands/meta.js';
import { processIO } from '../../src/io.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runCli, useConfigDir } from './run.js';

function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const here = [...path, command.name()];
  if (command.commands.length === 0) return [{ path: here.slice(1), command }];
  return [{ path: here.slice(1), command }, ...command.commands.flatMap((sub) => leaves(sub, here))];
}

/** The words of an example line, as a shell would split it (the examples quote with "…" only). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

const tree = await commandTree(processIO());
const all = leaves(tree).filter(({ path }) => path.length > 0);
const confirming = all.filter(({ command }) => metaOf(command)?.confirms);

describe('changes that cannot be undone', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const configFile = join(dir, 'config.json');

  it('every operation the table marks irreversible is run by a command that confirms', () => {
    const irreversible = Object.entries(operations).filter(([, op]) => 'irreversible' in op).map(([id]) => id);
    expect(irreversible.length).toBeGreaterThan(0);
    for (const id of irreversible) {
      const runners = all.filter(({ command }) => metaOf(command)?.operation === id);
      expect(runners.length, id).toBeGreaterThan(0);
      for (const { path, command } of runners) expect(metaOf(command)?.confirms, path.join(' ')).toBeDefined();
    }
  });

  it('the audit: these commands, and only these, confirm', () => {
    expect(confirming.map(({ path }) => path.join(' ')).sort()).toEqual([
      'api',
      'auth logout',
      'fulfillment-orders reject-cancellation',
      'orders remove-line',
      'profiles remove',
      'subscriptions cancel',
      'subscriptions renew',
      'subscriptions update',
      'webhooks apply',
      'webhooks delete',
    ]);
  });

  it.each(confirming.map(({ path, command }) => [path.join(' '), metaOf(command)!.confirms!.example] as const))(
    '%s refuses without --yes and without a terminal, and sends nothing',
    async (name, example) => {
      // Profiles for the profile commands' examples to remove.
      for (const profile of ['staging', 'old-shop']) {
        const login = await runCli(['auth', 'login', '--profile', profile, '--base-url', ctx.sandbox.url, '--with-token', '--insecure-storage'], {
          env: { STORE_ADMIN_CONFIG_DIR: dir },
          stdin: FULL_TOKEN,
        });
        expect(login.code, login.stderr).toBe(0);
      }
      const args = words(example);
      expect(args[0]).toBe('store-admin');
      expect(args, `${name}: the example must be one that asks`).not.toContain('--yes');
      const config = readFileSync(configFile, 'utf8');
      const sent = ctx.sandbox.counters.received;
      const r = await runCli(args.slice(1), { env: env() });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/confirmation needed|needs confirmation/);
      expect(r.stderr).toContain('Pass --yes to confirm without a prompt');
      expect(r.stdout).toBe('');
      expect(ctx.sandbox.counters.received, 'requests sent').toBe(sent);
      expect(readFileSync(configFile, 'utf8')).toBe(config);
    },
  );

  it('help exit-codes states the rule and lists every command that confirms, from the tree', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Changes that cannot be undone');
    for (const { path } of confirming) expect(r.stdout).toMatch(new RegExp(`^  ${path.join(' ')}\\b`, 'm'));
  });
});
