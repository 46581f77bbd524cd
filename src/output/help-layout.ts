// Help laid out as gh's: USAGE, ARGUMENTS, COMMANDS, FLAGS, INHERITED FLAGS (one line pointing to
// `help flags`), EXAMPLES, LEARN MORE, wrapped to the terminal's width. Developer detail (spec
// sections) stays in docs/commands.md.
import type { Command, Help, Option } from 'commander';

/** What the help shows of a command beyond Commander's model; the commands record it (commands/meta.ts). */
export interface HelpFacts {
  examples: readonly string[];
  learnMore?: readonly string[];
  /** The command asks before a change that cannot be undone (`when` it does, if not always). */
  confirms?: { when?: string };
  /** Global flags listed with the command's own under FLAGS. */
  globals?: readonly string[];
}

/** Help is wrapped to the terminal; 80 columns when it goes to a file or a pipe. */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns && stream.columns >= 40 ? stream.columns : 80;
}

/** The global flags worth naming under every command, by their shortest spelling. */
const COMMON_FLAGS = ['--json', '--output', '--query', '--yes', '--dry-run', '--sandbox'];

/** Commander's formatHelp, given where each command's facts are found. */
export function helpLayout(factsOf: (cmd: Command) => HelpFacts | undefined): (cmd: Command, helper: Help) => string {
  return (cmd, helper) => formatHelp(cmd, helper, factsOf(cmd));
}

function formatHelp(cmd: Command, helper: Help, meta: HelpFacts | undefined): string {
  const width = helper.helpWidth ?? 80;
  const root = rootOf(cmd);
  const isRoot = cmd === root;
  const subcommands = helper.visibleCommands(cmd).filter((c) => isRoot || c.name() !== 'help');
  const sections: string[] = [];
  const description = helper.commandDescription(cmd);
  if (description) sections.push(helper.boxWrap(description, width));

  const usage = helper.commandUsage(cmd).replace(/ ?\[options\]/, '').replace(/ ?\[command\]/, ' <command>');
  section(sections, 'USAGE', [wrapIndented(`${usage.trimEnd()} [flags]`, width, 4, helper)]);
  const args = helper.visibleArguments(cmd);
  section(sections, 'ARGUMENTS', items(args.map((a) => [helper.argumentTerm(a), helper.argumentDescription(a)]), width, helper));
  // Names only, as gh lists them: each command's own help shows its arguments.
  section(sections, 'COMMANDS', items(subcommands.map((c) => [c.name(), helper.subcommandDescription(c)]), width, helper));
  // The command's own flags first, then groups such as the bulk flags of --each.
  const options = helper.visibleOptions(cmd);
  // The global flags a command is used with join its own, where they are looked for.
  const globals = (meta?.globals ?? []).map((flag) => root.options.find((o) => o.long === flag)).filter((o): o is Option => !!o);
  const own = options.filter((o) => !o.helpGroupHeading);
  const help = own.filter((o) => o.long === '--help');
  section(sections, 'FLAGS', optionItems([...own.filter((o) => !help.includes(o)), ...globals, ...help], width, helper));
  for (const group of new Set(options.map((o) => o.helpGroupHeading).filter((g): g is string => !!g))) {
    section(sections, group, optionItems(options.filter((o) => o.helpGroupHeading === group), width, helper));
  }
  // A group that runs one of its commands when none is named (`sandbox` runs `sandbox start`)
  // takes that command's flags too: they are shown here, where they are looked for.
  const fallback = subcommands.find((c) => c.name() === (cmd as Command & { _defaultCommandName?: string })._defaultCommandName);
  if (fallback) {
    const flags = helper.visibleOptions(fallback).filter((o) => o.long !== '--help');
    section(sections, `${fallback.name().toUpperCase()} FLAGS (${cmd.name()} with no command runs ${fallback.name()})`, optionItems(flags, width, helper));
  }
  if (!isRoot) section(sections, 'INHERITED FLAGS', [inheritedLine(helper.visibleGlobalOptions(cmd), root.name(), width, helper)]);
  if (meta && meta.examples.length > 0) section(sections, 'EXAMPLES', meta.examples.map((e) => exampleLines(e, width)));

  const learn: string[] = [...(meta?.learnMore ?? [])];
  if (meta?.confirms) {
    learn.unshift(`Cannot be undone${meta.confirms.when ? ` ${meta.confirms.when}` : ''}: asks first at a terminal; elsewhere needs --yes (exit 2 without it).`);
  }
  if (subcommands.length > 0) learn.push(`Use \`${root.name()} <command> --help\` for more about a command.`);
  learn.push(`Run \`${root.name()} help flags|environment|exit-codes|formatting\` for more.`);
  section(sections, 'LEARN MORE', learn.map((line) => wrapIndented(line, width, 2, helper)));
  return `${sections.join('\n\n')}\n`;
}

