// Tables for people, fitted to the terminal: columns keep their natural width while the table
// fits, otherwise the widest give way and their cells wrap at words (a long word is cut with …).
import { printableLine } from '../printable.js';
import type { RenderOptions } from './render.js';
import type { Column, View } from './views.js';

export async function renderTable(data: unknown, options: RenderOptions, width: number | undefined): Promise<string> {
  const [{ default: Table }, { Chalk }, { createFmt }, { views }] = await Promise.all([
    import('cli-table3'),
    import('chalk'),
    import('./format.js'),
    import('./views.js'),
  ]);
  const chalk = new Chalk({ level: options.color });
  const fmt = createFmt(chalk);
  const style = options.color > 0 ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] };
  // No rule between rows: denser, and still readable inside the outer frame.
  const chars = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };
  // A query reshapes the result: the view's fields would find nothing in it.
  const view: View = options.view && options.query === undefined ? views[options.view] : {};
  const table = (head: string[], rows: string[][]) => {
    // Labels may be the store's own keys.
    head = head.map(printableLine);
    const colWidths = fitColumns(head.length > 0 ? [head, ...rows] : rows, width);
    const t = new Table({ head, style, chars, ...(colWidths ? { colWidths, wordWrap: true, wrapOnWordBoundary: true } : {}) });
    t.push(...rows);
    return t.toString();
  };
  // Without colour the header stands out in capitals, as no rule separates the rows.
  const heading = (labels: string[]) => (options.color > 0 ? labels : labels.map((h) => h.toUpperCase()));
  const listTable = (rows: unknown[], columns: Column[] | undefined) => {
    if (rows.length === 0) return fmt.dim('(none)');
    if (!columns && rows.every((row) => typeof row !== 'object' || row === null)) {
      return table([], rows.map((row) => [fmt.text(row)]));
    }
    const cols = columns ?? autoColumns(rows);
    return table(
      heading(cols.map(([label]) => label)),
      rows.map((row) => cols.map(([, cell]) => cell(asRecord(row), fmt))),
    );
  };

  if (Array.isArray(data)) return listTable(data, view.columns);
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

/** The terminal's width, or COLUMNS for a table forced into a pipe; undefined: no limit. */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv): number | undefined {
  const columns = stream.isTTY ? stream.columns : Number(env.COLUMNS);
  return columns && columns >= 20 ? columns : undefined;
}

const NARROWEST = 8;

/**
 * cli-table3 column widths (padding included) that fit `width`, or undefined when the table fits
 * as it is. The widest column gives way first, down to a few characters.
 */
export function fitColumns(rows: string[][], width: number | undefined): number[] | undefined {
  if (width === undefined || rows.length === 0) return undefined;
  const count = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: count }, (_, i) => 2 + Math.max(0, ...rows.map((row) => longestLine(row[i] ?? ''))));
  const budget = width - (count + 1);
  let total = widths.reduce((a, b) => a + b, 0);
  if (total <= budget) return undefined;
  while (total > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= NARROWEST + 2) break;
    widths[widest]!--;
    total--;
  }
  return widths;
}

function longestLine(cell: string): number {
  return Math.max(...cell.replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((line) => [...line].length));
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
}

/** For shapes no view names: the fields in the order the store sent them, nested ones summarised. */
function autoFields(record: Record<string, unknown>): Column[] {
  return Object.keys(record).map((key): Column => [key, (row, f) => f.text(row[key])]);
}

function autoColumns(rows: unknown[]): Column[] {
  const first = asRecord(rows[0]);
  return autoFields(first).slice(0, 8);
}
