// A body field, declared once. From one entry and the operation's zod body schema come the
// Commander options, the name a validation error gives the field, the prompt (checked with the
// same schema, asked again on a bad answer) and the constraint text in --help.
import { Option, type Command } from 'commander';
import type { ZodMiniType } from 'zod/mini';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { Options } from '../options.js';
import { BadValue, collect, dateTime, droppedProtoNote, integerOrText, jsonObject, protoKeys, secretFrom } from './values.js';

export interface Field {
  /** The body key it fills. */
  key: string;
  /** The flag's name without dashes; defaults to the key with dashes (`case_number` → `case-number`). */
  flag?: string;
  /** A one-letter alias, e.g. `m` for `-m, --message`. */
  short?: string;
  /**
   * How typed text becomes the value: `text` (trimmed, blank refused), `integer`, `date` (see
   * `edge`), `object` (JSON, @file or -), `list` (repeatable, comma-separated) or `switch` (no value).
   */
  kind?: 'text' | 'integer' | 'date' | 'object' | 'list' | 'switch';
  /** What the flag does, in a few words; the schema's limits are added to it in --help. */
  help: string;
  /** Values offered in help, completion and pickers (the schema still decides what is valid). */
  choices?: readonly string[];
  /** Values offered in a picker; others may be typed (webhook events). */
  suggestions?: readonly string[];
  /** For lists: why an item is refused beyond the schema (an unknown event name), or undefined. Flags and prompts alike. */
  checkItem?: (item: string, opts: Options) => string | undefined;
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
function negatedFlagOf(field: Field): string {
  return field.negatedFlag ? `--${field.negatedFlag}` : `--no-${flagOf(field).slice(2)}`;
}

/** Commander's name for the field's value in the parsed options (`--no-notify` → `notify`). */
export function attributeOf(field: Field): string {
  return new Option(flagOf(field)).attributeName();
}

/** Flags of fields that must be given (or prompted for) and were not typed. */
export function missingFlags(fields: readonly Field[], opts: Options): string[] {
  return fields
    .filter((field) => field.prompt && !field.prompt.optional && (field.prompt.when ?? 'missing') === 'missing')
    .filter((field) => opts[attributeOf(field)] === undefined && (!field.file || opts[`${attributeOf(field)}File`] === undefined))
    .map(flagOf);
}

/** A choice as a person reads it: `not_satisfied_with_product` → "Not satisfied with product". */
export function labelOf(field: Field, value: string): string {
  const label = field.labels?.[value];
  if (label) return label;
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Declares the options of every field (and --data where the body also takes JSON). */
export function addFieldOptions(command: Command, fields: readonly Field[]): void {
  for (const field of fields) {
    const flags = `${field.short ? `-${field.short}, ` : ''}${flagOf(field)}`;
    if (field.kind === 'switch') {
      command.addOption(new Option(flags, field.help));
      if (field.negatedHelp) command.addOption(new Option(negatedFlagOf(field), field.negatedHelp));
      continue;
    }
    const placeholder = field.kind === 'object' ? 'json' : field.kind === 'date' ? 'date' : (field.flag ?? field.key).split(/[-_]/).at(-1)!;
    const option = new Option(`${flags} <${placeholder}>`, helpWith(field, kindRules(field)));
    // Choices are shown and completed, but the schema checks them, so a bad one gets a suggestion.
    if (field.choices) option.choices([...field.choices, ...Object.keys(field.aliases ?? {})]);
    if (field.kind === 'list') option.argParser(collect);
    else option.argParser((value: string) => value);
    command.addOption(option);
    if (field.file) {
      const attribute = option.attributeName();
      command.addOption(new Option(`${flagOf(field)}-file <file>`, field.file).conflicts(attribute));
    }
  }
}

const helpWith = (field: Field, rules: string[]) => (rules.length > 0 ? `${field.help} (${rules.join('; ')})` : field.help);

/** What the kind of value accepts, which the schema cannot say: it sees the converted value. */
function kindRules(field: Field): string[] {
  switch (field.kind) {
    case 'date':
      return [`ISO 8601 date-time, or a plain date meaning ${field.edge === 'end' ? '23:59:59 UTC that day, so the day is included' : '00:00:00 UTC that day'}`];
    case 'object':
      return ['a JSON object or @file'];
    case 'list':
      return ['repeatable, or comma-separated'];
    default:
      return [];
  }
}

const described = new WeakSet<Command>();

/** Appends what the schema allows to each field's help: read when help is shown, not at start-up. */
export function describeConstraints(command: Command, fields: readonly Field[], body: ZodMiniType | undefined): void {
  if (described.has(command)) return;
  described.add(command);
  for (const field of fields) {
    const option = command.options.find((o) => o.long === flagOf(field));
    const schema = shapeOf(body)?.[field.key];
    if (!option || !schema || field.kind === 'switch') continue;
    option.description = helpWith(field, [...kindRules(field), ...constraintsOf(schema, field)]);
  }
}

type Def = { type: string; innerType?: ZodMiniType; in?: ZodMiniType; out?: ZodMiniType; checks?: unknown[]; check?: string; error?: () => unknown; maximum?: unknown; minimum?: unknown; value?: unknown; inclusive?: boolean; entries?: Record<string, string> };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

function shapeOf(body: ZodMiniType | undefined): Record<string, ZodMiniType> | undefined {
  return body ? (defOf(body) as { shape?: Record<string, ZodMiniType> }).shape : undefined;
}

/** The schema's rules in words, from the messages its checks carry (or their bounds). */
export function constraintsOf(schema: ZodMiniType, field: Field): string[] {
  let inner = schema;
  let nullable = false;
  for (let def = defOf(inner); ['optional', 'nullable', 'default'].includes(def.type); def = defOf(inner)) {
    if (def.type === 'nullable') nullable = true;
    inner = def.innerType!;
  }
  const def = defOf(inner);
  const rules: string[] = [];
  if (def.type === 'enum' && !field.choices) rules.push(`one of: ${Object.values(def.entries ?? {}).join(', ')}`);
  // A pipe checks the text as typed, then what it becomes: say what it becomes first.
  const stages = def.type === 'pipe' ? [defOf(def.out), defOf(def.in)] : [def];
  // Dates are typed in more forms than the store takes; kindHelp says which.
  if (field.kind !== 'date') {
    for (const check of stages.flatMap((stage) => [stage, ...(stage.checks ?? []).map(defOf)])) {
      const rule = ruleOf(check);
      if (rule && !rules.includes(rule)) rules.push(rule);
    }
  }
  if (nullable) rules.push('or null');
  return rules;
}

function ruleOf(check: Def): string | undefined {
  if (!check.check) return undefined;
  const message = check.error?.();
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

/** Turns typed text into the field's value; throws BadValue with a reason. */
async function convert(field: Field, typed: string, ctx: Context, nullable: boolean): Promise<unknown> {
  const text = typed.trim();
  if (field.aliases && Object.hasOwn(field.aliases, text)) return field.aliases[text];
  if (nullable && text === 'null') return null;
  switch (field.kind) {
    case 'integer':
      return integerOrText(text);
    case 'date':
      return dateTime(text, field.edge);
    case 'object':
      return withoutProtoKeys(await jsonObject(typed, flagOf(field), ctx.io, nullable), flagOf(field), ctx);
    case 'list':
      return convertList(text);
    default:
      if (!text) throw new BadValue('is blank');
      return text;
  }
}

/** The schemas would drop a `__proto__` key without a word: the user is told. */
function withoutProtoKeys<T>(value: T, flag: string, ctx: Context): T {
  const keys = protoKeys(value);
  if (keys.length > 0) ctx.note(droppedProtoNote(flag, keys));
  return value;
}

function isNullable(schema: ZodMiniType | undefined): boolean {
  for (let s = schema; s; s = defOf(s).innerType) if (defOf(s).type === 'nullable') return true;
  return false;
}

/**
 * The body from --data (when declared) and the fields' flags, flags winning; then, on a terminal,
 * prompts for what is missing. Without one, every missing field is named in one error.
 */
export async function fieldBody(
  fields: readonly Field[],
  opts: Options,
  ctx: Context,
  body: ZodMiniType | undefined,
): Promise<Record<string, unknown>> {
  const shape = shapeOf(body) ?? {};
  const result: Record<string, unknown> = opts.data === undefined ? {} : { ...withoutProtoKeys(await jsonObject(String(opts.data), '--data', ctx.io), '--data', ctx) };
  let given = opts.data !== undefined;
  for (const field of fields) {
    const attribute = attributeOf(field);
    if (field.kind === 'switch') {
      const value = opts[attribute];
      // `--no-x` alone defaults to true, so only `false` means it was typed.
      const typed = flagOf(field).startsWith('--no-') ? value === false : value !== undefined;
      const opposite = field.negatedFlag !== undefined && opts[new Option(negatedFlagOf(field)).attributeName()] !== undefined;
      if (typed && opposite) throw new UsageError(`${flagOf(field)} and ${negatedFlagOf(field)} contradict each other`);
      if (opposite) {
        result[field.key] = false;
        given = true;
      } else if (typed) {
        result[field.key] = field.negatedHelp && value === false ? false : field.sets;
        given = true;
      } else if (field.otherwise !== undefined) result[field.key] ??= field.otherwise;
      continue;
    }
    let typed = opts[attribute] as string | string[] | undefined;
    let flag = flagOf(field);
    if (field.file && opts[`${attribute}File`] !== undefined) {
      flag = `${flagOf(field)}-file`;
      typed = await secretFrom(String(opts[`${attribute}File`]), flag, ctx.io);
    }
    if (typed === undefined) continue;
    given = true;
    try {
      result[field.key] =
        field.kind === 'list'
          ? checkedItems(field, (typed as string[]).flatMap((item) => convertList(item)), opts)
          : await convert(field, String(typed), ctx, isNullable(shape[field.key]));
    } catch (error) {
      // A date's reason and a list item's check name the value themselves.
      if (error instanceof BadValue) throw new UsageError(`${flag}: ${error.message}${field.kind === 'date' || field.kind === 'list' ? '' : ` (got ${JSON.stringify(typed)})`}`);
      throw error;
    }
  }
  const asked = fields.filter((field) => field.prompt && result[field.key] === undefined && wanted(field.prompt, result, given));
  if (!ctx.interactive) {
    const missing = asked.filter((field) => !field.prompt!.optional && field.prompt!.when !== 'bare');
    if (missing.length > 0) throw missingError(missing.map(flagOf), ctx);
    return result;
  }
  let prompted = false;
  for (const field of fields) {
    // Asked in declaration order, and re-checked: an answer can make a later question relevant.
    if (!field.prompt || result[field.key] !== undefined || !wanted(field.prompt, result, given)) continue;
    if (typeof field.prompt.when === 'function' && !prompted) continue;
    prompted = true;
    const value = await ask(field, ctx, shape[field.key], opts);
    if (value !== undefined) result[field.key] = value;
  }
  return result;
}

function checkedItems(field: Field, items: string[], opts: Options): string[] {
  for (const item of items) {
    const problem = field.checkItem?.(item, opts);
    if (problem) throw new BadValue(problem);
  }
  return items;
}

function convertList(item: string): string[] {
  return item.split(',').map((part) => part.trim()).filter(Boolean);
}

function wanted(prompt: FieldPrompt, body: Record<string, unknown>, given: boolean): boolean {
  if (prompt.when === 'bare') return !given;
  if (typeof prompt.when === 'function') return prompt.when(body);
  return true;
}

/** One error naming everything missing, flags and arguments alike. */
export function missingError(names: string[], ctx: Context): UsageError {
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  const hint =
    ctx.options.input === false
      ? 'Prompts are off (--no-input): pass the values on the command line'
      : 'Prompts need a terminal: pass the values on the command line';
  return new UsageError(`Missing ${list}`, { hint });
}

/** Prompts for one field until the answer passes the field's own schema. */
async function ask(field: Field, ctx: Context, schema: ZodMiniType | undefined, opts: Options): Promise<unknown> {
  const { prompt } = field;
  const flag = flagOf(field);
  const nullable = isNullable(schema);
  if (field.choices && field.kind !== 'list') {
    const choices = field.choices.map((value) => ({ value, name: labelOf(field, value) }));
    const skip = prompt!.optional ? [{ value: '', name: '(leave empty)' }] : [];
    const picked = await ctx.prompt.select({ flag, message: prompt!.message, choices: [...choices, ...skip] });
    return picked === '' ? undefined : picked;
  }
  if (field.kind === 'list') {
    const validate = field.checkItem && ((item: string) => field.checkItem!(item, opts) ?? true);
    return ctx.prompt.checkbox({ flag, message: prompt!.message, choices: field.suggestions ?? field.choices ?? [], ...(validate ? { validate } : {}) });
  }
  const check = async (answer: string): Promise<string | true> => {
    if (!answer.trim() && prompt!.optional) return true;
    try {
      const value = await convert(field, answer, ctx, nullable);
      const result = schema?.safeParse(value);
      if (!result || result.success) return true;
      const { toFieldIssues } = await import('../api/validate.js');
      return toFieldIssues('', result.error.issues, value)[0]?.message ?? 'is not valid';
    } catch (error) {
      if (error instanceof BadValue || error instanceof UsageError) return error.message;
      throw error;
    }
  };
  const answer = prompt!.masked
    ? await ctx.prompt.secret({ flag, message: prompt!.message, optional: prompt!.optional })
    : await ctx.prompt.text({ flag, message: prompt!.message, optional: prompt!.optional, validate: check });
  if (!answer.trim() && prompt!.optional) return undefined;
  // A masked answer is checked after it is typed; a bad one is refused like a bad flag.
  const verdict = await check(answer);
  if (verdict !== true) throw new UsageError(`${flag}: ${verdict}`);
  return convert(field, answer, ctx, nullable);
}

/** The nearest allowed value to a mistyped one: contained in it, or a few edits away. */
export function nearest(typed: string, choices: readonly string[]): string | undefined {
  const word = typed.trim().toLowerCase();
  if (!word) return undefined;
  const exact = choices.find((choice) => choice.toLowerCase() === word);
  if (exact) return exact;
  const containing = choices.filter((choice) => choice.toLowerCase().includes(word) || word.includes(choice.toLowerCase()));
  if (containing.length === 1) return containing[0];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const choice of choices) {
    const distance = editDistance(word, choice.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [choice, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
