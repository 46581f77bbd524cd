// Runs one operation command: arguments and flags become validated input, destructive work is
// confirmed, the request is sent (or shown with --dry-run) and the result rendered. With --each
// the same preparation feeds the bulk runner instead.
import { ApiError, UsageError, ValidationError } from '../api/errors.js';
import { operations } from '../api/operations.js';
import { validateInput } from '../api/validate.js';
import type { Context } from '../context.js';
import { checkQuery, render } from '../output/render.js';
import { startSpinner } from '../output/spinner.js';
import type { OperationCommand, Options } from './define.js';

export interface Input {
  params: Record<string, unknown>;
  body: unknown;
}

export async function runOperation(spec: OperationCommand, ctx: Context, positional: string[], opts: Options): Promise<void> {
  const { options } = ctx;
  const args = spec.args ?? [];
  if (opts.each === undefined && positional.length < args.length) {
    throw new UsageError(`missing required argument '${args[positional.length]![0]}'`, { hint: `Run: store-admin ${commandName(spec)} --help` });
  }
  if (opts.each === undefined && ['concurrency', 'rate', 'failed'].some((key) => opts[key] !== undefined)) {
    throw new UsageError('--concurrency, --rate and --failed go with --each');
  }
  if (options.query !== undefined) await checkQuery(options.query);
  if (opts.each !== undefined) {
    const { runBulk } = await import('../bulk/run.js');
    return runBulk(spec, ctx, positional, opts);
  }
  const body = spec.body ? await spec.body(opts, ctx) : undefined;
  const input = await validated(spec, { params: paramsFrom(spec, positional), body });

  const client = await ctx.client();
  if (options.dryRun) {
    const prepared = await client.prepare(spec.operation, input as never);
    const { printDryRun } = await import('./dry-run.js');
    printDryRun(prepared, ctx);
    return;
  }
  const change = spec.confirm?.(input);
  if (change && !options.yes) await confirm(ctx, change);
  const stop = options.quiet ? () => {} : startSpinner(ctx.io.stderr, spec.progress);
  // Ctrl-C aborts the request at once; the client says what that means for this method.
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  let data: unknown;
  try {
    data = await client.call(spec.operation, input as never, { signal: controller.signal });
  } catch (error) {
    if (error instanceof ApiError) addHint(error, operations[spec.operation].scopes);
    throw error;
  } finally {
    process.off('SIGINT', abort);
    stop();
  }
  await render(spec.present ? spec.present(data, opts) : data, ctx.io, {
    format: ctx.format,
    query: options.query,
    raw: options.raw,
    color: ctx.color,
    view: spec.view,
  });
  // A person sees which fields a partial update sent; the answer shows every field alike.
  if (ctx.format === 'table' && operations[spec.operation].method === 'PATCH') noteChanged(ctx, input.body);
  await spec.after?.(data, opts, ctx);
}

function noteChanged(ctx: Context, body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const shown = (value: unknown) => (value !== null && typeof value === 'object' ? '(object)' : JSON.stringify(value));
  const changes = Object.entries(body).map(([key, value]) => `${key} = ${shown(value)}`);
  if (changes.length > 0) ctx.note(`Changed: ${changes.join(', ')}`);
}

export function commandName(spec: OperationCommand): string {
  const [group = ''] = spec.operation.split('.');
  return `${group.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${spec.name}`;
}

/** Positional values become path parameters: whole numbers for ids, text otherwise. */
export function paramsFrom(spec: OperationCommand, positional: string[]): Record<string, unknown> {
  const declared = operations[spec.operation].params as Readonly<Record<string, string>>;
  const params: Record<string, unknown> = {};
  for (const [index, [, param]] of (spec.args ?? []).entries()) {
    const value = positional[index] ?? '';
    params[param] = declared[param] === 'id' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  }
  return params;
}

/** Checks the input against the operation's schemas, naming flags and arguments in errors. */
export async function validated(spec: OperationCommand, input: Input): Promise<Input> {
  const op = operations[spec.operation];
  try {
    validateInput(op, await op.schemas(), input);
    return input;
  } catch (error) {
    if (error instanceof ValidationError) throw explain(error, spec, input);
    throw error;
  }
}

export async function confirm(ctx: Context, message: string): Promise<void> {
  const confirmed = await ctx.prompt.confirm({
    message: `${message} Continue?`,
    refusal: `${message.replace(/[.?]$/, '')}: confirmation needed`,
  });
  if (!confirmed) throw new UsageError('Canceled; nothing was sent');
}

/** Names the flag or argument behind each bad field, with the value given. */
function explain(error: ValidationError, spec: OperationCommand, input: Input) {
  const parts = error.issues.map((issue) => {
    const [where, field, ...rest] = issue.path.split('.');
    let label = issue.path;
    let value: unknown;
    if (where === 'params' && field) {
      const arg = spec.args?.find(([, param]) => param === field);
      label = arg ? `<${arg[0]}>` : field;
      value = input.params[field];
    } else if (where === 'body' && field) {
      label = spec.flags?.[field] ?? `--${field.replace(/_/g, '-')}`;
      if (rest.length > 0) label = `${label} (${rest.join('.')})`;
      value = rest.length === 0 ? (input.body as Record<string, unknown> | undefined)?.[field] : undefined;
    } else if (where === 'body') {
      label = 'body';
    }
    const shown = value === undefined || typeof value === 'object' ? '' : ` (got ${JSON.stringify(value)})`;
    return `${label}: ${issue.message}${shown}`;
  });
  return new UsageError(parts.join('; '));
}

/** What to do about an authentication or permission failure. */
export function addHint(error: ApiError, scopes: readonly string[]) {
  if (error.status === 401) {
    error.hint = 'The store rejected the token: set STORE_ADMIN_TOKEN to a valid one, or run: store-admin auth login';
  } else if (error.status === 403) {
    error.hint =
      scopes.length > 0
        ? `This command needs a token with the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' and ')}`
        : 'The token is not allowed to do this';
  }
}
