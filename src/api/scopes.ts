// Scopes as the platform grants them: what a grant covers, and what the tool's own commands need.
// The sandbox enforces grants with the same rule the CLI uses to explain them.
import { operations } from './operations.js';

/** A grant covers `scope` directly or through the super-scope `admin:read` / `admin:write`. */
export function covers(granted: readonly string[], scope: string): boolean {
  const access = scope.slice(scope.lastIndexOf(':') + 1);
  return granted.includes(scope) || ((access === 'read' || access === 'write') && granted.includes(`admin:${access}`));
}

/** The scopes of `needed` that `granted` does not cover. */
export function missingScopes(granted: readonly string[], needed: readonly string[]): string[] {
  return needed.filter((scope) => !covers(granted, scope));
}

/** Every scope some operation needs, sorted: what an app login asks for unless told otherwise. */
export function operationScopes(): string[] {
  return [...new Set(Object.values(operations).flatMap((op) => op.scopes))].sort();
}

/** A scope list as people type it: separated by spaces or commas. */
export function parseScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}
