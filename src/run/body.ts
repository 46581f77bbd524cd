// A request's body from a command's flags: its own builder, or its fields (with the whole body as
// JSON from --data beneath them); and the rule that a partial update must change something.
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

export function requireSomething(body: Record<string, unknown>, what: string, dataGiven: boolean): Record<string, unknown> {
  if (Object.keys(body).length > 0) return body;
  throw new UsageError(dataGiven ? `Nothing to change: --data has no fields; pass ${what}` : `Nothing to change: pass ${what}`);
}
