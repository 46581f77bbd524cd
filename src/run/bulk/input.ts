// The lines of an --each run, each checked as the single command would check it before anything
// is sent. A plain file gives the last arguments on each line (separated by spaces or commas);
// a .csv file with a header row names its columns after the command's arguments and body
// fields (`id,reason,other_message`), so a spreadsheet export can drive a run as it is. Any other
// input (stdin: a list's `-o csv` piped in) is read as CSV when its first line is such a header.
import { UsageError } from '../../api/errors.js';
import type { Context } from '../../context.js';
import type { RunFlags } from './flags.js';
import { attributeOf, flagOf, type Field } from '../../fields/declare.js';
import { bodyOf } from '../body.js';
import { paramsFrom, validated, type Checked } from '../prepare-input.js';
import type { OperationCommand } from '../spec.js';
import { restored } from '../../output/csv.js';
import { eachCsv } from './csv.js';

export interface Item {
  /** The line of the input it came from (1-based). */
  line: number;
  /** The line as written, to copy into a --failed file. */
  text: string;
  /** The command's arguments, as the JSON line's `input` shows them. */
  values: string[];
  input: Checked;
}

export interface BulkInput {
  items: Item[];
  /** A CSV file's header row: a --failed file starts with it, so that it can be run again. */
  header?: string;
}

const SHOWN_ERRORS = 3;

export function isCsv(source: string): boolean {
  return /\.csv$/i.test(source);
}

/** Whether the input's first line is a CSV header naming the command's arguments and fields (`id`, `id,reason`). */
function headedByColumns(spec: OperationCommand, fixed: string[], text: string): boolean {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  if (first === undefined) return false;
  const names = new Set([
    ...(spec.args ?? []).slice(fixed.length).flatMap(([label, param]) => [columnKey(label), columnKey(param)]),
    ...(spec.fields ?? []).flatMap((f) => [columnKey(f.key), columnKey(flagOf(f).slice(2))]),
  ]);
  return first.split(',').every((cell) => names.has(columnKey(cell.replace(/^"|"$/g, ''))));
}

export async function readItems(spec: OperationCommand, ctx: Context, fixed: string[], opts: RunFlags, source: string, text: string): Promise<BulkInput> {
  const errors: string[] = [];
  const input = isCsv(source) || headedByColumns(spec, fixed, text) ? await csvItems(spec, ctx, fixed, opts, text, errors) : await lineItems(spec, ctx, fixed, opts, text, errors);
  if (errors.length > 0) {
    const more = errors.length > SHOWN_ERRORS ? `; and ${errors.length - SHOWN_ERRORS} more` : '';
    throw new UsageError(`--each: ${errors.slice(0, SHOWN_ERRORS).join('; ')}${more}`, { hint: 'Nothing was sent' });
  }
  return input;
}

async function lineItems(spec: OperationCommand, ctx: Context, fixed: string[], opts: RunFlags, text: string, errors: string[]): Promise<BulkInput> {
  const body = await bodyOf(spec, opts, ctx);
  const arity = (spec.args ?? []).length;
  const items: Item[] = [];
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
      items.push({ line, text: trimmed, values: args, input: await validated(spec, ctx, { params: paramsFrom(spec, args), body }) });
    } catch (error) {
      errors.push(`line ${line}: ${(error as Error).message}`);
    }
  }
  return { items };
}

/** A column's name as people write it: `Other message`, `other-message` and `other_message` are one. */
const columnKey = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, '_');

async function csvItems(spec: OperationCommand, ctx: Context, fixed: string[], opts: RunFlags, text: string, errors: string[]): Promise<BulkInput> {
  const csv = eachCsv(text);
  const args = (spec.args ?? []).slice(fixed.length);
  const fields = spec.fields ?? [];
  // Each column names an argument (by its label or parameter) or a body field (by key or flag).
  const columns = csv.header.map((name) => {
    const key = columnKey(name);
    const arg = args.findIndex(([label, param]) => columnKey(label) === key || columnKey(param) === key);
    if (arg >= 0) return { arg };
    const field = fields.find((f: Field) => columnKey(f.key) === key || columnKey(flagOf(f).slice(2)) === key);
    if (field) return { field };
    const known = [...args.map(([label]) => label), ...fields.map((f: Field) => f.key)];
    throw new UsageError(`--each: the column "${name}" is not an argument or field of this command`, { hint: `Columns it takes: ${known.join(', ')}` });
  });
  // Two columns for one argument or field would leave one of them unused: which is meant is not guessed.
  const firstFor = new Map<string, number>();
  columns.forEach((column, index) => {
    const target = column.arg !== undefined ? args[column.arg]![0] : column.field!.key;
    const earlier = firstFor.get(target);
    if (earlier === undefined) return void firstFor.set(target, index);
    const [first, again] = [csv.header[earlier]!, csv.header[index]!];
    throw new UsageError(
      columnKey(first) === columnKey(again) ? `--each: the column "${again}" is given twice` : `--each: the columns "${first}" and "${again}" both give ${target}`,
      { hint: 'Keep one of them; nothing was sent' },
    );
  });
  const missing = args.filter((_, index) => !columns.some((column) => column.arg === index));
  if (missing.length > 0) {
    throw new UsageError(`--each: the CSV file has no column for ${missing.map(([label]) => `<${label}>`).join(', ')}`, {
      hint: `Name the columns in its first row, e.g. ${[...args.map(([label]) => label), ...fields.slice(0, 1).map((f: Field) => f.key)].join(',')}`,
    });
  }
  // Each row's body is built as its flags would be, without prompts: a row cannot be asked about.
  const rowCtx = Object.defineProperty(Object.create(ctx) as Context, 'interactive', { value: false });
  const items: Item[] = [];
  for (const row of csv.rows) {
    if (row.cells.length !== columns.length) {
      errors.push(`line ${row.line}: ${row.cells.length} values for ${columns.length} columns`);
      continue;
    }
    const values = [...fixed];
    const rowOpts: Record<string, unknown> = { ...opts };
    columns.forEach((column, index) => {
      // A cell reaches its field as written (less the ' a list's CSV puts before a formula), and is
      // converted as the flag's value would be (a text is trimmed, JSON read whole). An argument
      // names an object: spaces around it, as in a hand-written `hello, 10001`, are no part of it.
      const cell = restored(row.cells[index]!);
      if (column.arg !== undefined) values[fixed.length + column.arg] = cell.trim();
      // An empty cell leaves the field to the flags given with the command.
      else if (column.field && cell !== '') rowOpts[attributeOf(column.field)] = column.field.kind === 'list' ? [cell] : cell;
    });
    try {
      const body = await bodyOf(spec, rowOpts, rowCtx);
      items.push({ line: row.line, text: row.text, values, input: await validated(spec, ctx, { params: paramsFrom(spec, values), body }) });
    } catch (error) {
      errors.push(`line ${row.line}: ${(error as Error).message}`);
    }
  }
  return { items, header: csv.headerText };
}
