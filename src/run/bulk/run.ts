// --each: one operation per input line, at a bounded concurrency and rate: a JSON line per item on
// stdout (a short line per item on a terminal), progress on stderr and a summary at the end.
// Every line is validated before anything is sent; Ctrl-C, SIGTERM or a closed stdout stop taking
// new lines and let those in flight finish, and so does a token the store refuses. Lines to run
// again are appended to the --failed file as they fail, so a run cut short loses none.
import { closeSync, openSync, realpathSync, writeSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { ApiError, AuthError, InterruptedError, NotStartedError, StoreAdminError, UsageError } from '../../api/errors.js';
import { operation } from '../../api/operations.js';
import type { StoreClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { RunFlags } from './flags.js';
import { addHint } from '../auth-hint.js';
import { confirm } from '../confirm.js';
import { commandName, type OperationCommand } from '../spec.js';
import { textFrom } from '../../fields/values.js';
import { mayHaveApplied } from '../../journal/history.js';
import { bulkSettings, type BulkSettings } from './flags.js';
import { readItems, type Item } from './input.js';
import { journalFor, type Journaling } from './journaling.js';
import type { RunJournal } from '../../journal/run-journal.js';
import { failureReason, groupedReasons, shortLine } from './outcomes.js';
import { duration, progressBar, shownRate, type Progress } from './progress.js';
import { throttleNotice, tuning, type Throttle } from './pace.js';
import { resumeCommand } from './resume.js';

export async function runBulk(spec: OperationCommand, ctx: Context, fixed: string[], opts: RunFlags): Promise<void> {
  const { options, io } = ctx;
  const source = String(opts.each);
  const text = await textFrom(source, '--each', io);
  const { items: all, header } = await readItems(spec, ctx, fixed, opts, source, text);
  if (all.length === 0) throw new UsageError(`--each ${source}: no input lines`);

  const settings = bulkSettings(opts);
  const client = await ctx.client();
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

/** A run under way: what it sends through, and what became of each line so far. */
interface Run {
  spec: OperationCommand;
  ctx: Context;
  opts: RunFlags;
  client: StoreClient;
  items: Item[];
  journal: RunJournal | undefined;
  redo: ReturnType<typeof redoFile> | undefined;
  /** The next line to send. */
  next: number;
  succeeded: number;
  failed: Item[];
  /** Changes whose answer was lost: they may have been applied, so they are named, not re-run. */
  unknown: Item[];
  /** Lines stopped while they waited for their turn: nothing of them was sent. */
  waiting: Item[];
  reasons: string[];
  /** The store refused the token: every other line would be refused the same way. */
  refusal?: StoreAdminError;
  refused: AbortController;
  /** The first Ctrl-C (or SIGTERM, or a closed stdout, or a refused token) stops taking new lines, even one already waiting for its turn. */
  stop: AbortSignal;
  throttle: Throttle;
  started: number;
  /** On --resume, the lines left out because their answers were lost: the run is not complete. */
  leftUnknown: number;
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
  const { items } = journaling;
  if (items.length === 0) return;
  await confirmLines(spec, ctx, items);
  // Opened (and emptied) only now, once it is sure the run goes ahead; never the input itself.
  const redo = opts.failed === undefined ? undefined : redoFile(String(opts.failed), header);
  const journal = await journaling.open();
  const progress = ctx.options.quiet ? { tick() {}, pause() {}, done() {} } : progressBar(ctx.output.status, items.length, settings.rate);
  const throttle = throttleNotice(ctx.output.prose, () => progress);
  const refused = new AbortController();
  const run: Run = {
    spec,
    ctx,
    opts,
    client: client.with(tuning(settings, throttle)),
    items,
    journal,
    redo,
    next: 0,
    succeeded: 0,
    failed: [],
    unknown: [],
    waiting: [],
    reasons: [],
    refused,
    stop: AbortSignal.any([ctx.signal, refused.signal]),
    throttle,
    started: Date.now(),
    leftUnknown: journaling.leftUnknown,
  };
  // Every request in flight listens to these: more than Node's default of ten at a high concurrency.
  setMaxListeners(4 * settings.concurrency + 16, run.stop, ctx.forceSignal);
  const sink = await recordSink(ctx);
  try {
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, items.length) }, () => worker(run, sink, progress)));
  } finally {
    sink.end();
    progress.done();
  }
  report(run, settings);
}

/** A review is a second look for a person at a single run; a run of many lines asks only what cannot be undone, for each line (a CSV column can make any row irreversible). */
async function confirmLines(spec: OperationCommand, ctx: Context, items: Item[]): Promise<void> {
  const asked = items.flatMap((item) => {
    const said = spec.confirm?.(item.input);
    return typeof said === 'string' ? [said] : [];
  });
  if (asked.length === 0 || ctx.options.yes) return;
  const [first] = asked as [string];
  const count = asked.length === items.length ? `${items.length} in all` : `${asked.length} of ${items.length} lines`;
  await confirm(ctx, asked.length === 1 ? first : `${first.replace(/[.?]$/, '')} — and the same for ${asked.length - 1} more (${count}).`);
}

/**
 * Where results go as their answers come, after the journal has recorded them: on a terminal, a
 * short line per result above the progress bar; elsewhere, a JSON line each, its answer run
 * through --query.
 */
