// --each: one operation per input line, at a bounded concurrency and rate: a JSON line per item on
// stdout (a short line per item on a terminal), progress on stderr and a summary at the end.
// Every line is validated before anything is sent; Ctrl-C, SIGTERM or a closed stdout stop taking
// new lines and let those in flight finish, and so does a token the store refuses. Lines to run
// again are appended to the --failed file as they fail, so a run cut short loses none.
import { closeSync, openSync, realpathSync, writeSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { ApiError, AuthError, InterruptedError, NotStartedError, StoreAdminError, UsageError } from '../../api/errors.js';
import { operation } from '../../api/operations.js';
import type { ClientSettings, StoreClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { RunFlags } from './flags.js';
import { addHint } from '../auth-hint.js';
import { confirm } from '../confirm.js';
import { commandName, type OperationCommand } from '../spec.js';
import { textFrom } from '../../fields/values.js';
import { mayHaveApplied } from '../../journal/history.js';
import { rateLimiter } from '../limiter.js';
import { bulkSettings, type BulkSettings } from './flags.js';
import { readItems, type Item } from './input.js';
import { journalFor, type Journaling } from './journaling.js';
import { failureReason, groupedReasons, shortLine } from './outcomes.js';
import { duration, progressBar, shownRate } from './progress.js';
import { resumeCommand } from './resume.js';

export async function runBulk(spec: OperationCommand, ctx: Context, fixed: string[], opts: RunFlags): Promise<void> {
  const { options, io } = ctx;
  const source = String(opts.each);
  const text = await textFrom(source, '--each', io);
  const { items: all, header } = await readItems(spec, ctx, fixed, opts, source, text);
  if (all.length === 0) throw new UsageError(`--each ${source}: no input lines`);

  const settings = bulkSettings(opts);
  const client = (await ctx.client()).with(tuning(settings, ctx.output.prose));
  if (options.dryRun) {
    const { dryRunRecord, printDryRuns } = await import('../dry-run.js');
    const records = [];
    for (const item of all) records.push(dryRunRecord(client.request(item.input.call), item.values));
    return printDryRuns(records, ctx);
  }
  if (opts.failed !== undefined && source !== '-' && sameFile(String(opts.failed), source)) {
    throw new UsageError(`--failed ${opts.failed} is the --each file itself: it would be emptied before the run`, {
      hint: 'Write the lines to run again to another file, e.g. --failed retry-2.txt',
    });
  }
  const journaling = await journalFor(spec, ctx, opts, { source, text, all });
  try {
    await sendLines(spec, ctx, client, opts, settings, journaling, header);
  } finally {
    journaling.release();
  }
}

/** Sends the lines the journaling left to send, and reports each, then the run. */
async function sendLines(
  spec: OperationCommand,
  ctx: Context,
  client: StoreClient,
  opts: RunFlags,
  settings: BulkSettings,
  journaling: Journaling,
  header: string | undefined,
): Promise<void> {
  const { options } = ctx;
  const { items } = journaling;
  if (items.length === 0) return;
  // A review is a second look for a person at a single run; a run of many lines asks only what cannot be undone.
  // Each line is asked about, not the first alone: a CSV column can make any row irreversible.
  const asked = items.flatMap((item) => {
    const said = spec.confirm?.(item.input);
    return typeof said === 'string' ? [said] : [];
  });
  if (asked.length > 0 && !options.yes) {
    const [first] = asked as [string];
    const count = asked.length === items.length ? `${items.length} in all` : `${asked.length} of ${items.length} lines`;
    await confirm(ctx, asked.length === 1 ? first : `${first.replace(/[.?]$/, '')} — and the same for ${asked.length - 1} more (${count}).`);
  }
  // Opened (and emptied) only now, once it is sure the run goes ahead; never the input itself.
  const redo = opts.failed === undefined ? undefined : redoFile(String(opts.failed), header);
  const journal = await journaling.open();

  const progress = options.quiet ? { tick() {}, done() {} } : progressBar(ctx.output.status, items.length, settings.rate);
  const failed: Item[] = [];
  const reasons: string[] = [];
  // Changes whose answer was lost: they may have been applied, so they are named, not re-run.
  const unknown: Item[] = [];
  let next = 0;
  let succeeded = 0;
  // The first Ctrl-C (or SIGTERM, or a closed stdout) stops taking new lines, even one already
  // waiting for its turn; a second aborts those in flight. A token the store refuses stops the
  // run too: every other line would be refused the same way.
  const refused = new AbortController();
  const stop = AbortSignal.any([ctx.signal, refused.signal]);
  let refusal: StoreAdminError | undefined;
  const { forceSignal } = ctx;
  // Every request in flight listens to these: more than Node's default of ten at a high concurrency.
  setMaxListeners(4 * settings.concurrency + 16, stop, forceSignal);
  const waiting: Item[] = [];
  const started = Date.now();

  /** One line's operation, as the JSON line that reports it. */
  const attempt = async (item: Item): Promise<Record<string, unknown> | undefined> => {
    let status: number | undefined;
    try {
      const data = await client.send(item.input.call, {
        signal: forceSignal,
        startSignal: stop,
        onStatus: (s) => (status = s),
        onSend: () => journal?.sent(item.line),
      });
      succeeded++;
      journal?.outcome(item.line, 'applied', { input: item.values, status });
      return { line: item.line, input: item.values, ok: true, status, data: spec.present ? spec.present(data, opts) : data };
    } catch (error) {
      if (error instanceof NotStartedError) {
        waiting.push(item);
        return undefined;
      }
      // A read cannot have changed anything, whatever became of it.
      const lost = operation(spec.operation).method !== 'GET' && mayHaveApplied(error);
      if (lost) unknown.push(item);
      else {
        failed.push(item);
        redo?.add(item.text);
      }
      if (!(error instanceof InterruptedError)) reasons.push(failureReason(error));
      journal?.outcome(item.line, lost ? 'unknown' : 'failed', {
        input: item.values,
        ...(error instanceof ApiError ? { status: error.status } : {}),
        reason: error instanceof StoreAdminError ? error.message : String(error),
      });
      if (error instanceof ApiError) addHint(error, operation(spec.operation), await ctx.grant());
      if (!refusal && (error instanceof AuthError || (error instanceof ApiError && (error.status === 401 || error.status === 403)))) {
        refusal = error;
        refused.abort();
      }
      const described = error instanceof StoreAdminError ? error : new StoreAdminError(String(error));
      return {
        line: item.line,
        input: item.values,
        ok: false,
        ...(lost ? { outcome: 'unknown' } : {}),
        status: error instanceof ApiError ? error.status : (status ?? null),
        error: { message: described.message, type: described.name, exitCode: described.exitCode },
      };
    }
  };

  // On a terminal, a short line per result above the progress bar; elsewhere, a JSON line each,
  // its answer run through --query. Each is handed over as its answer comes, after the journal
  // has recorded it.
  const sink = await ctx.output.records<Record<string, unknown>>({
    text: (record) => `${shortLine(record.input as string[], record as never)}\n`,
    query: (record, search) => {
      if (!record.ok) return record;
      // The change is done whatever the query makes of its answer: a failing query is noted, not a failure.
      try {
        return { ...record, data: search(record.data) };
      } catch (error) {
        return { ...record, queryError: (error as Error).message };
      }
    },
  });
  const worker = async () => {
    while (!stop.aborted && next < items.length) {
      const item = items[next++]!;
      const result = await attempt(item);
      if (!result) continue;
      sink.write(result);
      progress.tick();
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, items.length) }, worker));
  } finally {
    sink.end();
    progress.done();
  }

  const notStarted = [...waiting, ...items.slice(next)].sort((a, b) => a.line - b.line);
  for (const item of notStarted) redo?.add(item.text);
  redo?.close();
  journal?.end();
  const seconds = (Date.now() - started) / 1000;
  const parts = [`${succeeded} succeeded`, `${failed.length} failed`];
  if (unknown.length > 0) parts.push(`${unknown.length} with an unknown outcome`);
  if (notStarted.length > 0) parts.push(`${notStarted.length} not started`);
  ctx.output.prose(`${commandName(spec)}: ${plural(items.length, 'line')} — ${parts.join(', ')} in ${duration(seconds)} (${shownRate(next, seconds, settings.rate)})`);
  if (reasons.length > 0) ctx.output.prose(`Failures: ${groupedReasons(reasons)}`);
  if (unknown.length > 0) {
    ctx.output.prose(`Lines ${unknown.map((item) => item.line).join(', ')} may or may not have been applied (their answers were lost): check them before running them again`);
  }
  const again = failed.length + notStarted.length;
  if (redo && again > 0) ctx.output.prose(`The ${plural(again, 'line')} to run again are in ${opts.failed}`);
  if (refusal) {
    throw new AuthError(`Stopped: the store refused the token (${refusal.message}); ${plural(notStarted.length, 'line')} not started`, { hint: refusal.hint });
  }
  if (stop.aborted) {
    const interrupted = new InterruptedError(`Interrupted: ${plural(notStarted.length, 'line')} not started${failed.length ? `, ${failed.length} failed` : ''}; every line that ran is reported above`);
    // The very command that picks the run up, as it would be typed again.
    if (journal) interrupted.hint = `Resume with: ${resumeCommand(ctx.argv, journal.header.id)}`;
    throw interrupted;
  }
  const bad = failed.length + unknown.length;
  if (bad > 0) throw new StoreAdminError(`${bad} of ${items.length} failed`, opts.failed === undefined ? { hint: 'Pass --failed FILE to collect them for a re-run' } : {});
  if (journaling.leftUnknown > 0) {
    throw new StoreAdminError(`${plural(journaling.leftUnknown, 'line')} with an unknown outcome ${journaling.leftUnknown === 1 ? 'was' : 'were'} left out, so the run is not complete`, {
      hint: 'Check them on the store, then --resume --retry-unknown if they were not applied',
    });
  }
}

