// The seeded store (placeholder until the builders land).
import { KIND_NAMES, type KindName, type Records } from '../kinds.js';

export function buildRecords(_options: { size?: number; now: number }): { records: Records; lastIds: Record<KindName, number> } {
  const records = Object.fromEntries(KIND_NAMES.map((kind) => [kind, {}])) as Records;
  const lastIds = Object.fromEntries(KIND_NAMES.map((kind) => [kind, 0])) as Record<KindName, number>;
  return { records, lastIds };
}
