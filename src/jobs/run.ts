// A job's run, for every job alike. Its lines come from a file, the ids given, a list's selection
// or a saved plan; each is checked (reads only) and classified; the plan's summary is printed and
// its file written; one confirmation covers the batch; the lines to change are applied, those that
// wait (a fulfillment order's cancellation) polled until they can go on or their time is up; a
// report says what became of each line. Every request goes at the platform's rate through the
// --each pace; the journal records each line's plan, each change before it leaves and each outcome,
// so that --resume applies every line once: a line whose change was sent without an answer kept is
// checked again, and the store's state says whether it was applied.
import { setMaxListeners } from 'node:events';
import { ApiError, AuthError, InterruptedError, NotStartedError, StoreAdminError, TimedOutError, UsageError } from '../api/errors.js';
import type { OperationId } from '../api/operations.js';
import type { OperationInput } from '../api/types.js';
import { configDir } from '../config/paths.js';
import type { Context } from '../context.js';
import type { FlagTable } from '../options.js';
import { DEFAULTS } from '../defaults.js';
import { textFrom } from '../fields/values.js';
import { appendHistory, mayHaveApplied } from '../journal/history.js';
import { newRunId, readRun, RunJournal, runIds, sha256, type RunHeader, type RunRecord } from '../journal/run-journal.js';
import { nextPause } from '../polling.js';
import { pagesOf } from '../api/pages.js';
import { printableLine } from '../printable.js';
import { lockRun } from '../run/bulk/journaling.js';
import { groupedReasons } from '../run/bulk/outcomes.js';
import { throttleNotice, tuning } from '../run/bulk/pace.js';
import { duration, progressBar, shownRate, type Progress } from '../run/bulk/progress.js';
import { findRun, resumeCommand } from '../run/bulk/resume.js';
import { confirm } from '../run/confirm.js';
import { checkWritable, readPlan, summariseReport, withoutAddresses, writePlan, writeReport, type PlanRow, type ReportRow } from './files.js';
import { linesOfKeys, linesOfText } from './input.js';
import { APPLIED_CLASSES, CLASSES, keyOf, type Earlier, type Job, type JobIO, type JobLine, type LineClass, type Verdict } from './job.js';

/** The flags every job takes (src/commands/job-command.ts declares them). */
export interface JobFlags {
  each?: string;
  plan?: string;
  planOnly?: true;
  applyPlan?: string;
  report?: string;
  concurrency?: number;
  rate?: number;
  resume?: string | true;
}

/** Where the lines come from when no file or plan gives them: the ids given, or a list's selection. */
export interface Given<Settings> {
  keys: readonly string[];
  /** The settings the job's own flags give (not read for --apply-plan: the plan's are used). */
  settings(): Settings;
  /** The job's own flags (refused with --apply-plan, whose plan says how each line is changed). */
  settingFlags: FlagTable;
  /** The list filters given, in words (`--status past_due`): the journal keeps them, and a resume finds its run by them. */
  selection?: string;
  /** The keys of the objects the filters select, read with `list` (every page of a list operation). */
  select?: (list: ListRecords) => Promise<string[]>;
}

/** Every record of a list operation's pages, at the run's pace. */
export type ListRecords = (id: OperationId, query: Record<string, unknown>) => Promise<Record<string, unknown>[]>;

/** A line's end in this run. */
interface Result {
  outcome: ReportRow['outcome'];
  class: LineClass | '';
  reason: string;
  /** The change was sent and its answer lost: it may have been applied (said, and resumable). */
  unknown?: boolean;
  /** Left waiting for its location past the deadline. */
  timedOut?: boolean;
  notStarted?: boolean;
}

/** Runs beyond this many lines show no line's details (a refund's amounts): the plan file has them. */
const DETAILED_LINES = 20;

