// A state store kept in a file, for the embedded `--sandbox` mode: each command reads the state,
// changes it under an exclusive lock file and writes it back atomically, so concurrent
// invocations lose no update.
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSeed } from './seed.js';
import type { SandboxState } from './state.js';
import type { StateStore } from './store.js';

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

export function fileStore(path: string): StateStore {
  const lockPath = `${path}.lock`;

  async function load(): Promise<SandboxState> {
    try {
      const state = JSON.parse(await readFile(path, 'utf8')) as SandboxState;
      if (state.schema === 1) return state;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    }
    return createSeed();
  }

  async function save(state: SandboxState): Promise<void> {
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
    await rename(temp, path);
  }

  async function withLock<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const handle = await open(lockPath, 'wx', 0o600);
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lockPath).then((s) => Date.now() - s.mtimeMs, () => 0);
        if (age > LOCK_STALE_MS) await unlink(lockPath).catch(() => {});
        else if (Date.now() > deadline) throw new Error(`The sandbox state is locked by another command (${lockPath})`);
        else await sleep(5 + Math.random() * 20);
      }
    }
    try {
      return await work();
    } finally {
      await unlink(lockPath).catch(() => {});
    }
  }

  return {
    transact: (change, write) =>
      write
        ? withLock(async () => {
            const state = await load();
            const result = change(state);
            await save(state);
            return result;
          })
        : load().then(change),
    reset: () => withLock(() => save(createSeed())),
  };
}
