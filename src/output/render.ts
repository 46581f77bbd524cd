// The one renderer: JSON for scripts (optionally filtered with JMESPath), NDJSON for streams of
// records (bulk results, pages of a list), tables for people. A query's result is JSON unless a
// table is asked for with -o table (see the context's format).
import type { IO } from '../io.js';
import { writeOut, type RunSignals } from './pager.js';
import { applyQuery, rawLines } from './query.js';
import { recordLines } from './record-lines.js';
import { statusLine } from './status-line.js';
import { jsonText, printable, withoutRunnerCommands } from '../printable.js';
import type { TableOptions } from './table.js';
import type { ColorLevel } from './color.js';
import type { View } from './views.js';

export { checkQuery } from './query.js';

export type Format = 'json' | 'ndjson' | 'table' | 'csv' | 'tsv';

export interface RenderOptions extends TableOptions {
  format: Format;
  /** A JMESPath expression, already checked with `checkQuery`. */
  query?: string;
  /** --raw: strings bare, arrays of scalars one per line. */
  raw?: boolean;
  /** --csv-raw: CSV and TSV cells as sent, formulas included. */
  csvRaw?: boolean;
  /** The run's signals, which a pager follows. */
  signals?: RunSignals;
}

export async function render(data: unknown, io: IO, options: RenderOptions): Promise<void> {
  if (options.query !== undefined) data = await applyQuery(data, options.query);
  const raw = options.raw ? rawLines(data ?? null) : undefined;
  // Bare strings are exact in a pipe; a terminal is shown them without their control characters.
  if (raw !== undefined) return writeOut(io.stdout.isTTY ? printable(raw) : raw, io, options.signals);
  if (options.format === 'csv' || options.format === 'tsv') {
    const [{ headerRow, recordRow }, { defaultPaths }] = await Promise.all([import('./csv.js'), import('./columns.js')]);
    const records = data === undefined ? [] : await recordsOf(data, options);
    const paths = options.columns ?? defaultPaths(records[0]);
    const delimited = { format: options.format, raw: options.csvRaw };
    // A cell over several lines can start none that a CI runner reads as a workflow command, raw or not.
    return writeOut(withoutRunnerCommands(`${headerRow(paths, delimited)}${records.map((record) => recordRow(record, paths, delimited)).join('')}`), io, options.signals);
  }
  if (options.format === 'ndjson') {
    const line = statusLine(io.stderr);
    const lines = recordLines((text) => line.above(() => io.stdout.write(text)), (record) => `${jsonText(record)}\n`);
    const records = await recordsOf(data, options);
    for (const record of options.columns ? ((await projected(records, options.columns)) as unknown[]) : records) lines.write(record);
    return lines.end();
  }
  if (options.columns && options.format === 'json') data = await projected(data, options.columns);
  if (options.format === 'json') {
    // The characters JSON leaves raw (C1 controls, bidi overrides) are written as \u escapes,
    // which read back as the same value; for a person, indented and coloured when allowed.
    if (!io.stdout.isTTY) return writeOut(`${jsonText(data)}\n`, io, options.signals);
    const json = jsonText(data, 2);
    return writeOut(`${options.color > 0 ? await colored(json, options.color) : json}\n`, io, options.signals);
  }
  if (data === undefined || data === null) return;
  const { renderTable, outputWidth } = await import('./table.js');
  await writeOut(`${await renderTable(data, options, outputWidth(io.stdout, io.env))}\n`, io, options.signals);
}

/** The records of a result, one per NDJSON line: a list's items, or those of the list its view says it wraps. */
async function recordsOf(data: unknown, options: RenderOptions): Promise<unknown[]> {
  if (Array.isArray(data)) return data;
  // A query has reshaped the result: the view no longer describes it.
  if (options.view && options.query === undefined && data !== null && typeof data === 'object') {
    const { views } = await import('./views.js');
    const view: View = views[options.view];
    const items = view.items?.(data as Record<string, unknown>);
    if (Array.isArray(items)) return items;
  }
  return [data ?? null];
}

/** JSON with --columns: each record (of a list, or of a page's results), or the one record, with only those paths. */
async function projected(data: unknown, paths: readonly string[]): Promise<unknown> {
  const { project } = await import('./columns.js');
  if (Array.isArray(data)) return data.map((record) => project(record, paths));
  if (data === undefined || data === null) return data;
  const results = (data as { results?: unknown }).results;
  return Array.isArray(results) ? { ...data, results: results.map((record) => project(record, paths)) } : project(data, paths);
}

async function colored(json: string, level: ColorLevel): Promise<string> {
  const [{ Chalk }, { colorJson }] = await Promise.all([import('chalk'), import('./json-color.js')]);
  return colorJson(json, new Chalk({ level }));
}
