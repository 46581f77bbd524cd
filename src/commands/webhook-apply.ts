// `store-admin webhooks apply -f FILE`: declared here, run by src/webhooks/apply.ts.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { ALLOW_UNKNOWN_EVENT } from '../webhooks/event-names.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

export function registerApply(webhooks: Command, ctx: Context): void {
  const command = webhooks
    .command('apply')
    .description("Make the store's webhooks match a file: create, update (and with --prune delete) by name")
    .requiredOption('-f, --file <file>', 'the webhooks file (JSON), or - for standard input')
    .option('--prune', 'also delete the webhooks whose name the file does not declare (confirmed; --yes without a terminal)')
    .option('--rotate-secrets', 'set each declared secret again (a secret cannot be read back, so a changed one is not seen otherwise)')
    .option(ALLOW_UNKNOWN_EVENT, 'accept event names the platform publishes after this version of the tool')
    .action(
      localAction(ctx, async (ctx, opts) => {
        const { applyWebhooks } = await import('../webhooks/apply.js');
        await applyWebhooks(ctx, {
          file: String(opts.file),
          prune: !!opts.prune,
          rotateSecrets: !!opts.rotateSecrets,
          allowUnknownEvent: !!opts.allowUnknownEvent,
        });
      }),
    );
  describeCommand(command, {
    confirms: { when: 'with --prune, before deleting', example: 'store-admin webhooks apply -f webhooks.json --prune' },
    examples: [
      'store-admin webhooks apply -f webhooks.json --dry-run',
      'store-admin webhooks apply -f webhooks.json',
      'store-admin webhooks apply -f webhooks.json --prune --yes --json',
      'ORDERS_HOOK_SECRET=… store-admin webhooks apply -f webhooks.json --rotate-secrets',
    ],
  });
}
