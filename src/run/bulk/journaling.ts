// Where a bulk run that changes something meets its journal: a new run gets one (and an entry in
// the history); --resume finds the earlier run and leaves out what it applied. A journal that cannot be written is a
// warning, never a reason to stop work the user asked for.
import { hostname } from 'node:os';
import { StoreAdminError, UsageError } from '../../api/errors.js';
import { operation } from '../../api/operations.js';
import type { Context } from '../../context.js';
import type { RunFlags } from './flags.js';
import { labelOf } from '../prepare-input.js';
import { commandName, type OperationCommand } from '../spec.js';
import { configDir } from '../../config/paths.js';
import { appendHistory, skippedLines } from '../../journal/history.js';
import { historyDir, runFile } from '../../journal/paths.js';
import { holdLock, type HeldLock } from '../../lock.js';
import { newRunId, readRun, RunJournal, sha256, type RunHeader } from '../../journal/run-journal.js';
import type { Item } from './input.js';
import { findRun, remaining } from './resume.js';

export interface Journaling {
  /** The lines to send: all of them, or on --resume those never applied. */
  items: Item[];
  /** On --resume, the lines left out because their answers were lost: the run is not complete. */
  leftUnknown: number;
  /** Opens the journal once the run goes ahead (after any confirmation). */
  open(): Promise<RunJournal | undefined>;
  /** Gives the run up for another process (its lock); called however the run ends. */
  release(): void;
}

export async function journalFor(
  spec: OperationCommand,
  ctx: Context,
  opts: RunFlags,
  { source, text, all }: { source: string; text: string; all: Item[] },
): Promise<Journaling> {
  // Reads change nothing: there is nothing to record, and nothing a re-run could repeat.
  if (operation(spec.operation).method === 'GET') {
    if (opts.resume !== undefined) throw new UsageError('--resume: runs that only read are not journaled; run it again instead');
    return { items: all, leftUnknown: 0, open: async () => undefined, release() {} };
  }
  const dir = configDir(ctx.io.env);
  const { store, profile } = await ctx.destination();
  const command = commandName(spec);
  const input = { source, sha256: sha256(text), lines: all.length };
  const requestsSha = sha256(JSON.stringify(all.map((item) => item.input)));
  const fields = fieldHashes(all);
  const warn = (error: unknown) => ctx.output.prose(`warning: the run's journal cannot be written (${(error as Error).message}); --resume will not know this run`);

  if (opts.resume === undefined) {
    const header: Omit<RunHeader, 'type'> = {
      id: newRunId(),
      at: new Date().toISOString(),
      command,
      operation: spec.operation,
      store,
      ...(profile ? { profile } : {}),
      input,
      body: requestsSha,
      fields,
    };
    let lock: HeldLock | undefined;
    return {
      items: all,
      leftUnknown: 0,
      async open() {
        try {
          // Held before the journal exists: a --resume that finds the journal finds the run taken.
          lock = await lockRun(dir, header.id);
          const journal = RunJournal.create(dir, header);
          await appendHistory(dir, { at: header.at, command, operation: spec.operation, store, ...(profile ? { profile } : {}), outcome: 'run', run: header.id });
          ctx.output.prose(`Run ${header.id}; if it is cut short, --resume picks it up`);
          return journal;
        } catch (error) {
          warn(error);
          return undefined;
        }
      },
      release: () => lock?.release(),
    };
  }

  const found = findRun(dir, {
    run: opts.resume === true ? true : String(opts.resume),
    operation: spec.operation,
    command,
    store,
    input,
    requestsSha,
    fields,
    flagOf: (field) => {
      const [part, key] = field.split('.', 2) as ['params' | 'body', string];
      return labelOf(spec, part, key);
    },
  });
  const id = found.header.id;
  // One process at a time: another still sending this run's lines refuses this one, before anything is sent.
  const lock = await lockRun(dir, id);
  // Read again under the lock: a process that held it until now has its last outcomes on file.
  const record = readRun(dir, id) ?? found;
  if (record.skipped.length > 0) ctx.output.prose(skippedLines(`run ${id}'s journal`, record.skipped));
  const { send, applied, unknown } = remaining(all, record, !!opts.retryUnknown);
  ctx.output.prose(`Resuming run ${id}: ${applied} of ${all.length} lines already applied, ${send.length} to send`);
  if (unknown.length > 0) {
    ctx.output.prose(
      `Lines ${unknown.map((item) => item.line).join(', ')} were sent but their answers were lost: they may have been applied, so they are not sent again (--retry-unknown sends them)`,
    );
  }
  if (send.length === 0) {
    lock.release();
    if (unknown.length > 0) throw new StoreAdminError(`Run ${id}: nothing sent; ${unknown.length === 1 ? '1 line has' : `${unknown.length} lines have`} an unknown outcome`, { hint: 'Check them on the store, then --resume --retry-unknown if they were not applied' });
    ctx.output.prose(`Run ${id} is complete: every line was applied`);
  }
  return {
    items: send,
    leftUnknown: unknown.length,
    async open() {
      try {
        return RunJournal.reopen(dir, record.header);
      } catch (error) {
        warn(error);
        return undefined;
      }
    },
    release: () => lock.release(),
  };
}

/** Each path parameter's and body field's values over the run, hashed (see RunHeader.fields). */
function fieldHashes(items: Item[]): Record<string, string> {
  const names = new Set<string>();
  for (const { input } of items) {
    for (const key of Object.keys(input.params)) names.add(`params.${key}`);
    if (input.body && typeof input.body === 'object') for (const key of Object.keys(input.body)) names.add(`body.${key}`);
  }
  const valueOf = (input: Item['input'], name: string) => {
    const [part, key] = name.split('.', 2) as ['params' | 'body', string];
    return (input[part] as Record<string, unknown> | undefined)?.[key];
  };
  return Object.fromEntries([...names].sort().map((name) => [name, sha256(JSON.stringify(items.map((item) => valueOf(item.input, name) ?? null)))]));
}

/**
 * A run's journal is worked on by one process at a time: two processes resuming the same run would
 * each send the lines the other is sending. A second process is refused and told who holds it; a
 * lock whose holder is gone (killed with SIGKILL) is taken over.
 */
export async function lockRun(configDir: string, id: string): Promise<HeldLock> {
  historyDir(configDir);
  const path = runFile(configDir, id, 'lock');
  return holdLock(path, (holder) => {
    const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
    return new StoreAdminError(`Run ${id} is in use by process ${holder.pid}${where} (since ${holder.at}); nothing was sent`, {
      hint: `Let that process finish (or stop it) and resume then; if it is surely gone, remove ${path}`,
    });
  });
}
