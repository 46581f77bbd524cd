// Runs one operation command: arguments and flags become validated input, destructive work is
// confirmed, the request is sent (or shown with --dry-run) and the result rendered. With --each
// the same preparation feeds the bulk runner instead.
import { ApiError, UsageError, ValidationError } from '../api/errors.js';
import { operations, type ParamKind } from '../api/operations.js';
import { validateInput } from '../api/validate.js';
import type { Context } from '../context.js';
import { checkQuery, render } from '../output/render.js';
import { startSpinner } from '../output/spinner.js';
import { DEFAULTS } from '../defaults.js';
import type { OperationCommand, Options } from './define.js';
import { attributeOf, flagOf, missingError, missingFlags, nearest } from './fields.js';

export interface Input {
  params: Record<string, unknown>;
  body: unknown;
}

export async function runOperation(spec: OperationCommand, ctx: Context, positional: string[], opts: Options): Promise<void> {
  const { options } = ctx;
  const args = spec.args ?? [];
  if (opts.each === undefined && ['concurrency', 'rate', 'failed'].some((key) => opts[key] !== undefined)) {
    throw new UsageError('--concurrency, --rate and --failed go with --each');
  }
  if (options.query !== undefined) await checkQuery(options.query);
  if (opts.each !== undefined) {
    opts.concurrency ??= DEFAULTS.concurrency;
    opts.rate ??= DEFAULTS.rate;
    const { runBulk } = await import('../bulk/run.js');
    return runBulk(spec, ctx, positional, opts);
  }
  if (positional.length < args.length) positional = await askArguments(spec, ctx, positional, opts);
  const body = spec.body ? await spec.body(opts, ctx) : undefined;
  const input = await validated(spec, { params: paramsFrom(spec, positional), body }, opts);
  await spec.check?.(opts, input);

  const client = await ctx.client();
  if (options.dryRun) {
    const prepared = await client.prepare(spec.operation, input as never);
    const { printDryRun } = await import('./dry-run.js');
    printDryRun(prepared, ctx);
    return;
  }
  const change = spec.confirm?.(input) ?? (ctx.interactive ? spec.review?.(input) : undefined);
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
  const shown = spec.settle ? await spec.settle(data, opts, ctx, input) : { data };
  if (!shown) return;
  await render(spec.present ? spec.present(shown.data, opts) : shown.data, ctx.io, {
    format: ctx.format,
    query: options.query,
    color: ctx.color,
    view: spec.view,
  });
}

export function commandName(spec: OperationCommand): string {
  const [group = ''] = spec.operation.split('.');
  return `${group.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${spec.name}`;
}

/**
 * Missing arguments are asked for on a terminal, each checked as its path parameter is. Without
 * one, the error names every missing argument and any missing field flag together.
 */
async function askArguments(spec: OperationCommand, ctx: Context, given: string[], opts: Options): Promise<string[]> {
  const args = spec.args ?? [];
  const missing = args.slice(given.length);
  if (!ctx.interactive) {
    throw missingError([...missing.map(([label]) => `<${label}>`), ...missingFlags(spec.fields ?? [], opts)], ctx);
  }
  const op = operations[spec.operation];
  const { paramsSchema } = await import('../api/validate.js');
  const values = [...given];
  for (const [label, param, description] of missing) {
    const schema = paramsSchema({ [param]: op.params[param as keyof typeof op.params] } as Record<string, ParamKind>);
    values.push(
      await ctx.prompt.text({
        flag: `<${label}>`,
        message: `${description.charAt(0).toUpperCase()}${description.slice(1)}:`,
        validate: (answer) => {
          const result = schema.safeParse(paramsFrom({ ...spec, args: [[label, param, description]] }, [answer]));
          return result.success ? true : (result.error.issues[0]?.message ?? 'is not valid');
        },
      }),
    );
  }
  return values;
}

/** Positional values become path parameters: whole numbers for ids, text otherwise. */
export function paramsFrom(spec: OperationCommand, positional: string[]): Record<string, unknown> {
  const declared = operations[spec.operation].params as Readonly<Record<string, string>>;
  const params: Record<string, unknown> = {};
  for (const [index, [, param]] of (spec.args ?? []).entries()) {
    let value = positional[index] ?? '';
    // The dashboard shows order numbers as "#10001", and people copy them with the mark.
    if (param === 'number' && /^#\d+$/.test(value.trim())) value = value.trim().slice(1);
    params[param] = declared[param] === 'id' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  }
  return params;
}

/** Checks the input against the operation's schemas, naming flags and arguments in errors. */
export async function validated(spec: OperationCommand, input: Input, opts?: Options): Promise<Input> {
  const op = operations[spec.operation];
  try {
    validateInput(op, await op.schemas(), input);
    return input;
  } catch (error) {
    if (error instanceof ValidationError) throw explain(error, spec, input, opts);
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

/** Names the flag or argument behind each bad field, with the value as typed and the nearest allowed one. */
function explain(error: ValidationError, spec: OperationCommand, input: Input, opts: Options = {}) {
  const parts = error.issues.map((issue) => {
    const [where, field, ...rest] = issue.path.split('.');
    let label = issue.path;
    let value: unknown;
    let suggestion: string | undefined;
    if (where === 'params' && field) {
      const arg = spec.args?.find(([, param]) => param === field);
      label = arg ? `<${arg[0]}>` : field;
      value = input.params[field];
    } else if (where === 'body' && field) {
      const declared = spec.fields?.find((f) => f.key === field);
      label = declared ? flagOf(declared) : `--${field.replace(/_/g, '-')}`;
      if (rest.length > 0) label = `${label} (${rest.join('.')})`;
      const typed = declared && rest.length === 0 ? opts[attributeOf(declared)] : undefined;
      value = typeof typed === 'string' ? typed : rest.length === 0 ? (input.body as Record<string, unknown> | undefined)?.[field] : undefined;
      const guess = declared?.choices && typeof value === 'string' ? nearest(value, declared.choices) : undefined;
      if (guess && guess !== value) suggestion = `did you mean ${guess}?`;
    } else if (where === 'body') {
      label = 'body';
    }
    const shown = value === undefined || typeof value === 'object' ? '' : ` (got ${JSON.stringify(value)})`;
    return `${label}: ${issue.message}${shown}${suggestion ? `; ${suggestion}` : ''}`;
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
