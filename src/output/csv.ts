// -o csv and -o tsv: a header row, then a row per record, for spreadsheets and for --each. CSV
// cells are quoted as RFC 4180 says (a comma, quote or line break inside; quotes doubled); TSV
// cells escape tabs, line breaks and backslashes (\t \n \r \\), as linear TSV does. Text that a
// spreadsheet would run as a formula is neutralised with a leading ' unless --csv-raw: a
// customer's name is data, never a formula (OWASP's CSV injection advice).
import { valueAt } from './columns.js';

export interface DelimitedOptions {
  format: 'csv' | 'tsv';
  /** --csv-raw: cells as sent, formulas included. */
  raw?: boolean;
}

/** The header row: each column's path. */
export function headerRow(paths: readonly string[], options: DelimitedOptions): string {
  return row(paths.map((path) => escape(path, options)), options);
}

/** One record's row, its cells in the order of `paths`. */
export function recordRow(record: unknown, paths: readonly string[], options: DelimitedOptions): string {
  const cells = paths.map((path) => {
    // A list of plain values (ids, names) has one column, headed `value`.
    const value = record === null || typeof record !== 'object' ? (path === 'value' ? record : undefined) : valueAt(record, path);
    return escape(text(value, options), options);
  });
  return row(cells, options);
}

function row(cells: string[], { format }: DelimitedOptions): string {
  return `${cells.join(format === 'csv' ? ',' : '\t')}\n`;
}

/**
 * A value as a cell's text: nothing for null or a missing field; a list of plain values joined by
 * commas (as --each reads a list column back); anything else nested as compact JSON.
 */
function text(value: unknown, options: DelimitedOptions): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return typeof value === 'string' && !options.raw ? neutralised(value) : String(value);
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) {
    const joined = value.map((item) => (item === null ? '' : String(item))).join(',');
    return options.raw ? joined : neutralised(joined);
  }
  return JSON.stringify(value);
}

/** A plain number (`-12.50`, `+3`) is data; other text a spreadsheet would evaluate gets a leading '. */
export function neutralised(value: string): string {
  if (!/^[=+\-@\t\r]/.test(value)) return value;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) ? value : `'${value}`;
}

function escape(value: string, { format }: DelimitedOptions): string {
  if (format === 'tsv') return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
