// The seed's record builders at run time: a rule that makes an order (a renewal) builds it with
// the same code the seed does, its ids taken from the state, so a new record is as complete and
// its amounts as right as a seeded one.
import { isoSeconds } from './clock.js';
import { storageKey } from './kinds.js';
import { mulberry32 } from './seed/random.js';
import type { Seeding } from './seed/seeding.js';
import { nextId, type SandboxState } from './state.js';

export function runtimeSeeding(state: SandboxState, nowMs: number): Seeding {
  return {
    // Its own view of the same records: what the catalogue looks up is remembered per view, and
    // prices and products change between requests.
    records: { ...state.records },
    // Draws at run time only pick among equals (a carrier, a wording): seeded by the moment, so a run repeats.
    random: mulberry32(nowMs % 2 ** 31),
    now: nowMs,
    at: (iso) => iso,
    ago: (ms) => isoSeconds(nowMs - ms),
    id: (name, given) => given ?? nextId(state, name),
    add(kind, record) {
      state.records[kind][storageKey(kind, record)] = record;
      return record;
    },
    turn: () => 0,
    lastIds: () => ({ ...state.lastIds }),
  };
}
