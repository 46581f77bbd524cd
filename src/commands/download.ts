// Fetches an export's file from its temporary signed link and streams it to a file (atomically)
// or to stdout. The link is pre-signed, so no token is ever sent with it.
import { createWriteStream } from 'node:fs';
import { link, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Transform, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { StoreClient } from '../api/client.js';
import type { OpenAnswer } from '../api/http.js';
import { NetworkError, StoreAdminError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { OutputStream } from '../io.js';
import { statusLine } from '../output/status-line.js';

/** Where the file goes: a path, or `-` for stdout. */
export interface DownloadTarget {
  file: string;
  /** Replace an existing file. */
  force: boolean;
}

/** The link answered 403: signed links expire, so a fresh one may be asked for. */
export class LinkRefusedError extends StoreAdminError {
  override name = 'LinkRefusedError';
}

/** GETs a signed link with no token, following a few redirects to storage (safe: no token goes with it). */
export async function openLink(url: string, client: StoreClient, signal?: AbortSignal): Promise<OpenAnswer> {
  let answer;
  for (let hops = 0; ; hops++) {
    try {
      answer = await client.openLink(url, { signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new NetworkError('other', `Cannot download the export: ${(error as Error).message}`, { cause: error });
    }
    const location = answer.headers.location;
    if (answer.status < 300 || answer.status >= 400 || typeof location !== 'string' || hops === 5) break;
    await discard(answer);
    url = new URL(location, url).toString();
  }
  if (answer.status === 403) {
    await discard(answer);
    throw new LinkRefusedError('The download link was refused (403): it has expired or its signature is not valid');
  }
  if (answer.status !== 200) {
    await discard(answer);
    throw new NetworkError('other', `Cannot download the export: the file link answered ${answer.status}`);
  }
  return answer;
}

async function discard(answer: OpenAnswer): Promise<void> {
  answer.body.resume();
  await finished(answer.body).catch(() => {});
  answer.done();
}

/** Streams an open link's body to the target; returns the bytes written. */
export async function saveResponse(answer: OpenAnswer, target: DownloadTarget, ctx: Context): Promise<number> {
  const total = Number(answer.headers['content-length'] ?? 0);
  let received = 0;
  const line = target.file === '-' || ctx.options.quiet ? undefined : statusLine(ctx.io.stderr);
  const progress = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      line?.draw(`Downloading… ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`);
      done(null, chunk);
    },
  });
  try {
    if (target.file === '-') await pipeline(answer.body, progress, toOutput(ctx.io.stdout));
    else await saveAtomically(answer, progress, target);
  } finally {
    answer.done();
    line?.clear();
  }
  return received;
}

/**
 * Writes a hidden temporary file next to the target, then moves it into place: the target is
 * either complete or untouched. Without --force the move refuses to replace a file that
 * appeared meanwhile. Errors name the user's file, never the temporary one.
 */
async function saveAtomically(answer: OpenAnswer, progress: Transform, target: DownloadTarget) {
  const { file } = target;
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.part`);
  try {
    await pipeline(answer.body, progress, createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
    if (target.force) await rename(partial, file);
    else await link(partial, file);
  } catch (error) {
    throw new StoreAdminError(`Cannot save the export to ${file}: ${describeFileError(error, partial, file)}`, { cause: error });
  } finally {
    // After a rename nothing is left; after a link (or a failure) the temporary name goes.
    await unlink(partial).catch(() => {});
  }
}

function describeFileError(error: unknown, partial: string, file: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOSPC':
      return 'no space left on the device; nothing was written';
    case 'EDQUOT':
      return 'the disk quota is exceeded; nothing was written';
    case 'EEXIST':
      return 'the file already exists (pass --force to replace it)';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'its directory does not exist';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return (error as Error).message.split(partial).join(file);
  }
}

/** A Writable over the context's stdout that waits when the pipe is full. */
function toOutput(stdout: OutputStream): Writable {
  const decoder = new StringDecoder('utf8');
  const drains = stdout as OutputStream & { once?: (event: 'drain', listener: () => void) => void };
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (stdout.write(decoder.write(chunk)) || !drains.once) done();
      else drains.once('drain', () => done());
    },
    final(done) {
      const rest = decoder.end();
      if (rest) stdout.write(rest);
      done();
    },
  });
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
