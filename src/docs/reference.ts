// Renders docs/commands.md from the command tree alone: the same Commander model, metadata and
// operation table that --help reads, so the reference cannot drift from the CLI.
import type { Argument, Command, Option } from 'commander';
import { API_PREFIX } from '../api/url.js';
import { describeVersions, operation, sourceOf } from '../api/operations.js';
import { HELP_TOPICS, helpTopic } from '../commands/help.js';
import { commandPath, leafCommands, metaOf, visibleCommands } from '../commands/meta.js';

export function commandReference(program: Command): string {
  const leaves = leafCommands(program);
  const lines = [
    `# ${program.name()} command reference`,
    '',
    `\`${program.name()}\`: ${program.description()}. This file is generated from the command tree by \`npm run docs\` ` +
      'and must not be edited by hand: change the commands, then regenerate it. Every command also accepts the ' +
      `[global options](#global-options), and \`${program.name()} <command> --help\` shows the same information.`,
    '',
    '## Contents',
    '',
    '- [Global options](#global-options)',
    '- [Commands](#commands)',
    ...contents(program, 1),
    '- [Help topics](#help-topics)',
    ...Object.keys(HELP_TOPICS).map((topic) => `  - [${topic}](#${anchor(topic)})`),
    '',
    '## Global options',
    '',
    ...table(['Option', 'Description', 'Allowed values', 'Default'], program.options.filter((o) => !o.hidden).map(optionRow)),
    '## Commands',
    '',
    ...leaves.flatMap(commandSection),
    '## Help topics',
    '',
    `Shown by \`${program.name()} help <topic>\`.`,
    '',
    ...Object.keys(HELP_TOPICS).flatMap((topic) => [`### ${topic}`, '', '```text', helpTopic(topic, program).trimEnd(), '```', '']),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

function contents(command: Command, depth: number): string[] {
  const indent = '  '.repeat(depth);
  return visibleCommands(command).flatMap((child) =>
    visibleCommands(child).length === 0
      ? [`${indent}- [${child.name()}](#${anchor(commandPath(child))}) — ${child.description()}`]
      : [`${indent}- ${child.name()} — ${child.description()}`, ...contents(child, depth + 1)],
  );
}

function commandSection(command: Command): string[] {
  const meta = metaOf(command);
  const op = meta?.operation ? operation(meta.operation) : undefined;
  const lines = [`### ${commandPath(command)}`, '', command.description() || '(no description)', ''];
  lines.push('```text', `${commandPath(command)} ${command.usage()}`.trimEnd(), '```', '');
  lines.push(
    ...table(['Argument', 'Required', 'Description', 'Allowed values'], command.registeredArguments.map((a) => argumentRow(command, a))),
  );
  // `command.options` never holds the implicit --help option, so nothing needs skipping here.
  lines.push(...table(['Option', 'Description', 'Allowed values', 'Default'], command.options.filter((o) => !o.hidden).map(optionRow)));
  if (op) {
    const scopes = op.scopes.length > 0 ? op.scopes.map(code).join(' and ') : 'none (any valid token)';
    lines.push(
      `- Operation: ${code(`${op.method} ${API_PREFIX}${op.path}`)} (${sourceOf(op)})`,
      `- ${op.scopes.length > 1 ? 'Scopes' : 'Scope'}: ${scopes}`,
      `- API version: ${describeVersions(op, code)}`,
      '',
    );
  }
  if (meta && meta.examples.length > 0) lines.push('Examples:', '', '```sh', ...meta.examples, '```', '');
  return lines;
}

function argumentRow(command: Command, argument: Argument): string[] {
  // Operation commands declare their arguments optional so that --each can supply them, and show
  // them as <required> in their usage, which is what a reader has to type.
  const required = argument.required || command.usage().includes(`<${argument.name()}`);
  return [code(argument.name() + (argument.variadic ? '...' : '')), required ? 'yes' : 'no', argument.description, choices(argument)];
}

function optionRow(option: Option): string[] {
  return [code(option.flags), option.description, choices(option), defaultOf(option)];
}

function choices(item: Argument | Option): string {
  return item.argChoices?.map(code).join(', ') ?? '';
}

function defaultOf(option: Option): string {
  if (option.defaultValueDescription) return option.defaultValueDescription;
  // Repeatable options start from an empty {} or []: nothing worth showing as a default.
  const value: unknown = option.defaultValue;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? code(String(value)) : '';
}

/** A Markdown table; optional columns (after the first two) appear only when some row fills them. */
function table(headers: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const kept = headers.map((_, i) => i).filter((i) => i < 2 || rows.some((row) => row[i]));
  const line = (cells: string[]) => `| ${kept.map((i) => cell(cells[i] ?? '')).join(' | ')} |`;
  return [line(headers), `|${kept.map(() => '---|').join('')}`, ...rows.map(line), ''];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function code(text: string): string {
  return `\`${text}\``;
}

/** GitHub's heading anchor: lower case, punctuation other than hyphens dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}
