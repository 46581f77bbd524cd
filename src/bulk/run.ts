// --each: one operation per input line, at a bounded concurrency and rate, with a JSON line per
// item on stdout, progress on stderr and a summary at the end. Every line is validated before
// anything is sent; Ctrl-C stops taking new lines and lets those in flight finish.
import { writeFile } from 'node:fs/promises';
import { ApiError, InterruptedError, NotStartedError, StoreAdminError, UnknownOutcomeError, UsageError } from '../api/errors.js';
import { operations } from '../api/operations.js';
import type { Context } from '../context.js';
import type { OperationCommand, Options } from '../commands/define.js';
import { addHint, commandName, confirm, paramsFrom, validated, type Input } from '../commands/prepare-input.js';
import { textFrom } from '../commands/values.js';
import { recordLines } from '../output/render.js';
import { rateLimiter } from './limiter.js';
import { duration, progressBar } from './progress.js';

interface Item {
  line: number;
  text: string;
  values: string[];
  input: Input;
}

const SHOWN_ERRORS = 3;

export async function runBulk(spec: OperationCommand, ctx: Context, fixed: string[], opts: Options): Promise<void> {
  const { options, io } = ctx;
  const source = String(opts.each);
  const text = await textFrom(source, '--each', io);
  const body = spec.body ? await spec.body(opts, ctx) : undefined;
  const items = await parseItems(spec, fixed, text, body);
  if (items.length === 0) throw new UsageError(`--each ${source}: no input lines`);
  // Make sure the re-run file can be written before anything is sent.
  if (opts.failed !== undefined) {
    await writeFile(String(opts.failed), '', { mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`--failed: cannot write ${opts.failed} (${error.code ?? error.message})`);
    });
  }

  const client = await ctx.client(tuning(opts, ctx.note));
  if (options.dryRun) {
    const { dryRunRecord, printDryRuns } = await import('../commands/dry-run.js');
    const records = [];
    for (const item of items) records.push(dryRunRecord(await client.prepare(spec.operation, item.input as never), item.values));
    return printDryRuns(records, ctx);
  }
  const first = spec.confirm?.(items[0]!.input);
  if (first && !options.yes) {
    await confirm(ctx, items.length === 1 ? first : `${first.replace(/[.?]$/, '')} — and the same for ${items.length - 1} more (${items.length} in all).`);
  }

  const progress = options.quiet ? { tick() {}, done() {} } : progressBar(io.stderr, items.length);
  const failed: Item[] = [];
  // Changes whose answer was lost: they may have been applied, so they are named, not re-run.
  const unknown: Item[] = [];
  let next = 0;
  let succeeded = 0;
  // The first Ctrl-C (or SIGTERM, or a closed stdout) stops taking new lines, even one already
  // waiting for its turn; a second aborts those in flight.
  const { signal: stop, forceSignal } = ctx;
  const waiting: Item[] = [];
  const started = Date.now();

  /** One line's operation, as the JSON line that reports it. */
  const attempt = async (item: Item): Promise<Record<string, unknown> | undefined> => {
    let status: number | undefined;
    try {
      const data = await client.call(spec.operation, item.input as never, { signal: forceSignal, startSignal: stop, onStatus: (s) => (status = s) });
      succeeded++;
      return { ok: true, status, data: spec.present ? spec.present(data, opts) : data };
    } catch (error) {
      if (error instanceof NotStartedError) {
        waiting.push(item);
        return undefined;
      }
      const lost = error instanceof UnknownOutcomeError || (error instanceof InterruptedError && operations[spec.operation].method !== 'GET');
      (lost ? unknown : failed).push(item);
      if (error instanceof ApiError) addHint(error, operations[spec.operation].scopes);
      const described = error instanceof StoreAdminError ? error : new StoreAdminError(String(error));
      return {
        ok: false,
        ...(lost ? { outcome: 'unknown' } : {}),
        status: error instanceof ApiError ? error.status : (status ?? null),
        error: { message: described.message, type: described.name, exitCode: described.exitCode },
      };
    }
  };

  const worker = async () => {
    while (!stop.aborted && next < items.length) {
      const item = items[next++]!;
      const result = await attempt(item);
      if (!result) continue;
      writeLine(item, result);
      progress.tick();
    }
  };

  const output = recordLines(io);
  const search = options.query === undefined ? undefined : (await import('jmespath')).default.search;
  const writeLine = (item: Item, result: Record<string, unknown>) => {
    let line: Record<string, unknown> = { input: item.values, ...result };
    if (search && result.ok) {
      // The change is done whatever the query makes of its answer: a failing query is noted, not a failure.
      try {
        line = { ...line, data: search(result.data as never, options.query!) };
      } catch (error) {
        line = { ...line, queryError: (error as Error).message };
      }
    }
    output.write(line);
  };

  try {
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, items.length) }, worker));
  } finally {
    output.end();
    progress.done();
  }

  const notStarted = [...waiting, ...items.slice(next)].sort((a, b) => a.line - b.line);
  const seconds = (Date.now() - started) / 1000;
  const parts = [`${succeeded} succeeded`, `${failed.length} failed`];
  if (unknown.length > 0) parts.push(`${unknown.length} with an unknown outcome`);
  if (notStarted.length > 0) parts.push(`${notStarted.length} not started`);
  ctx.note(`${commandName(spec)}: ${plural(items.length, 'line')} — ${parts.join(', ')} in ${duration(seconds)} (${(next / Math.max(seconds, 0.001)).toFixed(1)}/s)`);
  if (unknown.length > 0) {
    ctx.note(`Lines ${unknown.map((item) => item.line).join(', ')} may or may not have been applied (their answers were lost): check them before running them again`);
  }
  const redo = [...failed.sort((a, b) => a.line - b.line), ...notStarted];
  if (opts.failed !== undefined) {
    await writeFile(String(opts.failed), redo.map((item) => `${item.text}\n`).join(''), { mode: 0o600 });
    if (redo.length > 0) ctx.note(`The ${plural(redo.length, 'line')} to run again are in ${opts.failed}`);
  }
  if (stop.aborted) throw new InterruptedError(`Interrupted: ${plural(notStarted.length, 'line')} not started${failed.length ? `, ${failed.length} failed` : ''}; every line that ran is reported above`);
  const bad = failed.length + unknown.length;
  if (bad > 0) throw new StoreAdminError(`${bad} of ${items.length} failed`, opts.failed === undefined ? { hint: 'Pass --failed FILE to collect them for a re-run' } : {});
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Client settings for bulk work: a shared rate limit that a 429 pauses for everyone. */
function tuning(opts: Options, note: (message: string) => void) {
  const limiter = rateLimiter(opts.rate ?? 4);
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

async function parseItems(spec: OperationCommand, fixed: string[], text: string, body: unknown): Promise<Item[]> {
  const arity = (spec.args ?? []).length;
  const items: Item[] = [];
  const errors: string[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const values = trimmed.split(/[\s,]+/).filter(Boolean);
    const args = [...fixed, ...values];
    const line = index + 1;
    if (args.length !== arity) {
      const names = (spec.args ?? []).slice(fixed.length).map(([label]) => `<${label}>`).join(' ');
      errors.push(`line ${line}: expected ${arity - fixed.length} value${arity - fixed.length === 1 ? '' : 's'} (${names}), got ${values.length}`);
      continue;
    }
    try {
      items.push({ line, text: trimmed, values: args, input: await validated(spec, { params: paramsFrom(spec, args), body }) });
    } catch (error) {
      errors.push(`line ${line}: ${(error as Error).message}`);
    }
  }
  if (errors.length > 0) {
    const more = errors.length > SHOWN_ERRORS ? `; and ${errors.length - SHOWN_ERRORS} more` : '';
    throw new UsageError(`--each: ${errors.slice(0, SHOWN_ERRORS).join('; ')}${more}`, { hint: 'Nothing was sent' });
  }
  return items;
}
