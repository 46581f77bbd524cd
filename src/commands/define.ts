// Declares a Commander command that runs one operation. Declaring is cheap: the work (validation,
// the request, rendering) lives in run-operation.ts and is imported when the command runs. Help
// text comes from the operation table.
import { InvalidArgumentError, type Command } from 'commander';
import { describeVersions, operations, type OperationId, type OperationSchemas } from '../api/operations.js';
import { API_PREFIX } from '../api/url.js';
import type { Context } from '../context.js';
import type { ViewName } from '../output/views.js';
import { DEFAULTS } from '../defaults.js';
import { dataOption, requireSomething } from './body.js';
import { addFieldOptions, describeConstraints, fieldBody, type Field } from './fields.js';
import { describeCommand } from './meta.js';

export type Options = Record<string, any>;

export interface OperationCommand {
  name: string;
  operation: OperationId;
  /** Positional arguments in order: label as shown in help, the path parameter it fills, help. */
  args?: readonly (readonly [label: string, param: string, description: string])[];
  /** Defaults to the operation's summary. */
  description?: string;
  view: ViewName;
  /** Two or more, shown under --help. */
  examples: readonly string[];
  /** Options that are not body fields (--show-secret, --download). */
  options?: (command: Command) => void;
  /** The body's fields, each declared once: options, prompts, error labels and help come from these. */
  fields?: readonly Field[];
  /** The body may also be given whole as JSON with --data (fields override it). */
  data?: boolean;
  /** When the body may not be empty: what to pass instead. */
  requireSome?: string;
  /** Builds the body when it is not just its fields (defaults to the fields' body). */
  body?: (opts: Options, ctx: Context) => Promise<unknown>;
  /**
   * For a change that cannot be undone: what will happen, asked before sending (undefined: nothing
   * to ask). Required when the operation is `irreversible` in the table.
   */
  confirm?: (input: { params: Record<string, unknown>; body: unknown }) => string | undefined;
  /** When `confirm` asks only for some input: when, in words, and a command line that asks. */
  confirmsWhen?: { when: string; example: string };
  /** A change worth a second look when a person is at a terminal; pipes and --yes go ahead. */
  review?: (input: { params: Record<string, unknown>; body: unknown }) => string | undefined;
  /** Shown on the spinner while the request is in flight. */
  progress: string;
  /** Adjusts the result before rendering (for example, masking secrets). */
  present?: (data: unknown, opts: Options) => unknown;
  /** Local checks before anything is sent (that a download's file can be written). */
  check?: (opts: Options, input: { params: Record<string, unknown> }) => Promise<void>;
  /** Work after the checks, just before the request (waiting until an export can be downloaded); skipped by --dry-run. */
  before?: (opts: Options, ctx: Context, input: { params: Record<string, unknown> }) => Promise<void>;
  /**
   * Work between the answer and the output (waiting for an export, downloading it): returns what
   * to show, or nothing when the output went elsewhere (a file streamed to stdout).
   */
  settle?: (data: unknown, opts: Options, ctx: Context, input: { params: Record<string, unknown> }) => Promise<{ data: unknown } | undefined>;
}

export function addOperationCommand(parent: Command, ctx: Context, spec: OperationCommand): Command {
  const op = operations[spec.operation];
  const args = spec.args ?? [];
  const run: OperationCommand = spec.fields && !spec.body ? { ...spec, body: (opts, ctx) => bodyOfFields(spec, opts, ctx) } : spec;
  // The table says which changes cannot be undone; their commands must ask (help exit-codes).
  if ('irreversible' in op && !spec.confirm) throw new Error(`${spec.operation} cannot be undone: its command needs a confirm message`);
  const command = parent.command(spec.name).description(spec.description ?? op.summary);
  // Optional to Commander so that --each can supply them; run-operation checks they are there.
  for (const [label, , description] of args) command.argument(`[${label}]`, description);
  if (args.length > 0) {
    command.usage(`[options] ${args.map(([label]) => `<${label}>`).join(' ')}`);
    command
      .option('--each <file>', 'run once per line of FILE (or - for stdin); each line gives the last arguments, separated by spaces or commas')
      .option('--concurrency <n>', `with --each: requests in flight at once (default ${DEFAULTS.concurrency})`, count(1, 64))
      .option('--rate <n>', `with --each: requests per second at most (default ${DEFAULTS.rate}, the platform limit; 0 for no limit)`, count(0, 1000))
      .option('--failed <file>', 'with --each: write the lines that failed or did not run here, to re-run just them')
      .option('--resume [run]', 'with --each: send only the lines an earlier run (the last one over this input, or RUN) did not apply')
      .option('--retry-unknown', 'with --resume: also send the lines whose answers were lost (they may have been applied)');
    for (const option of command.options) option.helpGroup('BULK FLAGS');
  }
  if (spec.fields) {
    addFieldOptions(command, spec.fields);
    if (spec.data) dataOption(command);
    // The schema's limits join the help only when this command is about to run or show help:
    // loading schemas at start-up would cost every other command.
    parent.hook('preSubcommand', async (_group, sub) => {
      if (sub === command) await explainFields(command, spec);
    });
  }
  spec.options?.(command);
  describeCommand(command, {
    operation: spec.operation,
    learnMore: learnMoreOf(spec.operation),
    examples: spec.examples,
    ...(spec.confirm ? { confirms: spec.confirmsWhen ?? { example: spec.examples[0]! } } : {}),
    fields: spec.fields,
    prepare: () => explainFields(command, spec),
  });

  command.action(async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const opts = self.opts<Options>();
    const { runOperation } = await import('./run-operation.js');
    await runOperation(run, ctx, (received.slice(0, args.length) as (string | undefined)[]).filter((a) => a !== undefined), opts);
  });
  return command;
}

/** What --help's LEARN MORE says of an operation: its scope, version and request. */
export function learnMoreOf(id: OperationId): string[] {
  const op = operations[id];
  return [
    `Scope: ${op.scopes.length > 0 ? op.scopes.join(' and ') : 'none (any valid token)'}`,
    `API version: ${describeVersions(op)}`,
    `Request: ${op.method} ${API_PREFIX}${op.path}`,
  ];
}

async function bodyOfFields(spec: OperationCommand, opts: Options, ctx: Context): Promise<Record<string, unknown>> {
  const { body }: OperationSchemas = await operations[spec.operation].schemas();
  const result = await fieldBody(spec.fields!, opts, ctx, body);
  return spec.requireSome ? requireSomething(result, spec.requireSome, opts.data !== undefined) : result;
}

async function explainFields(command: Command, spec: OperationCommand): Promise<void> {
  if (!spec.fields) return;
  const { body }: OperationSchemas = await operations[spec.operation].schemas();
  describeConstraints(command, spec.fields, body);
}

function count(min: number, max: number) {
  return (value: string) => {
    if (!/^\d{1,4}$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`takes a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}
