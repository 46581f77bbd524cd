// Turning flag values into request values: JSON objects from text, @file or stdin; typed
// --set pairs; dates people type; messages from flags, files or stdin.
import { open, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import type { IO } from '../io.js';

/** Anything read from a file or stdin; a bigger input is a mistake (a log, an image, /dev/zero). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
/** Deeper JSON is not a store's data, and would overflow the stack where it is serialised. */
export const MAX_JSON_DEPTH = 100;

async function readCapped(stream: AsyncIterable<unknown>, flag: string, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.from(chunk as Buffer);
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) throw new UsageError(`${flag}: ${what} is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
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

/** A JSON value given inline, as @file or as - (stdin). */
export async function jsonValue(value: string, flag: string, io: IO): Promise<unknown> {
  const text = await readSource(value, flag, io);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag}: not valid JSON (${(error as Error).message})`);
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
  if (at <= 0) throw new UsageError(`--set takes key=value (got "${pair}")`);
  const key = pair.slice(0, at);
  const raw = pair.slice(at + 1);
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

/** `null` clears a nullable field; anything else is kept. */
export function orNull(value: string): string | null {
  return value === 'null' ? null : value;
}

/** Whole numbers become numbers; anything else is kept for the schema to reject with its rule. */
export function integerOrText(value: string): number | string {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * ISO 8601 date-times pass through. A plain date means the start of that day in UTC, or its
 * last second for the end of a range (`--to 2026-01-31` covers all of the 31st). A date-time
 * without a zone is read as UTC.
 */
export function dateTime(value: string, edge: 'start' | 'end' = 'start'): string {
  const trimmed = value.trim();
  if (PLAIN_DATE.test(trimmed)) return `${trimmed}T${edge === 'end' ? '23:59:59' : '00:00:00'}Z`;
  if (NO_ZONE.test(trimmed)) return `${trimmed.length === 16 ? `${trimmed}:00` : trimmed}Z`;
  return trimmed;
}