export async function runJob<Settings, Target>(job: Job<Settings, Target>, ctx: Context, opts: JobFlags & Record<string, unknown>, given: Given<Settings>): Promise<void> {
  const planOnly = !!opts.planOnly || !!ctx.options.dryRun;
  checkFlags(opts, given, planOnly);
  if (opts.plan !== undefined) checkWritable(opts.plan, '--plan');
  if (opts.report !== undefined) checkWritable(opts.report, '--report');

  const { store, profile } = await ctx.destination();
  const client = await ctx.client();
  const rate = opts.rate ?? DEFAULTS.rate;
  const concurrency = opts.concurrency ?? DEFAULTS.concurrency;
  let progress: Pick<Progress, 'pause'> = { pause() {} };
  const throttle = throttleNotice(ctx.output.prose, () => progress);
  // Every attempt is counted, retries included: the rate the summary shows is what the store saw.
  let requests = 0;
  const pace = tuning({ rate }, throttle);
  const paced = client.with({
    ...pace,
    beforeAttempt: async () => {
      await pace.beforeAttempt!();
      requests++;
    },
  });
  const refused = new AbortController();
  const stop = AbortSignal.any([ctx.signal, refused.signal]);
  setMaxListeners(4 * concurrency + 16, stop, ctx.forceSignal);
  const read: JobIO['read'] = <Id extends OperationId>(id: Id, input: OperationInput<Id>) => paced.call(id, input, { signal: stop });
  const remembered = new Map<string, Promise<unknown>>();
  const remember: JobIO['remember'] = <T>(key: string, get: () => Promise<T>) => {
    if (!remembered.has(key)) remembered.set(key, get());
    return remembered.get(key) as Promise<T>;
  };

  // A saved plan says how its lines are changed; otherwise the job's flags do.
  const plan = opts.applyPlan === undefined ? undefined : await planIn(job, ctx, opts.applyPlan, store);
  const chosen = plan ? (plan.header.settings as Settings) : given.settings();
  // Never a prompt without a terminal: a run that would ask is refused before anything is read.
  if (!planOnly && !ctx.options.yes && !ctx.interactive) await confirm(ctx, `${job.intent(chosen)}.`);
  // The input: a plan, a file, the ids given, or what a list selects.
  const list: ListRecords = async (id, query) => {
    const records: Record<string, unknown>[] = [];
    for await (const page of pagesOf(paced, await paced.prepare(id, { query } as never), { signal: stop })) records.push(...((page.results ?? []) as Record<string, unknown>[]));
    return records;
  };
  const input: Input<Settings> = plan ? fromSavedPlan<Settings>(plan, opts.applyPlan!) : await inputOf(job, ctx, opts, given, list, store, chosen);
  const { lines, settings, planned } = input;
  const dir = configDir(ctx.io.env);
  const settingsSha = sha256(JSON.stringify(settings ?? null));
  const resumed = opts.resume === undefined ? undefined : resumeRun(job, dir, opts.resume, store, input, settingsSha);
  // A resumed run's lock, or the one a new run takes with its journal: released when the run ends.
  const locks = resumed ? [await lockRun(dir, resumed.header.id)] : [];
  try {
    const record = resumed ? (readRun(dir, resumed.header.id) ?? resumed) : undefined;
    await work();
    async function work() {
      const results = new Map<number, Result>();
      const earlier = new Map<number, Earlier>();
      for (const line of record?.lines ?? []) {
        if (line.outcome === 'applied') results.set(line.line, { outcome: 'applied', class: (line.class as LineClass) ?? '', reason: line.reason ?? 'applied by an earlier run' });
        else if (line.outcome === 'unknown') earlier.set(line.line, { object: line.object, state: record!.planned.get(line.line)?.state });
      }
      if (record) {
        const done = results.size;
        ctx.output.prose(`Resuming run ${record.header.id}: ${done} of ${lines.length} lines already applied, ${lines.length - done} to check again`);
      }

      // The plan: every line not applied yet is read and classified.
      const verdicts = new Map<number, Verdict<Target>>();
      const toCheck = lines.filter((line) => !results.has(line.line) && !(planned && !APPLIED_CLASSES.has(planned.get(line.line)!.class)));
      if (planned) for (const line of lines) if (!toCheck.includes(line) && !results.has(line.line)) verdicts.set(line.line, fromPlan(planned.get(line.line)!) as Verdict<Target>);
      const io = (line: JobLine): JobIO => ({ read, remember, change: () => Promise.reject(new Error(`line ${line.line}: no change while checking`)), signal: stop, clock: ctx.clock });
      let refusal: StoreAdminError | undefined;
      const checkFailed = new Map<number, unknown>();
      if (toCheck.length > 0) ctx.output.prose(`Checking ${plural(toCheck.length, 'line')}${toCheck.length === lines.length ? '' : ` of ${lines.length}`}…`);
      const checking = ctx.options.quiet ? quietBar : progressBar(ctx.output.status, toCheck.length, rate);
      progress = checking;
      await pool(toCheck, concurrency, stop, async (line) => {
        try {
          let verdict = await checkLine(job, line, settings, io(line), earlier.get(line.line));
          const plan = planned?.get(line.line);
          // A change an earlier run sent and the store made reads as done: it is this plan's, not a change since.
          const madeEarlier = earlier.has(line.line) && verdict.class === 'ALREADY_DONE';
          if (plan && !madeEarlier && (verdict.class !== plan.class || (verdict.state ?? '') !== (plan.state ?? ''))) {
            verdict = { class: 'CHANGED', reason: `planned ${plan.class}${plan.state ? ` (${plan.state})` : ''}; now ${verdict.class}${verdict.state ? ` (${verdict.state})` : ''}`, ...(verdict.object ? { object: verdict.object } : {}) };
          }
          verdicts.set(line.line, verdict);
        } catch (error) {
          if (error instanceof NotStartedError || stop.aborted) return;
          checkFailed.set(line.line, error);
          refusal ??= refusedToken(error, refused);
        }
        checking.tick();
      });
      checking.done();
      if (refusal) throw new AuthError(`Stopped: the store refused the token (${refusal.message}); nothing was changed`, { hint: refusal.hint });
      if (stop.aborted) throw new InterruptedError(`Interrupted while checking: ${verdicts.size} of ${toCheck.length} lines checked; nothing was changed`);

      // A line whose change an earlier run sent, found done, was applied by it.
      for (const [line, verdict] of verdicts) {
        if (earlier.has(line) && verdict.class === 'ALREADY_DONE') {
          verdicts.delete(line);
          results.set(line, { outcome: 'applied', class: 'READY', reason: `applied by the earlier run (${verdict.reason})` });
        }
      }
      for (const [line, error] of checkFailed) results.set(line, failure(error, 'UNCHECKED'));
      printPlan(job, ctx, lines, verdicts, results, input.source);
      if (opts.plan !== undefined) {
        await writePlan(opts.plan, job, { job: job.command, store, made: new Date().toISOString(), settings }, planRows(lines, verdicts, results));
        ctx.output.prose(`Plan written to ${opts.plan}`);
      }
      if (planOnly) {
        const sink = await ctx.output.records<Record<string, unknown>>({ text: (row) => `${shortPlanLine(row)}\n` });
        for (const row of planRows(lines, verdicts, results)) sink.write({ line: row.line, object_id: keyOf(job, row), class: row.class, object: row.object, state: row.state, reason: row.reason, ...(row.amount ? { amount: row.amount } : {}) });
        sink.end();
        return;
      }

      const toApply = lines.filter((line) => APPLIED_CLASSES.has(verdicts.get(line.line)?.class as LineClass));
      for (const line of lines) {
        const verdict = verdicts.get(line.line);
        if (verdict && !APPLIED_CLASSES.has(verdict.class)) results.set(line.line, { outcome: 'skipped', class: verdict.class, reason: verdict.reason });
      }
      if (toApply.length > 0 && !ctx.options.yes) await confirm(ctx, `${job.intent(settings)}: ${plural(toApply.length, job.noun)}, as planned above.`);

      // A run that changes nothing has nothing to journal or resume (its report says what it found).
      const journal = toApply.length > 0 ? await openJournal(job, ctx, { dir, store, profile, input, settingsSha, settings, record, locks }) : undefined;
      const apply = new Applying(job, ctx, paced, journal, settings, stop, results, remember);
      if (journal) {
        if (!record && input.keys && input.selection) journal.selected(input.keys);
        for (const line of lines) {
          const verdict = verdicts.get(line.line);
          if (verdict) journal.planned(line.line, { class: verdict.class, ...(verdict.object ? { object: verdict.object } : {}), ...(verdict.state ? { state: verdict.state } : {}) });
          const result = results.get(line.line);
          if (result && result.outcome !== 'applied') journal.outcome(line.line, result.outcome, { class: result.class || undefined, reason: result.reason });
        }
      }
      const sink = await ctx.output.records<Record<string, unknown>>({ text: (row) => `${shortResultLine(row)}\n` });
      apply.report = (line, result) => sink.write(resultRecord(job, line, result));
      for (const line of lines) {
        const result = results.get(line.line);
        if (result && result.outcome !== 'applied') apply.report(line, result);
      }
      const started = Date.now();
      const before = requests;
      const applying = ctx.options.quiet ? quietBar : progressBar(ctx.output.status, toApply.length, rate);
      progress = applying;
      try {
        await apply.run(toApply, verdicts, concurrency, applying);
      } finally {
        applying.done();
        sink.end();
        journal?.end();
      }
      for (const line of toApply) if (!results.has(line.line)) results.set(line.line, { outcome: 'skipped', class: verdicts.get(line.line)!.class, reason: 'not started: the run was stopped first', notStarted: true });

      const rows = lines.map((line) => reportRow(job, line, results.get(line.line)!));
      if (opts.report !== undefined) await writeReport(opts.report, rows);
      const counts = tally(rows);
      const title = `${job.command}: ${plural(lines.length, 'line')} — ${counts}`;
      const seconds = (Date.now() - started) / 1000;
      const waited = throttle.count > 0 ? `; waited out ${throttle.count} × 429` : '';
      ctx.output.prose(`${title} in ${duration(seconds)} (${plural(requests - before, 'request')}, ${shownRate(requests - before, seconds, rate)})${waited}`);
      if (opts.report !== undefined) ctx.output.prose(`Report written to ${opts.report}`);
      summariseReport(ctx.io, title, rows, opts.report);
      endOfRun(ctx, [...results.values()], apply.refusal, stop.aborted, journal?.header.id ?? record?.header.id, opts);
    }
  } finally {
    for (const lock of locks) lock.release();
  }
}

