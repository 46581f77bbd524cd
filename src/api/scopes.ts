// Scopes as the platform grants them: what a grant covers, and what the tool's own commands need.
// The sandbox enforces grants with the same rule the CLI uses to explain them.
import { loadAllOperations, type Operation } from './operations.js';

/** A grant covers `scope` directly or through the super-scope `admin:read` / `admin:write`. */
export function covers(granted: readonly string[], scope: string): boolean {
  const access = scope.slice(scope.lastIndexOf(':') + 1);
  return granted.includes(scope) || ((access === 'read' || access === 'write') && granted.includes(`admin:${access}`));
}

/**
 * What `granted` lacks for an operation: nothing when it covers one of its scopes (every one,
 * where the operation needs them all); else the scopes that would do.
 */
export function missingScopes(granted: readonly string[], op: Pick<Operation, 'scopes' | 'allScopes'>): string[] {
  const missing = op.scopes.filter((scope) => !covers(granted, scope));
  if (op.allScopes) return missing;
  return missing.length < op.scopes.length ? [] : missing;
}

/** Every scope some operation needs, sorted: what an app login asks for unless told otherwise. */
export async function operationScopes(): Promise<string[]> {
  return [...new Set((await loadAllOperations()).flatMap((op) => op.scopes))].sort();
}

/** A scope list as people type it: separated by spaces or commas. */
export function parseScopes(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** The super-scopes, which no operation names: they grant every read and every write scope (platform facts). */
export const SUPER_SCOPES: readonly string[] = ['admin:read', 'admin:write'];

/**
 * Every scope an app may ask for: the super-scopes, then every scope an operation names (the table
 * holds every operation of the platform's published reference).
 */
export async function platformScopes(): Promise<string[]> {
  return [...SUPER_SCOPES, ...(await operationScopes())];
}
