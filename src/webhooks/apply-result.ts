// What `webhooks apply` reports: the plan, each step's outcome and the counts. apply.ts fills it
// in and prints it as data; plan-text.ts writes it as a person reads it.
import type { Action, FieldChange } from './plan.js';

export type StepStatus = 'planned' | 'done' | 'failed' | 'not run' | 'nothing to do';

/** One step as `--json` prints it: no request body, so no secret. */
export interface StepResult {
  action: Action;
  name: string | null;
  id: number | null;
  changes: FieldChange[];
  status: StepStatus;
  error?: string;
}

/** What `webhooks apply --json` prints (see the README's "Webhooks as code"). */
export interface ApplyResult {
  file: string;
  dry_run: boolean;
  prune: boolean;
  rotate_secrets: boolean;
  /** `applied`, `no changes`, `dry run` or `failed`. */
  result: 'applied' | 'no changes' | 'dry run' | 'failed';
  /** Steps carried out (in a dry run: planned), and webhooks left as they were. */
  counts: { created: number; updated: number; deleted: number; unchanged: number };
  plan: StepResult[];
  /** Present when a declared webhook has a secret and --rotate-secrets was not given. */
  secrets?: string;
}
