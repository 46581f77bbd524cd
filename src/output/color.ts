// Whether to colour, decided once from flags, environment and the terminal.
import type { IO } from '../io.js';

export type ColorLevel = 0 | 1 | 2 | 3;

/** --no-color and NO_COLOR win; FORCE_COLOR forces; otherwise colour only on a terminal. */
export function colorLevel(io: IO, flagAllows: boolean): ColorLevel {
  if (!flagAllows) return 0;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return 0;
  const forced = io.env.FORCE_COLOR;
  if (forced !== undefined) {
    if (forced === '0' || forced === 'false') return 0;
    return (['1', '2', '3'].includes(forced) ? Number(forced) : 1) as ColorLevel;
  }
  if (!io.stdout.isTTY || io.env.TERM === 'dumb') return 0;
  return 1;
}
