// The plan and outcome of `webhooks apply` as a person reads them: one line per webhook, the
// fields an update changes beneath it, and a last line saying what happened.
import { printableLine } from '../printable.js';
import type { ApplyResult, StepResult } from './apply-result.js';
import type { Painter } from '../output/output.js';
import { lookAlike, quotedName } from './look-alike.js';
import type { FieldChange } from './plan.js';

export const SECRETS_NOTE =
  'Secrets cannot be read back from the store, so a secret changed elsewhere is not seen here; --rotate-secrets sets each declared secret again.';

const MARKS = { create: '+', update: '~', unchanged: '=', delete: '-' } as const;
const COLORS = { create: 32, update: 33, unchanged: 2, delete: 31 } as const;
const ACTIONS = Object.keys(MARKS) as (keyof typeof MARKS)[];

/** Colours each step's mark and action (`+ create`), the plan's own words: the output adds it once the line is safe. */
export const planPainter: Painter = (line) => {
  const action = ACTIONS.find((name) => line.startsWith(`  ${MARKS[name]} ${name.padEnd(9)}`));
  return action ? { from: 2, to: 2 + 2 + 9, sgr: COLORS[action] } : undefined;
};

export function planText(result: ApplyResult): string {
  const lines = [`Plan for the webhooks of ${result.file}${result.prune ? ' (with --prune: webhooks it does not declare are deleted)' : ''}:`];
  for (const step of result.plan) {
    lines.push(`  ${MARKS[step.action]} ${step.action.padEnd(9)} ${label(step)}`);
    if (step.action === 'create' || step.action === 'update') {
      for (const change of step.changes) lines.push(`      ${change.field.padEnd(11)} ${changeText(step, change)}`);
    }
  }
  if (result.plan.length === 0) lines.push('  (the file declares no webhooks and the store has none to delete)');
  if (result.secrets) lines.push(result.secrets);
  return `${lines.map(printableLine).join('\n')}\n`;
}

export function outcomeText(result: ApplyResult): string {
  const { created, updated, deleted, unchanged } = result.counts;
  const counts = `${created} created, ${updated} updated, ${deleted} deleted, ${unchanged} unchanged`;
  switch (result.result) {
    case 'dry run':
      return `Dry run: would make ${counts}; nothing was changed.\n`;
    case 'no changes':
      return `No changes: the store's webhooks already match ${result.file} (${unchanged} unchanged).\n`;
    case 'failed': {
      const left = result.plan.filter((step) => step.status === 'not run' || step.status === 'failed').length;
      return `Stopped: ${counts}; ${left} step${left === 1 ? '' : 's'} left to do.\n`;
    }
    default:
      return `Applied: ${counts}.\n`;
  }
}

function label(step: StepResult): string {
  const name = step.name === null ? 'unnamed webhook' : quotedName(step.name);
  const looks = step.name === null ? undefined : lookAlike(step.name);
  return `${step.id === null ? name : `${name} (id ${step.id})`}${looks ? ` (look-alike: ${looks})` : ''}`;
}

function changeText(step: StepResult, { field, from, to }: FieldChange): string {
  const shown = (value: unknown) => (Array.isArray(value) ? value.join(', ') || '(none)' : value === null ? '(none)' : String(value));
  if (field === 'secret_key') return step.action === 'create' ? `from ${String(to)}` : `set again from ${String(to)} (the old one cannot be read)`;
  return step.action === 'create' ? shown(to) : `${shown(from)} → ${shown(to)}`;
}
