// --resume [RUN]: the same command over the same input, sending only the lines its journal never
// saw applied. Lines whose answer was lost (sent, no outcome kept) may have been applied: they are
// named and left alone unless --retry-unknown asks for them.
import { UsageError } from '../../api/errors.js';
import { readRun, runIds, type RunRecord } from '../../journal/run-journal.js';
import type { Item } from './input.js';

export interface ResumeTarget {
  /** The run id, or true for the latest run of this command over this input. */
  run: string | true;
  operation: string;
  command: string;
  store: string;
  /** This run's input, as a run's header describes it. */
  input: RunRecord['header']['input'];
  requestsSha: string;
  /** Each field's hash (see RunHeader.fields). */
  fields: Record<string, string>;
  /** How a person names a field: its flag (`--reason`) or argument (`<id>`). */
  flagOf(field: string): string;
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
  let latest: RunRecord | undefined;
  for (const id of runIds(configDir)) {
    const record = readRun(configDir, id);
    if (!record || record.header.operation !== target.operation || record.header.store !== target.store) continue;
    if (record.header.input.sha256 === target.input.sha256) {
      checkSame(record, target);
      return record;
    }
    latest ??= record;
  }
  const none = `--resume: no earlier ${target.command} run over this input on ${target.store}`;
  if (!latest) throw new UsageError(none, { hint: 'See: store-admin history' });
  // The likely case: the file was changed (or another file given) since the run to resume.
  throw new UsageError(`${none}: since its latest run (${latest.header.id}), ${inputChange(latest.header.input, target.input)}`, {
    hint: `Resume over that run's input, unchanged (--resume ${latest.header.id}); or start a new run without --resume`,
  });
}

/** How an input differs from a run's: another file, other lines, or the same count with other text. */
function inputChange(then: ResumeTarget['input'], now: ResumeTarget['input']): string {
  if (then.source !== now.source) return `the input is ${now.source === '-' ? 'standard input' : now.source}, not ${then.source === '-' ? 'standard input' : then.source}`;
  const where = then.source === '-' ? 'standard input' : then.source;
  if (then.lines !== now.lines) return `${where} has ${now.lines} lines, not ${then.lines}`;
  return `${where} has the same ${now.lines} lines, with other text (checksum ${now.sha256.slice(0, 12)}, not ${then.sha256.slice(0, 12)})`;
}

function checkSame(record: RunRecord, target: ResumeTarget): void {
  const { header } = record;
  const id = header.id;
  if (header.operation !== target.operation) throw new UsageError(`--resume ${id}: that run was ${header.command}, not ${target.command}`);
  if (header.store !== target.store) throw new UsageError(`--resume ${id}: that run changed ${header.store}, not ${target.store}`);
  if (header.input.sha256 !== target.input.sha256) {
    throw new UsageError(`--resume ${id}: the input is not the one that run read (${inputChange(header.input, target.input)})`, {
      hint: 'Resume over the same file, unchanged; or start a new run without --resume',
    });
  }
  if (header.body !== target.requestsSha) {
    const differ = header.fields ? differingFields(header.fields, target.fields).map((field) => target.flagOf(field)) : [];
    const which = [...new Set(differ)];
    throw new UsageError(
      which.length > 0
        ? `--resume ${id}: ${which.join(', ')} ${which.length === 1 ? 'differs' : 'differ'} from that run's`
        : `--resume ${id}: the flags differ from that run's`,
      { hint: 'Give the same flags as the run being resumed' },
    );
  }
}

/** The fields given a value in one run and not the other, or other values. */
function differingFields(then: Record<string, string>, now: Record<string, string>): string[] {
  return [...new Set([...Object.keys(then), ...Object.keys(now)])].filter((field) => then[field] !== now[field]).sort();
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

/**
 * The command line that resumes run `id`: the one given, with any --resume replaced by this run's
 * id, quoted for a POSIX shell where a word needs it.
 */
export function resumeCommand(argv: readonly string[], id: string): string {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word.startsWith('--resume=')) continue;
    if (word === '--resume') {
      // Its optional value is a run id.
      if (/^\d{8}-\d{6}-[0-9a-f]+$/.test(argv[i + 1] ?? '')) i++;
      continue;
    }
    words.push(word);
  }
  const quoted = [...words, '--resume', id].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`));
  return `store-admin ${quoted.join(' ')}`;
}