/**
 * The --failed file, emptied at the start and appended to line by line as lines fail, so that a
 * run cut short keeps every line it learned of. (It may not be the --each file: that would be
 * emptied while it is still the only record of the lines not yet run.)
 */
function redoFile(path: string, header: string | undefined) {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (error) {
    throw new UsageError(`--failed: cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // A CSV file's lines mean nothing without its header row.
  if (header !== undefined) writeSync(fd, `${header}\n`);
  return {
    // One write per line goes straight to the file: nothing waits in a buffer for the end.
    add: (text: string) => writeSync(fd, `${text}\n`),
    close: () => closeSync(fd),
  };
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Client settings for bulk work: a shared rate limit that a 429 pauses for everyone. */
function tuning(settings: BulkSettings, note: (message: string) => void): ClientSettings {
  const limiter = rateLimiter(settings.rate);
  return {
    // Thousands of answers are passed through as lines; checking each shape would cost more than the request.
    checkResponses: false,
    beforeAttempt: () => limiter.acquire(),
    onRetry: ({ delayMs, reason }: { delayMs: number; reason: string }) => {
      if (!reason.startsWith('429')) return;
      limiter.pause(delayMs);
      note(`${reason}: every worker pauses ${(delayMs / 1000).toFixed(1)} s`);
    },
  };
}
