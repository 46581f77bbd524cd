// Typed text becomes a field's value: by its kind (integer, date, JSON object, list), its aliases
// and `null` where the schema takes it. Flags and prompts convert alike; the schema checks after.
import type { Context } from '../context.js';
import { flagOf, type Field, type FlagValues } from './declare.js';
import { BadValue, dateTime, day, droppedProtoNote, jsonObject, jsonValue, numberOrText, protoKeys } from './values.js';

/** Turns typed text into the field's value; throws BadValue with a reason. */
export async function convert(field: Field, typed: string, ctx: Context, nullable: boolean): Promise<unknown> {
  const text = typed.trim();
  if (field.aliases && Object.hasOwn(field.aliases, text)) return field.aliases[text];
  if (nullable && text === 'null') return null;
  switch (field.kind) {
    case 'integer':
    case 'number':
    case 'day':
      return PLAIN[field.kind](text);
    case 'date':
      return dateTime(text, field.edge);
    case 'object':
      return withoutProtoKeys(await jsonObject(typed, flagOf(field), ctx.io, nullable), flagOf(field), ctx);
    case 'json':
      return withoutProtoKeys(await jsonValue(typed, flagOf(field), ctx.io), flagOf(field), ctx);
    case 'list':
      return convertList(text).map((item) => convertItem(field, item));
    default:
      if (!text) throw new BadValue('is blank');
      return text;
  }
}

/** A `__proto__` key is dropped at any depth, and the user is told (a schema may take free-form data with it). */
export function withoutProtoKeys<T>(value: T, flag: string, ctx: Context): T {
  const keys = protoKeys(value);
  if (keys.length === 0) return value;
  ctx.output.prose(droppedProtoNote(flag, keys));
  return withoutProto(value) as T;
}

function withoutProto(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProto);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '__proto__').map(([key, child]) => [key, withoutProto(child)]));
}

/** How a plain value of a kind is read, alone or as an item of a list. */
const PLAIN: Record<NonNullable<Field['item']>, (text: string) => unknown> = { integer: numberOrText, number: numberOrText, day };

/** One item of a list, read as the field's items are (text when they are not numbers or days). */
export function convertItem(field: Field, item: string): unknown {
  return field.item ? PLAIN[field.item](item) : item;
}

/** A list from one flag or answer: comma-separated, blanks dropped. */
export function convertList(item: string): string[] {
  return item.split(',').map((part) => part.trim()).filter(Boolean);
}

/** Items that pass the field's own check, each read as the field's items are; the first that does not pass is refused with its reason. */
export function checkedItems(field: Field, items: string[], opts: FlagValues): unknown[] {
  for (const item of items) {
    const problem = field.checkItem?.(item, opts);
    if (problem) throw new BadValue(problem);
  }
  return items.map((item) => convertItem(field, item));
}
