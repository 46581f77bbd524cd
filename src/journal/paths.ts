// Where the history keeps its files, in one place: the log of changes and its lock, and each bulk
// run's journal and lock in runs/. Readers take the paths as they are; writers make the folder
// (private) first with historyDir.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Matches the ids newRunId makes; anything else could name a path outside the folder. */
export const RUN_ID = /^[0-9]{8}-[0-9]{6}-[0-9a-f]{4}$/;

export const historyPaths = (configDir: string) => {
  const dir = join(configDir, 'history');
  return { dir, log: join(dir, 'history.jsonl'), lock: join(dir, 'history.lock'), runs: join(dir, 'runs') };
};

/** The history's folder, made private on first use. */
export function historyDir(configDir: string): string {
  const { dir, runs } = historyPaths(configDir);
  mkdirSync(runs, { recursive: true, mode: 0o700 });
  // Ours: never left readable by others, whatever made it.
  chmodSync(dir, 0o700);
  return dir;
}

/** A run's journal (`ID.jsonl`) or lock (`ID.lock`) in runs/. */
export function runFile(configDir: string, id: string, kind: 'journal' | 'lock'): string {
  if (!RUN_ID.test(id)) throw new RangeError(`not a run id: ${id}`);
  return join(historyPaths(configDir).runs, `${id}.${kind === 'journal' ? 'jsonl' : 'lock'}`);
}

/** The run a file in runs/ belongs to (its journal, its lock): `ID` of `ID.jsonl`, `ID.lock`, `ID.lock.take`. */
export const runOfFile = (name: string) => name.split('.')[0]!;

/** The run whose journal a file in runs/ is, or undefined for any other file. */
export const runOfJournal = (name: string) => (name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : undefined);
