// Runs one operation command: arguments and flags become validated input, destructive work is
// confirmed, the request is sent (or shown with --dry-run) and the result rendered. With --each
// the same preparation feeds the bulk runner instead.
import { ApiError, StoreAdminError, UsageError } from '../api/errors.js';
import { operation } from '../api/operations.js';
import type { Context } from '../context.js';
import type { RunFlags } from './bulk/flags.js';
import { checkQuery } from '../output/render.js';
import { addHint } from './auth-hint.js';
import { bodyOf, queryOf } from './body.js';
import { attributeOf, nameOf, WITH_EACH_FLAGS } from './bulk/flags.js';
import { confirm } from './confirm.js';
import { askArguments, paramsFrom, validated } from './prepare-input.js';
import { recordChange } from './record-change.js';
import { commandName, type Input, type OperationCommand } from './spec.js';

export async function runOperation(spec: OperationCommand, ctx: Context, positional: string[], opts: RunFlags): Promise<void> {
  const { options } = ctx;
  const args = spec.args ?? [];
  if (opts.each === undefined && WITH_EACH_FLAGS.some((flag) => opts[attributeOf(flag)] !== undefined)) {
    const names = WITH_EACH_FLAGS.map(nameOf);
    throw new UsageError(`${names.slice(0, -1).join(', ')} and ${names.at(-1)} go with --each`);
  }
  if (opts.retryUnknown && opts.resume === undefined) throw new UsageError('--retry-unknown goes with --resume');
  if (options.query !== undefined) await checkQuery(options.query);
  if (opts.each !== undefined) {
    const { runBulk } = await import('./bulk/run.js');
    return runBulk(spec, ctx, positional, opts);
  }
  if (positional.length < args.length) positional = await askArguments(spec, ctx, positional, opts);
  const body = await bodyOf(spec, opts, ctx);
  const query = await queryOf(spec, opts, ctx);
  const input = await validated(spec, ctx, { params: paramsFrom(spec, positional), ...(query ? { query } : {}), body }, opts);
  await spec.check?.(opts, input);

  const client = await ctx.client();
  if (operation(spec.operation).answer === 'page' && !options.dryRun) {
    const { runList } = await import('./list.js');
    return runList(spec, ctx, client, input, opts);
  }
  if (options.dryRun) {
    const { printDryRun } = await import('./dry-run.js');
    await printDryRun(client.request(input.call), ctx);
    return;
  }
  const question = spec.confirm?.(input);
  const change = typeof question === 'string' ? question : ctx.interactive ? question?.review : undefined;
  if (change && !options.yes) await confirm(ctx, change);
  await spec.before?.(opts, ctx, input);
  const stop = ctx.output.spinner(spec.progress);
  // Ctrl-C aborts the request at once; the client says what that means for this method.
  let data: unknown;
  let status: number | undefined;
  // A change is written to the history whatever becomes of it; a read is not.
  const op = operation(spec.operation);
  const changes = op.method !== 'GET';
  try {
    data = await client.send(input.call, { signal: ctx.signal, onStatus: (s) => (status = s) });
  } catch (error) {
    if (error instanceof ApiError) addHint(error, op, await ctx.grant());
    stop();
    if (changes) await recordChange(ctx, changeOf(spec, positional), error);
    throw error;
  } finally {
    stop();
  }
  if (changes) await recordChange(ctx, { ...changeOf(spec, positional), ...createdBy(spec, data) }, undefined, status);
  const shown = spec.settle ? await settleChange(spec, changes, data, opts, ctx, input) : { data };
  if (!shown) return;
  await ctx.output.result(spec.present ? spec.present(shown.data, opts) : shown.data, { view: spec.view });
  // A person sees which fields a partial update sent; the answer shows every field alike.
  if (ctx.format === 'table' && op.method === 'PATCH') await noteChanged(ctx, input.body);
  const note = spec.note?.(shown.data, opts);
  if (note) ctx.output.prose(note);
}

/**
 * The work after the answer (waiting, downloading). Once a change is made, nothing that follows
 * may exit 2, which says nothing was sent: a usage error there is a failure (exit 1).
 */
async function settleChange(spec: OperationCommand, changed: boolean, data: unknown, opts: RunFlags, ctx: Context, input: Input) {
  try {
    return await spec.settle!(data, opts, ctx, input);
  } catch (error) {
    if (!changed || !(error instanceof UsageError)) throw error;
    throw new StoreAdminError(`${commandName(spec)} went through, but then: ${error.message}`, { cause: error, hint: error.hint });
  }
}

const changeOf = (spec: OperationCommand, positional: string[]) => ({ command: commandName(spec), operation: spec.operation, target: positional.join(' ') });

/** The id of what a create made, for the history (`exports create` → the export to download later). */
function createdBy(spec: OperationCommand, data: unknown): { created?: string } {
  if (operation(spec.operation).success !== 201) return {};
  const id = (data as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' || (typeof id === 'string' && id.length <= 64) ? { created: String(id) } : {};
}

async function noteChanged(ctx: Context, body: unknown): Promise<void> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const { redactSecrets } = await import('../output/redact.js');
  const scalar = (value: unknown) => value === null || typeof value !== 'object';
  // A list of plain values reads as sent; a secret never shows.
  const shown = (value: unknown) => (scalar(value) || (Array.isArray(value) && value.every(scalar)) ? JSON.stringify(value) : '(object)');
  const changes = Object.entries(redactSecrets(body)).map(([key, value]) => `${key} = ${shown(value)}`);
  if (changes.length > 0) ctx.output.prose(`Changed: ${changes.join(', ')}`);
}
