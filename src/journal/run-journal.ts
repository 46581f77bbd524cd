// A bulk run's journal: a header (what ran, where, over which input), then a line when each
// request is about to leave and another with its outcome. A request's line reaches the file
// before the request leaves, and an outcome before it is reported, so a run killed at any moment
// has recorded all it told. --resume reads it back.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Outcome } from './history.js';
import { jsonLine, readJsonLines } from './jsonl.js';
import { historyDir, historyPaths, RUN_ID, runFile, runOfJournal } from './paths.js';

const text = z.string();
const lineNumber = z.number().check(z.int(), z.positive());
const outcome = z.enum(['applied', 'failed', 'unknown']);

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
  z.object({ type: z.literal('sent'), line: lineNumber }),
  z.object({
    type: z.literal('outcome'),
    line: lineNumber,
    input: z.optional(z.array(text)),
    outcome,
    status: z.optional(z.number()),
    reason: z.optional(text),
  }),
  z.object({ type: z.literal('end'), at: text }),
]);

type JournalRecord = z.output<typeof journalRecord>;

/** Where each line of a run stands: applied, failed, unknown (sent, no answer kept), or absent (never sent). */
export type LineStates = Map<number, Outcome>;

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

  /** Records that a line's request is about to leave; on the file when this returns. */
  sent(line: number): void {
    this.write({ type: 'sent', line });
  }

  /** Records a line's outcome; on the file when this returns, so before the run reports it. */
  outcome(line: number, outcome: Outcome, detail: { input?: string[]; status?: number; reason?: string } = {}): void {
    this.write({ type: 'outcome', line, outcome, input: detail.input, status: detail.status, reason: detail.reason });
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
  outcome: Outcome;
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
}

export function readRun(configDir: string, id: string): RunRecord | undefined {
  const read = readJsonLines(runPath(configDir, id), journalRecord);
  if (!read) return undefined;
  let header: RunHeader | undefined;
  const latest = new Map<number, LineRecord>();
  let ended = false;
  for (const record of read.records) {
    if (record.type === 'run') header = record;
    else if (record.type === 'sent') latest.set(record.line, { line: record.line, outcome: 'unknown', reason: 'sent; no answer was kept' });
    else if (record.type === 'outcome') {
      const { type: _, ...line } = record;
      latest.set(record.line, line);
    } else if (record.type === 'end') ended = true;
    else if (record.type === 'resume') ended = false;
  }
  if (!header) return undefined;
  const lines = [...latest.values()].sort((a, b) => a.line - b.line);
  return { header, states: new Map(lines.map((line) => [line.line, line.outcome])), lines, ended, skipped: read.skipped };
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
