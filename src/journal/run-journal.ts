// A bulk run's journal: a header (what ran, where, over which input), then a line when each
// request is about to leave and another with its outcome. A request's line reaches the file
// before the request leaves, and an outcome before it is reported, so a run killed at any moment
// has recorded all it told. --resume reads it back.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, readdirSync, writeSync } from 'node:fs';
import type { Outcome } from './history.js';
import { historyDir, historyPaths, RUN_ID, runFile, runOfJournal } from './paths.js';

export interface RunHeader {
  type: 'run';
  id: string;
  at: string;
  command: string;
  operation: string;
  store: string;
  profile?: string;
  /** The --each input: where it came from, a hash of its text, and its lines. */
  input: { source: string; sha256: string; lines: number };
  /** A hash of the flags' body, so a resume is the same command: the body itself may hold secrets. */
  body: string;
  /**
   * A hash of each path parameter's and body field's values over the run (`params.id`,
   * `body.cancel_reason`), so a resume with other flags can name them. Absent in older journals.
   */
  fields?: Record<string, string>;
}

type JournalRecord =
  | RunHeader
  | { type: 'resume'; at: string }
  | { type: 'sent'; line: number }
  | { type: 'outcome'; line: number; input?: string[]; outcome: Outcome; status?: number; reason?: string }
  | { type: 'end'; at: string };

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
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
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
  let text: string;
  try {
    text = readFileSync(runPath(configDir, id), 'utf8');
  } catch {
    return undefined;
  }
  let header: RunHeader | undefined;
  const latest = new Map<number, LineRecord>();
  let ended = false;
  const skipped: number[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      record = undefined;
    }
    if (!isRecord(record)) {
      skipped.push(index + 1);
      continue;
    }
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
  return { header, states: new Map(lines.map((line) => [line.line, line.outcome])), lines, ended, skipped };
}

const OUTCOMES = new Set<unknown>(['applied', 'failed', 'unknown']);

/** Whether a parsed line is one of the records above, with every field of its type. */
function isRecord(value: unknown): value is JournalRecord {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const text = (v: unknown) => typeof v === 'string';
  const lineNumber = Number.isInteger(record.line) && (record.line as number) > 0;
  switch (record.type) {
    case 'run': {
      const input = record.input as Record<string, unknown> | null;
      return (
        text(record.id) && RUN_ID.test(record.id as string) && text(record.at) && text(record.command) &&
        text(record.operation) && text(record.store) && (record.profile === undefined || text(record.profile)) && text(record.body) &&
        !!input && typeof input === 'object' && text(input.source) && text(input.sha256) && Number.isInteger(input.lines)
      );
    }
    case 'sent':
      return lineNumber;
    case 'outcome':
      return (
        lineNumber && OUTCOMES.has(record.outcome) && (record.input === undefined || (Array.isArray(record.input) && record.input.every(text))) &&
        (record.status === undefined || typeof record.status === 'number') && (record.reason === undefined || text(record.reason))
      );
    case 'resume':
    case 'end':
      return text(record.at);
    default:
      return false;
  }
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
