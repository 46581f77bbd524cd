// `webhooks apply -f FILE`: the store's webhooks as code. Reads and checks the file, reads every
// page of the store's webhooks, prints the plan, asks before deleting, then carries the plan out
// one request at a time, stopping at the first failure. Every run plans afresh from the store, so
// a run cut short is completed by the next, and a run with nothing to do changes nothing.
import type { StoreClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { operations, type OperationId } from '../api/operations.js';
import { rateLimiter } from '../run/limiter.js';
import { addHint } from '../run/auth-hint.js';
import { confirm } from '../run/confirm.js';
import { recordChange } from '../run/record-change.js';
import type { Context } from '../context.js';
import { DEFAULTS } from '../defaults.js';
import { addSummary, markdownCode, setOutputs } from '../output/github-actions.js';
import { readDeclaredWebhooks } from './declared.js';
import { listAllWebhooks } from './list.js';
import type { ApplyResult, StepResult } from './apply-result.js';
import { planWebhooks, type Action, type Step } from './plan.js';
import { outcomeText, planText, SECRETS_NOTE } from './plan-text.js';

export interface ApplyOptions {
  file: string;
  prune: boolean;
  rotateSecrets: boolean;
  allowUnknownEvent: boolean;
}

const OPERATION: Record<Exclude<Action, 'unchanged'>, OperationId> = {
  create: 'webhooks.create',
  update: 'webhooks.update',
  delete: 'webhooks.delete',
};

const COUNTED = { create: 'created', update: 'updated', delete: 'deleted', unchanged: 'unchanged' } as const;


/** Carries out the plan and prints it; the result is also returned (a CI integration reads its counts). */
export async function applyWebhooks(ctx: Context, options: ApplyOptions): Promise<ApplyResult> {
  const dryRun = !!ctx.options.dryRun;
  // Without a terminal, --prune needs --yes before anything is read or sent (help exit-codes).
  if (options.prune && !dryRun && !ctx.options.yes && !ctx.interactive) {
    await confirm(ctx, 'Delete the webhooks the file does not declare (--prune)?');
  }
  const declared = await readDeclaredWebhooks(options.file, ctx.io, { allowUnknownEvent: options.allowUnknownEvent });
  const client = await ctx.client();
  // The platform allows 4 requests a second per token; a long plan keeps under it (on the run's clock).
  const limiter = rateLimiter(DEFAULTS.rate, ctx.clock);
  const store = await readStore(client, ctx, () => limiter.acquire());
  const steps = planWebhooks(declared, store, options);
  const results: StepResult[] = steps.map(({ action, name, id, changes }) => ({
    action,
    name,
    id,
    changes,
    status: action === 'unchanged' ? 'nothing to do' : dryRun ? 'planned' : 'not run',
  }));
  const secretsUnseen = !options.rotateSecrets && declared.some((d) => d.secret !== undefined);
  const result: ApplyResult = {
    file: options.file,
    dry_run: dryRun,
    prune: options.prune,
    rotate_secrets: options.rotateSecrets,
    result: dryRun ? 'dry run' : 'applied',
    counts: { created: 0, updated: 0, deleted: 0, unchanged: 0 },
    plan: results,
    ...(secretsUnseen ? { secrets: SECRETS_NOTE } : {}),
  };
  // A person reads the plan on stdout; with JSON there, the plan goes to stderr for the log.
  const show = (text: string) => (ctx.format === 'table' ? ctx.output.text(text) : ctx.options.quiet ? undefined : ctx.output.log(text));
  show(planText(result, ctx.color > 0));
  if (dryRun || steps.every((step) => step.action === 'unchanged')) {
    if (!dryRun) result.result = 'no changes';
    await finish(ctx, result, show, dryRun ? results : []);
    return result;
  }
  const deletes = steps.filter((step) => step.action === 'delete');
  if (deletes.length > 0 && !ctx.options.yes) {
    const which = deletes.map((step) => `${step.id}${step.name ? ` ${JSON.stringify(step.name)}` : ''}`).join(', ');
    await confirm(ctx, `Delete ${deletes.length} webhook${deletes.length > 1 ? 's' : ''} the file does not declare (${which})? This cannot be undone.`);
  }
  let failure: unknown;
  for (const [index, step] of steps.entries()) {
    if (step.action === 'unchanged') continue;
    const shown = results[index]!;
    try {
      await limiter.acquire();
      const answer = await send(client, step, ctx);
      if (step.action === 'create') shown.id = (answer as { id?: number } | undefined)?.id ?? null;
      shown.status = 'done';
      show(`${doneLine(shown)}\n`);
    } catch (error) {
      shown.status = 'failed';
      shown.error = (error as Error).message;
      if (error instanceof ApiError) addHint(error, operations[OPERATION[step.action]].scopes, await ctx.grant());
      failure = error;
      break;
    }
  }
  if (failure !== undefined) result.result = 'failed';
  // A failure leaves stdout empty unless JSON was asked for by name (help exit-codes).
  const printData = failure === undefined || !!ctx.options.json || ctx.options.output !== undefined;
  await finish(ctx, result, show, results.filter((r) => r.status === 'done'), printData);
  if (failure !== undefined) {
    const error = failure as Error & { hint?: string };
    error.hint = [error.hint, 'What was done stays done: run the same apply again to finish the plan.'].filter(Boolean).join('. ');
    throw error;
  }
  return result;
}

async function readStore(client: StoreClient, ctx: Context, turn: () => Promise<void> | undefined) {
  try {
    return await listAllWebhooks(client, {}, ctx.signal, turn);
  } catch (error) {
    if (error instanceof ApiError) addHint(error, operations['webhooks.list'].scopes, await ctx.grant());
    throw error;
  }
}

/** One step's request, recorded in the history like any change. */
async function send(client: StoreClient, step: Step, ctx: Context): Promise<unknown> {
  const operation = OPERATION[step.action as Exclude<Action, 'unchanged'>];
  const input = step.action === 'create' ? { body: step.body } : { params: { id: step.id }, ...(step.body ? { body: step.body } : {}) };
  let status: number | undefined;
  const change = { command: 'webhooks apply', operation, target: step.id === null ? String(step.name) : String(step.id) };
  try {
    const answer = await client.call(operation, input as never, { signal: ctx.signal, onStatus: (s) => (status = s) });
    await recordChange(ctx, change, undefined, status);
    return answer;
  } catch (error) {
    await recordChange(ctx, change, error);
    throw error;
  }
}

/** Counts what was done (in a dry run: what would be), then prints the outcome and the data. */
async function finish(ctx: Context, result: ApplyResult, show: (text: string) => void, done: readonly StepResult[], printData = true): Promise<void> {
  for (const step of done) result.counts[COUNTED[step.action]]++;
  result.counts.unchanged = result.plan.filter((step) => step.action === 'unchanged').length;
  show(outcomeText(result));
  reportToActions(ctx, result);
  if (ctx.format !== 'table' && printData) await ctx.output.result(result);
}

/** On GitHub Actions: the counts as step outputs (`steps.<id>.outputs.created`…) and a line of the job's summary. */
function reportToActions(ctx: Context, { counts, result, file }: ApplyResult): void {
  setOutputs(ctx.io, counts);
  addSummary(
    ctx.io,
    `### Webhooks from ${file === '-' ? 'standard input' : markdownCode(file)}: ${result}\n\n| Created | Updated | Deleted | Unchanged |\n|---|---|---|---|\n| ${counts.created} | ${counts.updated} | ${counts.deleted} | ${counts.unchanged} |\n`,
  );
}

function doneLine(step: StepResult): string {
  const what = `${step.name ? JSON.stringify(step.name) : 'unnamed webhook'} (id ${step.id ?? '?'})`;
  return { create: `Created ${what}.`, update: `Updated ${what}.`, delete: `Deleted ${what}.`, unchanged: '' }[step.action];
}
