// A job: work over many lines (a CSV file, the objects a list selects, the ids given) in which
// each line's current state decides what is done, as the platform's bulk guides ask. A job reads
// what a line needs and classifies it (its plan), and applies the lines whose class says so; the
// runner (run.ts) does the rest for every job alike: the plan's summary and file, one
// confirmation, the pace, the journal, resuming, waiting, the report.
import type { OperationId } from '../api/operations.js';
import type { OperationInput } from '../api/types.js';
import type { Clock } from '../clock.js';

/** What a line's check found, and so what the job does with it. */
export const CLASSES = {
  READY: 'applied as planned',
  NEEDS_CANCEL: "applied once its location accepts the cancellation the job requests (a fulfillment order it has accepted)",
  ALREADY_DONE: 'left alone: nothing is left to do',
  MULTIPLE: 'left for a person: the line names several objects the job could act on',
  NOT_FOUND: 'left alone: the store has no such object',
  NOT_ALLOWED: "left alone: the object's state (or the store) forbids the change",
  INVALID: 'left alone: the line itself is wrong (a carrier the platform does not know, a bad date)',
  UNCHECKED: "left alone: its state could not be read (the store's answer says why); --resume checks it again",
  CHANGED: "left alone by --apply-plan: the object's state changed since the plan was made",
} as const;

export type LineClass = keyof typeof CLASSES;

/** The classes whose lines are changed; every other line is left alone. */
export const APPLIED_CLASSES: ReadonlySet<LineClass> = new Set(['READY', 'NEEDS_CANCEL']);

/** A line of the job's input, by column: `{order_number: '10001', tracking_code: '1Z…', carrier: 'ups'}`. */
export type Cells = Readonly<Record<string, string>>;

/** What a line's check found. */
export interface Verdict<Target = unknown> {
  class: LineClass;
  /** In a few words: what will be done (`fulfil fulfillment order 401 with ups 1Z999`), or why not. */
  reason: string;
  /** The object acted on, when it is not the line's own (a fulfillment order of the order named). */
  object?: string;
  /**
   * The state the decision rests on, in words (`fulfillment order 401 open/pending, 3 units`): the
   * plan keeps it, and --apply-plan refuses a line whose state reads otherwise.
   */
  state?: string;
  /** A sum the plan's summary adds up (a refund's total), with its currency. */
  amount?: { value: string; currency: string };
  /** Lines for a person, shown when a run has few lines (a refund's amount per line). */
  details?: readonly string[];
  /** What `apply` needs, for a line to change. */
  target?: Target;
}

/** What the earlier process of a resumed run knew of a line whose change was sent without an answer kept. */
export interface Earlier {
  /** The object the change was sent to. */
  object?: string;
  /** The state the plan saw then. */
  state?: string;
}

/** What a job's check and change work with. */
export interface JobIO {
  /** A read, at the run's pace (the platform's rate, 429s waited out); Ctrl-C abandons it. */
  read<Id extends OperationId>(id: Id, input: OperationInput<Id>): Promise<unknown>;
  /**
   * A change, at the run's pace: the journal records its step and object just before it leaves;
   * Ctrl-C keeps it from starting, and only a second one abandons it in flight.
   */
  change<Id extends OperationId>(id: Id, input: OperationInput<Id>, step: { step: string; object: string }): Promise<unknown>;
  /** What every line of the run reads alike (the gateway a cohort moves to), read once per run. */
  remember<T>(key: string, read: () => Promise<T>): Promise<T>;
  /** Stops the work: Ctrl-C, SIGTERM, a closed stdout. */
  signal: AbortSignal;
  clock: Clock;
}

/** What a change did: done, or waiting for something the store does on its own (a location's answer). */
export type Applied = { done: string } | { waiting: string };

export interface Job<Settings = unknown, Target = unknown> {
  /** The command as typed: `fulfillment-orders fulfill`; the journal and the history name the job by it. */
  command: string;
  /** The input's columns: the first names the line's object (its id in the report), then the others it requires, then those it may have. */
  columns: { key: string; required: readonly string[]; optional: readonly string[] };
  /** Other names a column goes by in files people have (`number` for `order_number`). */
  aliases?: Readonly<Record<string, string>>;
  /** What a line names, for people: `order`, `fulfillment order`, `subscription`. */
  noun: string;
  /** What the job does to each line, for the one question of the batch: `Fulfil each order's fulfillment order with its tracking, e-mailing the customer`. */
  intent(settings: Settings): string;
  /** Reads what the line needs and classifies it; `earlier`, on a resume, for a line sent without an answer kept. */
  check(cells: Cells, settings: Settings, io: JobIO, earlier?: Earlier): Promise<Verdict<Target>>;
  /** Makes the change, through `io.change`. */
  apply(target: Target, cells: Cells, settings: Settings, io: JobIO): Promise<Applied>;
  /** How long a line may wait (`--wait-timeout`), for a job whose changes wait. */
  waitTimeoutMs?(settings: Settings): number;
}

/** A line of a job's run. */
export interface JobLine {
  /** Its number in the input (the file's line, or the object's place in a list). */
  line: number;
  cells: Cells;
}

/** The id of what the line names, as the report shows it. */
export const keyOf = (job: Pick<Job, 'columns'>, line: JobLine) => line.cells[job.columns.key] ?? '';
