// Commands that work on local configuration rather than one API operation share this wiring:
// the run's one context, with the work imported only when the command runs.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Options } from './define.js';

export function localAction(ctx: Context, work: (ctx: Context, opts: Options, args: string[]) => Promise<void>) {
  return async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    await work(ctx, self.opts<Options>(), received.slice(0, -2) as string[]);
  };
}
