// The smallest value a zod schema takes: every required field, the first of every choice, one item
// of every list. For tests that need a valid input to every operation without writing 187 by hand.
import type * as z from 'zod/mini';

type Def = { type: string; [key: string]: any };
const defOf = (schema: z.ZodMiniType): Def => schema.def as unknown as Def;

/** A value `schema` accepts; undefined for an optional one (it is left out). */
export function sample(schema: z.ZodMiniType, depth = 0): unknown {
  const def = defOf(schema);
  if (depth > 12) return undefined;
  switch (def.type) {
    case 'optional':
      return undefined;
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sample(def.innerType, depth);
    case 'pipe':
      return sample(def.in, depth);
    case 'lazy':
      return sample(def.getter(), depth);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodMiniType>)) {
        const value = sample(field, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const item = sample(def.element, depth + 1);
      return item === undefined ? [] : [item];
    }
    case 'record':
      return {};
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'union':
      return sample(def.options[0], depth);
    case 'boolean':
      return true;
    case 'number':
    case 'int':
      return bounded(schema, 1);
    case 'string':
      return text(schema);
    case 'null':
      return null;
    default:
      return {};
  }
}

/** A string that passes the schema's format and checks. */
function text(schema: z.ZodMiniType): string {
  const def = defOf(schema);
  const checks = [def, ...((def.checks ?? []) as { _zod: { def: Def } }[]).map((check) => check._zod.def)];
  for (const check of checks) {
    switch (check.format) {
      case 'email':
        return 'customer@example.com';
      case 'url':
        return 'https://example.com/';
      case 'datetime':
        return '2026-03-01T00:00:00Z';
      case 'date':
        return '2026-03-01';
      case 'uuid':
        return '00000000-0000-4000-8000-000000000000';
      case 'regex':
        return ['1.00', 'abc', 'abc-1', 'x'].find((candidate) => (check.pattern as RegExp).test(candidate)) ?? 'x';
    }
  }
  const min = checks.find((check) => check.check === 'min_length')?.minimum ?? 1;
  const max = checks.find((check) => check.check === 'max_length')?.maximum ?? 32;
  return 'x'.repeat(Math.min(Math.max(min, 3), max));
}

function bounded(schema: z.ZodMiniType, wanted: number): number {
  const def = defOf(schema);
  const checks = ((def.checks ?? []) as { _zod: { def: Def } }[]).map((check) => check._zod.def);
  const low = checks.find((check) => check.check === 'greater_than')?.value;
  const high = checks.find((check) => check.check === 'less_than')?.value;
  if (low !== undefined && wanted < low) return Number(low) + (checks.find((c) => c.check === 'greater_than')?.inclusive ? 0 : 1);
  if (high !== undefined && wanted > high) return Number(high);
  return wanted;
}