/** The flags that cannot go together, refused before anything is read. */
function checkFlags(opts: JobFlags & Record<string, unknown>, given: Given<unknown>, planOnly: boolean): void {
  const sources = [opts.each !== undefined && '--each', given.keys.length > 0 && 'the ids given', opts.applyPlan !== undefined && '--apply-plan', given.selection !== undefined && 'the list filters'].filter(Boolean);
  if (sources.length > 1) throw new UsageError(`${sources.join(' and ')} both name the lines: give one`);
  if (opts.applyPlan !== undefined) {
    // A `--no-…` flag's value is true unless it was given.
    const set = Object.entries(given.settingFlags).filter(([key, flag]) => opts[key] !== undefined && !(flag.flags.startsWith('--no-') && opts[key] === true));
    if (set.length > 0) throw new UsageError(`--apply-plan: the plan says how each line is changed; drop ${set.map(([, flag]) => flag.flags.split(' ')[0]).join(', ')}`);
    if (opts.plan !== undefined) throw new UsageError('--apply-plan applies a plan; --plan makes one: give one of them');
  }
  if (planOnly && opts.resume !== undefined) throw new UsageError('--resume goes on with a run; --plan-only and --dry-run change nothing');
  if (planOnly && opts.report !== undefined) throw new UsageError('--report says what a run changed; --plan-only and --dry-run change nothing (--plan FILE writes the plan)');
}

