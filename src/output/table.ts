// Tables for people, fitted to the terminal: columns keep their natural width while the table
// fits, otherwise the widest give way and their cells wrap at words (a long word is cut with …).
// Widths are the terminal's columns (string-width), not characters: a Japanese name or an emoji
// takes two, a combining accent none.
import stringWidth from 'string-width';
import { printableLine } from '../printable.js';
import type { ColorLevel } from './color.js';
import { columnsView, tableKeys } from './columns.js';
import type { Column, View, ViewName } from './views.js';

/** What a table is drawn with (the renderer's options add the format and --raw). */
export interface TableOptions {
  /** A JMESPath expression: a result it has reshaped no longer fits its view. */
  query?: string;
  color: ColorLevel;
  view?: ViewName;
  /** --columns: these paths in place of the view's columns. */
  columns?: readonly string[];
}

export async function renderTable(data: unknown, options: TableOptions, width: number | undefined): Promise<string> {
  const [{ default: Table }, { Chalk }, { createFmt }, { views }] = await Promise.all([
    import('cli-table3'),
    import('chalk'),
    import('./format.js'),
    import('./views.js'),
  ]);
  const chalk = new Chalk({ level: options.color });
  const fmt = createFmt(chalk);
  const { style, chars } = tableChrome(options.color);
  // A query reshapes the result: the view's fields would find nothing in it.
  const view: View = options.columns ? columnsView(options.columns) : options.view && options.query === undefined ? views[options.view] : {};
  const table = (head: string[], rows: string[][]) => {
    // Labels may be the store's own keys.
    head = head.map(printableLine);
    const colWidths = fitColumns(head.length > 0 ? [head, ...rows] : rows, width);
    // A word longer than its column is broken across lines, never cut: an id must stay whole.
    const fit = (row: string[]) => (colWidths ? row.map((cell, i) => breakLongWords(cell, colWidths[i]! - 2)) : row);
    const t = new Table({ head: fit(head), style, chars, ...(colWidths ? { colWidths, wordWrap: true, wrapOnWordBoundary: true } : {}) });
    t.push(...rows.map(fit));
    return t.toString();
  };
  const heading = (labels: string[]) => headingOf(labels, options.color);
  const listTable = (rows: unknown[], columns: Column[] | undefined, optional: readonly string[] = []) => {
    if (rows.length === 0) return fmt.dim('(none)');
    if (!columns && rows.every((row) => typeof row !== 'object' || row === null)) {
      return table([], rows.map((row) => [fmt.text(row)]));
    }
    const cells = (shown: Column[]) => [heading(shown.map(([label]) => label)), ...rows.map((row) => shown.map(([, cell]) => cell(asRecord(row), fmt)))];
    const [head, ...body] = cells(sparedColumns(columns ?? autoColumns(rows), optional, (shown) => wordsFit(cells(shown), width)));
    return table(head!, body);
  };

  if (Array.isArray(data)) return listTable(data, view.columns, view.optional);
  if (typeof data !== 'object' || data === null) return fmt.text(data);
  const record = data as Record<string, unknown>;
  if (view.keyValue) {
    return table(heading(['Key', 'Value']), Object.entries(record).map(([key, value]) => [fmt.text(key), fmt.text(value)]));
  }
  const parts: string[] = [];
  // A view of lists alone (export types) shows no summary of them above the lists.
  const fields: Column[] = view.fields ?? (view.sections ? [] : autoFields(record));
  if (fields.length > 0) parts.push(table([], fields.map(([label, cell]) => [fmt.bold(printableLine(label)), cell(record, fmt)])));
  for (const section of view.sections ?? []) {
    const rows = section.rows(record);
    parts.push(`${fmt.bold(section.title)}\n${listTable(Array.isArray(rows) ? rows : [], section.columns)}`);
  }
  return parts.join('\n\n');
}

/** How every table is drawn: its colours, and no rule between rows (denser, still readable inside the outer frame). */
export function tableChrome(color: ColorLevel) {
  return {
    style: color > 0 ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  };
}

/** A list's column labels: without colour the header stands out in capitals, as no rule separates the rows. */
export function headingOf(labels: string[], color: ColorLevel): string[] {
  return (color > 0 ? labels : labels.map((h) => h.toUpperCase())).map(printableLine);
}

/** The width of a table forced into a pipe without COLUMNS: as wide as a classic terminal, as help is. */
export const PIPE_WIDTH = 80;

