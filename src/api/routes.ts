// Routes derived from the operation table: each path template becomes a pattern. The sandbox
// routes requests with it, and `store-admin api` finds the operation (and version) of a path.
import type { Method, Operation, OperationId } from './operations.js';
import { API_PREFIX } from './url.js';
import { INT32_MAX } from './schemas/path-values.js';

interface Route {
  op: Operation;
  pattern: RegExp;
  names: string[];
}

export type RouteMatch =
  | { kind: 'found'; id: OperationId; params: Record<string, string | number> }
  | { kind: 'invalid-params'; id: OperationId }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allowed: Method[] };

/** A matcher over the operations given (every loaded part of the table the caller needs). */
export function router(ops: readonly Operation[]): (method: string, pathname: string) => RouteMatch {
  // Literal paths first: `/exports/types/` is not the export `types`.
  const routes = ops.map(routeOf).sort((a, b) => b.names.length === a.names.length ? 0 : a.names.length - b.names.length);
  return (method, pathname) => matchRoute(routes, method, pathname);
}

function routeOf(op: Operation): Route {
  const names: string[] = [];
  const source = op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}|\{(\w+)\}/g, (_m: string, a?: string, b?: string) => {
    names.push((a ?? b)!);
    return '([^/]+)';
  });
  return { op, pattern: new RegExp(`^${API_PREFIX}${source}$`), names };
}

/**
 * Matches a request path. Path parameters declared as ids must be positive 32-bit integers,
 * as a framework's int converter would insist; anything else does not match (404).
 */
function matchRoute(routes: readonly Route[], method: string, pathname: string): RouteMatch {
  const allowed: Method[] = [];
  let invalid: OperationId | undefined;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params = decodeParams(route, match);
    if (route.op.method !== method) {
      if (params) allowed.push(route.op.method);
      continue;
    }
    if (params) return { kind: 'found', id: route.op.id, params };
    invalid ??= route.op.id;
  }
  if (allowed.length > 0) return { kind: 'method-not-allowed', allowed: [...new Set(allowed)] };
  return invalid ? { kind: 'invalid-params', id: invalid } : { kind: 'not-found' };
}

function decodeParams(route: Route, match: RegExpExecArray): Record<string, string | number> | undefined {
  const decl = route.op.params;
  const params: Record<string, string | number> = {};
  for (const [index, name] of route.names.entries()) {
    let raw: string;
    try {
      raw = decodeURIComponent(match[index + 1] ?? '');
    } catch {
      return undefined;
    }
    if (decl[name] === 'id') {
      if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > INT32_MAX) return undefined;
      params[name] = Number(raw);
    } else {
      if (raw === '') return undefined;
      params[name] = raw;
    }
  }
  return params;
}
