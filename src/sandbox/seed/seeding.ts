// What every builder of the seed works with: the records being built, the one random source, the
// ids handed out so far and the seed's moment. Anchors (anchors.ts) give their ids first; every
// other record takes the next id after the highest given of its sort, so the two never meet.
import { isoSeconds, SEED_MOMENT } from '../clock.js';
import { KIND_NAMES, storageKey, type KindName, type Rec, type Records } from '../kinds.js';
import { mulberry32, type Random } from './random.js';

/** Ids of objects kept inside a record (an order's lines, a refund's lines, …), store-wide unique. */
export type EmbeddedName = 'line' | 'fulfillmentLine' | 'fulfillmentOrderLine' | 'refund' | 'refundLine' | 'adjustment' | 'subscriptionLine' | 'cartLine' | 'ticketComment' | 'attachment';

export interface Seeding {
  records: Records;
  random: Random;
  /** The seed's moment (ms since the epoch). */
  now: number;
  /** A date written at the seed's moment of 2026-02-02T09:00:00Z, moved with the actual moment. */
  at(iso: string): string;
  /** The date `ms` before the seed's moment. */
  ago(ms: number): string;
  /** The given id, claimed; or the next free one of its sort. */
  id(name: KindName | EmbeddedName, given?: number): number;
  /** Keeps a record under its kind's key (its id taken through `id`); returns it. */
  add(kind: KindName, record: Rec): Rec;
  /** How many times `name` was asked before: 0, 1, 2, … (to take values in turn). */
  turn(name: string): number;
  /** The highest id handed out of each sort so far: new objects made later continue from these. */
  lastIds(): Record<string, number>;
}

export const DAY = 86_400_000;
export const HOUR = 3_600_000;

/** The seed's fixed random seed: change it and every generated record changes. */
const RANDOM_SEED = 20260202;

export function seeding(now: number): Seeding {
  const records = Object.fromEntries(KIND_NAMES.map((kind) => [kind, {}])) as Records;
  const claimed = new Map<string, Set<number>>();
  const cursor = new Map<string, number>();
  const turns = new Map<string, number>();
  const shift = now - SEED_MOMENT;
  const taken = (name: string) => claimed.get(name) ?? claimed.set(name, new Set()).get(name)!;

  const id = (name: string, given?: number): number => {
    const next = cursor.get(name);
    if (given !== undefined) {
      const ids = taken(name);
      if (ids.has(given) || (next !== undefined && given >= next)) throw new Error(`seed: ${name} ${given} is built twice`);
      ids.add(given);
      return given;
    }
    // Generated ids start after the highest given one of their sort.
    const fresh = next ?? highest(taken(name)) + 1;
    cursor.set(name, fresh + 1);
    return fresh;
  };

  return {
    records,
    random: mulberry32(RANDOM_SEED),
    now,
    at: (iso) => isoSeconds(Date.parse(iso) + shift),
    ago: (ms) => isoSeconds(now - ms),
    id,
    add(kind, record) {
      records[kind][storageKey(kind, record)] = record;
      return record;
    },
    turn(name) {
      const turn = turns.get(name) ?? 0;
      turns.set(name, turn + 1);
      return turn;
    },
    lastIds() {
      const names = new Set([...claimed.keys(), ...cursor.keys()]);
      return Object.fromEntries([...names].map((name) => [name, Math.max(highest(taken(name)), (cursor.get(name) ?? 1) - 1)]));
    },
  };
}

function highest(ids: Set<number>): number {
  let max = 0;
  for (const id of ids) if (id > max) max = id;
  return max;
}
