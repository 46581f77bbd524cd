// Commander's own usage errors, reworded where its words mislead: a default command the user never
// typed, a group given a wrong word, `--flag=false` for a switch, an option read after `--`.
import { Command, type Option } from 'commander';

type ErrorOptions = Parameters<Command['error']>[1];

export class StoreAdminCommand extends Command {
  override createCommand(name?: string): Command {
    return new StoreAdminCommand(name);
  }

  override error(message: string, errorOptions?: ErrorOptions): never {
    return super.error(reworded(this, message, errorOptions?.code), errorOptions);
  }
}

function reworded(command: Command, message: string, code: string | undefined): string {
  if (code === 'commander.unknownCommand') {
    const word = /'(.*)'/.exec(message)?.[1] ?? '';
    // The group's commands, and Commander's suggestion for a near miss.
    const suggestion = /\(Did you mean .*\?\)/.exec(message)?.[0];
    return `${unknownWord(command, word)}${suggestion ? `\n${suggestion}` : ''}`;
  }
  if (code === 'commander.excessArguments' && isDefaultOf(command)) {
    // `sandbox serve` runs the default `start` with "serve" as an argument: name the word typed.
    const typed = command.args[command.registeredArguments.length] ?? '';
    return unknownWord(command.parent!, typed);
  }
  if (code === 'commander.unknownOption') {
    const flag = /'(.*?)'/.exec(message)?.[1] ?? '';
    return switchWithValue(command, flag) ?? afterDoubleDash(command, flag) ?? message.replace(`'${flag}'`, `'${withoutValue(flag)}'`);
  }
  return message;
}

/** `--client-secret=…` as an unknown flag: its value may be a secret, and is never echoed (nor into a CI log). */
function withoutValue(flag: string): string {
  const at = flag.indexOf('=');
  return at < 0 ? flag : `${flag.slice(0, at)}=***`;
}

/** A group given a word that is none of its commands: list the ones it has. */
function unknownWord(group: Command, word: string): string {
  const names = group.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden).map((c) => c.name());
  return `unknown command '${word}' for '${pathOf(group)}'; its commands: ${names.join(', ')}`;
}

function isDefaultOf(command: Command): boolean {
  const parent = command.parent as (Command & { _defaultCommandName?: string | null }) | null;
  return !!parent && parent._defaultCommandName === command.name() && !rootOf(command).rawArgs.includes(command.name());
}

/** `--is-test=false`: a switch takes no value; its negation does what was meant. */
function switchWithValue(command: Command, flag: string): string | undefined {
  const match = /^(--[^=]+)=(.*)$/.exec(flag);
  if (!match) return undefined;
  const [, name, value] = match as unknown as [string, string, string];
  const options = allOptions(command);
  const positive = options.find((o) => o.long === name && !o.negate);
  const negative = options.find((o) => o.long === `--no-${name.slice(2)}`);
  if (!positive && !negative) return undefined;
  const falsy = /^(false|0|no|off)$/i.test(value);
  if (falsy && !negative) return `${name} takes no value (got '${flag}'); leave it out to turn it off`;
  const wanted = falsy && negative ? negative.long : positive?.long ?? negative?.long;
  return `${name} takes no value (got '${flag}'); write ${wanted}${positive && negative ? ` (or ${falsy ? positive.long : negative.long} for the opposite)` : ''}`;
}

/** `--message -- --yes`: `--` became the option's value, and ends the options, so --yes is a stray word. */
function afterDoubleDash(command: Command, flag: string): string | undefined {
  const raw = rootOf(command).rawArgs;
  const dashes = raw.indexOf('--');
  if (dashes < 0 || raw.indexOf(flag) < dashes || !allOptions(command).some((o) => o.long === flag || o.short === flag)) return undefined;
  const before = raw[dashes - 1];
  const taker = allOptions(command).find((o) => (o.long === before || o.short === before) && (o.required || o.optional));
  return taker
    ? `${taker.long} took '--' as its value, and ${flag} after it was read as a stray word; to give a value that starts with a dash, write ${taker.long}=${flag}`
    : `${flag} comes after '--', which ends the options; put it before '--'`;
}

function allOptions(command: Command): readonly Option[] {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
  return options;
}

function rootOf(command: Command): Command & { rawArgs: string[] } {
  let c = command;
  while (c.parent) c = c.parent;
  return c as Command & { rawArgs: string[] };
}

function pathOf(command: Command): string {
  return command.parent ? `${pathOf(command.parent)} ${command.name()}` : command.name();
}
