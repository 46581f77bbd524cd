// What `webhooks listen` received, one JSON line per delivery, in the config dir and readable by
// its owner only, so a delivery from a real store can be looked at (`webhooks deliveries
// --received`) and sent again (`webhooks replay`) later. A replay made from it is appended too,
// marked as one. Kept for 90 days and 1,000 entries, whichever ends first, as the history is, and
// within a size: large bodies (up to the listener's 10 MB each) cannot make it grow without end.
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, closeSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/paths.js';
import { writeAtomically } from '../atomic-write.js';
import { withLockFile } from '../lock.js';

export const RECEIVED_RETENTION_DAYS = 90;
export const RECEIVED_RETENTION_ENTRIES = 1000;
/** Past this size the log is pruned on the next write (deliveries are a few kB each)… */
const PRUNE_AT_BYTES = 16 * 1024 * 1024;
/** …to its newest entries within this many bytes (the newest one is kept whatever its size). */
export const RECEIVED_KEPT_BYTES = 8 * 1024 * 1024;

export interface ReceivedDelivery {
  /** `rcv_` and a unique suffix. */
  id: string;
  /** When it arrived (or, for a replay, was sent), this machine's time. */
  at: string;
  /** Where it arrived: the listener's address and the path asked for. */
  url: string;
  /** The headers as received, names in lower case. */
  headers: Record<string, string>;
  /** The body as received. */
  body: string;
  event_type: string | null;
  event_id: string | null;
  /** What the listener answered (the forwarded app's status with --forward-to). */
  status: number | null;
  /** A replay: the entry it sent again, and where to. */
  replay_of?: string;
  sent_to?: string;
  error?: string;
}

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
    appendFileSync(log, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    chmodSync(log, 0o600);
    if (statSync(log).size <= PRUNE_AT_BYTES && !(Date.parse(oldestAt(log) ?? '') < oldestKept)) return;
    const lines = readReceived(env)
      .filter((e) => Date.parse(e.at) >= oldestKept)
      .slice(-RECEIVED_RETENTION_ENTRIES)
      .map((e) => `${JSON.stringify(e)}\n`);
    let size = 0;
    let from = lines.length;
    while (from > 0 && (from === lines.length || size + Buffer.byteLength(lines[from - 1]!) <= RECEIVED_KEPT_BYTES)) size += Buffer.byteLength(lines[--from]!);
    await writeAtomically(log, lines.slice(from).join(''));
  });
}

/** The first entry's time, read from the head of the file only (`at` comes second in each line). */
function oldestAt(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(256);
    return /"at":"([^"]+)"/.exec(head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8'))?.[1];
  } finally {
    closeSync(fd);
  }
}

export function readReceived(env: NodeJS.ProcessEnv): ReceivedDelivery[] {
  let text: string;
  try {
    text = readFileSync(files(env).log, 'utf8');
  } catch {
    return [];
  }
  const entries: ReceivedDelivery[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line) as ReceivedDelivery;
      // One an older version kept with a sender's credentials shows them no more.
      entries.push(entry.headers && typeof entry.headers === 'object' ? { ...entry, headers: withoutCredentials(entry.headers) } : entry);
    } catch {
      // A line cut short by a crash: the others still count.
    }
  }
  return entries;
}
