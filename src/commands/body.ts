// Bodies built from `--data` plus field flags: flags win over --data, and a flag left out
// leaves the field out.
import { Option, type Command } from 'commander';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { Options } from './define.js';
import { jsonObject } from './values.js';

export function dataOption(command: Command): void {
  command.option('--data <json>', 'body fields as JSON, @file or - (stdin); flags override them');
}

/** A JSON object flag such as --shipping-address; `nullable` lets `null` clear the field. */
export function objectOption(command: Command, flag: string, description: string, nullable: boolean): void {
  command.addOption(new Option(`--${flag} <json>`, `${description}: JSON or @file${nullable ? ', or null to clear' : ''}`));
}

export interface FieldFlag {
  /** Body field name. */
  field: string;
  /** Commander's camelCase name of the flag. */
  key: string;
  /** Converts the flag's text (kept as given when absent). */
  convert?: (value: string) => unknown;
  /** Parsed as a JSON object from text or @file. */
  object?: 'nullable' | 'required';
}

export async function buildBody(opts: Options, ctx: Context, fields: readonly FieldFlag[]): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = opts.data === undefined ? {} : { ...(await jsonObject(String(opts.data), '--data', ctx.io)) };
  for (const { field, key, convert, object } of fields) {
    const value = opts[key];
    if (value === undefined) continue;
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (object) body[field] = await jsonObject(String(value), flag, ctx.io, object === 'nullable');
    else body[field] = convert && typeof value === 'string' ? convert(value) : value;
  }
  return body;
}

export function requireSomething(body: Record<string, unknown>, what: string): Record<string, unknown> {
  if (Object.keys(body).length === 0) throw new UsageError(`Nothing to change: pass ${what}`);
  return body;
}
