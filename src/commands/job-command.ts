// Declares a job's command (src/jobs/): the objects it names as arguments, its own flags, the
// flags every job takes (where its lines come from, the plan, the report, the pace, --resume), a
// list's filters where it can select its objects, and its help. The job's work is imported when
// the command runs.
import type { Command } from 'commander';
import type { OperationId } from '../api/operations.js';
import type { Context } from '../context.js';
import { DEFAULTS } from '../defaults.js';
import { attributeOf, flagOf, type Field } from '../fields/declare.js';
import { addFieldOptions } from '../fields/options.js';
import { addFlags, type FlagTable, type Options } from '../options.js';
import { count, learnMoreOf, parseDuration } from './define.js';
import { describeCommand, type CommandMeta } from './meta.js';

/** What every job takes: where its lines come from, its plan, its report, its pace and --resume. */
export const JOB_FLAGS = {
  each: { flags: '--each <file>', help: 'the lines: a CSV file (or - for stdin) whose first row names the columns, or a line of values each' },
  plan: { flags: '--plan <file>', help: 'write the plan as CSV: a row per line with its class, the object, the state that decided it, what will be done' },
  planOnly: { flags: '--plan-only', help: 'check every line and show the plan, then stop: nothing is changed (as --dry-run)' },
  applyPlan: { flags: '--apply-plan <file>', help: 'apply a plan made with --plan, checking each line again: a line whose state changed since is left alone' },
  report: { flags: '--report <file>', help: "write each line's outcome as CSV: line, object_id, outcome (applied, skipped, failed), class, error; no customer data" },
  concurrency: { flags: '--concurrency <n>', help: `requests in flight at once (default ${DEFAULTS.concurrency})`, parse: count(1, 64) },
  rate: { flags: '--rate <n>', help: `requests per second at most (default ${DEFAULTS.rate}, the platform limit; 0 for no limit)`, parse: count(0, 1000) },
  resume: { flags: '--resume [run]', help: 'go on with an earlier run (the last over this input, or RUN): lines it applied are left alone, the others checked again' },
} as const satisfies FlagTable;

/** How long a job whose changes wait (a fulfillment order's cancellation) waits for a line at most. */
export const WAIT_TIMEOUT = '30m';

export interface JobCommand {
  name: string;
  description: string;
  /** The objects a run can name as arguments, each a line: `<number...>`. */
  keys: { label: string; description: string };
  /** The job's own flags: how each line is changed. */
  flags: FlagTable;
  /** A list operation whose filters select the objects (`subscriptions list`'s), with its query fields. */
  filters?: readonly Field[];
  /** Its changes wait for the store (`--wait-timeout`). */
  waits?: boolean;
  /** The operation whose command this job is (`orders refund`), when it refines the table's command of it. */
  operation?: OperationId;
  /** Facts for LEARN MORE: the scopes and requests the job uses. */
  learnMore: readonly string[];
  examples: readonly string[];
  /** A command line that reaches the job's one confirmation (run without --yes by a test). */
  confirmExample: string;
  run(ctx: Context, opts: Options, keys: string[]): Promise<void>;
}

export function addJobCommand(parent: Command, ctx: Context, job: JobCommand): Command {
  const command = parent.command(job.name).description(job.description).argument(`[${job.keys.label}...]`, job.keys.description);
  command.usage(`[options] [<${job.keys.label}>...]`);
  addFlags(command, job.flags);
  addFlags(command, JOB_FLAGS);
  for (const option of command.options.slice(-Object.keys(JOB_FLAGS).length)) option.helpGroup('JOB FLAGS');
  if (job.waits) {
    addFlags(command, { waitTimeout: { flags: '--wait-timeout <duration>', help: `how long a line waits for its location's answer at most, then exit 5 (90s, 10m, 1h; default ${WAIT_TIMEOUT})`, parse: parseDuration } });
  }
  if (job.filters) {
    addFieldOptions(command, job.filters);
    const flags = new Set(job.filters.map(flagOf));
    for (const option of command.options) if (flags.has(option.long!)) option.helpGroup('FILTER FLAGS');
  }
  const meta: CommandMeta = {
    ...(job.operation ? { operation: job.operation } : {}),
    learnMore: [...(job.operation ? learnMoreOf(job.operation) : []), ...job.learnMore],
    examples: job.examples,
    confirms: { example: job.confirmExample },
    job: true,
  };
  describeCommand(command, meta);
  command.action(async (keys: string[], opts: Options) => job.run(ctx, opts, keys));
  return command;
}

/** The filters given, as typed: `--status past_due --gateway 1`; undefined when none was. */
export function selectionOf(filters: readonly Field[], opts: Options): string | undefined {
  const given = filters.flatMap((field) => {
    const value = opts[attributeOf(field)];
    if (value === undefined) return [];
    return [`${flagOf(field)} ${Array.isArray(value) ? value.join(',') : String(value)}`];
  });
  return given.length > 0 ? given.join(' ') : undefined;
}
