// Where the sandbox keeps its state. In memory for tests and `store-admin sandbox`; the
// embedded `--sandbox` mode swaps in a file-backed store so effects outlive one command.
import { createSeed } from './seed.js';
import type { SandboxState } from './state.js';

export interface StateStore {
  /** Runs `change` against the current state; the store saves it afterwards when `write` is set. */
  transact<T>(change: (state: SandboxState) => T, write: boolean): Promise<T>;
  reset(): Promise<void>;
}

/** `seed` makes the state a reset goes back to (a grown store's, for one started with --size). */
export function memoryStore(initial: SandboxState = createSeed(), seed: () => SandboxState = createSeed): StateStore & { state: SandboxState } {
  const store = {
    state: initial,
    async transact<T>(change: (state: SandboxState) => T) {
      return change(store.state);
    },
    async reset() {
      store.state = seed();
    },
  };
  return store;
}
