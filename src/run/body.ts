// A request's body and query from a command's flags: its own builder, or its fields (with the
// whole body as JSON from --data beneath them); and the rule that a partial update must change
// something.
import { UsageError } from '../api/errors.js';
import { operation } from '../api/operations.js';
import type { Context } from '../context.js';
import type { RunFlags } from './bulk/flags.js';
import { fieldBody } from '../fields/body.js';
import type { OperationCommand } from './spec.js';

/** The body the flags (and prompts) give, or undefined for an operation without one. */
export async function bodyOf(spec: OperationCommand, opts: RunFlags, ctx: Context): Promise<unknown> {
  if (spec.body) return spec.body(opts, ctx);
  if (!spec.fields) return undefined;
  const { body } = await operation(spec.operation).schemas(ctx.options.apiVersion);
  const result = await fieldBody(spec.fields, opts, ctx, body);
  return spec.requireSome ? requireSomething(result, spec.requireSome, opts.data !== undefined) : result;
}

/** The query parameters the flags give (and a list's --cursor), or undefined when none was given. */
export async function queryOf(spec: OperationCommand, opts: RunFlags, ctx: Context): Promise<Record<string, unknown> | undefined> {
  const result: Record<string, unknown> = {};
  if (spec.query?.length) {
    const { query } = await operation(spec.operation).schemas(ctx.options.apiVersion);
    // --data is the body's; a query is given only by its flags.
    Object.assign(result, await fieldBody(spec.query, { ...opts, data: undefined }, ctx, query));
  }
  if (typeof opts.cursor === 'string') result.cursor = opts.cursor;
  return Object.keys(result).length > 0 ? result : undefined;
}

export function requireSomething(body: Record<string, unknown>, what: string, dataGiven: boolean): Record<string, unknown> {
  if (Object.keys(body).length > 0) return body;
  throw new UsageError(dataGiven ? `Nothing to change: --data has no fields; pass ${what}` : `Nothing to change: pass ${what}`);
}
