// Fetches an export's file from its temporary signed link and streams it to a file (atomically)
// or to stdout. The link is pre-signed, so no token is ever sent with it.
import { createWriteStream } from 'node:fs';
import { link, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request, type ResponseData } from '../api/transport.js';
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

/** GETs a signed link with no token, following a few redirects to storage. */
export async function openLink(url: string, agent: Agent): Promise<ResponseData> {
  let response;
  for (let hops = 0; ; hops++) {
    try {
      response = await request(agent, url, { method: 'GET', headersTimeout: 30_000, bodyTimeout: 30_000 });
    } catch (error) {
      throw new NetworkError('other', `Cannot download the export: ${(error as Error).message}`, { cause: error });
    }
    const location = response.headers.location;
    if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== 'string' || hops === 5) break;
    await response.body.dump();
    url = new URL(location, url).toString();
  }
  if (response.statusCode === 403) {
    await response.body.dump();
    throw new LinkRefusedError('The download link was refused (403): it has expired or its signature is not valid');
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new NetworkError('other', `Cannot download the export: the file link answered ${response.statusCode}`);
  }
  return response;
}

/** Streams an open link's body to the target; returns the bytes written. */
export async function saveResponse(response: ResponseData, target: DownloadTarget, ctx: Context): Promise<number> {
  const total = Number(response.headers['content-length'] ?? 0);
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
    if (target.file === '-') await pipeline(response.body, progress, toOutput(ctx.io.stdout));
    else await saveAtomically(response, progress, target);
  } finally {
    line?.clear();
  }
  return received;
}

/**
 * Writes a hidden temporary file next to the target, then moves it into place: the target is
 * either complete or untouched. Without --force the move refuses to replace a file that
 * appeared meanwhile. Errors name the user's file, never the temporary one.
 */
async function saveAtomically(response: ResponseData, progress: Transform, target: DownloadTarget) {
  const { file } = target;
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.part`);
  try {
    await pipeline(response.body, progress, createWriteStream(partial, { mode: 0o600, flags: 'wx' }));
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
