// The one rule for changes that cannot be undone (help exit-codes): every command that can make
// one asks at a terminal and, without one, refuses unless --yes is given, sending nothing. The
// command tree is walked, so a new command is held to the rule as soon as it is declared. Each
// command runs in process (a scripted person at the terminal through the prompter seam); one run
// of the built CLI shows the rule holds for a real process without a terminal.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadAllOperations, operation, type OperationId } from '../../src/api/operations.js';
import { commandTree } from '../../src/cli.js';
import { metaOf } from '../../src/commands/meta.js';
import { processIO } from '../../src/output/stream.js';
import { FULL_TOKEN, useSandbox } from '../helpers.js';
import { runInProcess } from './in-process.js';
import { runCli, useConfigDir } from './run.js';
import { scriptedPrompter } from './scripted-prompter.js';

function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const here = [...path, command.name()];
  if (command.commands.length === 0) return [{ path: here.slice(1), command }];
  return [{ path: here.slice(1), command }, ...command.commands.flatMap((sub) => leaves(sub, here))];
}

/** The words of an example line, as a shell would split it (the examples quote with "…" or '…'). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

const tree = await commandTree(processIO());
const all = leaves(tree).filter(({ path }) => path.length > 0);
const confirming = all.filter(({ command }) => metaOf(command)?.confirms);

describe('changes that cannot be undone', () => {
  const ctx = useSandbox();
  const dir = useConfigDir();
  const env = () => ({ STORE_ADMIN_BASE_URL: ctx.sandbox.url, STORE_ADMIN_TOKEN: FULL_TOKEN, STORE_ADMIN_CONFIG_DIR: dir });
  const configFile = join(dir, 'config.json');
  const declared = join(dir, 'webhooks.json');
  const examples = confirming.map(({ path, command }) => [path.join(' '), metaOf(command)!.confirms!.example] as const);

  // Operations only the platform's reference describes have no command of their own yet.
  it('every operation the table marks irreversible is run only by commands that confirm, and those of the spec and earlier releases have one', async () => {
    const irreversible = (await loadAllOperations()).filter((op) => op.irreversible);
    expect(irreversible.filter((op) => op.section !== undefined || op.renamed !== undefined).length).toBeGreaterThan(0);
    for (const op of irreversible) {
      const runners = all.filter(({ command }) => metaOf(command)?.operation === op.id);
      if (op.section !== undefined || op.renamed !== undefined) expect(runners.length, op.id).toBeGreaterThan(0);
      for (const { path, command } of runners) expect(metaOf(command)?.confirms, path.join(' ')).toBeDefined();
    }
  });

  it('the audit: these commands, and only these, confirm', () => {
    // Every delete and every action the table marks irreversible (and their earlier names), and the local ones.
    expect(confirming.map(({ path }) => path.join(' ')).sort()).toEqual([
      'api',
      'apps settings delete',
      'auth logout',
      'carts delete',
      'customers addresses delete',
      'disputes delete',
      'disputes resolve',
      'fulfillment-orders cancel',
      'fulfillment-orders cancellation-request-accept',
      'fulfillment-orders cancellation-request-reject',
      'fulfillment-orders close',
      'fulfillment-orders fulfill',
      'fulfillment-orders fulfillment-request-reject',
      'fulfillment-orders fulfillments create',
      'fulfillment-orders move',
      'fulfillment-orders reject-cancellation',
      'gift-cards deactivate',
      'locations delete',
      'metadata delete',
      'orders cancel',
      'orders capture',
      'orders collect-payment',
      'orders fulfillments create',
      'orders fulfillments events delete',
      'orders lines delete',
      'orders mark-as-paid',
      'orders refund',
      'orders remove-line',
      'pages delete',
      'products children delete',
      'products delete',
      'products images delete',
      'products prices delete',
      'products variants delete',
      'profiles remove',
      'stock-records delete',
      'subscriptions cancel',
      'subscriptions cancel-cohort',
      'subscriptions lines delete',
      'subscriptions move-gateway',
      'subscriptions renew',
      'subscriptions retry',
      'subscriptions retry-past-due',
      'subscriptions shift-renewals',
      'subscriptions update',
      'themes delete',
      'themes templates delete',
      'transactions capture',
      'transactions refund',
      'webhooks apply',
      'webhooks delete',
    ]);
  });

  /** The command's example, ready to run: profiles for it to remove, its file in the test's folder. */
  async function exampleOf(name: string, example: string): Promise<string[]> {
    for (const profile of ['staging', 'old-shop']) {
      const login = await runInProcess(['auth', 'login', '--profile', profile, '--base-url', ctx.sandbox.url, '--with-token', '--insecure-storage'], { STORE_ADMIN_CONFIG_DIR: dir }, FULL_TOKEN);
      expect(login.code, login.stderr).toBe(0);
    }
    // A declaration with no webhook: with --prune, every webhook the store has is one to delete.
    writeFileSync(declared, '{"webhooks": []}\n');
    const args = words(example).map((word) => (word === 'webhooks.json' ? declared : word));
    expect(args[0]).toBe('store-admin');
    expect(args, `${name}: the example must be one that asks`).not.toContain('--yes');
    return args.slice(1);
  }

  /** A POST that changes nothing: a refund's calculation, which `orders refund` makes to show the amounts before it asks. */
  const CALCULATIONS = new Set<string>(['ordersRefundCalculateCreate']);

  /** The requests for changes the store has received: anything but a read. */
  const changes = () =>
    Object.entries(ctx.sandbox.counters.byOperation)
      .filter(([id]) => operation(id as OperationId).method !== 'GET' && !CALCULATIONS.has(id))
      .reduce((sum, [, counts]) => sum + (counts?.received ?? 0), 0);

  /** Runs a command and checks that it changed nothing: no change sent, the config file as it was. */
  async function changesNothing<R>(run: () => Promise<R>): Promise<R> {
    const config = readFileSync(configFile, 'utf8');
    const sent = changes();
    const r = await run();
    expect(changes(), 'changes sent').toBe(sent);
    expect(readFileSync(configFile, 'utf8')).toBe(config);
    return r;
  }

  it.each(examples)('%s refuses without --yes and without a terminal, and sends nothing', async (name, example) => {
    const args = await exampleOf(name, example);
    const sent = ctx.sandbox.counters.received;
    const r = await changesNothing(() => runInProcess(args, env()));
    expect(ctx.sandbox.counters.received, 'requests sent').toBe(sent);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/confirmation needed|needs confirmation/);
    expect(r.stderr).toContain('Pass --yes to confirm without a prompt');
    expect(r.stdout).toBe('');
  });

  it.each(examples)('%s asks at a terminal, and a no sends nothing', async (name, example) => {
    const args = await exampleOf(name, example);
    const person = scriptedPrompter([false]);
    const r = await changesNothing(() => runInProcess(args, env(), '', { terminal: true, overrides: { prompter: person } }));
    expect(person.asked.map(({ kind }) => kind)).toEqual(['confirm']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: Canceled; nothing was (sent|removed)$/m);
  });

  it.each(examples)('%s asks nothing at a terminal with --yes', async (name, example) => {
    const args = await exampleOf(name, example);
    // The change is made: on the seed's objects, as the example expects them.
    await ctx.sandbox.store.reset();
    const person = scriptedPrompter([]);
    const before = changes();
    const r = await runInProcess([...args, '--yes'], env(), '', { terminal: true, overrides: { prompter: person } });
    expect(person.asked).toEqual([]);
    // Past the question: a local change made, or the change sent (the seed may not have the example's object).
    expect(r.code === 0 || changes() > before, r.stderr).toBe(true);
  });

  it('a process without a terminal is refused as well: the built CLI, stdin and stdout pipes', async () => {
    const [name, example] = examples.find(([name]) => name === 'orders remove-line')!;
    const args = await exampleOf(name, example);
    const sent = ctx.sandbox.counters.received;
    const r = await changesNothing(() => runCli(args, { env: env() }));
    expect(ctx.sandbox.counters.received, 'requests sent').toBe(sent);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^store-admin: .*: confirmation needed$/m);
    expect(r.stderr).toContain('Pass --yes to confirm without a prompt');
    expect(r.stdout).toBe('');
  });

  it('help exit-codes states the rule and lists every command that confirms, from the tree', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Changes that cannot be undone');
    for (const { path } of confirming) expect(r.stdout).toMatch(new RegExp(`^  ${path.join(' ')}\\b`, 'm'));
  });
});
