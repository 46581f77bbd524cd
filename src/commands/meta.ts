// What the help, the reference docs and completion know about a command beyond Commander's own
// model: the operation it runs and its examples.
import type { Command } from 'commander';
import type { OperationId } from '../api/operations.js';
import type { Context } from '../context.js';
import type { Field } from '../fields/declare.js';
import { StoreAdminCommand } from '../usage-errors.js';

export interface CommandMeta {
  operation?: OperationId;
  /**
   * What --help's LEARN MORE says of the operation, read from the table when the command was
   * made: the help layout then needs no table of its own, which keeps it off `--help`'s path.
   */
  learnMore?: readonly string[];
  examples: readonly string[];
  /**
   * The command can make a change that cannot be undone, so it asks first at a terminal and
   * refuses without --yes elsewhere: `when` it does (always, if not given), and a command line
   * that does, which a test runs without --yes to hold every such command to the rule.
   */
  confirms?: { when?: string; example: string };
  /** A job (src/jobs/): its --dry-run reads the store to make the plan, where an operation's prints the request. */
  job?: true;
  /** Global flags this command is used with, listed with its own under FLAGS (auth login's --profile). */
  globals?: readonly string[];
  /** Completion for the first argument, found when asked (the events `webhooks trigger` can cause). */
  argumentValues?: (ctx: Context) => Promise<readonly string[]>;
  /** The body fields its options were made from. */
  fields?: readonly Field[];
  /** Completes the help (the schema's limits) before it is shown outside a run, as `help` and the docs do. */
  prepare?: () => Promise<void>;
}

/** A command of the tree, carrying what the help knows of it (its meta) as a field of its own. */
export class DescribedCommand extends StoreAdminCommand {
  meta?: CommandMeta;

  override createCommand(name?: string): DescribedCommand {
    return new DescribedCommand(name);
  }
}

export function metaOf(command: Command): CommandMeta | undefined {
  return command instanceof DescribedCommand ? command.meta : undefined;
}

/** Gives the command its operation and examples; --help (src/output/help-layout.ts) shows them. */
export function describeCommand(command: Command, meta: CommandMeta): Command {
  if (!(command instanceof DescribedCommand)) throw new TypeError(`"${command.name()}" was not made in the command tree, which describes its commands`);
  command.meta = meta;
  return command;
}

/** Completes the help of every command under this one, for renderings outside a run (the docs). */
export async function prepareHelp(command: Command): Promise<void> {
  await metaOf(command)?.prepare?.();
  for (const sub of command.commands) await prepareHelp(sub);
}

/** Every runnable command in declaration order; groups are walked, not listed. */
export function leafCommands(command: Command): Command[] {
  const children = visibleCommands(command);
  return children.length === 0 ? [command] : children.flatMap(leafCommands);
}

/** The words typed to run the command, program name included. */
export function commandPath(command: Command): string {
  return command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}

// Hidden commands (such as the shell-completion hook) are plumbing, left out of help too.
export function visibleCommands(command: Command): Command[] {
  return command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
}
