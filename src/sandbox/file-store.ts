// A state store kept in a file, for the embedded `--sandbox` mode: each command reads the state,
// changes it under an exclusive lock file and writes it back atomically, so concurrent
// invocations lose no update.
import { readFile } from 'node:fs/promises';
import { writeAtomically } from '../atomic-write.js';
import { withLockFile } from '../lock.js';
import { createSeed } from './seed.js';
import { STATE_SCHEMA, withNullPrototypes, type SandboxState } from './state.js';
import type { StateStore } from './store.js';

export function fileStore(path: string): StateStore {
  const lockPath = `${path}.lock`;

  async function load(): Promise<SandboxState> {
    try {
      const state = JSON.parse(await readFile(path, 'utf8')) as SandboxState;
      if (state.schema === STATE_SCHEMA) return withNullPrototypes(state);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
    }
    return createSeed();
  }

  async function save(state: SandboxState): Promise<void> {
    try {
      await writeAtomically(path, JSON.stringify(state));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOSPC' ? 'no space left on the device' : (error as Error).message;
      throw new Error(`Cannot save the sandbox state to ${path}: ${reason}; it is kept as it was`, { cause: error });
    }
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
