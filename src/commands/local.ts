// Commands that work on local configuration rather than one API operation share this wiring:
// a context per run, closed afterwards, with the work imported only when the command runs.
import type { Command } from 'commander';
import { createContext, type Context } from '../context.js';
import type { IO } from '../io.js';
import type { GlobalOptions } from '../options.js';
import type { Options } from './define.js';

export function localAction(io: IO, work: (ctx: Context, opts: Options, args: string[]) => Promise<void>) {
  return async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const ctx = createContext(self.optsWithGlobals<GlobalOptions>(), io);
    try {
      await work(ctx, self.opts<Options>(), received.slice(0, -2) as string[]);
    } finally {
      await ctx.close();
    }
  };
}
