// Turning flag values into request values: JSON objects from text, @file or stdin; typed
// --set pairs; dates people type; messages from flags, files or stdin.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import type { IO } from '../io.js';

async function readSource(value: string, flag: string, io: IO): Promise<string> {
  if (value === '-') {
    if (io.stdin.isTTY) throw new UsageError(`${flag}: reads standard input, which is a terminal here: pipe the input in`);
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  if (value.startsWith('@')) {
    try {
      return await readFile(value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`${flag}: cannot read ${value.slice(1)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return value;
}

/** A JSON value given inline, as @file or as - (stdin). */
export async function jsonValue(value: string, flag: string, io: IO): Promise<unknown> {
  const text = await readSource(value, flag, io);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${flag}: not valid JSON (${(error as Error).message})`);
  }
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
