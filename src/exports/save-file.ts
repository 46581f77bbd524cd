// Fetches an export's file from its temporary signed link and streams it to a file (atomically)
// or to stdout, with its SHA-256 taken on the way. The link is pre-signed, so no token is ever
// sent with it. The run's abort signal stops the body at once.
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { StoreClient } from '../api/client.js';
import type { OpenAnswer } from '../api/http.js';
import { NetworkError, StoreAdminError } from '../api/errors.js';
import { writeAtomically } from '../atomic-write.js';
import type { Context } from '../context.js';

/** Where the file goes: a path, or `-` for stdout. */
export interface DownloadTarget {
  file: string;
  /** Replace an existing file. */
  force: boolean;
}

/** What a finished download wrote. */
export interface Downloaded {
  bytes: number;
  /** Hex SHA-256 of the bytes written. */
  sha256: string;
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

/**
 * Streams an open link's body to the target. The body must arrive whole: a connection lost
 * mid-body, or fewer bytes than Content-Length announced, fails the download. `signal` stops it
 * at once (the error is then the signal's AbortError).
 */
export async function saveResponse(answer: OpenAnswer, target: DownloadTarget, ctx: Context, signal?: AbortSignal): Promise<Downloaded> {
  const declared = answer.headers['content-length'];
  const total = declared === undefined ? undefined : Number(declared);
  const hash = createHash('sha256');
  let received = 0;
  let broken: Error | undefined;
  answer.body.once('error', (error) => (broken = error));
  const cutShort = (cause?: unknown) =>
    new NetworkError('body', `the download was cut short after ${formatBytes(received)}${total !== undefined ? ` of ${formatBytes(total)}` : ''}${describeCause(cause)}`, { cause });
  // More bytes than Content-Length announced, or no HTTP at all: Node's parser refuses the connection.
  const unframed = (cause: unknown) =>
    new NetworkError(
      'body',
      total !== undefined
        ? `the answer holds more than the ${formatBytes(total)} its Content-Length announced, or is not valid HTTP (${(cause as Error).message})`
        : `the answer is not valid HTTP (${(cause as Error).message})`,
      { cause },
    );
  // The answer's fault, as opposed to the file's or the signal's.
  const faultOf = (error: unknown) =>
    signal?.aborted ? undefined : error instanceof NetworkError ? error : parserError(error) ? unframed(parserError(error)) : broken ? cutShort(broken) : undefined;
  const line = target.file === '-' || ctx.options.quiet ? undefined : ctx.output.status;
  const progress = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      hash.update(chunk);
      line?.draw(`Downloading… ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`);
      done(null, chunk);
    },
    flush(done) {
      done(total !== undefined && received !== total ? cutShort() : null);
    },
  });
  const options = signal ? { signal } : {};
  try {
    if (target.file === '-') {
      await pipeline(answer.body, progress, await ctx.output.writable(), options).catch((error: unknown) => {
        throw faultOf(error) ?? error;
      });
    } else {
      await saveAtomically(target, (file) => pipeline(answer.body, progress, file, options), faultOf);
    }
  } finally {
    answer.done();
    line?.clear();
  }
  return { bytes: received, sha256: hash.digest('hex') };
}

/** Node's HTTP parser's refusal (`HPE_…`), the error itself or its cause. */
function parserError(error: unknown): Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; current = current.cause, depth++) {
    if (String((current as NodeJS.ErrnoException).code).startsWith('HPE_')) return current;
  }
  return undefined;
}

function describeCause(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNRESET' || code === 'EPIPE') return ' (the connection broke off)';
  if (code === 'TIMEOUT') return ` (${(cause as Error).message})`;
  return '';
}

/**
 * Writes a hidden temporary file next to the target, then moves it into place: the target is
 * either complete or untouched. Without --force the move refuses to replace a file that appeared
 * meanwhile. A symbolic link to a file is written through: the file it names is replaced, and
 * keeps its mode; only a regular file is ever replaced, never a device or a FIFO. Errors name the
 * user's file, never the temporary one; `faultOf` tells a fault of the answer.
 */
async function saveAtomically(target: DownloadTarget, write: (file: Writable) => Promise<void>, faultOf: (error: unknown) => Error | undefined): Promise<void> {
  const file = target.force ? await realpath(target.file).catch(() => target.file) : target.file;
  const partial = temporaryName(file);
  try {
    await writeAtomically(file, (handle) => write(handle.createWriteStream()), { temp: partial, replace: target.force, keepMode: true });
  } catch (error) {
    const fault = faultOf(error);
    if (fault) throw new StoreAdminError(`Cannot save the export to ${target.file}: ${fault.message}; nothing was written`, { cause: fault });
    if ((error as Error).name === 'AbortError') throw error;
    throw new StoreAdminError(`Cannot save the export to ${target.file}: ${describeFileError(error, partial, target.file)}`, { cause: error });
  }
}

/** The hidden file a download of `file` is written to before it is moved into place. */
export function temporaryName(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.part`);
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
    case 'EROFS':
      return 'permission denied';
    case 'ENOENT':
      return 'its directory does not exist';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTREG':
      return NOT_REGULAR;
    default:
      return (error as Error).message.split(partial).join(file);
  }
}

/** Why a device, a FIFO or a socket is not replaced by a download. */
export const NOT_REGULAR = 'it is not a regular file (a device, a FIFO or a socket), and only a regular file is replaced; to send the export there, use --output-file - and redirect';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
