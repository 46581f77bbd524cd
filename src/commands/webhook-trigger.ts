// `store-admin webhooks trigger <event>`: declared here, run by src/webhooks/trigger.ts.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { render } from '../output/render.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

export function registerTrigger(webhooks: Command, ctx: Context): void {
  const command = webhooks
    .command('trigger')
    .description('Make the sandbox store perform a real change on its seed data that emits EVENT, or send an event no change causes with a seeded object (refused on a real store)')
    .argument('<event>', 'the event to cause, e.g. order.created')
    .action(
      localAction(ctx, async (ctx, _opts, [event]) => {
        const { trigger } = await import('../webhooks/trigger.js');
        const result = await trigger(ctx, event!);
        if (ctx.format !== 'table') return render(result, ctx.io, { format: ctx.format, query: ctx.options.query, color: ctx.color });
        const others = result.emitted.filter((e) => e !== result.event);
        ctx.io.stdout.write(
          `${result.did}.\n` +
            `Emitted ${result.event}${others.length > 0 ? ` (and ${others.join(', ')})` : ''}: ` +
            `${result.webhooks.length === 0 ? 'no webhook subscribes to it' : `queued for webhook${result.webhooks.length > 1 ? 's' : ''} ${result.webhooks.join(', ')}`}.\n`,
        );
      }),
    );
  describeCommand(command, {
    examples: ['store-admin --sandbox webhooks trigger order.created', 'store-admin --sandbox webhooks trigger subscription.updated --json'],
    argumentValues: async () => [...(await import('../webhooks/trigger.js')).TRIGGERS.keys()],
  });
}
