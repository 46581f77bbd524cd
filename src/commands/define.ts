// Declares a Commander command that runs one operation. Declaring is cheap: the work (input,
// validation, the request, rendering, --each) lives in the run layer (src/run/) and is imported
// when the command runs. Help text comes from the operation table.
import { InvalidArgumentError, type Command, type Option } from 'commander';
import { describeVersions, operation, type OperationId } from '../api/operations.js';
import { API_PREFIX } from '../api/url.js';
import type { Context } from '../context.js';
import { addFlags, type FlagTable, type Options } from '../options.js';
import { EACH_FLAG, WITH_EACH_FLAGS, type BulkFlag } from '../run/bulk/flags.js';
import type { OperationCommand } from '../run/spec.js';
import { describeConstraints } from '../fields/constraints.js';
import { flagOf, negatedFlagOf, type Field } from '../fields/declare.js';
import { LIST_FLAGS } from '../run/list-flags.js';
import { addFieldOptions } from '../fields/options.js';
import { describeCommand } from './meta.js';
import { durationMs } from '../polling.js';

/** How a command is registered: under its own name, or hidden under an earlier one it still answers to. */
export interface Registration {
  /** The command's current words, when this is an earlier name kept working (`orders remove-line`). */
  aliasOf?: string;
}

export function addOperationCommand<Id extends OperationId, Flags extends FlagTable = Record<never, never>>(
  parent: Command,
  ctx: Context,
  typed: OperationCommand<Id, Flags>,
  registration: Registration = {},
): Command {
  // Checked against its own operation where it is written; the run reads every spec alike.
  const spec = typed as unknown as OperationCommand;
  const op = operation(spec.operation);
  const args = spec.args ?? [];
  // The table says which changes cannot be undone; their commands must ask (help exit-codes).
  if (op.irreversible && !spec.confirm) throw new Error(`${spec.operation} cannot be undone: its command needs a confirm message`);
  const command = parent.command(spec.name, { hidden: registration.aliasOf !== undefined }).description(spec.description ?? op.summary);
  // Optional to Commander so that --each can supply them; the run checks they are there.
  for (const [label, , description] of args) command.argument(`[${label}]`, description);
  if (args.length > 0) {
    command.usage(`[options] ${args.map(([label]) => `<${label}>`).join(' ')}`);
    for (const flag of [EACH_FLAG, ...WITH_EACH_FLAGS]) addBulkFlag(command, flag);
  }
  if (op.answer === 'page') addFlags(command, LIST_FLAGS);
  if (spec.query) {
    addFieldOptions(command, spec.query);
    // A list's filters are many: they follow its own flags under a heading of their own.
    if (op.answer === 'page') for (const field of spec.query) for (const option of optionsOf(command, field)) option.helpGroup('FILTER FLAGS');
  }
  if (spec.fields) {
    addFieldOptions(command, spec.fields);
    if (spec.data) command.option('--data <json>', 'body fields as JSON, @file or - (stdin); flags override them');
  }
  if (spec.fields || spec.query) {
    // The schema's limits join the help only when this command is about to run or show help:
    // loading schemas at start-up would cost every other command.
    parent.hook('preSubcommand', async (_group, sub) => {
      if (sub === command) await explainFields(command, spec);
    });
  }
  if (spec.flags) addFlags(command, spec.flags);
  const earlier = op.aliases.filter((alias) => alias !== registration.aliasOf);
  describeCommand(command, {
    operation: spec.operation,
    learnMore: [
      ...learnMoreOf(spec.operation),
      ...(registration.aliasOf ? [`An earlier name of: store-admin ${registration.aliasOf}`] : []),
      ...(!registration.aliasOf && earlier.length > 0 ? [`Its earlier name still works: store-admin ${earlier.join(', store-admin ')}`] : []),
    ],
    examples: spec.examples,
    // Asked always where the change cannot be undone, or where confirmsWhen says when; a review alone is no confirmation.
    ...(op.irreversible || spec.confirmsWhen ? { confirms: spec.confirmsWhen ?? { example: spec.examples[0]! } } : {}),
    fields: spec.fields,
    prepare: () => explainFields(command, spec),
  });

  command.action(async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const opts = self.opts<Options>();
    const { runOperation } = await import('../run/operation.js');
    await runOperation(spec, ctx, (received.slice(0, args.length) as (string | undefined)[]).filter((a) => a !== undefined), opts);
  });
  return command;
}

/** What --help's LEARN MORE says of an operation: its scope, version and request. */
export function learnMoreOf(id: OperationId): string[] {
  const op = operation(id);
  return [
    `Scope: ${op.scopes.length > 0 ? op.scopes.join(op.allScopes ? ' and ' : ' or ') : 'none (any valid token)'}`,
    `API version: ${describeVersions(op)}`,
    `Request: ${op.method} ${API_PREFIX}${op.path}`,
  ];
}

async function explainFields(command: Command, spec: OperationCommand): Promise<void> {
  if (!spec.fields && !spec.query) return;
  const { body, query } = await operation(spec.operation).schemas();
  describeConstraints(command, [
    [spec.fields ?? [], body],
    [spec.query ?? [], query],
  ]);
}

/** The options a field declared: its flag, and a switch's opposite. */
function optionsOf(command: Command, field: Field): Option[] {
  const flags = [flagOf(field), ...(field.kind === 'switch' && field.negatedHelp ? [negatedFlagOf(field)] : [])];
  return command.options.filter((option) => flags.includes(option.long!));
}

function addBulkFlag(command: Command, flag: BulkFlag): void {
  if (flag.range) command.option(flag.flags, flag.help, count(...flag.range));
  else command.option(flag.flags, flag.help);
  command.options.at(-1)!.helpGroup('BULK FLAGS');
}

/** A count flag's parser: whole numbers from `min` to `max`. */
export function count(min: number, max: number) {
  return (value: string) => {
    if (!/^\d{1,4}$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`takes a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/** A `--wait-timeout` value: 90s, 10m, 1h, or a bare number of seconds. */
export function parseDuration(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined) throw new InvalidArgumentError('takes a duration such as 90s, 10m or 1h');
  return ms;
}
