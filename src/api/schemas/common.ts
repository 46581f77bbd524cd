// Building blocks for the operation schemas.
// Responses are tolerant (unknown keys kept, every field optional and nullable, enums as plain
// strings); requests are strict and carry every constraint of the spec. Each response declaration
// also knows its strict variant (every field present, no unknown field, decimals, dates, URLs and
// listed values checked), which the tests hold the sandbox to: `strict(schema)`.
import * as z from 'zod/mini';

type Shape = Record<string, z.ZodMiniType>;
type Tolerant<T extends Shape> = { [K in keyof T]: z.ZodMiniOptional<z.ZodMiniNullable<T[K]>> };

const strictBuilders = new WeakMap<z.ZodMiniType, () => z.ZodMiniType>();
const strictBuilt = new WeakMap<z.ZodMiniType, z.ZodMiniType>();

/** Registers how the strict variant of a tolerant schema is built (lazily: most runs never need it). */
function withStrict<T extends z.ZodMiniType>(schema: T, build: () => z.ZodMiniType): T {
  strictBuilders.set(schema, build);
  return schema;
}

/**
 * The strict variant of a response schema, derived from the same declaration: every declared field
 * present (null allowed, since the spec does not say which fields may be null), no undeclared field,
 * and leaves checked as the spec writes them. Schemas with no strict variant are their own.
 */
export function strict(schema: z.ZodMiniType): z.ZodMiniType {
  let built = strictBuilt.get(schema);
  if (!built) {
    built = strictBuilders.get(schema)?.() ?? schema;
    strictBuilt.set(schema, built);
  }
  return built;
}

/** A response object: every field may be missing or null, unknown fields are kept. */
export function tolerant<T extends Shape>(shape: T) {
  const fields: Record<string, z.ZodMiniType> = {};
  for (const [key, schema] of Object.entries(shape)) fields[key] = z.optional(z.nullable(schema));
  return withStrict(z.looseObject(fields as Tolerant<T>), () =>
    z.strictObject(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.nullable(strict(field))]))),
  );
}

/** Tolerant fields that all share one type. */
export function same<K extends string, T extends z.ZodMiniType>(keys: readonly K[], schema: T) {
  return Object.fromEntries(keys.map((key) => [key, schema])) as Record<K, T>;
}

export const text = z.string();
export const num = z.number();
/** Ids, quantities and counters: the spec says integer; proxies may send other numbers, which we keep. */
export const int = withStrict(z.number(), () => z.int());
export const bool = z.boolean();
/** Money and other decimal strings; some proxies send numbers, which we keep. */
export const decimal = withStrict(z.union([z.string(), z.number()]), () => z.string().check(z.regex(/^-?\d+(?:\.\d+)?$/)));
export const dateTime = withStrict(z.string(), () => z.iso.datetime({ offset: true }));
export const uri = withStrict(z.string(), () => z.url());
/** A field whose allowed values the spec lists: any text is shown, the listed values are expected. */
export const oneOf = (values: readonly [string, ...string[]]) => withStrict(z.string(), () => z.enum(values));
export const anyObject = z.record(z.string(), z.unknown());
/** An answer with no body (204): whatever arrives is passed on; the strict variant expects nothing. */
export const noContent = withStrict(z.unknown(), () => z.undefined());
export const list = <T extends z.ZodMiniType>(item: T) => withStrict(z.array(item), () => z.array(strict(item)));

// --- request-side constraints ---------------------------------------------------------------

/** An ISO 8601 date-time with a zone (Z or an offset). */
export const isoDateTime = z.iso.datetime({
  offset: true,
  error: 'must be an ISO 8601 date-time with a zone, e.g. 2026-01-31T00:00:00Z',
});

/** A decimal string matching the spec's pattern, with at least one digit. */
export function decimalString(intDigits: number) {
  // One check (the lookahead asks for a digit), so a bad value is reported once.
  const pattern = new RegExp(`^(?=\\D*\\d)-?\\d{0,${intDigits}}(?:\\.\\d{0,2})?$`);
  const message = `must be a decimal with at most ${intDigits} digits before and 2 after the point`;
  return z.string().check(z.regex(pattern, message));
}

export const nonEmptyText = z.string().check(z.minLength(1, 'must not be empty'));

export const jsonObject = z.record(z.string(), z.unknown());

/** A request field that may be left out or sent as null. */
export const nullableText = z.optional(z.nullable(z.string()));