function recordSink(ctx: Context) {
  return ctx.output.records<Record<string, unknown>>({
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
}

/** Takes lines one at a time until none is left or the run stops. */
async function worker(run: Run, sink: Awaited<ReturnType<typeof recordSink>>, progress: Progress) {
  while (!run.stop.aborted && run.next < run.items.length) {
    const item = run.items[run.next++]!;
    const result = await sendLine(run, item);
    if (!result) continue;
    sink.write(result);
    progress.tick();
  }
}

/** One line's operation, as the JSON line that reports it (none for a line stopped before it was sent). */
async function sendLine(run: Run, item: Item): Promise<Record<string, unknown> | undefined> {
  const { spec, journal } = run;
  let status: number | undefined;
  try {
    const data = await run.client.send(item.input.call, {
      // A second Ctrl-C aborts the requests in flight.
      signal: run.ctx.forceSignal,
      startSignal: run.stop,
      onStatus: (s) => (status = s),
      onSend: () => journal?.sent(item.line),
    });
    run.succeeded++;
    journal?.outcome(item.line, 'applied', { input: item.values, status });
    return { line: item.line, input: item.values, ok: true, status, data: spec.present ? spec.present(data, run.opts) : data };
  } catch (error) {
    if (error instanceof NotStartedError) {
      run.waiting.push(item);
      return undefined;
    }
    return lineFailed(run, item, error, status);
  }
}

/** Records a line that failed (or whose answer was lost) and stops the run on a refused token. */
async function lineFailed(run: Run, item: Item, error: unknown, status: number | undefined): Promise<Record<string, unknown>> {
  const { spec, journal } = run;
  // A read cannot have changed anything, whatever became of it.
  const lost = operation(spec.operation).method !== 'GET' && mayHaveApplied(error);
  if (lost) run.unknown.push(item);
  else {
    run.failed.push(item);
    run.redo?.add(item.text);
  }
  if (!(error instanceof InterruptedError)) run.reasons.push(failureReason(error));
  journal?.outcome(item.line, lost ? 'unknown' : 'failed', {
    input: item.values,
    ...(error instanceof ApiError ? { status: error.status } : {}),
    reason: error instanceof StoreAdminError ? error.message : String(error),
  });
  if (error instanceof ApiError) addHint(error, operation(spec.operation), await run.ctx.grant());
  if (!run.refusal && (error instanceof AuthError || (error instanceof ApiError && (error.status === 401 || error.status === 403)))) {
    run.refusal = error;
    run.refused.abort();
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

/** The summary of a finished run, and the error its exit code comes from. */
function report(run: Run, settings: BulkSettings): void {
  const { ctx, opts, items, failed, unknown, journal, redo, spec } = run;
  const notStarted = [...run.waiting, ...items.slice(run.next)].sort((a, b) => a.line - b.line);
  for (const item of notStarted) redo?.add(item.text);
  redo?.close();
  journal?.end();
  const seconds = (Date.now() - run.started) / 1000;
  const parts = [`${run.succeeded} succeeded`, `${failed.length} failed`];
  if (unknown.length > 0) parts.push(`${unknown.length} with an unknown outcome`);
  if (notStarted.length > 0) parts.push(`${notStarted.length} not started`);
  const waited = run.throttle.count > 0 ? `; waited out ${run.throttle.count} × 429` : '';
  ctx.output.prose(`${commandName(spec)}: ${plural(items.length, 'line')} — ${parts.join(', ')} in ${duration(seconds)} (${shownRate(run.next, seconds, settings.rate)})${waited}`);
  if (run.reasons.length > 0) ctx.output.prose(`Failures: ${groupedReasons(run.reasons)}`);
  if (unknown.length > 0) {
    ctx.output.prose(`Lines ${unknown.map((item) => item.line).join(', ')} may or may not have been applied (their answers were lost): check them before running them again`);
  }
  const again = failed.length + notStarted.length;
  if (redo && again > 0) ctx.output.prose(`The ${plural(again, 'line')} to run again are in ${opts.failed}`);
  if (run.refusal) {
    throw new AuthError(`Stopped: the store refused the token (${run.refusal.message}); ${plural(notStarted.length, 'line')} not started`, { hint: run.refusal.hint });
  }
  if (run.stop.aborted) {
    const interrupted = new InterruptedError(`Interrupted: ${plural(notStarted.length, 'line')} not started${failed.length ? `, ${failed.length} failed` : ''}; every line that ran is reported above`);
    // The very command that picks the run up, as it would be typed again.
    if (journal) interrupted.hint = `Resume with: ${resumeCommand(ctx.argv, journal.header.id)}`;
    throw interrupted;
  }
  const bad = failed.length + unknown.length;
  if (bad > 0) throw new StoreAdminError(`${bad} of ${items.length} failed`, opts.failed === undefined ? { hint: 'Pass --failed FILE to collect them for a re-run' } : {});
  const { leftUnknown } = run;
  if (leftUnknown > 0) {
    throw new StoreAdminError(`${plural(leftUnknown, 'line')} with an unknown outcome ${leftUnknown === 1 ? 'was' : 'were'} left out, so the run is not complete`, {
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
