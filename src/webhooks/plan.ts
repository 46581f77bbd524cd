// What `webhooks apply` will do: the declared webhooks against the store's, matched by name.
// Each declared webhook is created, updated field by field or left unchanged; with prune, every
// store webhook whose name the file does not declare is deleted. A plan is computed afresh from
// the store each run, so a run cut short is completed by the next one.
import { StoreAdminError } from '../api/errors.js';
import { redactPassword } from '../api/redaction.js';
import type { DeclaredWebhook } from './declared.js';
import type { StoreWebhook } from './list.js';

export type Action = 'create' | 'update' | 'unchanged' | 'delete';

/** One field a step sets: from the store's value (null on create) to the declared one. */
export interface FieldChange {
  field: 'name' | 'events' | 'target' | 'active' | 'api_version' | 'secret_key';
  from: unknown;
  /** For secret_key, where the secret comes from (`env VAR`), never the secret; a target's password is hidden. */
  to: unknown;
}

export interface Step {
  action: Action;
  name: string | null;
  /** The store's id; null for a webhook yet to be created. */
  id: number | null;
  changes: FieldChange[];
  /** The request body (create and update); it may hold a secret, so it is never shown. */
  body?: Record<string, unknown>;
}

export interface PlanOptions {
  prune: boolean;
  rotateSecrets: boolean;
}

/** Two store webhooks the file's name could mean: the tool does not pick one. */
export class DuplicateWebhooksError extends StoreAdminError {
  override name = 'DuplicateWebhooksError';
}

export function planWebhooks(declared: readonly DeclaredWebhook[], listed: readonly StoreWebhook[], options: PlanOptions): Step[] {
  // By id, oldest first: the plan a person reads before --prune does not depend on how the store pages its list.
  const store = [...listed].sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  const byName = new Map<string, StoreWebhook[]>();
  for (const webhook of store) if (webhook.name) byName.set(webhook.name, [...(byName.get(webhook.name) ?? []), webhook]);
  const ambiguous = declared.filter((d) => (byName.get(d.name)?.length ?? 0) > 1);
  if (ambiguous.length > 0) {
    const named = ambiguous.map((d) => `${JSON.stringify(d.name)} (webhooks ${byName.get(d.name)!.map((w) => w.id).join(' and ')})`);
    throw new DuplicateWebhooksError(`The store has more than one webhook named ${named.join(', ')}: apply does not guess which one the file means`, {
      hint: 'Delete the extra one (store-admin webhooks delete ID) or rename it (webhooks update ID --name NEW), then apply again. Nothing was changed.',
    });
  }
  const steps: Step[] = declared.map((d) => {
    const found = byName.get(d.name)?.[0];
    return found ? compare(d, found, options) : creation(d);
  });
  if (options.prune) {
    const names = new Set(declared.map((d) => d.name));
    for (const webhook of store) {
      if (!webhook.name || !names.has(webhook.name)) steps.push({ action: 'delete', name: webhook.name ?? null, id: webhook.id ?? null, changes: [] });
    }
  }
  return steps;
}

function creation(d: DeclaredWebhook): Step {
  const body: Record<string, unknown> = { name: d.name, events: d.events, target: d.target, active: d.active };
  if (d.api_version !== null) body.api_version = d.api_version;
  if (d.secret !== undefined) body.secret_key = d.secret;
  const changes: FieldChange[] = [
    { field: 'events', from: null, to: d.events },
    { field: 'target', from: null, to: redactPassword(d.target) },
    { field: 'active', from: null, to: d.active },
  ];
  if (d.api_version !== null) changes.push({ field: 'api_version', from: null, to: d.api_version });
  if (d.secretSource) changes.push({ field: 'secret_key', from: null, to: d.secretSource });
  return { action: 'create', name: d.name, id: null, changes, body };
}

function compare(d: DeclaredWebhook, found: StoreWebhook, options: PlanOptions): Step {
  const changes: FieldChange[] = [];
  const body: Record<string, unknown> = {};
  const set = (field: FieldChange['field'], from: unknown, to: unknown, sent: unknown = to) => {
    changes.push({ field, from, to });
    body[field] = sent;
  };
  // Events are a set: the same names in another order are no change (a null item, which the
  // reference allows, names no event).
  const events = (found.events ?? []).filter((event): event is string => event != null);
  if (!sameNames(events, d.events)) set('events', events, d.events);
  if (found.target !== d.target) set('target', found.target == null ? null : redactPassword(found.target), redactPassword(d.target), d.target);
  if ((found.active ?? true) !== d.active) set('active', found.active ?? null, d.active);
  // A file that names no version leaves the store's alone: it is not managed.
  if (d.api_version !== null && (found.api_version || null) !== d.api_version) set('api_version', found.api_version ?? null, d.api_version);
  // A secret cannot be read back, so it is set again only when asked.
  if (options.rotateSecrets && d.secret !== undefined) set('secret_key', null, d.secretSource, d.secret);
  const id = found.id ?? null;
  return changes.length === 0 ? { action: 'unchanged', name: d.name, id, changes } : { action: 'update', name: d.name, id, changes, body };
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((name) => right.has(name));
}
