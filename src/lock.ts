// An exclusive lock file around a read-modify-write, shared by the profile store and the
// embedded sandbox's state: concurrent commands take turns instead of losing updates.
// Hand-written rather than proper-lockfile: the rules below are all we need, and every command
// that writes config would load the library and its dependencies at start-up.
import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreAdminError } from './api/errors.js';

const STALE_MS = 10_000;
const WAIT_MS = 15_000;

export interface LockTiming {
  /** A lock older than this is left over from a crash. */
  staleMs?: number;
  /** How long to wait for the lock before giving up. */
  waitMs?: number;
}

export async function withLockFile<T>(lockPath: string, work: () => Promise<T>, timing: LockTiming = {}): Promise<T> {
  const staleMs = timing.staleMs ?? STALE_MS;
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    throw cannotWrite(lockPath, error);
  });
  const deadline = Date.now() + (timing.waitMs ?? WAIT_MS);
  // Every way round the loop either returns, throws or sleeps: it never spins.
  for (;;) {
    if (await tryCreate(lockPath)) break;
    const held = await stat(lockPath).catch(() => undefined);
    if (held?.isDirectory()) {
      throw new StoreAdminError(`${lockPath} is a directory where a lock file belongs`, { hint: `Remove it: rmdir ${lockPath}` });
    }
    if (held && Date.now() - held.mtimeMs > staleMs) await breakStale(lockPath, held.ino, staleMs);
    if (Date.now() > deadline) {
      throw new StoreAdminError(`Gave up waiting for ${lockPath}: another command holds it`, {
        hint: `If no other store-admin command is running, remove it: rm ${lockPath}`,
      });
    }
    await sleep(5 + Math.random() * 20);
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}

async function tryCreate(path: string): Promise<boolean> {
  try {
    await (await open(path, 'wx', 0o600)).close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotWrite(path, error as NodeJS.ErrnoException);
  }
}

/**
 * Removes a stale lock, but only while holding `<lock>.break`, and only if the file there is still
 * the one found stale: two waiters that both saw it stale cannot both remove it (the second would
 * remove the fresh lock the first has just taken).
 */
async function breakStale(lockPath: string, staleIno: number, staleMs: number): Promise<void> {
  const breakPath = `${lockPath}.break`;
  if (!(await tryCreate(breakPath))) {
    // A breaker that crashed leaves its own stale file; the next waiter clears it.
    const left = await stat(breakPath).catch(() => undefined);
    if (left && Date.now() - left.mtimeMs > staleMs) await unlink(breakPath).catch(() => {});
    return;
  }
  try {
    const now = await stat(lockPath).catch(() => undefined);
    if (now?.ino !== staleIno || Date.now() - now.mtimeMs <= staleMs) return;
    await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return;
      throw new StoreAdminError(`Cannot remove the stale lock ${lockPath} (${error.code ?? error.message})`, {
        hint: `Check the permissions of ${dirname(lockPath)}, or remove the lock by hand`,
      });
    });
  } finally {
    await unlink(breakPath).catch(() => {});
  }
}

function cannotWrite(lockPath: string, error: NodeJS.ErrnoException): StoreAdminError {
  return new StoreAdminError(`Cannot write in ${dirname(lockPath)} (${error.code ?? error.message})`, {
    hint: 'Check STORE_ADMIN_CONFIG_DIR, or the permissions of the config dir',
  });
}
