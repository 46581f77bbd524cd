// The history as people and scripts read it: entries newest first (a bulk run with the count of
// each outcome from its journal), and one run line by line.
import { UsageError } from '../api/errors.js';
import { configDir } from '../config/paths.js';
import type { Context } from '../context.js';
import type { Options } from '../options.js';
import { argumentOrChoice } from './local.js';
import { readHistory, RETENTION_DAYS, RETENTION_ENTRIES, skippedLines } from '../journal/history.js';
import { historyPaths } from '../journal/paths.js';
import { readRun } from '../journal/run-journal.js';

export async function listHistory(ctx: Context, opts: Options): Promise<void> {
  const dir = configDir(ctx.io.env);
  const after = opts.since === undefined ? 0 : Date.now() - Number(opts.since);
  const wanted = opts.operation === undefined ? undefined : String(opts.operation).trim().replace(/\s+/g, ' ');
  const bad: number[] = [];
  const entries = readHistory(dir, (line) => bad.push(line))
    .filter((entry) => Date.parse(entry.at) >= after)
    .filter((entry) => wanted === undefined || entry.operation === wanted || entry.command === wanted)
    .reverse()
    .map((entry) => {
      if (!entry.run) return entry;
      const run = readRun(dir, entry.run);
      if (run?.skipped.length) ctx.output.prose(skippedLines(`run ${entry.run}'s journal`, run.skipped));
      const counts = { applied: 0, failed: 0, unknown: 0, skipped: 0, not_sent: 0 };
      for (const line of run?.lines ?? []) counts[line.outcome]++;
      counts.not_sent = Math.max(0, (run?.header.input.lines ?? 0) - (run?.lines.length ?? 0));
      return { ...entry, lines: run?.header.input.lines, ...counts };
    });
  if (bad.length > 0) ctx.output.prose(skippedLines(historyPaths(dir).log, bad));
  if (ctx.format !== 'table') return ctx.output.result(entries);
  if (entries.length === 0) {
    ctx.output.prose(`Nothing recorded${opts.since !== undefined || wanted ? ' that matches' : ''} (changes are kept for ${RETENTION_DAYS} days, ${RETENTION_ENTRIES} at most)`);
    return;
  }
  await ctx.output.result(
    entries.map((entry) => ({
      when: entry.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      command: entry.command,
      target: 'run' in entry && entry.run ? `run ${entry.run}` : entry.created !== undefined ? `created ${entry.created}` : (entry.target ?? ''),
      store: entry.store,
      // A job's run also leaves lines alone (done already, or for a person to decide).
      outcome: 'applied' in entry ? `${entry.applied} applied, ${entry.failed} failed, ${entry.unknown} unknown, ${entry.skipped ? `${entry.skipped} skipped, ` : ''}${entry.not_sent} not sent` : entry.outcome,
      ...(entry.status !== undefined ? { status: entry.status } : {}),
    })),
    { view: 'history' },
  );
}

/** How many of the latest runs the picker and completion offer. */
const PICKED_RUNS = 50;

/** The history's latest bulk runs, newest first. */
function latestRuns(ctx: Context) {
  return readHistory(configDir(ctx.io.env))
    .filter((entry) => entry.run)
    .slice(-PICKED_RUNS)
    .reverse();
}

export function latestRunIds(ctx: Context): string[] {
  return latestRuns(ctx).map((entry) => entry.run!);
}

export async function showRun(ctx: Context, given: string | undefined): Promise<void> {
  const id = await argumentOrChoice(ctx, given, {
    label: '<run>',
    message: 'Which run?',
    usage: 'store-admin history show RUN (the ids are in store-admin history)',
    choices: () =>
      latestRuns(ctx).map((entry) => ({ value: entry.run!, name: `${entry.run}  ${entry.command}  ${entry.store}  ${entry.at.slice(0, 16).replace('T', ' ')}` })),
    none: new UsageError('No bulk runs in the history', { hint: 'Runs of --each are recorded; see: store-admin history' }),
  });
  let run;
  try {
    run = readRun(configDir(ctx.io.env), id);
  } catch {
    run = undefined;
  }
  if (!run) throw new UsageError(`No run ${id} in the history`, { hint: 'See: store-admin history' });
  if (run.skipped.length > 0) ctx.output.prose(skippedLines(`run ${id}'s journal`, run.skipped));
  const { header } = run;
  const lines = run.lines.map((line) => ({ ...line, input: line.input?.join(' ') }));
  // NDJSON is a stream of the run's lines; JSON is the whole run, header included.
  if (ctx.format === 'ndjson') return ctx.output.result(lines);
  if (ctx.format !== 'table') return ctx.output.result({ run: header, lines });
  ctx.output.text(
    `Run ${header.id}: ${header.command} on ${header.store}${header.profile ? ` (profile ${header.profile})` : ''}, started ${header.at}\n` +
      `Input: ${header.input.source}, ${header.input.lines} lines; ${lines.length} sent, ${header.input.lines - lines.length} never sent${run.ended ? '' : ' (the run did not finish)'}\n`,
  );
  await ctx.output.result(lines);
}
