// What `webhooks listen` received, one JSON line per delivery, in the config dir and readable by
// its owner only, so a delivery from a real store can be looked at (`webhooks deliveries
// --received`) and sent again (`webhooks replay`) later. A replay made from it is appended too,
// marked as one. Kept for 90 days and 1,000 entries, whichever ends first, as the history is, and
// within a size: large bodies (up to the listener's 10 MB each) cannot make it grow without end.
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { configDir } from '../config/paths.js';
import { writeAtomically } from '../atomic-write.js';
import { firstJsonLine, jsonLine, readJsonLines } from '../journal/jsonl.js';
import { withLockFile } from '../lock.js';

export const RECEIVED_RETENTION_DAYS = 90;
export const RECEIVED_RETENTION_ENTRIES = 1000;
/** Past this size the log is pruned on the next write (deliveries are a few kB each)… */
const PRUNE_AT_BYTES = 16 * 1024 * 1024;
/** …to its newest entries within this many bytes (the newest one is kept whatever its size). */
export const RECEIVED_KEPT_BYTES = 8 * 1024 * 1024;

const text = z.string();

/** One line of the listen log. */
const receivedDelivery = z.object({
  /** `rcv_` and a unique suffix. */
  id: text,
  /** When it arrived (or, for a replay, was sent), this machine's time. */
  at: text,
  /** Where it arrived: the listener's address and the path asked for. */
  url: text,
  /** The headers as received, names in lower case. */
  headers: z.record(text, text),
  /** The body as received. */
  body: text,
  event_type: z.nullable(text),
  event_id: z.nullable(text),
  /** What the listener answered (the forwarded app's status with --forward-to). */
  status: z.nullable(z.number()),
  /** A replay: the entry it sent again, and where to. */
  replay_of: z.optional(text),
  sent_to: z.optional(text),
  error: z.optional(text),
});

export type ReceivedDelivery = z.output<typeof receivedDelivery>;

export const RECEIVED_ID = /^rcv_[0-9a-z]{6,30}$/;

/** Headers that carry a sender's credentials: a store's deliveries carry none, and no one else's are kept, shown or sent again. */
export const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** The headers as kept and shown: a credential's value is `***`, so one is seen to have come, never what it was. */
export function withoutCredentials<T extends string | string[]>(headers: Record<string, T>): Record<string, T | '***'> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_HEADERS.has(name.toLowerCase()) ? '***' : value]));
}

function files(env: NodeJS.ProcessEnv) {
  const dir = join(configDir(env), 'webhooks');
  return { dir, log: join(dir, 'received.jsonl'), lock: join(dir, 'received.lock') };
}

export function newReceivedId(): string {
  return `rcv_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

/** Appends `entry`; prunes under the same lock when the log is large or its oldest entry too old. */
export async function appendReceived(env: NodeJS.ProcessEnv, entry: ReceivedDelivery, now = Date.now()): Promise<void> {
  const { dir, log, lock } = files(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Ours: never left readable by others, whatever made it.
  chmodSync(dir, 0o700);
  const oldestKept = now - RECEIVED_RETENTION_DAYS * 86_400_000;
  await withLockFile(lock, async () => {
    appendFileSync(log, jsonLine(entry), { mode: 0o600 });
    chmodSync(log, 0o600);
    if (statSync(log).size <= PRUNE_AT_BYTES && !(Date.parse(firstJsonLine(log, receivedDelivery)?.at ?? '') < oldestKept)) return;
    const lines = readReceived(env)
      .filter((e) => Date.parse(e.at) >= oldestKept)
      .slice(-RECEIVED_RETENTION_ENTRIES)
      .map(jsonLine);
    let size = 0;
    let from = lines.length;
    while (from > 0 && (from === lines.length || size + Buffer.byteLength(lines[from - 1]!) <= RECEIVED_KEPT_BYTES)) size += Buffer.byteLength(lines[--from]!);
    await writeAtomically(log, lines.slice(from).join(''));
  });
}

/** The log's entries, oldest first; a line that is not one (cut short by a crash) is left out. */
export function readReceived(env: NodeJS.ProcessEnv): ReceivedDelivery[] {
  // One an older version kept with a sender's credentials shows them no more.
  return (readJsonLines(files(env).log, receivedDelivery)?.records ?? []).map((entry) => ({ ...entry, headers: withoutCredentials(entry.headers) }));
}
