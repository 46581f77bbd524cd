// A body field, declared once: the entry a command lists, and the names it goes by (its flag,
// Commander's attribute for it, a choice's label). Everything else in src/fields/ reads these.
import { Option } from 'commander';

/** The options Commander parsed for a command, by attribute name (`--no-notify` → `notify`). */
export type FlagValues = Readonly<Record<string, unknown>>;

/** A body field; `Key` is the body's keys where the operation is known (see run/spec.ts). */
export interface Field<Key extends string = string> {
  /** The body key it fills. */
  key: Key;
  /** The flag's name without dashes; defaults to the key with dashes (`case_number` → `case-number`). */
  flag?: string;
  /** A one-letter alias, e.g. `m` for `-m, --message`. */
  short?: string;
  /**
   * How typed text becomes the value: `text` (trimmed, blank refused), `integer`, `number`, `date`
   * (a date-time; see `edge`), `day` (YYYY-MM-DD), `object` (a JSON object, @file or -), `json`
   * (any JSON value: an object or a list of them), `list` (repeatable, comma-separated; see `item`)
   * or `switch` (no value).
   */
  kind?: 'text' | 'integer' | 'number' | 'date' | 'day' | 'object' | 'json' | 'list' | 'switch';
  /** For lists: how each item is read (text when not given). */
  item?: 'integer' | 'number' | 'day';
  /** The API versions that have the field, when not all of its operation's versions do. */
  versions?: readonly string[];
  /** What the flag does, in a few words; the schema's limits are added to it in --help. */
  help: string;
  /** Values offered in help, completion and pickers (the schema still decides what is valid). */
  choices?: readonly string[];
  /** Values offered in a picker; others may be typed (webhook events). */
  suggestions?: readonly string[];
  /** For lists: why an item is refused beyond the schema (an unknown event name), or undefined. Flags and prompts alike. */
  checkItem?: (item: string, opts: FlagValues) => string | undefined;
  /** Readable names for choices where the value read as words is not enough. */
  labels?: Readonly<Record<string, string>>;
  /** Words with a meaning of their own, e.g. `none` for an empty resolution. */
  aliases?: Readonly<Record<string, unknown>>;
  /** For dates: a plain date means the first or the last second of that day. */
  edge?: 'start' | 'end';
  /** Adds `--<flag>-file <file>` reading the value from a file or - (stdin); this is its help. */
  file?: string;
  /** For switches: the value sent when the flag is given, and when it is not (left out if undefined). */
  sets?: unknown;
  otherwise?: unknown;
  /** For switches: also declare `--no-<flag>` (or `--<negatedFlag>`), sending `false`, with this help. */
  negatedHelp?: string;
  /** For switches with negatedHelp: the opposite flag's name when `no-<flag>` reads badly (`inactive`). */
  negatedFlag?: string;
  prompt?: FieldPrompt;
}

export interface FieldPrompt {
  message: string;
  /**
   * `missing` (the default): asked whenever the value is missing, and a missing flag without a
   * terminal; `bare`: asked only when the command was given no field at all; or a follow-up, a
   * test of the body built so far (`cancel_reason` is `other`), asked only after an answer typed at
   * a prompt: whoever typed `--reason other` chose not to explain.
   */
  when?: 'missing' | 'bare' | ((body: Record<string, unknown>) => boolean);
  /** Enter leaves the field out. */
  optional?: boolean;
  /** Typed without echo, for secrets. */
  masked?: boolean;
}

/** The flag a field is given with, dashes included. */
export function flagOf(field: Field): string {
  return `--${field.flag ?? field.key.replace(/_/g, '-')}`;
}

/** A switch's opposite flag: `--no-<flag>`, or `--<negatedFlag>`. */
export function negatedFlagOf(field: Field): string {
  return field.negatedFlag ? `--${field.negatedFlag}` : `--no-${flagOf(field).slice(2)}`;
}

/** Commander's name for the field's value in the parsed options (`--no-notify` → `notify`). */
export function attributeOf(field: Field): string {
  return new Option(flagOf(field)).attributeName();
}

/** A choice as a person reads it: `not_satisfied_with_product` → "Not satisfied with product". */
export function labelOf(field: Field, value: string): string {
  const label = field.labels?.[value];
  if (label) return label;
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
