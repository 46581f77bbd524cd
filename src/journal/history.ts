// What this machine changed: one JSON line per change (a single command, or a bulk run that
// points to its own journal), appended as it happens, in the config dir, readable by its owner
// only. No token, secret or request body is ever written here: the command, the store, the
// target, the outcome. Kept for 90 days and 10,000 entries, whichever ends first.
import { appendFileSync, closeSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { InterruptedError, NotStartedError, UnknownOutcomeError } from '../api/errors.js';
import { writeAtomically } from '../atomic-write.js';
import { withLockFile } from '../lock.js';
import { historyDir, historyPaths, runOfFile } from './paths.js';

export const RETENTION_DAYS = 90;
export const RETENTION_ENTRIES = 10_000;
/** A run journal written this recently belongs to a run that may still be going. */
const RECENT_MS = 3_600_000;
/** Past this size the log is pruned on the next write (10,000 entries are about 2 MB). */
const PRUNE_AT_BYTES = 3 * 1024 * 1024;
/** No entry is shorter: below RETENTION_ENTRIES times this, the log cannot hold too many, and its lines are not counted. */
const SHORTEST_ENTRY_BYTES = 64;
/** Past 10,000 entries, a pruning keeps this many: the next thousand changes do not each rewrite the log. */
export const PRUNED_TO = 9_000;

export type Outcome = 'applied' | 'failed' | 'unknown';

export interface HistoryEntry {
  at: string;
  /** `subscriptions cancel` */
  command: string;
  operation: string;
  /** The store's host, or `embedded sandbox`. */
  store: string;
  profile?: string;
  /** What it changed: the path values, as typed (`10001 102`). */
  target?: string;
  /** What a create made: the new object's id (an export's, to download it later). */
  created?: string;
  /** A single change's outcome, or `run` for a bulk run (see its journal). */
  outcome: Outcome | 'run';
  status?: number;
  reason?: string;
  /** A bulk run's id. */
  run?: string;
}

/** A change's outcome as the history keeps it: its status, and a reason when it was not applied. */
export function outcomeOf(error: unknown, status?: number): Pick<HistoryEntry, 'outcome' | 'status' | 'reason'> {
  if (error === undefined) return { outcome: 'applied', ...(status !== undefined ? { status } : {}) };
  const outcome = mayHaveApplied(error) ? 'unknown' : 'failed';
  const httpStatus = (error as { status?: unknown }).status;
  return { outcome, ...(typeof httpStatus === 'number' ? { status: httpStatus } : {}), reason: (error as Error).message };
}

/**
 * Whether a change that ended in this error may have been applied all the same: its answer was
 * lost, or it was interrupted in flight. (One stopped before its turn came was never sent.) A
 * single change's history entry and a bulk run's journal both decide by this.
 */
export function mayHaveApplied(error: unknown): boolean {
  return error instanceof UnknownOutcomeError || (error instanceof InterruptedError && !(error instanceof NotStartedError));
}

/**
 * Appends under the lock that pruning holds: pruning rewrites the file, and an entry appended by
 * another command between its read and its rename would be lost. Prunes when the log is large or
 * its oldest entry is past the retention, so a quiet machine drops old entries too.
 */
export async function appendHistory(configDir: string, entry: HistoryEntry, now = Date.now()): Promise<void> {
  historyDir(configDir);
  const { log: file, lock } = historyPaths(configDir);
  const due = await withLockFile(lock, async () => {
    appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    const size = statSync(file).size;
    return (
      size > PRUNE_AT_BYTES ||
      (size > RETENTION_ENTRIES * SHORTEST_ENTRY_BYTES && lineCount(file) > RETENTION_ENTRIES) ||
      Date.parse(oldestAt(file) ?? '') < now - RETENTION_DAYS * 86_400_000
    );
  });
  if (due) await prune(configDir, now);
}

function lineCount(file: string): number {
  const bytes = readFileSync(file);
  let count = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/** The first entry's time, read from the head of the file only. */
function oldestAt(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(1024);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8');
    return /"at":"([^"]+)"/.exec(text)?.[1];
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries, oldest first. A line that is not an entry (cut short by a crash, edited by hand)
 * is skipped, never fatal: `onBadLine` is told its number, so that it can be reported.
 */
export function readHistory(configDir: string, onBadLine?: (line: number) => void): HistoryEntry[] {
  let text: string;
  try {
    text = readFileSync(historyPaths(configDir).log, 'utf8');
  } catch {
    return [];
  }
  const entries: HistoryEntry[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = undefined;
    }
    if (isEntry(entry)) entries.push(entry);
    else onBadLine?.(index + 1);
  }
  return entries;
}

const OUTCOMES = new Set(['applied', 'failed', 'unknown', 'run']);

function isEntry(value: unknown): value is HistoryEntry {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  const text = (key: string) => typeof entry[key] === 'string';
  const optional = (key: string, type: string) => entry[key] === undefined || typeof entry[key] === type;
  return (
    text('at') && !Number.isNaN(Date.parse(entry.at as string)) && text('command') && text('operation') && text('store') &&
    OUTCOMES.has(entry.outcome as string) && optional('profile', 'string') && optional('target', 'string') &&
    optional('status', 'number') && optional('reason', 'string') && optional('run', 'string') && optional('created', 'string')
  );
}

/** "skipped 2 unreadable lines of FILE (3, 7)", for a note. */
export function skippedLines(file: string, lines: number[]): string {
  const shown = lines.length > 10 ? `${lines.slice(0, 10).join(', ')}, …` : lines.join(', ');
  return `warning: skipped ${lines.length === 1 ? '1 unreadable line' : `${lines.length} unreadable lines`} of ${file} (${lines.length === 1 ? 'line ' : ''}${shown})`;
}

/**
 * Drops entries older than 90 days and, once there are more than 10,000, all but the newest 9,000;
 * and the journals of runs no longer listed. (Unreadable lines go too.)
 */
export async function prune(configDir: string, now = Date.now()): Promise<void> {
  historyDir(configDir);
  const { log: file, lock, runs: runsDir } = historyPaths(configDir);
  await withLockFile(lock, async () => {
    const oldest = now - RETENTION_DAYS * 86_400_000;
    let kept = readHistory(configDir).filter((entry) => Date.parse(entry.at) >= oldest);
    if (kept.length > RETENTION_ENTRIES) kept = kept.slice(-PRUNED_TO);
    await writeAtomically(file, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    const runs = new Set(kept.map((entry) => entry.run).filter(Boolean));
    for (const name of readdirSync(runsDir)) {
      const path = join(runsDir, name);
      // A run starting in another command has its journal before its history entry: spare it.
      // Its lock (`ID.lock`) goes with it.
      if (!runs.has(runOfFile(name)) && statSync(path).mtimeMs < Date.now() - RECENT_MS) unlinkSync(path);
    }
  });
}
