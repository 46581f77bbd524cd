// Which of the tool's commands a grant does not cover: the command tree says which operation each
// command runs, the operation table which scopes that needs.
import { loadAllOperations, operation } from '../api/operations.js';
import { missingScopes } from '../api/scopes.js';
import type { Context } from '../context.js';
import { commandPath, leafCommands, metaOf } from './meta.js';

export interface Uncovered {
  /** As typed after `store-admin`, e.g. `orders remove-line`. */
  command: string;
  missing: string[];
}

export async function uncoveredCommands(ctx: Context, granted: readonly string[]): Promise<Uncovered[]> {
  const program = await ctx.commandTree();
  await loadAllOperations();
  return leafCommands(program).flatMap((command) => {
    const id = metaOf(command)?.operation;
    const missing = id ? missingScopes(granted, operation(id)) : [];
    return missing.length > 0 ? [{ command: commandPath(command).slice(program.name().length + 1), missing }] : [];
  });
}
