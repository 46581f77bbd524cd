// What this machine changed: one JSON line per change (a single command, or a bulk run that
// points to its own journal), appended as it happens, in the config dir, readable by its owner
// only. No token, secret or request body is ever written here: the command, the store, the
// target, the outcome. Kept for 90 days and 10,000 entries, whichever ends first.
import { appendFileSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { InterruptedError, NotStartedError, UnknownOutcomeError } from '../api/errors.js';
import { writeAtomically } from '../atomic-write.js';
import { withLockFile } from '../lock.js';
import { firstJsonLine, jsonLine, readJsonLines } from './jsonl.js';
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

const text = z.string();
const optionalText = z.optional(z.string());

/**
 * One line of the history. Fields a later version adds are kept as they are (a pruning rewrites
 * the file), and an entry is dated by its `at` field wherever the key sits in the line.
 */
const historyEntry = z.looseObject({
  at: text.check(z.refine((value) => !Number.isNaN(Date.parse(value)))),
  /** `subscriptions cancel` */
  command: text,
  operation: text,
  /** The store's host, or `embedded sandbox`. */
  store: text,
  profile: optionalText,
  /** What it changed: the path values, as typed (`10001 102`). */
  target: optionalText,
  /** What a create made: the new object's id (an export's, to download it later). */
  created: optionalText,
  /** A single change's outcome, or `run` for a bulk run (see its journal). */
  outcome: z.enum(['applied', 'failed', 'unknown', 'run']),
  status: z.optional(z.number()),
  reason: optionalText,
  /** A bulk run's id. */
  run: optionalText,
});

export type HistoryEntry = z.output<typeof historyEntry>;

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
    appendFileSync(file, jsonLine(entry), { mode: 0o600 });
    const size = statSync(file).size;
    return (
      size > PRUNE_AT_BYTES ||
      (size > RETENTION_ENTRIES * SHORTEST_ENTRY_BYTES && lineCount(file) > RETENTION_ENTRIES) ||
      Date.parse(firstJsonLine(file, historyEntry)?.at ?? '') < now - RETENTION_DAYS * 86_400_000
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

/**
 * The entries, oldest first. A line that is not an entry (cut short by a crash, edited by hand)
 * is skipped, never fatal: `onBadLine` is told its number, so that it can be reported.
 */
export function readHistory(configDir: string, onBadLine?: (line: number) => void): HistoryEntry[] {
  const read = readJsonLines(historyPaths(configDir).log, historyEntry);
  for (const line of read?.skipped ?? []) onBadLine?.(line);
  return read?.records ?? [];
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
    await writeAtomically(file, kept.map(jsonLine).join(''));
    const runs = new Set(kept.map((entry) => entry.run).filter(Boolean));
    for (const name of readdirSync(runsDir)) {
      const path = join(runsDir, name);
      // A run starting in another command has its journal before its history entry: spare it.
      // Its lock (`ID.lock`) goes with it.
      if (!runs.has(runOfFile(name)) && statSync(path).mtimeMs < Date.now() - RECENT_MS) unlinkSync(path);
    }
  });
}
