// `store-admin apps …`: what the table's commands for apps need beyond their facts: settings are
// any keys an app chooses, so they are given as --set key=value pairs.
import type { Context } from '../context.js';
import type { FlagsOf, FlagTable } from '../options.js';
import { requireSomething } from '../run/body.js';
import { collect, jsonObject, typedPair } from '../fields/values.js';
import { refine } from './table-commands.js';

const settingsFlags = {
  set: {
    flags: '--set <key=value>',
    help: 'a setting; JSON values (true, 12, null, {"a":1}) are typed, anything else is text (repeatable)',
    parse: collect,
  },
  data: { flags: '--data <json>', help: 'settings as a JSON object, @file or - (stdin); --set overrides them' },
} as const satisfies FlagTable;

/** The settings from --data and --set (which wins), never empty. */
async function settingsBody(opts: FlagsOf<typeof settingsFlags>, ctx: Context): Promise<Record<string, unknown>> {
  const base = opts.data === undefined ? {} : await jsonObject(opts.data, '--data', ctx.io);
  const pairs = (opts.set ?? []).reduce<Record<string, unknown>>((acc, pair) => typedPair(pair, acc), {});
  return requireSomething({ ...base, ...pairs }, 'at least one --set key=value, or settings in --data', opts.data !== undefined);
}

const clientId = ['client-id', 'clientId', "the app's client id"] as const;

export const refinements = [
  refine({ operation: 'appsSettingsRetrieve', view: 'settings' }),
  refine({
    operation: 'appsSettingsUpdate',
    args: [clientId],
    description: "Replace an app's settings with the keys given (keys not given are removed)",
    flags: settingsFlags,
    body: settingsBody,
    view: 'settings',
    progress: 'Replacing the settings…',
    examples: ['store-admin apps settings replace sandbox-app --set theme=dark', 'store-admin apps settings replace sandbox-app --data @settings.json'],
  }),
  refine({
    operation: 'appsSettingsPartialUpdate',
    args: [clientId],
    description: "Merge keys into an app's settings (keys not given are left alone)",
    flags: settingsFlags,
    body: settingsBody,
    view: 'settings',
    progress: 'Updating the settings…',
    examples: [
      'store-admin apps settings update sandbox-app --set theme=dark --set max_items=12',
      'store-admin apps settings update sandbox-app --data @settings.json',
    ],
  }),
];
