// --resume [RUN]: the same command over the same input, sending only the lines its journal never
// saw applied. Lines whose answer was lost (sent, no outcome kept) may have been applied: they are
// named and left alone unless --retry-unknown asks for them.
import { UsageError } from '../api/errors.js';
import { readRun, runIds, type RunRecord } from '../journal/run-journal.js';
import type { Item } from './input.js';

export interface ResumeTarget {
  /** The run id, or true for the latest run of this command over this input. */
  run: string | true;
  operation: string;
  command: string;
  store: string;
  inputSha: string;
  requestsSha: string;
}

export function findRun(configDir: string, target: ResumeTarget): RunRecord {
  if (target.run !== true) {
    let record: RunRecord | undefined;
    try {
      record = readRun(configDir, target.run);
    } catch {
      record = undefined;
    }
    if (!record) throw new UsageError(`--resume: no run ${target.run}`, { hint: 'See: store-admin history' });
    checkSame(record, target);
    return record;
  }
  for (const id of runIds(configDir)) {
    const record = readRun(configDir, id);
    if (record && record.header.operation === target.operation && record.header.input.sha256 === target.inputSha && record.header.store === target.store) {
      checkSame(record, target);
      return record;
    }
  }
  throw new UsageError(`--resume: no earlier ${target.command} run over this input on ${target.store}`, { hint: 'See: store-admin history' });
}

function checkSame(record: RunRecord, target: ResumeTarget): void {
  const { header } = record;
  const id = header.id;
  if (header.operation !== target.operation) throw new UsageError(`--resume ${id}: that run was ${header.command}, not ${target.command}`);
  if (header.store !== target.store) throw new UsageError(`--resume ${id}: that run changed ${header.store}, not ${target.store}`);
  if (header.input.sha256 !== target.inputSha) {
    throw new UsageError(`--resume ${id}: the input is not the one that run read (${header.input.source} has changed)`, {
      hint: 'Resume over the same file, unchanged; or start a new run without --resume',
    });
  }
  if (header.body !== target.requestsSha) {
    throw new UsageError(`--resume ${id}: the flags differ from that run's`, { hint: 'Give the same flags as the run being resumed' });
  }
}

/** The lines to send, and those left alone because they may have been applied. */
export function remaining(items: Item[], record: RunRecord, retryUnknown: boolean): { send: Item[]; applied: number; unknown: Item[] } {
  const send: Item[] = [];
  const unknown: Item[] = [];
  let applied = 0;
  for (const item of items) {
    const state = record.states.get(item.line);
    if (state === 'applied') applied++;
    else if (state === 'unknown' && !retryUnknown) unknown.push(item);
    else send.push(item);
  }
  return { send, applied, unknown };
}
