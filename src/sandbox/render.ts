// One stored record, answered in the shape of one API version: the record is cut down to the
// fields the answer's schema (from the operation table) declares, at every depth, and the fields
// it does not keep itself are derived (joins such as an order's `user`, and the fields only an
// older version has, such as a 2023-02-10 order line's `product`). So an object looks the same
// through every endpoint and event of one version.
import type * as z from 'zod/mini';
import { componentName } from '../api/generated/components.js';

type Schema = z.ZodMiniType;
type Def = { type: string; innerType?: Schema; element?: Schema; shape?: Record<string, Schema>; options?: Schema[]; left?: Schema; right?: Schema };

/** Derives a field a record does not keep: from the record and the rest of the store. */
export type Derive<Ctx> = (record: Record<string, unknown>, ctx: Ctx) => unknown;

/**
 * Derivations by the reference's component name, then field (`'*'` for any component); the
 * first that answers something other than undefined wins.
 */
export type Derivations<Ctx> = Record<string, Record<string, Derive<Ctx>>>;

export function renderer<Ctx>(derivations: Derivations<Ctx>) {
  const any = derivations['*'] ?? {};

  function render(schema: Schema, value: unknown, ctx: Ctx): unknown {
    if (value === null || value === undefined) return value;
    const def = defOf(schema);
    switch (def.type) {
      case 'optional':
      case 'nullable':
        return render(def.innerType!, value, ctx);
      case 'object':
        return typeof value === 'object' && !Array.isArray(value) ? renderObject(schema, def, value as Record<string, unknown>, ctx) : value;
      case 'array':
        return Array.isArray(value) ? value.map((item) => render(def.element!, item, ctx)) : value;
      case 'union':
        return renderUnion(def.options!, value, ctx);
      case 'intersection':
        return { ...(render(def.left!, value, ctx) as object), ...(render(def.right!, value, ctx) as object) };
      default:
        return value;
    }
  }

  function renderObject(schema: Schema, def: Def, record: Record<string, unknown>, ctx: Ctx): Record<string, unknown> {
    const own = derivations[componentName.get(schema) ?? ''] ?? {};
    const shape = def.shape!;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      const field = shape[key]!;
      let value = Object.hasOwn(record, key) ? record[key] : undefined;
      // A field the record lacks is derived, and so is a null this version cannot carry (a
      // 2023-02-10 fulfillment's `last_event_date`, where the newer shape kept null).
      if (value === undefined || (value === null && !allowsNull(field))) value = own[key]?.(record, ctx) ?? any[key]?.(record, ctx) ?? value;
      if (value === undefined) {
        // A field the record lacks: left out where the schema allows, null where it allows that.
        if (!isOptional(field) && allowsNull(field)) out[key] = null;
        continue;
      }
      out[key] = render(field, value, ctx);
    }
    return out;
  }

  /** The first object form the value fits; anything else as it is. */
  function renderUnion(options: Schema[], value: unknown, ctx: Ctx): unknown {
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    for (const option of options) {
      const rendered = render(option, value, ctx);
      if (option.safeParse(rendered).success) return rendered;
    }
    return value;
  }

  return render;
}

function defOf(schema: Schema): Def {
  return (schema as unknown as { def: Def }).def;
}

function isOptional(schema: Schema): boolean {
  return defOf(schema).type === 'optional';
}

function allowsNull(schema: Schema): boolean {
  const def = defOf(schema);
  if (def.type === 'nullable') return true;
  if (def.type === 'optional') return allowsNull(def.innerType!);
  return false;
}
