// Turning flag values into request values: JSON objects from text, @file or stdin; typed
// --set pairs; dates people type; messages from flags, files or stdin.
import type { FileHandle } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { parseJson } from '../api/json-syntax.js';
import { BodyTooLargeError, readCappedBody, type BodySource } from '../capped-body.js';
import type { IO } from '../io.js';

/** Anything read from a file or stdin; a bigger input is a mistake (a log, an image, /dev/zero). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
/** Deeper JSON is not a store's data, and would overflow the stack where it is serialised. */
export const MAX_JSON_DEPTH = 100;

async function readCapped(stream: BodySource, flag: string, what: string): Promise<string> {
  try {
    return (await readCappedBody(stream, MAX_INPUT_BYTES)).toString('utf8');
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new UsageError(`${flag}: ${what} is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB`);
    throw error;
  }
}

async function readSource(value: string, flag: string, io: IO): Promise<string> {
  if (value === '-') {
    if (io.stdin.isTTY) throw new UsageError(`${flag}: reads standard input, which is a terminal here: pipe the input in`);
    return readCapped(io.stdin, flag, 'standard input');
  }
  if (!value.startsWith('@')) return value;
  const path = value.slice(1);
  let file: FileHandle;
  try {
    // Loaded here: most commands read no file, and start without it.
    const { open } = await import('node:fs/promises');
    file = await open(path, 'r');
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const info = await file.stat();
    // A pipe (`<(cmd)`, /dev/stdin) is fine; a directory or a device is not an input.
    if (info.isDirectory()) throw new UsageError(`${flag}: ${path} is a directory, not a file`);
    if (info.isCharacterDevice() || info.isBlockDevice() || info.isSocket()) throw new UsageError(`${flag}: ${path} is a device, not a file`);
    return await readCapped(file.createReadStream({ autoClose: false }), flag, path);
  } finally {
    await file.close();
  }
}

/** Refuses JSON nested deeper than MAX_JSON_DEPTH, walking it without recursion. */
export function checkDepth(value: unknown, flag: string): void {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) throw new UsageError(`${flag}: JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
}

/**
 * Where JSON holds a `__proto__` key (`metadata.__proto__`). A request body is built of plain
 * objects, which cannot carry that key as data: it is dropped, and the user is told.
 */
export function protoKeys(value: unknown): string[] {
  const found: string[] = [];
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [node, path] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    for (const [key, child] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      if (key === '__proto__') found.push(at);
      else pending.push([child, at]);
    }
  }
  return found;
}

/** The note that says which `__proto__` keys a flag's value lost. */
export function droppedProtoNote(flag: string, keys: string[]): string {
  return `warning: ${flag}: not sent: ${keys.map((key) => JSON.stringify(key)).join(', ')} (a "__proto__" key cannot be sent as data)`;
}

/** A JSON value given inline, as @file or as - (stdin). */
export async function jsonValue(value: string, flag: string, io: IO): Promise<unknown> {
  const text = await readSource(value, flag, io);
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
  checkDepth(parsed, flag);
  return parsed;
}

/** A JSON object, or null where `nullable`. */
export async function jsonObject(value: string, flag: string, io: IO, nullable = false): Promise<Record<string, unknown> | null> {
  const parsed = await jsonValue(value, flag, io);
  if (parsed === null && nullable) return null;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`${flag}: expected a JSON object${nullable ? ' or null' : ''}`);
  }
  return parsed as Record<string, unknown>;
}

/** Text from a file or stdin (`-`), trailing newline dropped. */
export async function textFrom(value: string, flag: string, io: IO): Promise<string> {
  return (await readSource(value === '-' ? '-' : `@${value}`, flag, io)).replace(/\r?\n$/, '');
}

/** A secret from a file or stdin: an empty one is a mistake, never a key. */
export async function secretFrom(value: string, flag: string, io: IO): Promise<string> {
  const secret = await textFrom(value, flag, io);
  if (!secret.trim()) throw new UsageError(`${flag}: ${value === '-' ? 'standard input' : value} is empty`);
  return secret;
}

/** `key=value` with the value read as JSON where it parses (true, 12, null, {"a":1}), as text otherwise. */
export function typedPair(pair: string, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const at = pair.indexOf('=');
  // Spaces around the key and the value are typing, not data: `a = b` sets "a" to "b".
  const key = at < 0 ? '' : pair.slice(0, at).trim();
  if (!key) throw new UsageError(`--set takes key=value (got "${pair}")`);
  const raw = pair.slice(at + 1).trim();
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // not JSON: keep the text as it is
  }
  checkDepth(value, '--set');
  return { ...previous, [key]: value };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A typed value that cannot mean anything for its field; the caller names the flag or prompt. */
export class BadValue extends Error {}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// A date, then optionally a time after `T` or a space, then optionally a zone: Z, +01:00, +0100 or +01.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Numbers become numbers; anything else is kept for the schema to reject with its rule. A number
 * where a whole one goes (1.5) is passed on as a number too, so that the schema says what is wrong
 * with it ("must be a whole number") rather than that it is text.
 */
export function numberOrText(value: string): number | string {
  return /^-?(\d+\.?\d*|\.\d+)$/.test(value.trim()) ? Number(value) : value;
}

/**
 * The day a typed date names, as the YYYY-MM-DD a date filter takes: a plain date, or a date-time
 * in any form `dateTime` accepts (the day as written, whatever its zone).
 */
export function day(value: string): string {
  return dateTime(value).slice(0, 10);
}

/**
 * A date people type, as the ISO 8601 date-time the store takes. A plain date means the start of
 * that day in UTC, or its last second for the end of a range (`--to 2026-01-31` covers all of the
 * 31st); a time without a zone is UTC; `+0100` and a space before the time are accepted and
 * normalised. A day that does not exist is refused with what was typed.
 */
export function dateTime(value: string, edge: 'start' | 'end' = 'start'): string {
  const typed = value.trim();
  const match = DATE_TIME.exec(typed);
  if (!match) throw new BadValue(`"${value}" is not a date: use YYYY-MM-DD or an ISO 8601 date-time such as 2026-01-31T09:30:00Z`);
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const monthIndex = Number(month) - 1;
  if (monthIndex < 0 || monthIndex > 11) throw new BadValue(`"${value}" is not a date: there is no month ${month}`);
  const days = new Date(Date.UTC(Number(year), monthIndex + 1, 0)).getUTCDate();
  if (Number(day) < 1 || Number(day) > days) {
    throw new BadValue(`"${value}" is not a date: ${MONTHS[monthIndex]} ${year} has ${days} days`);
  }
  if (hour === undefined) return `${year}-${month}-${day}T${edge === 'end' ? '23:59:59' : '00:00:00'}Z`;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) throw new BadValue(`"${value}" is not a time of day`);
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '').padEnd(4, '0');
    if (Number(digits.slice(0, 2)) > 23 || Number(digits.slice(2)) > 59) throw new BadValue(`"${value}" has no such zone offset`);
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2)}`;
  }
  return `${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${fraction}${offset}`;
}
