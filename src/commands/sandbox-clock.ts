// `store-admin sandbox clock [advance DURATION | set DATE]`: the sandbox's clock, moved forward to
// run what falls due (renewals, exports turning available, carts abandoned, link expiry, delivery
// retries). Refused on a real store, which has no such clock.
import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../context.js';
import type { ClockMove } from '../sandbox/scheduler.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

const UNIT_MS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** `30d`, `2h`, `90m`, `1d12h`, … in ms. */
export function parseDuration(value: string): number {
  const text = value.trim();
  if (!/^(\d{1,6}[wdhms])+$/.test(text)) throw new InvalidArgumentError(`takes a duration such as 30d, 2h, 90m or 1d12h (got "${value}")`);
  let ms = 0;
  for (const [, count, unit] of text.matchAll(/(\d+)([wdhms])/g)) ms += Number(count) * UNIT_MS[unit!]!;
  if (ms === 0) throw new InvalidArgumentError('takes a duration above zero');
  return ms;
}

function parseDate(value: string): number {
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value.trim()) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new InvalidArgumentError(`takes an ISO 8601 date-time with its zone, such as 2027-01-01T00:00:00Z (got "${value}")`);
  return ms;
}

export function registerClock(sandbox: Command, ctx: Context): void {
  const clock = sandbox.command('clock').description("The sandbox's clock: show it, or move it forward to run what falls due");
  const show = clock
    .command('show', { isDefault: true })
    .description("Show the sandbox's time (the default)")
    .action(localAction(ctx, async (ctx) => showClock(ctx)));
  describeCommand(show, { examples: ['store-admin --sandbox sandbox clock', 'store-admin --sandbox sandbox clock show --json'] });

  const advance = clock
    .command('advance')
    .description('Move the clock forward by DURATION, renewing, finishing exports, abandoning carts and retrying deliveries due on the way, in time order')
    .argument('<duration>', 'how far: 30d, 2h, 90m, 1w, 1d12h', parseDuration)
    .action(localAction(ctx, async (ctx, _opts, [duration]) => moveClock(ctx, (now) => now + (duration as unknown as number))));
  describeCommand(advance, {
    examples: ['store-admin --sandbox sandbox clock advance 30d', 'store-admin --sandbox sandbox clock advance 90m --json'],
  });

  const set = clock
    .command('set')
    .description('Move the clock forward to DATE (it never goes back), running what falls due on the way')
    .argument('<date>', 'an ISO 8601 date-time with its zone, e.g. 2027-01-01T00:00:00Z', parseDate)
    .action(localAction(ctx, async (ctx, _opts, [date]) => moveClock(ctx, () => date as unknown as number)));
  describeCommand(set, { examples: ['store-admin --sandbox sandbox clock set 2027-01-01T00:00:00Z'] });
}

const WHAT = 'sandbox clock';

async function showClock(ctx: Context) {
  const [{ sandboxRead }, { SANDBOX_ROUTES }] = await Promise.all([import('../webhooks/sandbox-admin.js'), import('../sandbox/paths.js')]);
  const { now } = await sandboxRead<{ now: string }>(await ctx.client(), WHAT, SANDBOX_ROUTES.clock);
  await ctx.output.result({ now }, { text: () => `The sandbox's clock reads ${now}.\n` });
}

async function moveClock(ctx: Context, target: (nowMs: number) => number) {
  const [{ sandboxRead, sandboxWrite, resetCommand }, { UsageError }, { SANDBOX_ROUTES }] = await Promise.all([
    import('../webhooks/sandbox-admin.js'),
    import('../api/errors.js'),
    import('../sandbox/paths.js'),
  ]);
  if (ctx.options.dryRun) throw new UsageError('sandbox clock advance and set change the sandbox; they have no --dry-run');
  const client = await ctx.client();
  const { now } = await sandboxRead<{ now: string }>(client, WHAT, SANDBOX_ROUTES.clock);
  const to = target(Date.parse(now));
  if (to < Date.parse(now)) {
    throw new UsageError(`The sandbox's clock only moves forward, and it reads ${now}`, { hint: `Start again from the seed with: ${await resetCommand(ctx)}` });
  }
  // An absolute time: a request sent twice (a retry) moves the clock once.
  const moved = await sandboxWrite<ClockMove & { sandbox?: true }>(client, SANDBOX_ROUTES.clock, { to: new Date(to).toISOString() });
  const { sandbox: _sandbox, ...did } = moved;
  await ctx.output.result(did, { text: describeMove });
}

function describeMove(did: ClockMove): string {
  const lines = [`The sandbox's clock moved from ${did.from} to ${did.now}.`];
  // What fell due, in time order.
  const happened = [
    ...did.renewals.map((r) => ({ at: r.at, what: `renewed subscription ${r.subscription}: order ${r.order}` })),
    ...did.exports.map((e) => ({ at: e.at, what: `export ${e.id} became available` })),
    ...did.carts.map((c) => ({ at: c.at, what: `cart ${c.id} was abandoned` })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  for (const { at, what } of happened) lines.push(`  ${at}  ${what}`);
  if (happened.length === 0) lines.push('Nothing fell due on the way.');
  if (did.delivery_attempts > 0) {
    lines.push(`${did.delivery_attempts} webhook delivery attempt${did.delivery_attempts === 1 ? '' : 's'} made (store-admin webhooks deliveries lists them).`);
  }
  // Older sandboxes do not report it.
  for (const off of did.webhooks_switched_off ?? []) {
    lines.push(
      `  ${off.at}  webhook ${off.webhook} switched off: attempt ${off.attempt} (${off.delivery}) got ${off.answer}; ` +
        `store-admin webhooks update ${off.webhook} --active turns it on again`,
    );
  }
  return `${lines.join('\n')}\n`;
}
