// `exports create --wait / --download`: the platform answers a new export `pending` and makes it
// `available` later, so the command polls `GET /exports/{id}/` with a growing pause (2 s up to
// 60 s, as the guide asks not to poll too often) under the rate limiter, then downloads.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, InterruptedError, StoreAdminError, UsageError } from '../api/errors.js';
import { retryAfterMs } from '../api/retry.js';
import { rateLimiter } from '../bulk/limiter.js';
import type { Context } from '../context.js';
import { startSpinner } from '../output/spinner.js';
import type { Options } from './define.js';

const FIRST_PAUSE_MS = 2_000;
const LONGEST_PAUSE_MS = 60_000;
const DEFAULT_TIMEOUT = '30m';
/** The platform's documented limit per token. */
const REQUESTS_PER_SECOND = 4;
/** Statuses after which waiting is pointless; the guide names only pending and available. */
const FAILED = new Set(['failed', 'error', 'canceled', 'cancelled', 'expired']);

interface ExportState {
  id: number;
  status?: unknown;
}

/** The flags `exports create` gains for the asynchronous flow. */
export function addWaitOptions(command: Command): Command {
  return command
    .option('--wait', 'wait until the export is available (polls every 2 s, slowing to every 60 s)')
    .addOption(
      new Option('--wait-timeout <duration>', `with --wait or --download: give up after this long (90s, 10m, 1h; default ${DEFAULT_TIMEOUT})`).argParser(
        parseDuration,
      ),
    )
    .option('--download <file>', "wait, then save the export's file here (- for stdout); implies --wait")
    .option('--force', 'with --download: replace an existing file');
}

/** Runs before anything is sent: a file that cannot be written fails before the export is created. */
export async function checkWaitOptions(opts: Options): Promise<void> {
  if (opts.force && opts.download === undefined) throw new UsageError('--force goes with --download');
  if (opts.waitTimeout !== undefined && !opts.wait && opts.download === undefined) {
    throw new UsageError('--wait-timeout goes with --wait or --download');
  }
  if (opts.download === undefined) return;
  const { checkTarget } = await import('./export-download.js');
  await checkTarget({ file: String(opts.download), force: !!opts.force }, '--download');
}

/**
 * After the export is created: waits and downloads as asked. Returns what to print on stdout:
 * the export as it stands at the end, or nothing when stdout carries the file.
 */
export async function settleExport(data: unknown, opts: Options, ctx: Context): Promise<{ data: unknown } | undefined> {
  if (!opts.wait && opts.download === undefined) return { data };
  const created = data as ExportState;
  const timeoutMs = (opts.waitTimeout as number | undefined) ?? parseDuration(DEFAULT_TIMEOUT);
  // Ctrl-C stops the wait (or the download) and says which export to fetch later.
  const { signal } = ctx;
  const later = (what: string) =>
    new InterruptedError(`Stopped ${what} export ${created.id}; the export itself goes on`, {
      hint: `Fetch it later: store-admin exports download ${created.id} --output-file FILE`,
    });
  let available: unknown;
  try {
    available = await waitForExport(created, ctx, timeoutMs, signal);
  } catch (error) {
    if (signal.aborted) throw later('waiting for');
    throw error;
  }
  if (opts.download === undefined) return { data: available };
  const target = { file: String(opts.download), force: !!opts.force };
  const { downloadExport } = await import('./export-download.js');
  try {
    await downloadExport(created.id, target, ctx, { signal });
  } catch (error) {
    if (signal.aborted) throw later('downloading');
    // The export exists and is available: say how to fetch it without creating another.
    if (error instanceof StoreAdminError && !error.hint) {
      error.hint = `The export is available: store-admin exports download ${created.id} --output-file ${target.file === '-' ? '-' : 'FILE'}`;
    }
    throw error;
  }
  return target.file === '-' ? undefined : { data: available };
}

/** Polls until the export is available; the pause doubles from 2 s up to 60 s. */
async function waitForExport(created: ExportState, ctx: Context, timeoutMs: number, signal: AbortSignal): Promise<unknown> {
  let current: unknown = created;
  let status = String(created.status ?? 'unknown');
  if (status === 'available') return current;
  const client = await ctx.client();
  const limiter = rateLimiter(REQUESTS_PER_SECOND);
  const started = Date.now();
  const deadline = started + timeoutMs;
  const elapsed = () => formatDuration(Date.now() - started);
  if (!ctx.io.stderr.isTTY) ctx.note(`Export ${created.id} is ${status}; waiting until it is available (at most ${formatDuration(timeoutMs)})`);
  const stop = ctx.options.quiet ? () => {} : startSpinner(ctx.io.stderr, () => `Waiting for export ${created.id} (${status}, ${elapsed()})… Ctrl-C to stop`);
  try {
    for (let pause = FIRST_PAUSE_MS; ; ) {
      if (FAILED.has(status)) throw new StoreAdminError(`Export ${created.id} is ${status}; it will not become available`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new StoreAdminError(`Export ${created.id} is still ${status} after ${formatDuration(timeoutMs)}`, {
          hint: `Fetch it later: store-admin exports download ${created.id} --output-file FILE (or wait longer with --wait-timeout)`,
        });
      }
      await sleep(Math.min(pause, left), undefined, { signal });
      await limiter.acquire();
      try {
        current = await client.call('exports.get', { params: { id: created.id } }, { signal });
      } catch (error) {
        // Over the rate limit even after the client's own retries: hold back as long as the store
        // asks, then poll again at the same pace (the pause grows only with answers).
        if (error instanceof ApiError && error.status === 429) {
          // Never past the deadline: a timer cannot hold a wait of years (Retry-After: 99999999999999999999).
          limiter.pause(Math.min(retryAfterMs(error.headers['retry-after']) ?? FIRST_PAUSE_MS, Math.max(0, deadline - Date.now())));
          continue;
        }
        throw error;
      }
      status = String((current as ExportState).status ?? 'unknown');
      if (status === 'available') return current;
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  } finally {
    stop();
  }
}

/** `90`, `90s`, `10m`, `1h` (whole numbers; a bare number is seconds) → milliseconds. */
export function parseDuration(value: string): number {
  const match = /^\s*(\d{1,6})\s*(s|m|h)?\s*$/i.exec(value);
  if (!match || Number(match[1]) === 0) throw new InvalidArgumentError('takes a duration such as 90s, 10m or 1h');
  const unit = (match[2] ?? 's').toLowerCase();
  return Number(match[1]) * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000);
}

function formatDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s` : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
