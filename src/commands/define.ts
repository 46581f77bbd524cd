// Declares a Commander command that runs one operation. Declaring is cheap: the work (validation,
// the request, rendering) lives in run-operation.ts and is imported when the command runs. Help
// text comes from the operation table.
import { InvalidArgumentError, type Command } from 'commander';
import { operations, type OperationId } from '../api/operations.js';
import { createContext, type Context } from '../context.js';
import type { IO } from '../io.js';
import type { GlobalOptions } from '../options.js';
import type { ViewName } from '../output/views.js';
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
  options?: (command: Command) => void;
  /** Body fields whose flag is not simply `--field-name`. */
  flags?: Readonly<Record<string, string>>;
  /** Builds the body from flags, prompting for what is missing. */
  body?: (opts: Options, ctx: Context) => Promise<unknown>;
  /** For destructive or costly work: what will happen, asked before sending (undefined: nothing to ask). */
  confirm?: (input: { params: Record<string, unknown>; body: unknown }) => string | undefined;
  /** Shown on the spinner while the request is in flight. */
  progress: string;
  /** Adjusts the result before rendering (for example, masking secrets). */
  present?: (data: unknown, opts: Options) => unknown;
  /** Work after the result is shown (for example, a download). */
  after?: (data: unknown, opts: Options, ctx: Context) => Promise<void>;
}

export function addOperationCommand(parent: Command, io: IO, spec: OperationCommand): Command {
  const op = operations[spec.operation];
  const args = spec.args ?? [];
  const command = parent.command(spec.name).description(spec.description ?? op.summary);
  // Optional to Commander so that --each can supply them; run-operation checks they are there.
  for (const [label, , description] of args) command.argument(`[${label}]`, description);
  if (args.length > 0) {
    command.usage(`[options] ${args.map(([label]) => `<${label}>`).join(' ')}`);
    command
      .option('--each <file>', 'run once per line of FILE (or - for stdin); each line gives the last arguments, separated by spaces or commas')
      .option('--concurrency <n>', 'with --each: requests in flight at once (default 4)', count(1, 64))
      .option('--rate <n>', 'with --each: requests per second at most (default 4, the platform limit; 0 for no limit)', count(0, 1000))
      .option('--failed <file>', 'with --each: write the lines that failed or did not run here, to re-run just them');
    for (const option of command.options) option.helpGroup('BULK FLAGS');
  }
  spec.options?.(command);
  describeCommand(command, { operation: spec.operation, examples: spec.examples });

  command.action(async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const opts = self.opts<Options>();
    const ctx = createContext(self.optsWithGlobals<GlobalOptions>(), io);
    try {
      const { runOperation } = await import('./run-operation.js');
      await runOperation(spec, ctx, (received.slice(0, args.length) as (string | undefined)[]).filter((a) => a !== undefined), opts);
    } finally {
      await ctx.close();
    }
  });
  return command;
}

function count(min: number, max: number) {
  return (value: string) => {
    if (!/^\d{1,4}$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`takes a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
}
