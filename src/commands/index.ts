// The command tree, as a list of groups. A group's module is loaded only when the command line
// names it (or when the whole tree is needed, as for `help`); the others appear in the root
// help from this list alone.
import type { Command } from 'commander';
import { loadGroup, type GroupName } from '../api/operations.js';
import type { Context } from '../context.js';

export interface CommandGroup {
  name: string;
  description: string;
  load(): Promise<{ register(group: Command, ctx: Context): void }>;
}

type Registrar = { register(group: Command, ctx: Context): void };

/** A group of the operation table's commands: its part of the table is loaded with its module. */
const withTable = (group: GroupName, load: () => Promise<Registrar>) => async () => (await Promise.all([load(), loadGroup(group)]))[0];

export const commandGroups: CommandGroup[] = [
  { name: 'orders', description: 'Work with orders: lines, notes and fulfillment', load: withTable('orders', () => import('./orders.js')) },
  { name: 'customers', description: 'Work with customers', load: withTable('customers', () => import('./customers.js')) },
  { name: 'subscriptions', description: 'Cancel, renew and change subscriptions', load: withTable('subscriptions', () => import('./subscriptions.js')) },
  { name: 'fulfillment-orders', description: 'Work with fulfillment orders', load: withTable('fulfillment-orders', () => import('./fulfillment-orders.js')) },
  { name: 'exports', description: 'Create data exports and list their types', load: withTable('exports', () => import('./exports.js')) },
  { name: 'disputes', description: 'Record disputes', load: withTable('disputes', () => import('./disputes.js')) },
  { name: 'categories', description: 'Read product categories', load: withTable('categories', () => import('./categories.js')) },
  { name: 'apps', description: "Change apps' settings", load: withTable('apps', () => import('./apps.js')) },
  { name: 'webhooks', description: 'Register, list, change and delete webhooks, or apply a file of them; listen to, trigger and verify deliveries', load: withTable('webhooks', () => import('./webhooks.js')) },
  { name: 'auth', description: 'Log in to a store, check the token, log out', load: () => import('./auth.js') },
  { name: 'profiles', description: 'List, choose and remove profiles', load: () => import('./profiles.js') },
  { name: 'history', description: 'What this machine changed: commands and bulk runs, and how each ended', load: () => import('./history.js') },
  { name: 'api', description: 'Call any path of the Store Administration API (a raw escape hatch)', load: () => import('./api.js') },
  { name: 'completion', description: 'Print a shell completion script (bash, zsh or fish)', load: () => import('./completion.js') },
  {
    name: 'sandbox',
    description: 'The local sandbox store: the same API with seeded data and real state changes',
    load: () => import('./sandbox.js'),
  },
];

/**
 * Which groups a command line needs: `[]` for none (the root help), one group by name, or
 * every group when the line names none of them (`help …`, a typo Commander should explain).
 */
export function groupsFor(argv: readonly string[], program: Command): CommandGroup[] {
  const takesValue = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  const named = (word: string) => {
    const group = commandGroups.find((g) => g.name === word);
    return group ? [group] : commandGroups;
  };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    // Commander still takes the word after `--` as the command, so that word decides.
    if (token === '--') return i + 1 < argv.length ? named(argv[i + 1]!) : [];
    if (token.startsWith('-')) {
      if (takesValue.has(token)) i++;
      continue;
    }
    return named(token);
  }
  return [];
}
