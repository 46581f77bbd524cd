// `store-admin webhooks list`: declared here, run by src/webhooks/list.ts.
import type { Command } from 'commander';
import { operation } from '../api/operations.js';
import type { Context } from '../context.js';
import { learnMoreOf } from './define.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

export function registerList(webhooks: Command, ctx: Context): void {
  const command = webhooks
    .command('list')
    .description(`${operation('webhooksList').summary} (--all for every page)`)
    .option('--name <name>', 'only webhooks with exactly this name')
    .option('--active', 'only active webhooks')
    .option('--inactive', 'only inactive webhooks')
    .option('--all', 'follow the pages to the end and show every webhook')
    .option('--cursor <cursor>', "start at this page: the cursor of a page's next or previous link")
    .action(
      localAction(ctx, async (ctx, opts) => {
        const { listCommand } = await import('../webhooks/list.js');
        await listCommand(ctx, opts);
      }),
    );
  describeCommand(command, {
    operation: 'webhooksList',
    learnMore: learnMoreOf('webhooksList'),
    examples: [
      'store-admin webhooks list',
      'store-admin webhooks list --all --inactive',
      "store-admin webhooks list --name 'Order sync' --json -q 'results[0].id'",
    ],
  });
}
