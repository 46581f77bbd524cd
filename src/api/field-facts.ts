// The shape of a generated field fact (src/api/generated/fields/): what a query parameter or a
// top-level body field takes, as plain data, so flags, help and completion need no zod.

/** How a value is typed on the command line; `<kind>[]` is a list (a repeated or comma-separated flag). */
export type ScalarKind = 'text' | 'int' | 'number' | 'bool' | 'date' | 'datetime' | 'decimal' | 'email' | 'uri' | 'uuid';
/** `json`: an object or a list of objects, given as JSON, @file or - (stdin). */
export type FieldKind = ScalarKind | `${ScalarKind}[]` | 'json';

export interface FieldOptions {
  required?: boolean;
  nullable?: boolean;
  /** The values the reference lists. */
  values?: readonly string[];
  default?: string | number | boolean;
  /** Longest text allowed. */
  max?: number;
  /** The versions that have the field, when not all of the operation's versions do. */
  only?: readonly string[];
}

export type FieldFact = readonly [name: string, kind: FieldKind, options?: FieldOptions];

/** An operation's query parameters and top-level body fields. */
export interface OperationFields {
  query?: readonly FieldFact[];
  body?: readonly FieldFact[];
}
