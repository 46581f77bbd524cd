// `store-admin operations`: every operation of the API as the table has it, with the command that
// runs it: for finding a command by its path, and for scripts (--json) that check what a version has.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

export function register(operations: Command, ctx: Context): void {
  describeCommand(
    operations.action(
      localAction(ctx, async (ctx) => {
        const { loadAllOperations } = await import('../api/operations.js');
        const all = (await loadAllOperations()).sort((a, b) => a.command.localeCompare(b.command));
        const rows = all.map((op) => ({
          id: op.id,
          command: op.command,
          summary: op.summary,
          method: op.method,
          path: op.path,
          versions: op.versions,
          version: op.version,
          scopes: op.scopes,
          irreversible: op.irreversible,
          ...(op.aliases.length > 0 ? { aliases: op.aliases } : {}),
        }));
        await ctx.output.result(rows, { view: 'operations' });
      }),
    ),
    {
      examples: [
        'store-admin operations',
        "store-admin operations --json -q \"[?irreversible].command\"",
        'store-admin operations -o csv --columns command,method,path,version',
      ],
    },
  );
}
