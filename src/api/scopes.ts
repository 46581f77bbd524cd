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

/**
 * Every scope the platform's published reference names (plus its super-scopes admin:read and
 * admin:write): what an app may ask for. A test holds it to the reference where that is at hand.
 */
export const PLATFORM_SCOPES: readonly string[] = [
  'admin:read', 'admin:write',
  'carts:read', 'carts:write', 'catalogue:read', 'catalogue:write', 'content:read', 'content:write',
  'disputes:read', 'disputes:write', 'exports:read', 'exports:write', 'fulfillment_orders:read', 'fulfillment_orders:write',
  'fulfillment_service:read', 'fulfillment_service:write', 'gateways:read', 'gift_cards:read', 'gift_cards:write',
  'locations:read', 'locations:write', 'metadata:read', 'metadata:write', 'orders:read', 'orders:write', 'store:read',
  'subscriptions:read', 'subscriptions:write', 'themes:read', 'themes:write', 'tickets:read', 'tickets:write',
  'transactions:read', 'transactions:write', 'users:read', 'users:write', 'webhooks:read', 'webhooks:write',
];
