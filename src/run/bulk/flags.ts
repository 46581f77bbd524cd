// The flags of an --each run, listed once: src/commands/define.ts declares them on every command
// that takes arguments, and the run checks them and reads their defaults from here.
import { DEFAULTS } from '../../defaults.js';
import type { FlagValues } from '../../fields/declare.js';

export interface BulkFlag {
  /** As Commander declares it: `--concurrency <n>`. */
  flags: string;
  help: string;
  /** For a count: the whole numbers it takes. */
  range?: readonly [min: number, max: number];
}

export const EACH_FLAG: BulkFlag = {
  flags: '--each <file>',
  help: 'run once per line of FILE (or - for stdin); each line gives the last arguments, separated by spaces or commas',
};

/** The flags that mean something only with --each. */
export const WITH_EACH_FLAGS: readonly BulkFlag[] = [
  { flags: '--concurrency <n>', help: `with --each: requests in flight at once (default ${DEFAULTS.concurrency})`, range: [1, 64] },
  { flags: '--rate <n>', help: `with --each: requests per second at most (default ${DEFAULTS.rate}, the platform limit; 0 for no limit)`, range: [0, 1000] },
  { flags: '--failed <file>', help: 'with --each: write the lines that failed or did not run here, to re-run just them' },
  { flags: '--resume [run]', help: 'with --each: send only the lines an earlier run (the last one over this input, or RUN) did not apply' },
  { flags: '--retry-unknown', help: 'with --resume: also send the lines whose answers were lost (they may have been applied)' },
];

/** The flag's name, dashes included: `--retry-unknown`. */
export const nameOf = (flag: BulkFlag) => flag.flags.split(' ')[0]!;

/** Commander's name for the flag's value in the parsed options: `--retry-unknown` → `retryUnknown`. */
export const attributeOf = (flag: BulkFlag) => nameOf(flag).slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A command's parsed flags as the run layer reads them: the --each flags and --data by their
 * types (as the parsers above and Commander give them), the body's fields by name.
 */
export type RunFlags = FlagValues & {
  readonly each?: string;
  readonly concurrency?: number;
  readonly rate?: number;
  readonly failed?: string;
  readonly resume?: string | true;
  readonly retryUnknown?: true;
  readonly data?: string;
};

/** How an --each run goes: the flags given, or the defaults. */
export interface BulkSettings {
  concurrency: number;
  /** Requests per second at most; 0 for no limit. */
  rate: number;
}

export function bulkSettings(opts: { concurrency?: number; rate?: number }): BulkSettings {
  return { concurrency: opts.concurrency ?? DEFAULTS.concurrency, rate: opts.rate ?? DEFAULTS.rate };
}