/** `store-admin help flags`: every global flag, wrapped like the rest of the help. */
export function formatGlobalFlags(program: Command, helper: Help): string {
  const options = helper.visibleOptions(program).filter((o) => o.long !== '--help');
  return [
    'Flags every command takes',
    '',
    ...optionItems(options, helper.helpWidth ?? 80, helper),
    '',
    'Put them anywhere on the line: store-admin --json orders add-note … and store-admin orders add-note … --json agree.',
    '',
  ]
    .map((line) => (line.startsWith('  ') ? line : helper.boxWrap(line, helper.helpWidth ?? 80)))
    .join('\n');
}

function section(sections: string[], title: string, lines: string[]): void {
  if (lines.length > 0) sections.push([title, ...lines].join('\n'));
}

function optionItems(options: readonly Option[], width: number, helper: Help): string[] {
  return items(options.map((o) => [helper.optionTerm(o), helper.optionDescription(o)]), width, helper);
}

/** Terms padded to the section's longest, descriptions wrapped beside them. */
function items(rows: [term: string, description: string][], width: number, helper: Help): string[] {
  if (rows.length === 0) return [];
  // A very long term (a usage with many arguments) would leave no room: it does not set the column.
  const termWidth = Math.min(Math.max(...rows.map(([term]) => helper.displayWidth(term))), Math.floor(width / 3));
  return rows.map(([term, description]) => {
    if (helper.displayWidth(term) > termWidth) {
      const below = helper.boxWrap(description, width - termWidth - 4).replace(/\n/g, `\n${' '.repeat(termWidth + 4)}`);
      return description ? `  ${term}\n${' '.repeat(termWidth + 4)}${below}` : `  ${term}`;
    }
    return helper.formatItem(term, termWidth, description, helper);
  });
}

function inheritedLine(globals: readonly Option[], program: string, width: number, helper: Help): string {
  const named = COMMON_FLAGS.map((flag) => globals.find((o) => o.long === flag)).filter((o): o is Option => !!o);
  const shown = named.map((o) => o.short ?? o.long);
  return wrapIndented(`${shown.join(' ')} …  (all: \`${program} help flags\`)`, width, 2, helper);
}

/**
 * An example as typed at a prompt: `  $ ` and the command, split between shell words when it is too
 * long, each line but the last ending in ` \` so that it still pastes as one command. A quoted
 * word is never split (a line break inside quotes would change the value).
 */
export function exampleLines(example: string, width: number): string {
  if (4 + example.length <= width) return `  $ ${example}`;
  const room = width - CONTINUED.length - 2;
  const words = example.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [example];
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.map((text, i) => `${i === 0 ? '  $ ' : CONTINUED}${text}${i < lines.length - 1 ? ' \\' : ''}`).join('\n');
}

/** Where an example's continuation lines start. */
const CONTINUED = '      ';

/** Two spaces in, continuation lines further in. */
function wrapIndented(text: string, width: number, hanging: number, helper: Help): string {
  return `  ${helper.boxWrap(text, width - 2 - hanging).replace(/\n/g, `\n  ${' '.repeat(hanging)}`)}`;
}

function rootOf(command: Command): Command {
  let c = command;
  while (c.parent) c = c.parent;
  return c;
}

/**
 * A help topic rewrapped to the width: paragraphs flow again, and a `term  description` item keeps
 * its continuation lines under the description.
 */
export function wrapTopic(text: string, width: number): string {
  const blocks: { first: string; indent: number; words: string; verbatim?: boolean }[] = [];
  let last: (typeof blocks)[number] | undefined;
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const leading = /^ */.exec(line)![0].length;
    const item = /^(\s+\S.*?\s{2,})(\S.*)$/.exec(line);
    if (line.trim() === '') {
      last = undefined;
      blocks.push({ first: '', indent: 0, words: '' });
    } else if (leading === 0 && last && last.indent === 0) {
      last.words += ` ${line}`;
    } else if (last && last.indent > 0 && leading === last.indent) {
      last.words += ` ${line.trim()}`;
    } else if (item && leading > 0) {
      last = { first: item[1]!, indent: item[1]!.length, words: item[2]! };
      blocks.push(last);
    } else {
      // An indented line of its own is an example: kept as typed, and not joined to the next.
      last = { first: ' '.repeat(leading), indent: leading, words: line.trim(), verbatim: leading > 0 };
      blocks.push(last);
      if (leading > 0) last = undefined;
    }
  }
  return `${blocks.map((b) => (b.verbatim ? `${b.first}${b.words}` : b.words ? wrapWords(b.first, b.indent, b.words, width) : '')).join('\n')}\n`;
}

function wrapWords(first: string, indent: number, words: string, width: number): string {
  const room = Math.max(width - indent, 20);
  const lines: string[] = [];
  let current = '';
  for (const word of words.split(/\s+/)) {
    if (current && current.length + 1 + word.length > room) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  lines.push(current);
  return lines.map((line, i) => `${i === 0 ? first : ' '.repeat(indent)}${line}`).join('\n');
}
