// A job's lines, from a file (`--each FILE|-`) or the ids given as arguments. A file whose first
// line names the job's columns is CSV (RFC 4180, as --each reads it: a spreadsheet's export, or a
// list's `-o csv` piped in); any other file gives the columns in order on each line, separated by
// spaces or commas (`10001 1Z999 ups`). Columns are matched as people write them: `Order number`,
// `order-number` and `order_number` are one. A malformed file is refused whole (exit 2, nothing
// sent); what a cell says is the job's check to judge, line by line.
import { UsageError } from '../api/errors.js';
import { restored } from '../output/csv.js';
import { eachCsv } from '../run/bulk/csv.js';
import type { Job, JobLine } from './job.js';

/** A column's name as people write it: `Order number`, `order-number` and `order_number` are one. */
export const columnKey = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, '_');

/** Every column of the job, in order: its key, the required ones, the optional ones. */
export const columnsOf = (job: Pick<Job, 'columns'>) => [job.columns.key, ...job.columns.required, ...job.columns.optional];

/** The job's column a header cell names, by its name or an alias. */
function columnNamed(job: Pick<Job, 'columns' | 'aliases'>, cell: string): string | undefined {
  const key = columnKey(cell.replace(/^"|"$/g, ''));
  return columnsOf(job).find((column) => column === key) ?? (job.aliases?.[key] !== undefined ? job.aliases[key] : undefined);
}

/** Whether the text's first line is a header: every cell of it names a column of the job. */
function headed(job: Pick<Job, 'columns' | 'aliases'>, text: string): boolean {
  const first = text.replace(/^\ufeff/, '').split(/\r?\n/).find((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  return first !== undefined && first.split(',').every((cell) => columnNamed(job, cell) !== undefined);
}

export function linesOfText(job: Pick<Job, 'columns' | 'aliases'>, text: string, source: string): JobLine[] {
  const lines = /\.csv$/i.test(source) || headed(job, text) ? csvLines(job, text) : plainLines(job, text);
  if (lines.length === 0) throw new UsageError(`--each ${source}: no input lines`);
  return lines;
}

function csvLines(job: Pick<Job, 'columns' | 'aliases'>, text: string): JobLine[] {
  const csv = eachCsv(text);
  const columns = csv.header.map((name) => {
    const column = columnNamed(job, name);
    if (column === undefined) throw new UsageError(`--each: the column "${name}" is not one this job reads`, { hint: `Its columns: ${columnsOf(job).join(', ')}` });
    return column;
  });
  const twice = columns.find((column, at) => columns.indexOf(column) !== at);
  if (twice !== undefined) throw new UsageError(`--each: two columns give ${twice}`, { hint: 'Keep one of them; nothing was sent' });
  const missing = [job.columns.key, ...job.columns.required].filter((column) => !columns.includes(column));
  if (missing.length > 0) {
    throw new UsageError(`--each: the CSV file has no column ${missing.join(', ')}`, { hint: `Name the columns in its first row, e.g. ${[job.columns.key, ...job.columns.required].join(',')}` });
  }
  const wrong = csv.rows.filter((row) => row.cells.length !== columns.length);
  if (wrong.length > 0) {
    const shown = wrong.slice(0, 3).map((row) => `line ${row.line}: ${row.cells.length} values for ${columns.length} columns`);
    throw new UsageError(`--each: ${shown.join('; ')}${wrong.length > 3 ? `; and ${wrong.length - 3} more` : ''}`, { hint: 'Nothing was sent' });
  }
  return csv.rows.map((row) => ({ line: row.line, cells: Object.fromEntries(columns.map((column, at) => [column, restored(row.cells[at]!).trim()])) }));
}

/** A line of values in the columns' order: the key, then the required columns, then the optional ones. */
function plainLines(job: Pick<Job, 'columns'>, text: string): JobLine[] {
  const columns = columnsOf(job);
  const least = 1 + job.columns.required.length;
  const lines: JobLine[] = [];
  const errors: string[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const values = trimmed.split(/[\s,]+/).filter(Boolean);
    if (values.length < least || values.length > columns.length) {
      errors.push(`line ${index + 1}: expected ${least === columns.length ? least : `${least} to ${columns.length}`} values (${columns.slice(0, Math.max(least, values.length)).join(' ')}), got ${values.length}`);
      continue;
    }
    lines.push({ line: index + 1, cells: Object.fromEntries(values.map((value, at) => [columns[at]!, value])) });
  }
  if (errors.length > 0) throw new UsageError(`--each: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? `; and ${errors.length - 3} more` : ''}`, { hint: 'Nothing was sent' });
  return lines;
}

/** The objects given as arguments (or selected by a list), one line each. */
export function linesOfKeys(job: Pick<Job, 'columns'>, keys: readonly string[]): JobLine[] {
  return keys.map((key, at) => ({ line: at + 1, cells: { [job.columns.key]: key.trim().replace(/^#(?=\d+$)/, '') } }));
}
