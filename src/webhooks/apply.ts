// `webhooks apply -f FILE`: the store's webhooks as code. Reads and checks the file, reads every
// page of the store's webhooks, prints the plan, asks before deleting, then carries the plan out
// one request at a time, stopping at the first failure. Every run plans afresh from the store, so
// a run cut short is completed by the next, and a run with nothing to do changes nothing.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { StoreClient } from '../api/client.js';
import { ApiError, StoreAdminError } from '../api/errors.js';
import { operation, type OperationId } from '../api/operations.js';
import { rateLimiter } from '../run/limiter.js';
import { addHint } from '../run/auth-hint.js';
import { confirm } from '../run/confirm.js';
import { recordChange } from '../run/record-change.js';
import type { Context } from '../context.js';
import { DEFAULTS } from '../defaults.js';
import { addSummary, markdownCode, setOutputs } from '../output/github-actions.js';
import { configDir } from '../config/paths.js';
import { holdLock, type HeldLock } from '../lock.js';
import { readDeclaredWebhooks, type DeclaredWebhook } from './declared.js';
import { isWebhookId, listAllWebhooks } from './list.js';
import { quotedName } from './look-alike.js';
import { quotedExcerpt } from '../printable.js';
import type { ApplyResult, StepResult } from './apply-result.js';
import { planWebhooks, type Action, type Step } from './plan.js';
import { outcomeText, planPainter, planText, SECRETS_NOTE } from './plan-text.js';
import type { Painter } from '../output/output.js';

export interface ApplyOptions {
  file: string;
  prune: boolean;
  rotateSecrets: boolean;
  allowUnknownEvent: boolean;
  /** The variables the file may read secrets from (--secret-env). */
  secretEnv: readonly string[];
  /** The folder its secret files are read from (--secret-root). */
  secretRoot?: string;
}

const OPERATION: Record<Exclude<Action, 'unchanged'>, OperationId> = {
  create: 'webhooksCreate',
  update: 'webhooksPartialUpdate',
  delete: 'webhooksDestroy',
};

const COUNTED = { create: 'created', update: 'updated', delete: 'deleted', unchanged: 'unchanged' } as const;

/** Carries out the plan and prints it; the result is also returned (a CI integration reads its counts). */
export async function applyWebhooks(ctx: Context, options: ApplyOptions): Promise<ApplyResult> {
  const dryRun = !!ctx.options.dryRun;
  // Without a terminal, --prune needs --yes before anything is read or sent (help exit-codes).
  if (options.prune && !dryRun && !ctx.options.yes && !ctx.interactive) {
    await confirm(ctx, 'Delete the webhooks the file does not declare (--prune)?');
  }
  const declared = await readDeclaredWebhooks(options.file, ctx.io, options);
  const client = await ctx.client();
  // Two runs for one store at once would each create what the store lacks: the second is refused,
  // naming the first, and plans afresh from the store when run again.
  const lock = dryRun ? undefined : await lockStore(ctx, client.baseUrl);
  try {
    return await carryOut(ctx, options, declared, client);
  } finally {
    lock?.release();
  }
}

async function carryOut(ctx: Context, options: ApplyOptions, declared: DeclaredWebhook[], client: StoreClient): Promise<ApplyResult> {
  const dryRun = !!ctx.options.dryRun;
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
  const show = (text: string, paint?: Painter) => (ctx.format === 'table' ? ctx.output.text(text, paint) : ctx.options.quiet ? undefined : ctx.output.log(text, paint));
  show(planText(result), planPainter);
  if (dryRun || steps.every((step) => step.action === 'unchanged')) {
    if (!dryRun) result.result = 'no changes';
    await finish(ctx, result, show, dryRun ? results : []);
    return result;
  }
  const deletes = steps.filter((step) => step.action === 'delete');
  if (deletes.length > 0 && !ctx.options.yes) {
    const which = deletes.map((step) => `${step.id}${step.name ? ` ${quotedName(step.name)}` : ''}`).join(', ');
    await confirm(ctx, `Delete ${deletes.length} webhook${deletes.length > 1 ? 's' : ''} the file does not declare (${which})? This cannot be undone.`);
  }
  let failure: unknown;
  for (const [index, step] of steps.entries()) {
    if (step.action === 'unchanged') continue;
    const shown = results[index]!;
    try {
      // A run elsewhere (another machine, a person) may have made it since the plan was read.
      if (step.action === 'create') await checkStillMissing(client, step, ctx, () => limiter.acquire());
      await limiter.acquire();
      const answer = await send(client, step, ctx);
      shown.status = 'done';
      if (step.action === 'create') {
        const id = (answer as { id?: unknown } | undefined)?.id;
        if (!isWebhookId(id)) {
          // Made, but the tool cannot name it: the rest of the plan waits for a run that can.
          failure = new StoreAdminError(`Created ${quotedName(step.name ?? '')}, but the store answered ${shownId(id)} for it, which is not a webhook id (a positive whole number); the rest of the plan was not run`);
          break;
        }
        shown.id = id;
      }
      show(`${doneLine(shown)}\n`);
    } catch (error) {
      shown.status = 'failed';
      shown.error = (error as Error).message;
      if (error instanceof ApiError) addHint(error, operation(OPERATION[step.action]), await ctx.grant());
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
  let store;
  try {
    store = await listAllWebhooks(client, {}, ctx.signal, turn);
  } catch (error) {
    if (error instanceof ApiError) addHint(error, operation('webhooksList'), await ctx.grant());
    throw error;
  }
  // An id is sent back in a path and printed: one of another type is not used for either.
  const odd = store.find((webhook) => !isWebhookId(webhook.id));
  if (odd) throw new StoreAdminError(`The store listed a webhook whose id is ${shownId(odd.id)}, not a positive whole number; nothing was changed`);
  return store;
}

/** Refuses to create a webhook the store has come to hold since the plan was made. */
async function checkStillMissing(client: StoreClient, step: Step, ctx: Context, turn: () => Promise<void> | undefined): Promise<void> {
  const name = step.name ?? '';
  const found = (await listAllWebhooks(client, { name }, ctx.signal, turn)).find((webhook) => webhook.name === name);
  if (found) {
    throw new StoreAdminError(`The store has a webhook named ${quotedName(name)} (id ${shownId(found.id)}) that it did not have when the plan was made: another run is changing this store's webhooks; not creating it twice`);
  }
}

/** The lock of this machine's applies to one store, in the config dir; the holder is named when refused. */
async function lockStore(ctx: Context, store: string): Promise<HeldLock> {
  const dir = join(configDir(ctx.io.env), 'locks');
  const path = join(dir, `webhooks-apply-${createHash('sha256').update(store).digest('hex').slice(0, 16)}.lock`);
  return holdLock(path, (holder) =>
    new StoreAdminError(`Another webhooks apply for ${store} is running (process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.at}); nothing was sent`, {
      hint: 'Let it finish, then run this again: it plans afresh from the store',
    }),
  );
}


/** A value the store gave as an id, as it may be shown: JSON, cut short. */
const shownId = (id: unknown) => (id === undefined ? 'no id' : quotedExcerpt(id));

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
  const what = `${step.name ? quotedName(step.name) : 'unnamed webhook'} (id ${step.id ?? '?'})`;
  return { create: `Created ${what}.`, update: `Updated ${what}.`, delete: `Deleted ${what}.`, unchanged: '' }[step.action];
}
