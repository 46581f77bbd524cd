// Completion candidates for the words typed after `store-admin`, the last one being the word
// under the cursor (possibly empty). They are read from the full command tree, so they follow
// the real commands, flags and allowed values without a list of their own.
import type { Command, Option } from 'commander';
import { WEBHOOK_EVENTS } from '../api/enums.js';
import { profileStore } from '../config/resolve.js';
import type { Context } from '../context.js';
import type { IO } from '../io.js';
import { HELP_TOPICS } from './help.js';
import { metaOf } from './meta.js';

interface Position {
  /** The deepest command the words name. */
  command: Command;
  /** Words that are neither a command name, a flag nor a flag's value. */
  positionals: string[];
  /** A flag that takes a value, given last: the next word is its value. */
  pending?: Option;
  /** A `--` was given: everything after it is an argument. */
  literal: boolean;
}

export async function candidates(words: string[], ctx: Context): Promise<string[]> {
  const { io } = ctx;
  // Only the group the words name is loaded; the first word is completed from the list of groups alone.
  const program = await ctx.commandTree(words.length > 1 ? words.slice(0, -1) : []);
  const current = words.at(-1) ?? '';
  const { command, positionals, pending, literal } = walk(program, words.slice(0, -1));
  let offered: readonly string[] = [];
  if (pending) offered = valuesOf(pending, io);
  else if (literal) offered = [];
  else if (current.startsWith('-')) offered = flagsOf(command);
  else if (command.name() === 'help' && command.parent === program) offered = helpNames(program, positionals);
  else {
    // Commander looks for a subcommand in the first argument only.
    const argument = command.registeredArguments[positionals.length];
    const values = positionals.length === 0 ? ((await metaOf(command)?.argumentValues?.(ctx)) ?? []) : [];
    offered = [...(positionals.length === 0 ? subcommandsOf(command) : []), ...(argument?.argChoices ?? []), ...values];
  }
  return offered.filter((candidate) => candidate.startsWith(current));
}

function walk(program: Command, words: string[]): Position {
  const position: Position = { command: program, positionals: [], literal: false };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (position.literal) position.positionals.push(word);
    else if (word === '--') position.literal = true;
    else if (word.startsWith('-') && word !== '-') {
      // `--flag=value` names no option here, so it is passed over like a switch.
      const option = optionNamed(position.command, word);
      if (option?.required || option?.optional) {
        if (i + 1 < words.length) i++;
        else position.pending = option;
      }
    } else {
      const sub = position.positionals.length === 0 ? position.command.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
      if (sub) position.command = sub;
      else position.positionals.push(word);
    }
  }
  return position;
}

/** The command and its ancestors: the root's global options apply to every command. */
function lineage(command: Command): Command[] {
  return command.parent ? [command, ...lineage(command.parent)] : [command];
}

function optionNamed(command: Command, flag: string): Option | undefined {
  for (const c of lineage(command)) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

function valuesOf(option: Option, io: IO): readonly string[] {
  if (option.argChoices) return option.argChoices;
  // Any event name is accepted, so these are suggestions rather than Commander choices.
  if (option.long === '--event') return WEBHOOK_EVENTS;
  if (option.long === '--profile') return profileNames(io);
  return [];
}

/** The profiles in the config file, for --profile and `profiles use|remove`. */
export function profileNames(io: IO): string[] {
  try {
    return Object.keys(profileStore(io).read().profiles);
  } catch {
    return []; // an unreadable config file is reported when a command runs, not here
  }
}

function flagsOf(command: Command): string[] {
  const flags = lineage(command).flatMap((c) => c.options.filter((o) => !o.hidden && o.long).map((o) => o.long!));
  return [...new Set([...flags, '--help'])];
}

function subcommandsOf(command: Command): string[] {
  // visibleCommands drops hidden ones (__complete) but adds Commander's implicit `help` to each
  // group; only the commands really registered are offered.
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((c) => command.commands.includes(c))
    .map((c) => c.name());
}

/** `help [topic | command…]`: a topic or a group first, then the named command's subcommands. */
function helpNames(program: Command, names: string[]): string[] {
  const target = walk(program, names);
  if (target.positionals.length > 0) return [];
  return [...(names.length === 0 ? Object.keys(HELP_TOPICS) : []), ...subcommandsOf(target.command)];
}
