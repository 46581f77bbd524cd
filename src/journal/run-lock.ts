// A run's journal is worked on by one process at a time: two processes resuming the same run would
// each send the lines the other is sending. The lock file beside the journal names its holder (pid,
// the process's start time as the system knows it, host); a second process is refused and told who
// holds it, and a lock whose holder is gone (killed with SIGKILL) is taken over.
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { StoreAdminError } from '../api/errors.js';
import { withLockFile } from '../lock.js';
import { historyDir, runFile } from './paths.js';

interface Holder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux): a pid reused by another process is told apart. */
  started?: string;
  host: string;
  at: string;
}

export interface RunLock {
  /** Gives the run up for another process; only a lock still ours is removed. */
  release(): void;
}

/** Takes the run's lock, or throws naming the live process that holds it. */
export async function lockRun(configDir: string, id: string): Promise<RunLock> {
  historyDir(configDir);
  const path = runFile(configDir, id, 'lock');
  const own: Holder = { pid: process.pid, started: startTime(process.pid), host: hostname(), at: new Date().toISOString() };
  // Checking the holder and writing ours are one step: two takers of a dead holder's lock take turns.
  await withLockFile(`${path}.take`, async () => {
    const holder = readHolder(path);
    if (holder && alive(holder)) {
      const where = holder.host === own.host ? '' : ` on ${holder.host}`;
      throw new StoreAdminError(`Run ${id} is in use by process ${holder.pid}${where} (since ${holder.at}); nothing was sent`, {
        hint: `Let that process finish (or stop it) and resume then; if it is surely gone, remove ${path}`,
      });
    }
    // Written whole, then renamed into place: a reader never sees half a holder.
    writeFileSync(`${path}.tmp`, JSON.stringify(own), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  });
  return {
    release() {
      const holder = readHolder(path);
      try {
        if (holder?.pid === own.pid && holder.at === own.at) unlinkSync(path);
      } catch {
        // Left behind, it names a process that has ended: the next run takes it over.
      }
    },
  };
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder> | null;
    return holder && Number.isInteger(holder.pid) && typeof holder.host === 'string' ? (holder as Holder) : undefined;
  } catch {
    // No lock, or not one of ours: nobody holds the run.
    return undefined;
  }
}

/** Whether the holder still runs. A process on another host cannot be asked: it counts as running. */
function alive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a process runs under that pid, though not as us.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const started = startTime(holder.pid);
  return !(holder.started && started && holder.started !== started);
}

/** Field 22 of /proc/PID/stat (Linux); elsewhere undefined, and the pid alone is checked. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
