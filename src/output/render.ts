// The one renderer: JSON for scripts (optionally filtered with JMESPath), tables for people.
import { StoreAdminError, UsageError } from '../api/errors.js';
import type { IO } from '../io.js';
import type { ColorLevel } from './color.js';
import type { Column, View, ViewName } from './views.js';

export type Format = 'json' | 'table';

export interface RenderOptions {
  format: Format;
  /** A JMESPath expression, already checked with `checkQuery`. */
  query?: string;
  color: ColorLevel;
  view?: ViewName;
}

export async function render(data: unknown, io: IO, options: RenderOptions): Promise<void> {
  if (options.query !== undefined) {
    const { search } = (await import('jmespath')).default;
    try {
      data = search(data as never, options.query);
    } catch (error) {
      // Exit 1, not 2: the request itself was sent, and succeeded.
      throw new StoreAdminError(`--query could not be applied to the result (${(error as Error).message}); the request itself succeeded`);
    }
  }
  if (options.format === 'json' || options.query !== undefined) {
    io.stdout.write(`${JSON.stringify(data ?? null, null, io.stdout.isTTY ? 2 : undefined)}\n`);
    return;
  }
  if (data === undefined || data === null) return;
  io.stdout.write(`${await renderTable(data, options)}\n`);
}

/** Fails on a malformed expression before anything is sent. */
export async function checkQuery(query: string): Promise<void> {
  const { compile } = (await import('jmespath')).default as unknown as { compile(expression: string): unknown };
  try {
    compile(query);
  } catch (error) {
    throw new UsageError(`--query: not a valid JMESPath expression (${(error as Error).message})`);
  }
}

async function renderTable(data: unknown, options: RenderOptions): Promise<string> {
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
  const view: View = options.view ? views[options.view] : {};
  const table = (head: string[], rows: string[][]) => {
    // Without colour the header stands out in capitals, as no rule separates the rows.
    const t = new Table({ head: options.color > 0 ? head : head.map((h) => h.toUpperCase()), style, chars });
    t.push(...rows);
    return t.toString();
  };
  const listTable = (rows: unknown[], columns: Column[] | undefined) => {
    if (rows.length === 0) return fmt.dim('(none)');
    const cols = columns ?? autoColumns(rows);
    return table(
      cols.map(([label]) => label),
      rows.map((row) => cols.map(([, cell]) => cell(asRecord(row), fmt))),
    );
  };

  if (Array.isArray(data)) return listTable(data, view.columns);
  if (typeof data !== 'object' || data === null) return String(data);
  const record = data as Record<string, unknown>;
  if (view.keyValue) {
    return table(['Key', 'Value'], Object.entries(record).map(([key, value]) => [key, fmt.text(value)]));
  }
  const parts: string[] = [];
  const fields: Column[] = view.fields ?? autoFields(record);
  if (fields.length > 0) {
    const t = new Table({ style, chars });
    t.push(...fields.map(([label, cell]) => ({ [fmt.bold(label)]: cell(record, fmt) })));
    parts.push(t.toString());
  }
  for (const section of view.sections ?? []) {
    const rows = section.rows(record);
    parts.push(`${fmt.bold(section.title)}\n${listTable(Array.isArray(rows) ? rows : [], section.columns)}`);
  }
  return parts.join('\n\n');
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
}

/** For shapes no view names: the scalar fields, in the order the store sent them. */
function autoFields(record: Record<string, unknown>): Column[] {
  return Object.keys(record)
    .filter((key) => typeof record[key] !== 'object' || record[key] === null)
    .map((key): Column => [key, (row, f) => f.text(row[key])]);
}

function autoColumns(rows: unknown[]): Column[] {
  const first = asRecord(rows[0]);
  return autoFields(first).slice(0, 8);
}