interface Input<Settings> {
  lines: JobLine[];
  settings: Settings;
  /** What the journal says of the input: where it came from, a hash of it, how many lines. */
  source: string;
  sha: string;
  /** With --apply-plan: each line's plan. */
  planned?: Map<number, PlanRow>;
  /** A list's selection: its keys, which the journal keeps. */
  keys?: string[];
  selection?: string;
}

/** A plan file, read and held to this job and this store. */
async function planIn(job: Job, ctx: Context, file: string, store: string) {
  const text = await textFrom(file, '--apply-plan', ctx.io);
  const { header, rows } = readPlan(text, job, file);
  if (header.store !== store) throw new UsageError(`--apply-plan ${file}: that plan is of ${header.store}, not ${store}`);
  return { header, rows, sha: sha256(text) };
}

function fromSavedPlan<Settings>(plan: Awaited<ReturnType<typeof planIn>>, file: string): Input<Settings> {
  return {
    lines: plan.rows.map((row) => ({ line: row.line, cells: row.cells })),
    settings: plan.header.settings as Settings,
    source: file,
    sha: plan.sha,
    planned: new Map(plan.rows.map((row) => [row.line, row])),
  };
}

async function inputOf<Settings>(job: Job<Settings>, ctx: Context, opts: JobFlags, given: Given<Settings>, list: ListRecords, store: string, settings: Settings): Promise<Input<Settings>> {
  if (opts.each !== undefined) {
    const text = await textFrom(opts.each, '--each', ctx.io);
    return { lines: linesOfText(job, text, opts.each), settings, source: opts.each, sha: sha256(text) };
  }
  if (given.keys.length > 0) return { lines: linesOfKeys(job, given.keys), settings, source: 'arguments', sha: sha256(given.keys.join('\n')) };
  if (given.select && given.selection !== undefined) {
    // A resume works on the objects its run selected: moved or canceled since, a list would not find them again.
    if (opts.resume !== undefined) {
      const earlier = selectedBy(configDir(ctx.io.env), job, store, given.selection, opts.resume);
      return { lines: linesOfKeys(job, earlier), settings, source: given.selection, sha: sha256(earlier.join('\n')), keys: earlier, selection: given.selection };
    }
    const stop = ctx.output.spinner(`Listing the ${job.noun}s (${given.selection})…`);
    let keys;
    try {
      keys = await given.select(list);
    } finally {
      stop();
    }
    if (keys.length === 0) throw new StoreAdminError(`No ${job.noun} matches ${given.selection}: nothing to do`);
    return { lines: linesOfKeys(job, keys), settings, source: given.selection, sha: sha256(keys.join('\n')), keys, selection: given.selection };
  }
  throw new UsageError(`Name the ${job.noun}s: --each FILE (a CSV with ${[job.columns.key, ...job.columns.required].join(',')}), their ids${given.select ? ', list filters' : ''} or --apply-plan FILE`);
}

