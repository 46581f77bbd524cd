// What a command that runs one operation declares: its arguments, body fields and the hooks of
// its run. src/commands/ writes these; the run layer (src/run/) reads them, single runs and
// --each alike, and never needs the command that declared them.
import type { Command } from 'commander';
import type { OperationId } from '../api/operations.js';
import type { Context } from '../context.js';
import type { Options } from '../options.js';
import type { ViewName } from '../output/views.js';
import type { Field } from '../fields/declare.js';

/** A run's input: path parameters and body, as the client takes them. */
export interface Input {
  params: Record<string, unknown>;
  body: unknown;
}

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
  confirm?: (input: Input) => string | undefined;
  /** When `confirm` asks only for some input: when, in words, and a command line that asks. */
  confirmsWhen?: { when: string; example: string };
  /** A change worth a second look when a person is at a terminal; pipes and --yes go ahead. */
  review?: (input: Input) => string | undefined;
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

/** The command as a person types it: `subscriptions cancel`, `fulfillment-orders hold`. */
export function commandName(spec: OperationCommand): string {
  const [group = ''] = spec.operation.split('.');
  return `${group.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${spec.name}`;
}
