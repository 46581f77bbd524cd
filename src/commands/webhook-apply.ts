// `store-admin webhooks apply -f FILE`: declared here, run by src/webhooks/apply.ts.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { collect } from '../fields/values.js';
import { addFlags, type FlagTable } from '../options.js';
import { ALLOW_UNKNOWN_EVENT } from '../webhooks/event-names.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

const APPLY_FLAGS = {
  prune: { flags: '--prune', help: 'also delete the webhooks whose name the file does not declare (confirmed; --yes without a terminal)' },
  rotateSecrets: { flags: '--rotate-secrets', help: 'set each declared secret again (a secret cannot be read back, so a changed one is not seen otherwise)' },
  secretEnv: {
    flags: '--secret-env <name>',
    help: 'an environment variable the file may read a secret from, as {"env": "NAME"} (repeatable); no other is read',
    parse: collect,
  },
  secretRoot: {
    flags: '--secret-root <dir>',
    help: "the folder the file's {\"file\": …} secrets are read from (default: the webhooks file's own folder)",
  },
  allowUnknownEvent: { flags: ALLOW_UNKNOWN_EVENT, help: 'accept event names the platform publishes after this version of the tool' },
} as const satisfies FlagTable;

export function registerApply(webhooks: Command, ctx: Context): void {
  const command = addFlags(
    webhooks
      .command('apply')
      .description("Make the store's webhooks match a file: create, update (and with --prune delete) by name")
      .requiredOption('-f, --file <file>', 'the webhooks file (JSON), or - for standard input'),
    APPLY_FLAGS,
  ).action(
    localAction<typeof APPLY_FLAGS>(ctx, async (ctx, opts) => {
      const { applyWebhooks } = await import('../webhooks/apply.js');
      await applyWebhooks(ctx, {
        file: String((opts as { file?: unknown }).file),
        prune: !!opts.prune,
        rotateSecrets: !!opts.rotateSecrets,
        allowUnknownEvent: !!opts.allowUnknownEvent,
        secretEnv: opts.secretEnv ?? [],
        ...(opts.secretRoot === undefined ? {} : { secretRoot: opts.secretRoot }),
      });
    }),
  );
  describeCommand(command, {
    confirms: { when: 'with --prune, before deleting', example: 'store-admin webhooks apply -f webhooks.json --prune' },
    examples: [
      'store-admin webhooks apply -f webhooks.json --dry-run',
      'store-admin webhooks apply -f webhooks.json',
      'store-admin webhooks apply -f webhooks.json --prune --yes --json',
      'ORDERS_HOOK_SECRET=… store-admin webhooks apply -f webhooks.json --secret-env ORDERS_HOOK_SECRET --rotate-secrets',
    ],
  });
}