/** The keys the latest run of this selection selected (or run `id`'s). */
function selectedBy(dir: string, job: Job, store: string, selection: string, resume: string | true): string[] {
  for (const id of resume === true ? runIds(dir) : [resume]) {
    const record = readRun(dir, id);
    if (record?.header.operation === job.command && record.header.store === store && record.header.input.source === selection && record.selected) return record.selected;
  }
  throw new UsageError(`--resume: no earlier ${job.command} run over ${selection} on ${store}`, { hint: 'See: store-admin history' });
}

/** The run a --resume goes on with: the same job over the same input and settings, on the same store. */
function resumeRun(job: Job, dir: string, resume: string | true, store: string, input: Input<unknown>, settingsSha: string): RunRecord {
  const fields = Object.fromEntries(Object.entries((input.settings ?? {}) as Record<string, unknown>).map(([key, value]) => [`settings.${key}`, sha256(JSON.stringify(value))]));
  return findRun(dir, {
    run: resume,
    operation: job.command,
    command: job.command,
    store,
    input: { source: input.source, sha256: input.sha, lines: input.lines.length },
    requestsSha: settingsSha,
    fields,
    flagOf: (field) => `--${field.slice('settings.'.length).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
  });
}

/** A line's check, where a store that has no such object is the NOT_FOUND class. */
async function checkLine<Settings, Target>(job: Job<Settings, Target>, line: JobLine, settings: Settings, io: JobIO, earlier: Earlier | undefined): Promise<Verdict<Target>> {
  const key = keyOf(job, line);
  if (!key) return { class: 'INVALID', reason: `no ${job.columns.key}` };
  try {
    return await job.check(line.cells, settings, io, earlier);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { class: 'NOT_FOUND', reason: `no ${job.noun} ${key} on the store` };
    throw error;
  }
}

const fromPlan = (row: PlanRow): Verdict => ({ class: row.class, reason: row.reason, ...(row.object ? { object: row.object } : {}), ...(row.state ? { state: row.state } : {}) });

/** The summary table: how many lines of each class, with the first lines of those left alone. */
function printPlan(job: Job, ctx: Context, lines: readonly JobLine[], verdicts: Map<number, Verdict>, results: Map<number, Result>, source: string): void {
  const byClass = new Map<string, number[]>();
  for (const line of lines) {
    const name = results.get(line.line)?.outcome === 'applied' ? 'APPLIED BEFORE' : (verdicts.get(line.line)?.class ?? (results.get(line.line)?.class || undefined));
    if (name) byClass.set(name, [...(byClass.get(name) ?? []), line.line]);
  }
  if (lines.length <= DETAILED_LINES) {
    for (const line of lines) {
      const verdict = verdicts.get(line.line);
      const result = results.get(line.line);
      ctx.output.prose(`${String(line.line).padStart(4)}  ${keyOf(job, line)}  ${verdict?.class ?? (result?.outcome === 'applied' ? 'APPLIED BEFORE' : result?.class)}: ${verdict?.reason ?? result?.reason ?? ''}`);
      for (const detail of verdict?.details ?? []) ctx.output.prose(`        ${detail}`);
    }
  }
  ctx.output.prose(`Plan for ${job.command} over ${source} (${plural(lines.length, 'line')}):`);
  const width = Math.max(...[...byClass.keys()].map((name) => name.length));
  for (const [name, numbers] of [...byClass].sort((a, b) => order(a[0]) - order(b[0]))) {
    const which = name === 'READY' || name === 'NEEDS_CANCEL' || name === 'APPLIED BEFORE' ? '' : ` (line${numbers.length === 1 ? '' : 's'} ${numbers.slice(0, 10).join(', ')}${numbers.length > 10 ? ', …' : ''})`;
    const meaning = name in CLASSES ? CLASSES[name as LineClass] : 'applied by the run being resumed';
    ctx.output.prose(`  ${name.padEnd(width)}  ${String(numbers.length).padStart(6)}  ${meaning}${which}`);
  }
  const totals = new Map<string, number>();
  for (const verdict of verdicts.values()) {
    if (verdict.amount && APPLIED_CLASSES.has(verdict.class)) totals.set(verdict.amount.currency, (totals.get(verdict.amount.currency) ?? 0) + Math.round(Number(verdict.amount.value) * 100));
  }
  if (totals.size > 0) ctx.output.prose(`  Total: ${[...totals].map(([currency, cents]) => `${(cents / 100).toFixed(2)} ${currency}`).join(', ')}`);
}

const CLASS_ORDER = [...Object.keys(CLASSES), 'APPLIED BEFORE'];
const order = (name: string) => CLASS_ORDER.indexOf(name);

function planRows(lines: readonly JobLine[], verdicts: Map<number, Verdict>, results: Map<number, Result>): PlanRow[] {
  return lines.flatMap((line) => {
    const verdict = verdicts.get(line.line);
    if (verdict) {
      return [{ line: line.line, cells: line.cells, class: verdict.class, reason: verdict.reason, ...(verdict.object ? { object: verdict.object } : {}), ...(verdict.state ? { state: verdict.state } : {}), ...(verdict.amount ? { amount: `${verdict.amount.value} ${verdict.amount.currency}` } : {}) }];
    }
    // Applied by the run being resumed, or not checked (its read failed).
    const result = results.get(line.line);
    if (result?.outcome === 'applied') return [{ line: line.line, cells: line.cells, class: 'ALREADY_DONE' as const, reason: result.reason }];
    return result?.class === 'UNCHECKED' ? [{ line: line.line, cells: line.cells, class: 'UNCHECKED' as const, reason: result.reason }] : [];
  });
}

/** Opens a new run's journal (and its history entry), or reopens the resumed one's; a journal that cannot be written is a warning. */
async function openJournal(
  job: Job,
  ctx: Context,
  { dir, store, profile, input, settingsSha, settings, record, locks }: { dir: string; store: string; profile?: string; input: Input<unknown>; settingsSha: string; settings: unknown; record?: RunRecord; locks: { release(): void }[] },
): Promise<RunJournal | undefined> {
  try {
    if (record) return RunJournal.reopen(dir, record.header);
    const header: Omit<RunHeader, 'type'> = {
      id: newRunId(),
      at: new Date().toISOString(),
      command: job.command,
      operation: job.command,
      store,
      ...(profile ? { profile } : {}),
      input: { source: input.source, sha256: input.sha, lines: input.lines.length },
      body: settingsSha,
      fields: Object.fromEntries(Object.entries((settings ?? {}) as Record<string, unknown>).map(([key, value]) => [`settings.${key}`, sha256(JSON.stringify(value))])),
    };
    // Held until the run ends: a --resume started meanwhile is refused.
    locks.push(await lockRun(dir, header.id));
    const journal = RunJournal.create(dir, header);
    await appendHistory(dir, { at: header.at, command: job.command, operation: job.command, store, ...(profile ? { profile } : {}), outcome: 'run', run: header.id });
    ctx.output.prose(`Run ${header.id}; if it is cut short, --resume picks it up`);
    return journal;
  } catch (error) {
    ctx.output.prose(`warning: the run's journal cannot be written (${(error as Error).message}); --resume will not know this run`);
    return undefined;
  }
}

/** The changes of a run: the lines to apply, at a bounded concurrency, and the lines waiting, looked at again as their pauses end. */
class Applying<Settings, Target> {
  report: (line: JobLine, result: Result) => void = () => {};
  refusal?: StoreAdminError;
  private readonly waiting: { line: JobLine; since: number; due: number; wrote: boolean }[] = [];

  constructor(
    private readonly job: Job<Settings, Target>,
    private readonly ctx: Context,
    private readonly client: ReturnType<Awaited<ReturnType<Context['client']>>['with']>,
    private readonly journal: RunJournal | undefined,
    private readonly settings: Settings,
    private readonly stop: AbortSignal,
    private readonly results: Map<number, Result>,
    private readonly remember: JobIO['remember'],
  ) {}

  async run(lines: JobLine[], verdicts: Map<number, Verdict<Target>>, concurrency: number, progress: Progress): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (!this.stop.aborted) {
        if (next < lines.length) {
          const line = lines[next++]!;
          await this.step(line, verdicts.get(line.line)!, false, progress);
        } else if (this.waiting.length > 0) {
          this.waiting.sort((a, b) => a.due - b.due);
          const waiter = this.waiting.shift()!;
          const pause = waiter.due - this.ctx.clock.now();
          try {
            if (pause > 0) await this.ctx.clock.sleep(pause, this.stop);
          } catch {
            this.waiting.push(waiter);
            return;
          }
          await this.poll(waiter, progress);
        } else return;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, lines.length)) }, worker));
    for (const { line } of this.waiting) this.finish(line, { outcome: 'skipped', class: 'NEEDS_CANCEL', reason: `not finished: ${this.job.noun} was waiting when the run was stopped`, notStarted: true }, progress);
  }

  private io(line: JobLine, wrote: { yes: boolean }): JobIO {
    return {
      read: (id, input) => this.client.call(id, input, { signal: this.stop }),
      remember: this.remember,
      change: (id, input, { step, object }) => {
        wrote.yes = true;
        // A change in flight is abandoned only at a second Ctrl-C; the first stops new ones from starting.
        return this.client.call(id, input, { signal: this.ctx.forceSignal, startSignal: this.stop, onSend: () => this.journal?.sent(line.line, { step, object }) });
      },
      signal: this.stop,
      clock: this.ctx.clock,
    };
  }

  /** Applies a line as its verdict says: done, waiting (to be looked at again), or failed. */
  private async step(line: JobLine, verdict: Verdict<Target>, wroteBefore: boolean, progress: Progress, since?: number): Promise<void> {
    const wrote = { yes: wroteBefore };
    try {
      const applied = await this.job.apply(verdict.target as Target, line.cells, this.settings, this.io(line, wrote));
      if ('done' in applied) return this.finish(line, { outcome: 'applied', class: verdict.class, reason: applied.done }, progress, verdict.object);
      const now = this.ctx.clock.now();
      const started = since ?? now;
      const limit = this.job.waitTimeoutMs?.(this.settings) ?? 0;
      if (now - started >= limit) {
        return this.finish(line, { outcome: 'failed', class: verdict.class, reason: `timed out after ${duration(limit / 1000)} waiting for ${applied.waiting}`, timedOut: true }, progress, verdict.object);
      }
      this.waiting.push({ line, since: started, due: Math.min(now + nextPause(now - started), started + limit), wrote: wrote.yes });
    } catch (error) {
      if (error instanceof NotStartedError) return;
      const result = failure(error, verdict.class, wrote.yes);
      this.refusal ??= refusedToken(error);
      this.finish(line, result, progress, verdict.object);
    }
  }

  /** Looks at a waiting line again: it goes on, is done (by this run's change or another's), or can no longer be done. */
  private async poll(waiter: { line: JobLine; since: number; wrote: boolean }, progress: Progress): Promise<void> {
    const { line } = waiter;
    let verdict: Verdict<Target>;
    try {
      verdict = await checkLine(this.job, line, this.settings, this.io(line, { yes: false }), undefined);
    } catch (error) {
      if (error instanceof NotStartedError || this.stop.aborted) return void this.waiting.push({ ...waiter, due: this.ctx.clock.now() });
      return this.finish(line, failure(error, 'NEEDS_CANCEL', waiter.wrote), progress);
    }
    // A line that waited is reported as planned, NEEDS_CANCEL, whatever its check says now (READY once accepted).
    if (APPLIED_CLASSES.has(verdict.class)) return this.step(line, { ...verdict, class: 'NEEDS_CANCEL' }, waiter.wrote, progress, waiter.since);
    if (verdict.class === 'ALREADY_DONE') return this.finish(line, { outcome: 'applied', class: 'NEEDS_CANCEL', reason: verdict.reason }, progress, verdict.object);
    this.finish(line, { outcome: 'failed', class: verdict.class, reason: verdict.reason }, progress, verdict.object);
  }

  private finish(line: JobLine, result: Result, progress: Progress, object?: string): void {
    this.results.set(line.line, result);
    if (!result.notStarted) {
      this.journal?.outcome(line.line, result.unknown ? 'unknown' : result.outcome, { class: result.class || undefined, ...(object ? { object } : {}), reason: result.reason });
      progress.tick();
    }
    this.report(line, result);
  }
}

