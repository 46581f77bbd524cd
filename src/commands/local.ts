// Commands that work on local configuration rather than one API operation share this wiring:
// the run's one context, with the work imported only when the command runs.
import type { Command } from 'commander';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { FlagsOf, FlagTable } from '../options.js';

/** The action of a command; with its flag table given (`localAction<typeof FLAGS>`), the work reads its flags typed. */
export function localAction<T extends FlagTable = FlagTable>(ctx: Context, work: (ctx: Context, opts: FlagsOf<T>, args: string[]) => Promise<void>) {
  return async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    // Commander parsed these by the table (addFlags checks each attribute name), so they are the table's values.
    await work(ctx, self.opts<FlagsOf<T>>(), received.slice(0, -2) as string[]);
  };
}

/**
 * An argument left out: picked from a list at a terminal, a one-line usage error elsewhere (or
 * when there is nothing to pick). `usage` is the command line that supplies it.
 */
export async function argumentOrChoice(
  ctx: Context,
  given: string | undefined,
  ask: { label: string; message: string; usage: string; choices: () => readonly { value: string; name: string }[]; none: UsageError },
): Promise<string> {
  if (given !== undefined) return given;
  if (!ctx.interactive) {
    const why = ctx.options.input === false ? 'prompts are off (--no-input)' : 'prompts need a terminal';
    throw new UsageError(`Missing ${ask.label}: ${why}`, { hint: `Run: ${ask.usage}` });
  }
  const choices = ask.choices();
  if (choices.length === 0) throw ask.none;
  return ctx.prompt.select({ flag: ask.label, message: ask.message, choices });
}
