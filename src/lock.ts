// File locks, one design for every use. A lock is a file created exclusively that names its holder
// (pid, the process's start time as the system knows it, host, since when), so a lock left by a
// process that has ended (killed with SIGKILL, crashed) is known as such and taken over, and a pid
// the system has given to another process since is told apart by its start time.
//   withLockFile: a short read-modify-write (the profile store, the sandbox's state, the history);
//     concurrent commands take turns instead of losing updates.
//   holdLock: held for a whole run (a --resume, a webhooks apply); a second process is refused at
//     once and told who holds it.
// Hand-written rather than proper-lockfile: the rules below are all we need, and every command
// that writes config would load the library and its dependencies at start-up.
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreAdminError } from './api/errors.js';

/** Who holds a lock. */
export interface Holder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux): a pid reused by another process is told apart. */
  started?: string;
  host: string;
  /** When it was taken (ISO 8601). */
  at: string;
}

const STALE_MS = 10_000;
const WAIT_MS = 15_000;

export interface LockTiming {
  /** A lock whose holder is not known (it is being written, or another host's) is left over from a crash once older than this. */
  staleMs?: number;
  /** How long to wait for the lock before giving up. */
  waitMs?: number;
}

/** Runs `work` holding the lock, waiting for it while another process holds it. */
export async function withLockFile<T>(lockPath: string, work: () => Promise<T>, timing: LockTiming = {}): Promise<T> {
  const staleMs = timing.staleMs ?? STALE_MS;
  await makeDir(lockPath);
  const deadline = Date.now() + (timing.waitMs ?? WAIT_MS);
  let own: Holder | undefined;
  // Every way round the loop either returns, throws or sleeps: it never spins.
  for (;;) {
    own = await tryTake(lockPath);
    if (own) break;
    const found = await lookAt(lockPath, staleMs);
    if (found.stale) await breakStale(lockPath, found.ino, staleMs);
    if (Date.now() > deadline) {
      const who = found.holder ? `process ${found.holder.pid}${found.holder.host === hostname() ? '' : ` on ${found.holder.host}`} holds it (since ${found.holder.at})` : 'another command holds it';
      throw new StoreAdminError(`Gave up waiting for ${lockPath}: ${who}`, {
        hint: `If no other store-admin command is running, remove it: rm ${lockPath}`,
      });
    }
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    releaseIfOurs(lockPath, own);
  }
}

export interface HeldLock {
  /** Gives the lock up for another process; only a lock still ours is removed. */
  release(): void;
}

/** Takes the lock for a whole run, or throws `refuse(holder)` while a live process holds it. */
export async function holdLock(lockPath: string, refuse: (holder: Holder) => Error, timing: Pick<LockTiming, 'staleMs'> = {}): Promise<HeldLock> {
  const staleMs = timing.staleMs ?? STALE_MS;
  await makeDir(lockPath);
  for (;;) {
    const own = await tryTake(lockPath);
    if (own) return { release: () => releaseIfOurs(lockPath, own) };
    const found = await lookAt(lockPath, staleMs);
    if (found.holder && !found.stale) throw refuse(found.holder);
    if (found.stale) await breakStale(lockPath, found.ino, staleMs);
    // A lock being written this instant names its holder a moment later.
    else await sleep(5 + Math.random() * 20);
  }
}

async function makeDir(lockPath: string): Promise<void> {
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    throw cannotWrite(lockPath, error);
  });
}

/** Creates the lock with this process as its holder; undefined when another has it. */
async function tryTake(path: string): Promise<Holder | undefined> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw cannotWrite(path, error as NodeJS.ErrnoException);
  }
  const own: Holder = { pid: process.pid, started: startTime(process.pid), host: hostname(), at: new Date().toISOString() };
  try {
    await handle.writeFile(JSON.stringify(own));
  } catch {
    // A full disk: the lock is ours all the same, only unnamed (others see it age instead).
    unnamed.add(own);
  } finally {
    await handle.close();
  }
  return own;
}

/** Locks taken whose holder could not be written in them. */
const unnamed = new WeakSet<Holder>();

interface Found {
  holder?: Holder;
  /** The lock file's inode, to break only the very file found stale. */
  ino?: number;
  stale: boolean;
}

/** The lock as found: who holds it, and whether it is left over (its holder has ended, or unknown and old). */
async function lookAt(path: string, staleMs: number): Promise<Found> {
  const held = await stat(path).catch(() => undefined);
  if (!held) return { stale: false };
  if (held.isDirectory()) throw new StoreAdminError(`${path} is a directory where a lock file belongs`, { hint: `Remove it: rmdir ${path}` });
  const holder = readHolder(path);
  // A holder on this host can be asked; one elsewhere (or not named yet) only ages.
  const stale = holder && holder.host === hostname() ? !alive(holder) : Date.now() - held.mtimeMs > staleMs;
  return { ...(holder ? { holder } : {}), ino: held.ino, stale };
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder> | null;
    return holder && Number.isInteger(holder.pid) && typeof holder.host === 'string' && typeof holder.at === 'string' ? (holder as Holder) : undefined;
  } catch {
    // Empty (being written, or an older version's), gone, or not one of ours: no holder named.
    return undefined;
  }
}

/**
 * Removes a stale lock, but only while holding `<lock>.break`, and only if the file there is still
 * the one found stale: two waiters that both saw it stale cannot both remove it (the second would
 * remove the fresh lock the first has just taken).
 */
async function breakStale(lockPath: string, staleIno: number | undefined, staleMs: number): Promise<void> {
  const breakPath = `${lockPath}.break`;
  const own = await tryTake(breakPath);
  if (!own) {
    // A breaker that crashed leaves its own file; the next waiter clears it.
    if ((await lookAt(breakPath, staleMs)).stale) await unlink(breakPath).catch(() => {});
    return;
  }
  try {
    const now = await lookAt(lockPath, staleMs);
    if (now.ino !== staleIno || !now.stale) return;
    await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return;
      throw new StoreAdminError(`Cannot remove the stale lock ${lockPath} (${error.code ?? error.message})`, {
        hint: `Check the permissions of ${dirname(lockPath)}, or remove the lock by hand`,
      });
    });
  } finally {
    releaseIfOurs(breakPath, own);
  }
}

/** Removes the lock if it still names `own`: one broken and taken by another is left to it. */
function releaseIfOurs(path: string, own: Holder): void {
  const holder = readHolder(path);
  if (!unnamed.has(own) && (holder?.pid !== own.pid || holder.at !== own.at)) return;
  try {
    unlinkSync(path);
  } catch {
    // Left behind, it names a process that has ended: the next taker breaks it.
  }
}

/** Whether the holder (on this host) still runs: its pid answers, with the start time it had. */
function alive(holder: Holder): boolean {
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

function cannotWrite(lockPath: string, error: NodeJS.ErrnoException): StoreAdminError {
  return new StoreAdminError(`Cannot write in ${dirname(lockPath)} (${error.code ?? error.message})`, {
    hint: 'Check STORE_ADMIN_CONFIG_DIR, or the permissions of the config dir',
  });
}