/** The terminal's width; in a pipe, COLUMNS or else 80. Undefined (no limit) only for a terminal that gives none. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number | undefined {
  const columns = stream.isTTY ? stream.columns : Number(env.COLUMNS) || PIPE_WIDTH;
  return columns && columns >= 20 ? columns : undefined;
}

const NARROWEST = 8;

/**
 * cli-table3 column widths (padding included) that fit `width`, or undefined when the table fits
 * as it is. The widest column gives way first, but none below its longest word while the table
 * can fit so; only then do columns narrow further (to a few characters), and a word too long for
 * its column is broken across lines (breakLongWords), never cut.
 */
export function fitColumns(rows: string[][], width: number | undefined): number[] | undefined {
  if (width === undefined || rows.length === 0) return undefined;
  const widths = naturalWidths(rows);
  const count = widths.length;
  const budget = width - (count + 1);
  if (sum(widths) <= budget) return undefined;
  narrow(widths, wordWidths(rows, count), budget);
  narrow(widths, widths.map(() => NARROWEST + 2), budget);
  return widths;
}

/** Rather than break a word (a run id, a URL), the columns a view can spare go, in its order, until the table `fits`. */
export function sparedColumns(columns: Column[], optional: readonly string[], fits: (shown: Column[]) => boolean): Column[] {
  let shown = columns;
  for (const label of optional) {
    if (fits(shown)) break;
    shown = shown.filter(([name]) => name !== label);
  }
  return shown;
}

/** Each column as wide as its widest line in terminal columns, padding included (what cli-table3 would choose). */
export function naturalWidths(rows: string[][]): number[] {
  const count = Math.max(...rows.map((row) => row.length));
  return Array.from({ length: count }, (_, i) => 2 + Math.max(0, ...rows.map((row) => longestLine(row[i] ?? ''))));
}

/** Whether the table fits `width` with no word broken (true without a width). */
export function wordsFit(rows: string[][], width: number | undefined): boolean {
  if (width === undefined || rows.length === 0) return true;
  const count = Math.max(...rows.map((row) => row.length));
  return sum(wordWidths(rows, count)) <= width - (count + 1);
}

/** Each column's narrowest width that keeps every word whole. */
function wordWidths(rows: string[][], count: number): number[] {
  return Array.from({ length: count }, (_, i) => 2 + Math.max(1, ...rows.map((row) => longestWord(row[i] ?? ''))));
}

/** Takes a character at a time from the widest column still above its floor, until the budget is met. */
function narrow(widths: number[], floors: number[], budget: number): void {
  for (let total = sum(widths); total > budget; total--) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i]! > floors[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) return;
    widths[widest]!--;
  }
}

/**
 * Words wider than `room` columns split into pieces that fit, one per line, between whole
 * characters as people see them (an emoji with its modifiers, a letter with its accents); colour
 * codes ride along.
 */
export function breakLongWords(cell: string, room: number): string {
  if (room < 1) return cell;
  return cell.replace(/\S+/g, (word) => {
    if (stringWidth(word) <= room) return word;
    let out = '';
    let run = 0;
    for (const [piece] of word.matchAll(/\x1b\[[0-9;]*m|[^\x1b]+|\x1b/g)) {
      if (piece.startsWith('\x1b')) {
        out += piece;
        continue;
      }
      for (const { segment } of graphemes.segment(piece)) {
        const width = stringWidth(segment);
        if (run > 0 && run + width > room) {
          out += '\n';
          run = 0;
        }
        out += segment;
        run += width;
      }
    }
    return out;
  });
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function longestLine(cell: string): number {
  return Math.max(...cell.split('\n').map((line) => stringWidth(line)));
}

function longestWord(cell: string): number {
  return Math.max(0, ...cell.split(/\s+/).map((word) => stringWidth(word)));
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
}

/** For shapes no view names: the fields in the order the store sent them, nested ones summarised. */
function autoFields(record: Record<string, unknown>): Column[] {
  return Object.keys(record).map((key): Column => [key, (row, f) => f.text(row[key])]);
}

/** A list no view names: the first record's fields people look for, as columns headed in words. */
export function autoColumns(rows: unknown[]): Column[] {
  const cell = (key: string): Column[1] =>
    /(^date|_date$|_at$)/.test(key) ? (row, f) => f.date(row[key]) : /(^|_)status$/.test(key) ? (row, f) => f.status(row[key]) : (row, f) => f.text(row[key]);
  return tableKeys(asRecord(rows[0]), 6).map((key): Column => [key.replace(/_/g, ' '), cell(key)]);
}
