// The command tree, as a list of groups. A group's commands are registered only when the command
// line names it (or when the whole tree is needed, as for `help`); the others appear in the root
// help from this list alone. A group of the operation table gets one command per operation from
// its part of the table (table-commands.ts), refined by its own module where it has one.
import type { Command } from 'commander';
import type { GroupName } from '../api/operations.js';
import type { Context } from '../context.js';
import type { GroupModule } from './table-commands.js';

export interface CommandGroup {
  name: string;
  description: string;
  load(): Promise<{ register(group: Command, ctx: Context): void }>;
}

/**
 * Each group of the table, in the order the root help lists them, with a line for people; keyed by
 * the table's groups, so a group the table gains does not compile until it is described here.
 */
const TABLE_GROUPS: Record<GroupName, { description: string; module?: () => Promise<GroupModule> }> = {
  orders: { description: 'Orders: list and read them, change lines and notes, fulfill, refund and cancel', module: () => import('./orders.js') },
  customers: { description: 'Customers, their addresses and notes, and their orders and subscriptions', module: () => import('./customers.js') },
  subscriptions: { description: 'Subscriptions: list, cancel, renew, retry and change them and their lines', module: () => import('./subscriptions.js') },
  products: { description: 'Products, their variants, child products, images and prices' },
  'fulfillment-orders': { description: 'Fulfillment orders: hold, move and fulfill them; cancellation and fulfillment requests', module: () => import('./fulfillment-orders.js') },
  'assigned-fulfillment-orders': { description: "The fulfillment orders assigned to your locations" },
  transactions: { description: 'Payment transactions: list and read them, capture, refund, verify a card' },
  disputes: { description: 'Disputes (alerts and chargebacks): record, note and resolve them', module: () => import('./disputes.js') },
  'gift-cards': { description: 'Gift cards: issue, change and deactivate them' },
  carts: { description: 'Carts, abandoned or not' },
  exports: { description: 'Data exports: create them, wait for them and download their files', module: () => import('./exports.js') },
  webhooks: {
    description: 'Register, list, change and delete webhooks, or apply a file of them; listen to, trigger and verify deliveries',
    module: () => import('./webhooks.js'),
  },
  categories: { description: 'Product categories', module: () => import('./categories.js') },
  'stock-records': { description: 'The stock of each product at each location' },
  locations: { description: 'Locations: warehouses and fulfillment services' },
  'shipping-methods': { description: "The store's shipping methods" },
  gateways: { description: 'Payment gateways' },
  'gateway-groups': { description: 'Groups of payment gateways' },
  metadata: { description: 'The metadata fields records can carry, and their definitions' },
  pages: { description: "The store's content pages" },
  themes: { description: 'Themes and their templates' },
  tickets: { description: 'Support tickets and their comments' },
  'ticket-types': { description: 'The types of support ticket' },
  store: { description: "The store's own details" },
  apps: { description: 'Installed apps and their settings', module: () => import('./apps.js') },
};

export const commandGroups: CommandGroup[] = [
  ...Object.entries(TABLE_GROUPS).map(([name, { description, module }]) => ({
    name,
    description,
    load: async () => (await import('./table-commands.js')).tableGroup(name as GroupName, module),
  })),
  { name: 'operations', description: 'Every operation of the API: its command, method, path, versions and scopes', load: () => import('./operations.js') },
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
