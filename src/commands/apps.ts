// `store-admin apps …`
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { FlagTable } from '../options.js';
import { requireSomething } from '../run/body.js';
import { addOperationCommand } from './define.js';
import { collect, jsonObject, typedPair } from '../fields/values.js';

const settingsFlags = {
  set: {
    flags: '--set <key=value>',
    help: 'a setting; JSON values (true, 12, null, {"a":1}) are typed, anything else is text (repeatable)',
    parse: collect,
  },
  data: { flags: '--data <json>', help: 'settings as a JSON object, @file or - (stdin); --set overrides them' },
} as const satisfies FlagTable;

export function register(apps: Command, ctx: Context): void {
  addOperationCommand(apps, ctx, {
    name: 'update-settings',
    operation: 'appsSettingsPartialUpdate',
    args: [['client-id', 'clientId', "the app's client id"]],
    description: "Merge keys into an app's settings (keys not given are left alone)",
    flags: settingsFlags,
    body: async (opts, ctx) => {
      const base = opts.data === undefined ? {} : await jsonObject(opts.data, '--data', ctx.io);
      const pairs = (opts.set ?? []).reduce<Record<string, unknown>>((acc, pair) => typedPair(pair, acc), {});
      return requireSomething({ ...base, ...pairs }, 'at least one --set key=value, or settings in --data', opts.data !== undefined);
    },
    view: 'settings',
    progress: 'Updating the settings…',
    examples: [
      'store-admin apps update-settings sandbox-app --set theme=dark --set max_items=12',
      'store-admin apps update-settings sandbox-app --data @settings.json',
    ],
  });
}
