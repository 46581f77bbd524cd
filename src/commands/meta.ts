// What the help, the reference docs and completion know about a command beyond Commander's own
// model: the operation it runs and its examples.
import type { Command } from 'commander';
import type { OperationId } from '../api/operations.js';

export interface CommandMeta {
  operation?: OperationId;
  examples: readonly string[];
}

const metas = new WeakMap<Command, CommandMeta>();

export function metaOf(command: Command): CommandMeta | undefined {
  return metas.get(command);
}

/** Records the command's operation and examples; --help (src/output/help-layout.ts) shows them. */
export function describeCommand(command: Command, meta: CommandMeta): Command {
  metas.set(command, meta);
  return command;
}
