// -o csv and -o tsv: a header row, then a row per record, for spreadsheets and for --each. CSV
// cells are quoted as RFC 4180 says (a comma, quote or line break inside; quotes doubled); TSV
// cells escape tabs, line breaks and backslashes (\t \n \r \\), as linear TSV does. A store's
// text passes the rule every text for people passes: control characters (escape sequences,
// carriage returns, bidi overrides) are shown as escapes, and text that a spreadsheet would run as
// a formula is neutralised with a leading ' (a customer's name is data, never a formula: OWASP's
// CSV injection advice); --csv-raw writes cells as sent. --each reads the ' back off (`restored`),
// so a list's CSV feeds it as it is.
import { printable } from '../printable.js';
import { valueAt } from './columns.js';

export interface DelimitedOptions {
  format: 'csv' | 'tsv';
  /** --csv-raw: cells as sent, formulas and control characters included. */
  raw?: boolean;
}

/** The header row: each column's path. */
export function headerRow(paths: readonly string[], options: DelimitedOptions): string {
  return row(paths.map((path) => cell(path, options)), options);
}

/** One record's row, its cells in the order of `paths`. */
export function recordRow(record: unknown, paths: readonly string[], options: DelimitedOptions): string {
  const cells = paths.map((path) => {
    // A list of plain values (ids, names) has one column, headed `value`.
    const value = record === null || typeof record !== 'object' ? (path === 'value' ? record : undefined) : valueAt(record, path);
    return cell(text(value, options), options);
  });
  return row(cells, options);
}

/** A cell as written: escaped for its format, then its control characters shown as escapes unless raw. */
function cell(value: string, options: DelimitedOptions): string {
  const escaped = escape(value, options);
  return options.raw ? escaped : printable(escaped);
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

// What a spreadsheet evaluates starts with one of = + - @ tab or carriage return. Text that starts
// so after one or more ' gets a ' too, so that removing one is the exact inverse.
const FORMULA = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const MARKED = /^'+[=+\-@\t\r]/;

/** A plain number (`-12.50`, `+3`) is data; other text a spreadsheet would evaluate gets a leading '. */
export function neutralised(value: string): string {
  if (MARKED.test(value)) return `'${value}`;
  return FORMULA.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** A cell as --each reads it: the ' that `neutralised` added is removed, and only that one. */
export function restored(cell: string): string {
  return MARKED.test(cell) ? cell.slice(1) : cell;
}

function escape(value: string, { format }: DelimitedOptions): string {
  if (format === 'tsv') return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
