// A change that cannot be undone (or deserves a second look) is asked about at a terminal, and
// refused without --yes elsewhere: never a prompt without a terminal.
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';

export async function confirm(ctx: Context, message: string): Promise<void> {
  const confirmed = await ctx.prompt.confirm({
    message: `${message} Continue?`,
    refusal: `${message.replace(/[.?]$/, '')}: confirmation needed`,
  });
  if (!confirmed) throw new UsageError('Canceled; nothing was sent');
}
