// A state store kept in a file, for the embedded `--sandbox` mode: each command reads the state,
// changes it under an exclusive lock file and writes it back atomically, so concurrent
// invocations lose no update.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { withLockFile } from '../lock.js';
import { createSeed } from './seed.js';
import type { SandboxState } from './state.js';
import type { StateStore } from './store.js';

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

  return {
    transact: (change, write) =>
      write
        ? withLockFile(lockPath, async () => {
            const state = await load();
            const result = change(state);
            await save(state);
            return result;
          })
        : load().then(change),
    reset: () => withLockFile(lockPath, () => save(createSeed())),
  };
}
