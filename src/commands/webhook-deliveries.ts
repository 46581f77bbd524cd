// `store-admin webhooks deliveries [list|show]` and `webhooks replay`: declared here, run by
// src/webhooks/deliveries.ts.
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';
import { parseDuration } from './sandbox-clock.js';
import { localUrl } from './webhook-listen.js';
import { secretFrom } from '../fields/values.js';

/** What a list shows unless told: a screen's worth, as gh lists. */
const LIST_DEFAULT = 30;
/** Both logs keep 1,000 entries. */
const LIST_MAX = 1000;

function parseLimit(value: string): number {
  if (!/^\d{1,4}$/.test(value.trim()) || Number(value) < 1 || Number(value) > LIST_MAX) throw new InvalidArgumentError(`takes a whole number from 1 to ${LIST_MAX}`);
  return Number(value);
}

const secretFile = (command: Command, what: string) => command.option('--secret-file <file>', `${what} (- for standard input)`);

async function secretOf(ctx: Context, file: unknown): Promise<string | undefined> {
  return file === undefined ? undefined : secretFrom(String(file), '--secret-file', ctx.io);
}

export function registerDeliveries(webhooks: Command, ctx: Context): void {
  const deliveries = webhooks
    .command('deliveries')
    .description("The sandbox's delivery attempts, each kept with the bytes and headers sent; or what webhooks listen received");
  const list = deliveries
    .command('list', { isDefault: true })
    .description('List delivery attempts, newest first (the default)')
    .option('--webhook <id>', "only this webhook's attempts")
    .option('--event <type>', 'only this event type, e.g. order.created')
    .option('--failed', 'only attempts that were not delivered')
    .option('--since <duration>', "only those of the last DURATION (30m, 12h, 7d; the sandbox's attempts by its clock)", parseDuration)
    .addOption(new Option('--limit <n>', `the newest N at most, 1 to ${LIST_MAX} (default ${LIST_DEFAULT})`).argParser(parseLimit))
    .option('--received', "what webhooks listen received on this machine (its log in the config dir), not the sandbox's attempts")
    .action(
      localAction(ctx, async (ctx, opts) => {
        const { listDeliveries } = await import('../webhooks/deliveries.js');
        await listDeliveries(ctx, {
          ...(opts.webhook !== undefined ? { webhook: String(opts.webhook) } : {}),
          ...(opts.event !== undefined ? { event: String(opts.event) } : {}),
          failed: !!opts.failed,
          received: !!opts.received,
          limit: typeof opts.limit === 'number' ? opts.limit : LIST_DEFAULT,
          ...(typeof opts.since === 'number' ? { since: opts.since } : {}),
        });
      }),
    );
  describeCommand(list, {
    examples: [
      'store-admin --sandbox webhooks deliveries --failed',
      'store-admin --sandbox webhooks deliveries --webhook 2 --event order.created --since 1d --json',
      'store-admin webhooks deliveries --received --limit 5',
    ],
  });

  const show = deliveries
    .command('show')
    .description('Show one delivery: what was sent and answered, its headers, its body pretty-printed, and whether its signature checks')
    .argument('<id>', "a delivery id: dlv_… from the sandbox, rcv_… from the listen log")
    .action(
      localAction(ctx, async (ctx, opts, [id]) => {
        const { showDelivery } = await import('../webhooks/deliveries.js');
        await showDelivery(ctx, id!, await secretOf(ctx, opts.secretFile));
      }),
    );
  secretFile(show, "check a received delivery's signature with the webhook's secret read from a file");
  describeCommand(show, {
    examples: ['store-admin --sandbox webhooks deliveries show dlv_3', 'store-admin webhooks deliveries show rcv_mbx1k2a9f3c1d2e4 --secret-file secret.txt'],
  });

  const replay = webhooks
    .command('replay')
    .description('Send a recorded delivery again: by default to the same target with the same bytes; recorded as a replay')
    .argument('<delivery>', 'a delivery id: dlv_… from the sandbox, rcv_… from the listen log')
    .option('--to <url>', 'send it to this URL instead, e.g. a local app', localUrl)
    .option('--edit', "open $EDITOR on the body first; an edited body is signed again with the webhook's secret")
    .action(
      localAction(ctx, async (ctx, opts, [id]) => {
        const { replayDelivery } = await import('../webhooks/deliveries.js');
        await replayDelivery(ctx, id!, {
          ...(opts.to ? { to: opts.to as URL } : {}),
          edit: !!opts.edit,
          ...(opts.secretFile !== undefined ? { secret: await secretOf(ctx, opts.secretFile) } : {}),
        });
      }),
    );
  secretFile(replay, "with --edit, the secret that signs an edited delivery from the listen log");
  describeCommand(replay, {
    examples: [
      'store-admin --sandbox webhooks replay dlv_3',
      'store-admin --sandbox webhooks replay dlv_3 --to http://localhost:3000/webhooks --edit',
      'store-admin webhooks replay rcv_mbx1k2a9f3c1d2e4 --edit --secret-file secret.txt',
    ],
  });
}
