// --columns: dotted paths into a record (`id`, `user.email`, `lines.0.sku`), shared by CSV, TSV,
// tables and the JSON formats, so that one list reads the same in each.
import type { Column, View } from './views.js';

/** The value at a dotted path: keys of objects, positions of lists; undefined where there is none. */
export function valueAt(record: unknown, path: string): unknown {
  let value = record;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The record with only these paths, each under its dotted name (what JSON shows with --columns). */
export function project(record: unknown, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // A path such as `__proto__` is a key like any other here, never the object's prototype.
  for (const path of paths) Object.defineProperty(out, path, { value: valueAt(record, path) ?? null, enumerable: true, writable: true, configurable: true });
  return out;
}

/** The columns of a CSV or TSV with none asked for: every field of the first record, in the order the store sent them. */
export function defaultPaths(record: unknown): string[] {
  return record !== null && typeof record === 'object' && !Array.isArray(record) ? Object.keys(record) : ['value'];
}

/** What a person looks for first in a record, in order: what it is, who, its state, how much, when. */
const FIRST = [/^(id|number|code|key)$/, /^(name|title|email|first_name|last_name|subject|slug)$/, /(^|_)status$|^type$|^active$/, /^(total_incl_tax|total|amount|price|currency)$/, /^(date_placed|date_created|created_at|happened_at)$/];

/**
 * A table's columns when no view names them: the first record's single-valued fields (nested ones
 * are in --json), those a person looks for first leading, at most `limit`.
 */
export function tableKeys(record: Record<string, unknown>, limit: number): string[] {
  const single = Object.keys(record).filter((key) => record[key] === null || typeof record[key] !== 'object');
  const keys = single.length > 0 ? single : Object.keys(record);
  const rank = (key: string) => {
    const at = FIRST.findIndex((pattern) => pattern.test(key));
    return at < 0 ? FIRST.length : at;
  };
  return keys
    .map((key, index) => ({ key, index }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.index - b.index)
    .slice(0, limit)
    .map(({ key }) => key);
}

/** A table view made of --columns: each path a column of a list, or a row of a single record. */
export function columnsView(paths: readonly string[]): View {
  const columns = paths.map((path): Column => [path, (record, f) => f.text(valueAt(record, path))]);
  return { columns, fields: columns };
}
