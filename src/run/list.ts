// A list command's run: one page by default, saying how to get more; --all follows the pages to the
// end, and --limit N until N records. Pages are asked for at the platform's rate (the bulk
// limiter) and each page's records go out as it arrives, never gathered (src/output/list.ts).
// Ctrl-C stops at once: the request in flight is abandoned and what was printed stays whole.
import { ApiError, InterruptedError } from '../api/errors.js';
import { operation } from '../api/operations.js';
import { cursorOf, pagesOf } from '../api/pages.js';
import type { StoreClient } from '../api/client.js';
import type { Context } from '../context.js';
import { DEFAULTS } from '../defaults.js';
import { addHint } from './auth-hint.js';
import type { FlagsOf } from '../options.js';
import type { RunFlags } from './bulk/flags.js';
import type { LIST_FLAGS } from './list-flags.js';
import { rateLimiter } from './limiter.js';
import type { Checked } from './prepare-input.js';
import type { OperationCommand } from './spec.js';

/** A list command's own flags, as Commander parses them. */
export type ListFlags = RunFlags & FlagsOf<typeof LIST_FLAGS>;

export async function runList(spec: OperationCommand, ctx: Context, client: StoreClient, input: Checked, opts: ListFlags): Promise<void> {
  const { limit } = opts;
  const follow = opts.all === true || limit !== undefined;
  const sink = await ctx.output.list({ ...(spec.view ? { view: spec.view } : {}), stream: follow });
  const limiter = rateLimiter(DEFAULTS.rate);
  // Waiting for the rate is given up at Ctrl-C as the request itself is.
  const turn = () => untilStopped(limiter.acquire(), ctx.signal);
  let shown = 0;
  let next: string | undefined;
  let cut = false;
  let started = false;
  let stop = ctx.output.spinner('Fetching…');
  try {
    // Pages followed to the end are passed through as they come, as a bulk run's answers are:
    // checking thousands of records' shape would cost more than asking for them.
    const reader = follow ? client.with({ checkResponses: false }) : client;
    for await (const page of pagesOf(reader, input.call, { signal: ctx.signal, turn })) {
      stop();
      started = true;
      let records = page.results ?? [];
      if (limit !== undefined && shown + records.length >= limit) {
        cut = shown + records.length > limit || !!page.next;
        records = records.slice(0, limit - shown);
      }
      // Pages followed to the end (or cut at --limit) are one page with no links of its own.
      const links = follow ? { next: null, previous: null } : { next: page.next ?? null, previous: page.previous ?? null };
      sink.page(spec.present ? (spec.present(records, opts) as unknown[]) : records, links);
      shown += records.length;
      if (!follow) next = cursorOf(page.next);
      if (!follow || (limit !== undefined && shown >= limit)) break;
      stop = ctx.output.spinner(`Fetching… (${shown} so far)`);
    }
    stop();
  } catch (error) {
    stop();
    // A reader that went away (`| head`) wanted no more: nothing is wrong.
    if (ctx.signal.reason === 'EPIPE') return;
    if (error instanceof ApiError) addHint(error, operation(spec.operation), await ctx.grant());
    // What was printed is closed whole (an array's bracket, a table's border); nothing is shown of a list cut short that was not printed yet.
    if (started && follow) await sink.end(false);
    throw error;
  }
  await sink.end(true);
  if (next !== undefined) ctx.output.prose(`${shown} shown; for more: --all for every page, --limit N for N records, or --cursor ${next} for the next page`);
  else if (cut) ctx.output.prose(`Stopped at --limit ${limit}; there are more (--all for every one)`);
}

/** A wait that ends with Ctrl-C (or a closed stdout): the run stops at once, not after its turn comes. */
async function untilStopped(wait: Promise<void> | undefined, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw new InterruptedError('Interrupted');
  if (!wait) return;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([wait, new Promise<never>((_, reject) => signal.addEventListener('abort', (onAbort = () => reject(new InterruptedError('Interrupted'))), { once: true }))]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
