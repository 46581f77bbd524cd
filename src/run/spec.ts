// What a command that runs one operation declares: its arguments, query and body fields and the
// hooks of its run. src/commands/ writes these (most are made from the table's facts); the run
// layer (src/run/) reads them, single runs and --each alike, and never needs the command that
// declared them. A spec is keyed by its operation: its arguments name the operation's path
// parameters, so a typo is a compile error; its fields are held to the operation's by a test.
import type { GeneratedTable } from '../api/generated/index.js';
import { operation, type OperationId } from '../api/operations.js';
import type { OperationParams } from '../api/types.js';
import type { Context } from '../context.js';
import type { FlagsOf, FlagTable } from '../options.js';
import type { ViewName } from '../output/views.js';
import type { Field } from '../fields/declare.js';

/** A run's input: path parameters, query and body, as the client takes them. */
export interface Input {
  params: Record<string, unknown>;
  /** Query parameters, for an operation that takes them (undefined sends none). */
  query?: Record<string, unknown>;
  body: unknown;
}

/**
 * Whether Id is every operation at once: the run layer reads any spec by that wide type, in which
 * names are plain strings and the input is an Input.
 */
type Wide<Id extends OperationId> = OperationId extends Id ? true : false;

/** The path parameters an operation's arguments can fill. */
export type ParamName<Id extends OperationId> = Wide<Id> extends true ? string : keyof GeneratedTable[Id]['params'] & string;

/** The body keys an operation's fields can fill. */
export type BodyKey<_Id extends OperationId> = string;

/** A body field of an operation's command, declared apart from the spec (a list shared by two). */
export type BodyField<Id extends OperationId> = Field<BodyKey<Id>>;

/** The input a spec's hooks see: checked against the operation's schemas, so typed as it takes it. */
export type CheckedInput<Id extends OperationId> =
  Wide<Id> extends true ? Input : { params: OperationParams<Id>; query?: Readonly<Record<string, unknown>>; body: Readonly<Record<string, unknown>> };

/** A change worth a second look, asked only at a terminal: pipes and --yes go ahead. */
export interface Review {
  review: string;
}

// The hooks that take the input are methods: a spec for one operation is then also a spec as the
// run layer reads them all (method parameters are compared both ways).
export interface OperationCommand<Id extends OperationId = OperationId, Flags extends FlagTable = FlagTable> {
  name: string;
  operation: Id;
  /** Positional arguments in order: label as shown in help, the path parameter it fills, help. */
  args?: readonly (readonly [label: string, param: ParamName<Id>, description: string])[];
  /** Defaults to the operation's summary. */
  description?: string;
  /** How a person reads the result as a table; without one, the records' own fields are shown. */
  view?: ViewName;
  /** Two or more, shown under --help. */
  examples: readonly string[];
  /** Flags that are not body fields (--show-secret, --download): the hooks below read their values typed. */
  flags?: Flags;
  /** The body's fields, each declared once: options, prompts, error labels and help come from these. */
  fields?: readonly BodyField<Id>[];
  /** The query parameters, declared as fields (filters of a list, mostly). */
  query?: readonly Field[];
  /** The body may also be given whole as JSON with --data (fields override it). */
  data?: boolean;
  /** When the body may not be empty: what to pass instead. */
  requireSome?: string;
  /** Builds the body when it is not just its fields (defaults to the fields' body). */
  body?(opts: FlagsOf<Flags>, ctx: Context): Promise<unknown>;
  /**
   * What to ask before sending, if anything (undefined: nothing). A text is a change that cannot
   * be undone: asked at a terminal, refused without one unless --yes, asked once for a whole
   * --each run; required when the operation is `irreversible` in the table. A Review is asked
   * only at a terminal, of a single run.
   */
  confirm?(input: CheckedInput<Id>): string | Review | undefined;
  /** When `confirm` asks only for some input: when, in words, and a command line that asks. */
  confirmsWhen?: { when: string; example: string };
  /** Shown on the spinner while the request is in flight. */
  progress: string;
  /** Adjusts the result before rendering (for example, masking secrets). */
  present?(data: unknown, opts: FlagsOf<Flags>): unknown;
  /** Local checks before anything is sent (that a download's file can be written). */
  check?(opts: FlagsOf<Flags>, input: CheckedInput<Id>): Promise<void>;
  /** Work after the checks, just before the request (waiting until an export can be downloaded); skipped by --dry-run. */
  before?(opts: FlagsOf<Flags>, ctx: Context, input: CheckedInput<Id>): Promise<void>;
  /**
   * Work between the answer and the output (waiting for an export, downloading it): returns what
   * to show, or nothing when the output went elsewhere (a file streamed to stdout).
   */
  settle?(data: unknown, opts: FlagsOf<Flags>, ctx: Context, input: CheckedInput<Id>): Promise<{ data: unknown } | undefined>;
  /** A line for a person after the result (stderr, none with --quiet): what the change did that the answer does not say, or the next step. */
  note?(data: unknown, opts: FlagsOf<Flags>): string | undefined;
}

/** The command as a person types it: `subscriptions cancel`, `orders lines delete`. */
export function commandName(spec: OperationCommand): string {
  return operation(spec.operation).command;
}
