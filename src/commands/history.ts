// `store-admin history`: what this machine changed, where, when and with what outcome; and
// `history show RUN`: a bulk run line by line. Read from the journals in the config dir.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

export function register(history: Command, ctx: Context): void {
  describeCommand(
    history
      .command('list', { isDefault: true })
      .description('List the changes this machine made, newest first: single commands and bulk runs')
      .option('--since <duration>', 'only those of the last DURATION: 30m, 12h, 7d, 2w', since)
      .option('--operation <name>', 'only this command or operation, e.g. "subscriptions cancel" or subscriptions.cancel')
      .action(localAction(ctx, async (ctx, opts) => (await import('./history-view.js')).listHistory(ctx, opts))),
    { examples: ['store-admin history', 'store-admin history --since 1d --operation "subscriptions cancel" --json'] },
  );
  describeCommand(
    history
      .command('show [run]')
      .description("Show a bulk run line by line: each line's input and outcome (picked from the latest runs at a terminal when not given)")
      .action(localAction(ctx, async (ctx, _opts, [run]) => (await import('./history-view.js')).showRun(ctx, run))),
    {
      examples: ['store-admin history show 20261123-084012-1a2b', 'store-admin history show 20261123-084012-1a2b --json'],
      argumentValues: async (ctx) => (await import('./history-view.js')).latestRunIds(ctx),
    },
  );
}

/** `30m`, `12h`, `7d`, `2w` → milliseconds. */
function since(value: string): number {
  const match = /^\s*(\d{1,5})\s*([mhdw])\s*$/i.exec(value);
  if (!match || Number(match[1]) === 0) throw new InvalidArgumentError('takes a duration such as 30m, 12h, 7d or 2w');
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2]!.toLowerCase() as 'm' | 'h' | 'd' | 'w'];
  return Number(match[1]) * unit;
}
