// An exclusive lock file around a read-modify-write, shared by the profile store and the
// embedded sandbox's state: concurrent commands take turns instead of losing updates.
import { mkdir, open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreAdminError } from './api/errors.js';

const STALE_MS = 10_000;
const WAIT_MS = 15_000;

export async function withLockFile<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    throw cannotWrite(lockPath, error);
  });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await (await open(lockPath, 'wx', 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotWrite(lockPath, error as NodeJS.ErrnoException);
      // A lock older than any real command is left over from a crash.
      const age = await stat(lockPath).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > STALE_MS) await unlink(lockPath).catch(() => {});
      else if (Date.now() > deadline) throw new StoreAdminError(`${lockPath} is held by another command`);
      else await sleep(5 + Math.random() * 20);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}

function cannotWrite(lockPath: string, error: NodeJS.ErrnoException): StoreAdminError {
  return new StoreAdminError(`Cannot write in ${dirname(lockPath)} (${error.code ?? error.message})`, {
    hint: 'Check STORE_ADMIN_CONFIG_DIR, or the permissions of the config dir',
  });
}
