// The sandbox store's starting state: the seeded records (seed/), with the clock starting at the
// seed's moment (clock.ts), the exports already available given their files, and nothing queued.
import { SEED_MOMENT, seedClockOffset } from './clock.js';
import { markAvailable } from './exports.js';
import { buildRecords } from './seed/index.js';
import { STATE_SCHEMA, withNullPrototypes, type SandboxState } from './state.js';

export function createSeed(options: { size?: number } = {}): SandboxState {
  const { records, lastIds } = buildRecords({ ...options, now: SEED_MOMENT });
  const state = withNullPrototypes({
    schema: STATE_SCHEMA,
    clockOffsetMs: seedClockOffset(),
    records,
    lastIds: { ...lastIds },
    webhookOutbox: [],
    deliveryLog: [],
    exportFiles: {},
    exportsReadyAt: {},
  });
  // Made earlier and already available: their files are made from the seed's records, as any export's.
  for (const made of Object.values(state.records.exports)) if (made.status === 'available') markAvailable(state, made);
  return state;
}
