// A bulk run's journal: a header (what ran, where, over which input), then a line when each
// request is about to leave and another with its outcome. A request's line reaches the file
// before the request leaves, and an outcome before it is reported, so a run killed at any moment
// has recorded all it told. --resume reads it back. A job's journal also holds each line's plan
// (its class, the object it acts on and the state that decided it), the objects a list selected,
// and the step of each change a line makes (a move's cancellation request, then the move).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import * as z from 'zod/mini';
import { jsonLine, readJsonLines } from './jsonl.js';
import { historyDir, historyPaths, RUN_ID, runFile, runOfJournal } from './paths.js';

const text = z.string();
const lineNumber = z.number().check(z.int(), z.positive());
const outcome = z.enum(['applied', 'failed', 'unknown', 'skipped']);

/** A line's outcome: a job also leaves lines alone (`skipped`: done already, or for a person to decide). */
export type LineOutcome = z.output<typeof outcome>;

/** The journal's first record: what ran, where, over which input. */
const runHeader = z.object({
  type: z.literal('run'),
  id: text.check(z.regex(RUN_ID)),
  at: text,
  command: text,
  operation: text,
  store: text,
  profile: z.optional(text),
  /** The --each input: where it came from, a hash of its text, and its lines. */
  input: z.object({ source: text, sha256: text, lines: z.number().check(z.int()) }),
  /** A hash of the flags' body, so a resume is the same command: the body itself may hold secrets. */
  body: text,
  /**
   * A hash of each path parameter's and body field's values over the run (`params.id`,
   * `body.cancel_reason`), so a resume with other flags can name them. Absent in older journals.
   */
  fields: z.optional(z.record(text, text)),
});

export type RunHeader = z.output<typeof runHeader>;

/** Each kind of record a journal holds, told apart by `type`. */
const journalRecord = z.discriminatedUnion('type', [
  runHeader,
  z.object({ type: z.literal('resume'), at: text }),
  /** The objects a job's list selected, in the order of its lines: a resume works on these, whatever the list says now. */
  z.object({ type: z.literal('selected'), keys: z.array(text) }),
  /** A job's plan for a line: its class, the object it acts on, the state that decided it. */
  z.object({ type: z.literal('planned'), line: lineNumber, class: text, object: z.optional(text), state: z.optional(text) }),
  /** A change about to leave; a job names its step (`cancellation-request`, `move`) and the object. */
  z.object({ type: z.literal('sent'), line: lineNumber, step: z.optional(text), object: z.optional(text) }),
  z.object({
    type: z.literal('outcome'),
    line: lineNumber,
    input: z.optional(z.array(text)),
    outcome,
    class: z.optional(text),
    object: z.optional(text),
    status: z.optional(z.number()),
    reason: z.optional(text),
  }),
  z.object({ type: z.literal('end'), at: text }),
]);

type JournalRecord = z.output<typeof journalRecord>;

/** Where each line of a run stands: applied, failed, unknown (sent, no answer kept), skipped by a job, or absent (never sent). */
export type LineStates = Map<number, LineOutcome>;

/** A job's plan for one line, as its journal keeps it. */
export interface PlannedLine {
  class: string;
  object?: string;
  state?: string;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

export class RunJournal {
  private constructor(
    private readonly fd: number,
    readonly header: RunHeader,
  ) {}

  static create(configDir: string, header: Omit<RunHeader, 'type'>): RunJournal {
    const fd = openSync(runPath(configDir, header.id), 'wx', 0o600);
    const journal = new RunJournal(fd, { type: 'run', ...header });
    journal.write(journal.header);
    return journal;
  }

  /** Reopens a run's journal to add to it (a resume). */
  static reopen(configDir: string, header: RunHeader): RunJournal {
    const journal = new RunJournal(openSync(runPath(configDir, header.id), 'a', 0o600), header);
    journal.write({ type: 'resume', at: new Date().toISOString() });
    return journal;
  }

  /** Records that a line's request is about to leave (a job's step of it, on an object); on the file when this returns. */
  sent(line: number, step?: { step: string; object: string }): void {
    this.write({ type: 'sent', line, ...step });
  }

  /** Records a line's outcome; on the file when this returns, so before the run reports it. */
  outcome(line: number, outcome: LineOutcome, detail: { input?: string[]; class?: string; object?: string; status?: number; reason?: string } = {}): void {
    this.write({ type: 'outcome', line, outcome, input: detail.input, class: detail.class, object: detail.object, status: detail.status, reason: detail.reason });
  }

  /** Records the objects a job's list selected, before any of them is changed. */
  selected(keys: string[]): void {
    this.write({ type: 'selected', keys });
  }

  /** Records a job's plan for a line. */
  planned(line: number, plan: PlannedLine): void {
    this.write({ type: 'planned', line, ...plan });
  }

  end(): void {
    this.write({ type: 'end', at: new Date().toISOString() });
    closeSync(this.fd);
  }

  /** Writes the record straight to the file: a run killed at any moment has it. */
  private write(record: JournalRecord): void {
    writeSync(this.fd, jsonLine(record));
  }
}

export interface LineRecord {
  line: number;
  input?: string[];
  outcome: LineOutcome;
  /** A job's: the line's class, and the object its last change was sent to. */
  class?: string;
  object?: string;
  status?: number;
  reason?: string;
}

export interface RunRecord {
  header: RunHeader;
  states: LineStates;
  /** Each line's latest record, in the order of the input. */
  lines: LineRecord[];
  ended: boolean;
  /** The journal's lines that are not records (cut short by a crash, edited by hand): skipped, to be reported. */
  skipped: number[];
  /** A job's plan of each line, as last recorded. */
  planned: Map<number, PlannedLine>;
  /** The objects a job's list selected, if its input was a list. */
  selected?: string[];
}

export function readRun(configDir: string, id: string): RunRecord | undefined {
  const read = readJsonLines(runPath(configDir, id), journalRecord);
  if (!read) return undefined;
  let header: RunHeader | undefined;
  const latest = new Map<number, LineRecord>();
  const planned = new Map<number, PlannedLine>();
  let selected: string[] | undefined;
  let ended = false;
  for (const record of read.records) {
    if (record.type === 'run') header = record;
    else if (record.type === 'selected') selected = record.keys;
    else if (record.type === 'planned') planned.set(record.line, { class: record.class, object: record.object, state: record.state });
    else if (record.type === 'sent') {
      latest.set(record.line, { line: record.line, outcome: 'unknown', reason: 'sent; no answer was kept', ...(record.object !== undefined ? { object: record.object } : {}) });
    }
    else if (record.type === 'outcome') {
      const { type: _, ...line } = record;
      latest.set(record.line, line);
    } else if (record.type === 'end') ended = true;
    else if (record.type === 'resume') ended = false;
  }
  if (!header) return undefined;
  const lines = [...latest.values()].sort((a, b) => a.line - b.line);
  return { header, states: new Map(lines.map((line) => [line.line, line.outcome])), lines, ended, skipped: read.skipped, planned, ...(selected ? { selected } : {}) };
}

/** Every run's id, newest first. */
export function runIds(configDir: string): string[] {
  try {
    return readdirSync(historyPaths(configDir).runs)
      .map(runOfJournal)
      .filter((id): id is string => id !== undefined)
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

/** A run's journal, its folder made first. */
function runPath(configDir: string, id: string): string {
  historyDir(configDir);
  return runFile(configDir, id, 'journal');
}
