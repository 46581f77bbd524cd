// Turns a command declaration into a Commander command that runs one operation: arguments and
// flags become validated input, destructive work is confirmed, the request is sent (or shown
// with --dry-run) and the result rendered. Help text comes from the operation table.
import type { Command } from 'commander';
import { ApiError, StoreAdminError, UsageError, ValidationError } from '../api/errors.js';
import { operations, type OperationId } from '../api/operations.js';
import { validateInput } from '../api/validate.js';
import { createContext, type Context } from '../context.js';
import type { IO } from '../io.js';
import type { GlobalOptions } from '../options.js';
import type { ViewName } from '../output/views.js';

export type Options = Record<string, any>;

export interface OperationCommand {
  name: string;
  operation: OperationId;
  /** Positional arguments in order: label as shown in help, the path parameter it fills, help. */
  args?: readonly (readonly [label: string, param: string, description: string])[];
  /** Defaults to the operation's summary. */
  description?: string;
  view: ViewName;
  /** Two or more, shown under --help. */
  examples: readonly string[];
  options?: (command: Command) => void;
  /** Body fields whose flag is not simply `--field-name`. */
  flags?: Readonly<Record<string, string>>;
  /** Builds the body from flags, prompting for what is missing. */
  body?: (opts: Options, ctx: Context) => Promise<unknown>;
  /** For destructive or costly work: what will happen, asked before sending. */
  confirm?: (input: { params: Record<string, unknown>; body: unknown }) => string;
  /** Shown on the spinner while the request is in flight. */
  progress: string;
  /** Adjusts the result before rendering (for example, masking secrets). */
  present?: (data: unknown, opts: Options) => unknown;
  /** Work after the result is shown (for example, a download). */
  after?: (data: unknown, opts: Options, ctx: Context) => Promise<void>;
}

export function addOperationCommand(parent: Command, io: IO, spec: OperationCommand): Command {
  const op = operations[spec.operation];
  const args = spec.args ?? [];
  const command = parent.command(spec.name).description(spec.description ?? op.summary);
  for (const [label, , description] of args) command.argument(`<${label}>`, description);
  spec.options?.(command);
  const scopes = op.scopes.length > 0 ? op.scopes.join(' and ') : 'none (any valid token)';
  command.addHelpText(
    'after',
    [
      '',
      `Operation: ${op.method} /api/admin${op.path} (spec ${op.section})`,
      `Scope: ${scopes}`,
      `API version: ${op.version}`,
      '',
      'Examples:',
      ...spec.examples.map((example) => `  $ ${example}`),
      '',
    ].join('\n'),
  );

  command.action(async (...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const opts = self.opts<Options>();
    const ctx = createContext(self.optsWithGlobals<GlobalOptions>(), io);
    try {
      await run(spec, ctx, received.slice(0, args.length) as string[], opts);
    } finally {
      await ctx.close();
    }
  });
  return command;
}

async function run(spec: OperationCommand, ctx: Context, positional: string[], opts: Options) {
  const op = operations[spec.operation];
  const { options } = ctx;
  if (options.query !== undefined) {
    const { checkQuery } = await import('../output/render.js');
    await checkQuery(options.query).catch((error: Error) => {
      throw new UsageError(`--query: not a valid JMESPath expression (${error.message})`);
    });
  }
  const params: Record<string, unknown> = {};
  for (const [index, [, param]] of (spec.args ?? []).entries()) {
    const value = positional[index]!;
    params[param] = op.params[param as keyof typeof op.params] === 'id' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  }
  const body = spec.body ? await spec.body(opts, ctx) : undefined;
  const input = { params, body };
  try {
    validateInput(op, await op.schemas(), input);
  } catch (error) {
    if (error instanceof ValidationError) throw explain(error, spec, input);
    throw error;
  }

  const client = await ctx.client();
  if (options.dryRun) {
    const prepared = await client.prepare(spec.operation, input as never);
    const { printDryRun } = await import('./dry-run.js');
    printDryRun(prepared, ctx);
    return;
  }
  if (spec.confirm && !options.yes) {
    const message = spec.confirm(input);
    const confirmed = await ctx.prompt.confirm({
      message: `${message} Continue?`,
      refusal: `${message.replace(/\.$/, '')}: confirmation needed`,
    });
    if (!confirmed) throw new StoreAdminError('Canceled; nothing was sent');
  }
  const { startSpinner } = await import('../output/spinner.js');
  const stop = options.quiet ? () => {} : startSpinner(ctx.io.stderr, spec.progress);
  let data: unknown;
  // Ctrl-C aborts the request at once; the client says what that means for this method.
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.once('SIGINT', abort);
  try {
    data = await client.call(spec.operation, input as never, { signal: controller.signal });
  } catch (error) {
    if (error instanceof ApiError) addHint(error, op.scopes);
    throw error;
  } finally {
    process.off('SIGINT', abort);
    stop();
  }
  const { render } = await import('../output/render.js');
  await render(spec.present ? spec.present(data, opts) : data, ctx.io, {
    format: ctx.format,
    query: options.query,
    color: ctx.color,
    view: spec.view,
  });
  await spec.after?.(data, opts, ctx);
}

/** Names the flag or argument behind each bad field, with the value given. */
function explain(error: ValidationError, spec: OperationCommand, input: { params: Record<string, unknown>; body: unknown }) {
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
function addHint(error: ApiError, scopes: readonly string[]) {
  if (error.status === 401) {
    error.hint = 'The store rejected the token: set STORE_ADMIN_TOKEN to a valid one, or run: store-admin auth login';
  } else if (error.status === 403) {
    error.hint = scopes.length > 0
      ? `This command needs a token with the scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' and ')}`
      : 'The token is not allowed to do this';
  }
}