const quietBar: Progress = { tick() {}, pause() {}, done() {} };

/** A failure's result: unknown when a change was sent and its answer lost. */
function failure(error: unknown, lineClass: LineClass | '', wrote = false): Result {
  const described = error instanceof StoreAdminError ? error.message : String(error);
  const reason = error instanceof ApiError && !described.startsWith(String(error.status)) ? `${error.status}: ${described}` : described;
  return { outcome: 'failed', class: lineClass, reason, ...(wrote && mayHaveApplied(error) ? { unknown: true } : {}) };
}

/** A token the store refuses stops the run: every other line would be refused the same way. */
function refusedToken(error: unknown, controller?: AbortController): StoreAdminError | undefined {
  if (!(error instanceof AuthError || (error instanceof ApiError && (error.status === 401 || error.status === 403)))) return undefined;
  controller?.abort();
  return error;
}

function reportRow(job: Job, line: JobLine, result: Result): ReportRow {
  return {
    line: line.line,
    object_id: keyOf(job, line),
    outcome: result.outcome,
    class: result.class,
    error: result.outcome === 'applied' ? '' : printableLine(withoutAddresses(result.reason)),
  };
}

function resultRecord(job: Job, line: JobLine, result: Result): Record<string, unknown> {
  return {
    line: line.line,
    object_id: keyOf(job, line),
    class: result.class,
    outcome: result.unknown ? 'unknown' : result.outcome,
    ...(result.outcome === 'applied' ? { detail: result.reason } : { error: result.reason }),
  };
}

