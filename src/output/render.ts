// The one renderer: JSON for scripts (optionally filtered with JMESPath), tables for people.
// A query's result is JSON unless a table is asked for with -o table (see the context's format).
import type { IO } from '../io.js';
import type { ColorLevel } from './color.js';
import { writeOut } from './pager.js';
import { applyQuery, rawLines } from './query.js';
import type { ViewName } from './views.js';

export { checkQuery } from './query.js';

export type Format = 'json' | 'table';

export interface RenderOptions {
  format: Format;
  /** A JMESPath expression, already checked with `checkQuery`. */
  query?: string;
  /** --raw: strings bare, arrays of scalars one per line. */
  raw?: boolean;
  color: ColorLevel;
  view?: ViewName;
}

export async function render(data: unknown, io: IO, options: RenderOptions): Promise<void> {
  if (options.query !== undefined) data = await applyQuery(data, options.query);
  const raw = options.raw ? rawLines(data ?? null) : undefined;
  if (raw !== undefined) return writeOut(raw, io);
  if (options.format === 'json') {
    const json = JSON.stringify(data ?? null, null, io.stdout.isTTY ? 2 : undefined);
    return writeOut(`${io.stdout.isTTY && options.color > 0 ? await colored(json, options.color) : json}\n`, io);
  }
  if (data === undefined || data === null) return;
  const { renderTable, outputWidth } = await import('./table.js');
  await writeOut(`${await renderTable(data, options, outputWidth(io.stdout, io.env))}\n`, io);
}

async function colored(json: string, level: ColorLevel): Promise<string> {
  const [{ Chalk }, { colorJson }] = await Promise.all([import('chalk'), import('./json-color.js')]);
  return colorJson(json, new Chalk({ level }));
}
