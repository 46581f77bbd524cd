// Cell formatting for tables: money with its currency, coloured statuses, readable dates. Every
// value from the store passes through `text`, which keeps control characters off the terminal.
import type { ChalkInstance } from 'chalk';
import { printableLine } from '../printable.js';

export interface Fmt {
  money(amount: unknown, currency: unknown): string;
  status(value: unknown): string;
  date(value: unknown): string;
  bool(value: unknown): string;
  text(value: unknown): string;
  dim(value: string): string;
  bold(value: string): string;
}

const GOOD = new Set(['active', 'available', 'success', 'paid', 'fulfilled', 'accepted', 'won', 'open', 'delivered']);
const WARN = new Set(['past_due', 'retrying', 'pending', 'partial', 'partially_fulfilled', 'in_progress', 'in_transit', 'new', 'cancel_requested', 'cancellation_requested', 'label_printed', 'alert']);
const BAD = new Set(['canceled', 'cancelled', 'failed', 'lost', 'declined', 'refunded', 'cancel_rejected', 'cancellation_rejected', 'chargeback']);

export function createFmt(chalk: ChalkInstance): Fmt {
  const text = (value: unknown): string => {
    if (value === undefined || value === null || value === '') return chalk.dim('—');
    if (typeof value === 'object') return printableLine(summary(value));
    return printableLine(String(value));
  };
  return {
    text,
    money: (amount, currency) =>
      amount === undefined || amount === null || amount === '' ? text(amount) : text(`${String(amount)}${currency ? ` ${String(currency)}` : ''}`),
    status: (value) => {
      if (typeof value !== 'string' || !value) return text(value);
      if (GOOD.has(value)) return chalk.green(value);
      if (WARN.has(value)) return chalk.yellow(value);
      if (BAD.has(value)) return chalk.red(value);
      return text(value);
    },
    date: (value) => {
      if (typeof value !== 'string' || !value) return text(value);
      const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(value);
      return match ? `${match[1]} ${match[2]}${match[3] === 'Z' ? ' UTC' : match[3] ? ` ${match[3]}` : ''}` : text(value);
    },
    bool: (value) => (value === true ? 'yes' : value === false ? 'no' : text(value)),
    dim: (value) => chalk.dim(value),
    bold: (value) => chalk.bold(value),
  };
}

const SHORT = 40;

/** A nested value in a cell: its JSON when short, else what it holds (the whole is in --json). */
export function summary(value: object): string {
  const json = JSON.stringify(value);
  if (json.length <= SHORT) return json;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return value.filter((item) => item != null).join(', ');
    return `${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  const record = value as Record<string, unknown>;
  const name = ['name', 'title', 'email', 'id'].find((key) => typeof record[key] === 'string' || typeof record[key] === 'number');
  if (name) return String(record[name]);
  const keys = Object.keys(record);
  return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
}