/** `✓ 3  10003  fulfilment 88 …`, `· 4  10004  ALREADY_DONE: …`, `✗ 5  10005  …`. */
function shortResultLine(row: Record<string, unknown>): string {
  const mark = row.outcome === 'applied' ? '✓' : row.outcome === 'skipped' ? '·' : row.outcome === 'unknown' ? '?' : '✗';
  const what = row.outcome === 'applied' ? row.detail : row.outcome === 'skipped' ? `${String(row.class)}: ${String(row.error)}` : row.error;
  return printableLine(`${mark} ${String(row.line)}  ${String(row.object_id)}  ${String(what ?? '')}`);
}

function shortPlanLine(row: Record<string, unknown>): string {
  return printableLine(`${String(row.line).padStart(4)}  ${String(row.object_id)}  ${String(row.class)}: ${String(row.reason)}${row.amount ? ` (${String(row.amount)})` : ''}`);
}

function tally(rows: readonly ReportRow[]): string {
  const count = (outcome: ReportRow['outcome']) => rows.filter((row) => row.outcome === outcome).length;
  return `${count('applied')} applied, ${count('skipped')} skipped, ${count('failed')} failed`;
}

/** The run's end, as an exit code: 0 when every line was applied or had nothing to do. */
function endOfRun(ctx: Context, results: Result[], refusal: StoreAdminError | undefined, stopped: boolean, runId: string | undefined, opts: JobFlags): void {
  const failed = results.filter((result) => result.outcome === 'failed' && !result.timedOut);
  const reasons = failed.map((result) => result.reason.split(':')[0]!);
  if (reasons.length > 0) ctx.output.prose(`Failures: ${groupedReasons(reasons)}`);
  const unknown = results.filter((result) => result.unknown).length;
  if (unknown > 0) ctx.output.prose(`${plural(unknown, 'line')} may or may not have been changed (the answers were lost): --resume checks them on the store and goes on`);
  const resume = runId ? `Resume with: ${resumeCommand(ctx.argv, runId)}` : undefined;
  if (refusal) throw new AuthError(`Stopped: the store refused the token (${refusal.message})`, { hint: refusal.hint });
  const notStarted = results.filter((result) => result.notStarted).length;
  if (stopped) throw new InterruptedError(`Interrupted: ${plural(notStarted, 'line')} not finished; every line that ran is reported above`, resume ? { hint: resume } : {});
  const timedOut = results.filter((result) => result.timedOut).length;
  if (timedOut > 0) {
    throw new TimedOutError(`${plural(timedOut, 'line')} timed out waiting; what was requested stands`, { hint: resume ? `${resume} (it goes on waiting, and requests nothing twice)` : undefined });
  }
  const left = results.filter((result) => result.outcome === 'skipped' && result.class !== 'ALREADY_DONE').length;
  if (failed.length + left > 0) {
    const parts = [failed.length > 0 && `${failed.length} failed`, left > 0 && `${left} left for a person`].filter(Boolean).join(', ');
    throw new StoreAdminError(`${parts} of ${plural(results.length, 'line')}`, { hint: opts.report === undefined ? 'Pass --report FILE for each line\'s outcome' : `Each line's outcome is in ${opts.report}` });
  }
}

/** Runs `each` over the items, `concurrency` at a time, until they are done or the run stops. */
async function pool<T>(items: readonly T[], concurrency: number, stop: AbortSignal, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (!stop.aborted && next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

