// The history entry of a single change (src/journal/history.ts keeps the file): written whatever
// became of the change, so that `history` shows what was tried, applied or lost.
import type { Context } from '../context.js';

/** Writes a change to the history, whatever became of it (a read is not written). */
export async function recordChange(
  ctx: Context,
  change: { command: string; operation: string; target: string; created?: string },
  error: unknown,
  status?: number,
): Promise<void> {
  try {
    const [{ appendHistory, outcomeOf }, { configDir }, destination] = await Promise.all([
      import('../journal/history.js'),
      import('../config/paths.js'),
      ctx.destination(),
    ]);
    await appendHistory(configDir(ctx.io.env), {
      at: new Date().toISOString(),
      command: change.command,
      operation: change.operation,
      ...destination,
      target: change.target,
      ...(change.created !== undefined ? { created: change.created } : {}),
      ...outcomeOf(error, status),
    });
  } catch (failure) {
    // The change itself stands: only its record is missing.
    ctx.output.prose(`warning: the history cannot be written (${(failure as Error).message})`);
  }
}
