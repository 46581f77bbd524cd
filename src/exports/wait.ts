// Waiting for an export (`exports create --wait / --download`, `exports download --wait`): the
// platform answers a new export `pending` and makes it `available` later, so the command polls
// `GET /exports/{id}/` under the rate limiter, with a pause that grows with the time waited.
import { ApiError, StoreAdminError, TimedOutError, UsageError } from '../api/errors.js';
import { retryAfterMs } from '../api/retry.js';
import { DEFAULTS } from '../defaults.js';
import { rateLimiter } from '../run/limiter.js';
import type { Context } from '../context.js';
import { finishLater, stopped } from './later.js';
import { durationMs, formatDuration, nextPause, POLL } from '../polling.js';

export const DEFAULT_TIMEOUT = '30m';
/** Statuses after which waiting is pointless; the guide names only pending and available. */
const FAILED = new Set(['failed', 'error', 'canceled', 'cancelled', 'expired']);

/** Off a terminal (a CI log), a line at least this often says the wait goes on. */
export const STILL_WAITING_MS = 60_000;

/**
 * Whether a poll at `waitedMs` prints the "still waiting" line, the last one having been printed
 * at `lastLineMs`: when the next poll might come too late for the next line.
 */
export function lineDue(waitedMs: number, lastLineMs: number): boolean {
  return waitedMs + nextPause(waitedMs) + POLL.firstMs >= lastLineMs + STILL_WAITING_MS;
}

interface ExportState {
  id: number;
  status?: unknown;
}

/** What `exports create` asks of the wait: its flags as parsed (commands/exports.ts declares them). */
export interface CreateWait {
  wait?: true;
  waitTimeout?: number;
  download?: string;
  force?: true;
}

/** What `exports download` asks of the wait and the file. */
export interface DownloadWait {
  wait?: true;
  waitTimeout?: number;
  outputFile?: string;
  force?: true;
}

/** Runs before anything is sent: a file that cannot be written fails before the export is created. */
export async function checkWaitOptions(opts: CreateWait): Promise<void> {
  if (opts.force && opts.download === undefined) throw new UsageError('--force goes with --download');
  if (opts.waitTimeout !== undefined && !opts.wait && opts.download === undefined) {
    throw new UsageError('--wait-timeout goes with --wait or --download');
  }
  if (opts.download === undefined) return;
  const { checkTarget } = await import('./download.js');
  await checkTarget({ file: opts.download, force: !!opts.force }, '--download');
}

/**
 * After the export is created: waits and downloads as asked. Returns what to print on stdout:
 * the export as it stands at the end (with what was saved), or nothing when stdout carries the file.
 */
export async function settleExport(data: unknown, opts: CreateWait, ctx: Context): Promise<{ data: unknown } | undefined> {
  const { createdExportId, usableExportId } = await import('./download.js');
  const { setOutputs } = await import('../output/github-actions.js');
  // Without a wait the answer is shown as it came; the id must be usable only to go on.
  if (!opts.wait && opts.download === undefined) {
    const usable = await usableExportId(data);
    if (usable !== undefined) setOutputs(ctx.io, { export_id: usable });
    return { data };
  }
  const id = await createdExportId(data);
  // At once: a later step can finish a wait that gives up.
  setOutputs(ctx.io, { export_id: id });
  const file = opts.download;
  const later = finishLater(id, file, !!opts.force);
  const available = await waitUntilAvailable({ id, status: (data as ExportState).status }, opts, ctx, later);
  if (file === undefined) return { data: available };
  const { downloadExport, reportDownload } = await import('./download.js');
  const saved = await downloadExport(id, { file, force: !!opts.force }, ctx, { later });
  if (!saved) return undefined;
  await reportDownload(ctx, saved);
  return file === '-' ? undefined : { data: { ...(available as object), download: { path: saved.path, bytes: saved.bytes, sha256: saved.sha256 } } };
}

/** `exports download --wait`: before the link is asked for, waits until the export is available. */
export async function waitBeforeDownload(opts: DownloadWait, ctx: Context, input: { params: { id: number } }): Promise<void> {
  if (!opts.wait) return;
  const { id } = input.params;
  const { outputOf } = await import('./download.js');
  const later = finishLater(id, outputOf(opts, id), !!opts.force);
  const client = await ctx.client();
  let current: ExportState;
  try {
    current = (await client.call('exportsRetrieve', { params: { id } }, { signal: ctx.signal })) as ExportState;
  } catch (error) {
    if (ctx.signal.aborted) throw stopped(`Stopped waiting for export ${id}`, later);
    throw error;
  }
  await waitUntilAvailable({ id, status: current.status }, opts, ctx, later);
}

/** Polls until the export is available, within --wait-timeout; Ctrl-C or SIGTERM stop it. */
async function waitUntilAvailable(created: ExportState, opts: { waitTimeout?: number }, ctx: Context, later: string): Promise<unknown> {
  const timeoutMs = opts.waitTimeout ?? durationMs(DEFAULT_TIMEOUT)!;
  try {
    return await poll(created, ctx, timeoutMs, later);
  } catch (error) {
    if (ctx.signal.aborted) throw stopped(`Stopped waiting for export ${created.id}`, later);
    throw error;
  }
}

async function poll(created: ExportState, ctx: Context, timeoutMs: number, later: string): Promise<unknown> {
  const { signal, clock } = ctx;
  let current: unknown = created;
  let status = String(created.status ?? 'unknown');
  if (status === 'available') return current;
  const client = await ctx.client();
  const limiter = rateLimiter(DEFAULTS.rate, clock);
  const started = clock.now();
  const waited = () => clock.now() - started;
  const inLog = !ctx.io.stderr.isTTY;
  if (inLog) ctx.output.prose(`Export ${created.id} is ${status}; waiting until it is available (at most ${formatDuration(timeoutMs)})`);
  let lastLine = 0;
  const stop = ctx.output.spinner(() => `Waiting for export ${created.id} (${status}, ${formatDuration(waited())})… Ctrl-C to stop`);
  try {
    for (;;) {
      if (FAILED.has(status)) throw new StoreAdminError(`Export ${created.id} is ${status}; it will not become available`);
      const left = timeoutMs - waited();
      if (left <= 0) {
        throw new TimedOutError(`Gave up waiting for export ${created.id} after ${formatDuration(timeoutMs)}: it is still ${status}`, {
          hint: `The export goes on; fetch it later: ${later}`,
        });
      }
      await clock.sleep(Math.min(nextPause(waited()), left), signal);
      await limiter.acquire();
      try {
        current = await client.call('exportsRetrieve', { params: { id: created.id } }, { signal });
      } catch (error) {
        // Over the rate limit even after the client's own retries: hold back as long as the store
        // asks, then poll again.
        if (error instanceof ApiError && error.status === 429) {
          // Never past the deadline: a timer cannot hold a wait of years (Retry-After: 99999999999999999999).
          limiter.pause(Math.min(retryAfterMs(error.headers['retry-after']) ?? POLL.firstMs, Math.max(0, timeoutMs - waited())));
          continue;
        }
        throw error;
      }
      status = String((current as ExportState).status ?? 'unknown');
      if (status === 'available') return current;
      if (inLog && lineDue(waited(), lastLine)) {
        lastLine = waited();
        ctx.output.prose(`Export ${created.id} is still ${status} after ${formatDuration(lastLine)}`);
      }
    }
  } finally {
    stop();
  }
}
