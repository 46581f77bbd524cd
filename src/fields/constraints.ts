// What a field's zod schema allows, in words for --help: read from the schema, so the help and
// the check cannot disagree. Schemas are walked through `schema.def`, the definition zod/mini
// exposes on every schema; only types are imported, so declaring commands never loads zod.
import type { Command } from 'commander';
import type * as z from 'zod/mini';
import { flagOf, type Field } from './declare.js';
import { helpWith, kindRules } from './options.js';

type Schema = z.ZodMiniType;
/** The definitions read here; `type` tells them apart (zod/v4/core's own types, not a copy). */
type Def =
  | z.core.$ZodOptionalDef<Schema>
  | z.core.$ZodNullableDef<Schema>
  | z.core.$ZodDefaultDef<Schema>
  | z.core.$ZodPipeDef<Schema, Schema>
  | z.core.$ZodEnumDef
  | z.core.$ZodObjectDef<Record<string, Schema>>
  | (z.core.$ZodTypeDef & { type: Exclude<z.core.$ZodTypeDef['type'], 'optional' | 'nullable' | 'default' | 'pipe' | 'enum' | 'object'> });
/** What a rule is read from: a check's kind, its message and its bound. */
type CheckDef = Partial<z.core.$ZodCheckDef & Pick<z.core.$ZodCheckMaxLengthDef, 'maximum'> & Pick<z.core.$ZodCheckLessThanDef, 'value'>>;

const defOf = (schema: Schema): Def => schema.def as Def;

/**
 * A check added with `.check()` is no schema and has no `def` of its own: zod keeps its definition
 * under `_zod.def`, the place zod's core documentation names for reading a check.
 */
const checkDefOf = (check: z.core.$ZodCheck<never>): CheckDef => check._zod.def;

/** The body's fields and their schemas, where the body is an object (one a request may leave out, as a PATCH's, included). */
export function shapeOf(body: Schema | undefined): Record<string, Schema> | undefined {
  let def = body && defOf(body);
  while (def?.type === 'optional' || def?.type === 'nullable') def = defOf(def.innerType);
  return def?.type === 'object' ? def.shape : undefined;
}

/** Whether null is a value the field can be given (`--shipping-price null`). */
export function isNullable(schema: Schema | undefined): boolean {
  for (let def = schema && defOf(schema); def; def = 'innerType' in def ? defOf(def.innerType) : undefined) if (def.type === 'nullable') return true;
  return false;
}

const described = new WeakSet<Command>();

/**
 * Appends what the schema allows to each field's help: read when help is shown, not at start-up.
 * Each part is fields with the schema of the object they fill (the body, the query).
 */
export function describeConstraints(command: Command, parts: readonly (readonly [fields: readonly Field[], schema: Schema | undefined])[]): void {
  if (described.has(command)) return;
  described.add(command);
  for (const [fields, object] of parts) {
    for (const field of fields) {
      const option = command.options.find((o) => o.long === flagOf(field));
      const schema = shapeOf(object)?.[field.key];
      if (!option || !schema || field.kind === 'switch') continue;
      option.description = helpWith(field, [...kindRules(field), ...constraintsOf(schema, field)]);
    }
  }
}

/** The schema's rules in words, from the messages its checks carry (or their bounds). */
export function constraintsOf(schema: Schema, field: Field): string[] {
  let def = defOf(schema);
  let nullable = false;
  while (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
    if (def.type === 'nullable') nullable = true;
    def = defOf(def.innerType);
  }
  const rules: string[] = [];
  if (def.type === 'enum' && !field.choices) rules.push(`one of: ${Object.values(def.entries).join(', ')}`);
  // A pipe checks the text as typed, then what it becomes: say what it becomes first.
  const stages = def.type === 'pipe' ? [defOf(def.out), defOf(def.in)] : [def];
  // Dates are typed in more forms than the store takes; kindRules says which.
  if (field.kind !== 'date') {
    // A string format (`z.url()`) is a schema and a check in one: its own definition is read as a check.
    for (const check of stages.flatMap((stage): CheckDef[] => [stage as CheckDef, ...(stage.checks ?? []).map(checkDefOf)])) {
      const rule = ruleOf(check);
      if (rule && !rules.includes(rule)) rules.push(rule);
    }
  }
  if (nullable) rules.push('or null');
  return rules;
}

function ruleOf(check: CheckDef): string | undefined {
  if (!check.check) return undefined;
  const message = check.error?.(undefined as never);
  // "must be a decimal …" reads as "a decimal …" after the flag; "must not be empty" as "not empty".
  if (typeof message === 'string' && message.startsWith('must ')) return message.replace(/^must (not )?(be )?/, (_, not: string | undefined) => not ?? '');
  switch (check.check) {
    case 'max_length':
      return `at most ${String(check.maximum)} characters`;
    case 'greater_than':
      return `at least ${String(check.value)}`;
    case 'less_than':
      return `at most ${String(check.value)}`;
    default:
      return undefined;
  }
}
