// `store-admin webhooks trigger <event>`: declared here, run by src/webhooks/trigger.ts.
import type { Command } from 'commander';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';
import { collect } from '../fields/values.js';

export function registerTrigger(webhooks: Command, ctx: Context): void {
  const command = webhooks
    .command('trigger')
    .description("Make the sandbox store perform a real change on its seed data that emits EVENT: a request of the API, a change its dashboard makes (gateways, the store's details, apps), or its clock moved on (refused on a real store)")
    .argument('<event>', `the event to cause, any of the platform's: ${WEBHOOK_EVENTS.join(', ')}`)
    .option(
      '--set <path=value>',
      "change the object first, through the request a user would send (repeatable): a field of that request's body, dotted into an address (billing_address.line4=Oslo); for order.created, of the subscription renewed; for gateway.* and store.updated, of the dashboard's change",
      collect,
    )
    .action(
      localAction(ctx, async (ctx, opts, [event]) => {
        const { trigger } = await import('../webhooks/trigger.js');
        const result = await trigger(ctx, event!, (opts.set as string[] | undefined) ?? []);
        await ctx.output.result(result, {
          text: ({ did, event, emitted, webhooks }) => {
            const others = emitted.filter((e) => e !== event);
            return (
              `${did}.\n` +
              `Emitted ${event}${others.length > 0 ? ` (and ${others.join(', ')})` : ''}: ` +
              `${webhooks.length === 0 ? 'no webhook subscribes to it' : `queued for webhook${webhooks.length > 1 ? 's' : ''} ${webhooks.join(', ')}`}.\n`
            );
          },
        });
      }),
    );
  describeCommand(command, {
    examples: [
      'store-admin --sandbox webhooks trigger order.created',
      'store-admin --sandbox webhooks trigger subscription.updated --set shipping_price=9.50 --set billing_address.line4=Oslo',
      'store-admin --sandbox webhooks trigger dispute.created --set amount=12.00 --json',
    ],
    argumentValues: async () => (await import('../webhooks/trigger.js')).TRIGGERABLE_EVENTS,
  });
}
