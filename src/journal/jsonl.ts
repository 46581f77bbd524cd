// JSON lines on disk, one record a line: the history, a bulk run's journal, the listen log. Each
// kind of record has its zod schema, and every line read is held to it, by field rather than by
// where a key happens to sit in the text. A line that is not a record (cut short by a crash,
// edited by hand) is skipped and its number kept for a warning, never fatal.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type * as z from 'zod/mini';

export interface JsonLines<T> {
  records: T[];
  /** The 1-based numbers of the lines that are not records. */
  skipped: number[];
}

/** One record as a line of the file. */
export function jsonLine(record: unknown): string {
  return `${JSON.stringify(record)}\n`;
}

/** The records of a text of JSON lines, in order; blank lines are neither records nor skipped. */
export function parseJsonLines<T>(text: string, schema: z.ZodMiniType<T>): JsonLines<T> {
  const records: T[] = [];
  const skipped: number[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (!line) continue;
    const record = parseLine(line, schema);
    if (record === undefined) skipped.push(index + 1);
    else records.push(record);
  }
  return { records, skipped };
}

/** The records of a file of JSON lines; undefined when it cannot be read (it does not exist). */
export function readJsonLines<T>(file: string, schema: z.ZodMiniType<T>): JsonLines<T> | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseJsonLines(text, schema);
}

/** Lines longer than this are not looked into for the first record (the listen log caps a body well below it). */
const HEAD_LIMIT = 16 * 1024 * 1024;

/**
 * The file's first record, read from its head only (a log appended in time order starts with its
 * oldest entry); lines before it that are not records are passed over.
 */
export function firstJsonLine<T>(file: string, schema: z.ZodMiniType<T>): T | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunk = Buffer.alloc(64 * 1024);
    let pending = Buffer.alloc(0);
    for (let position = 0; position < HEAD_LIMIT; ) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      position += read;
      pending = Buffer.concat([pending, chunk.subarray(0, read)]);
      for (let end = pending.indexOf(10); end >= 0; end = pending.indexOf(10)) {
        const record = parseLine(pending.subarray(0, end).toString('utf8'), schema);
        if (record !== undefined) return record;
        pending = pending.subarray(end + 1);
      }
      // The last line may lack its newline.
      if (read === 0) return pending.length > 0 ? parseLine(pending.toString('utf8'), schema) : undefined;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function parseLine<T>(line: string, schema: z.ZodMiniType<T>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
