// Files written whole or not at all, the one way every file of the tool is replaced: the text goes
// into a temporary file beside the target (the same folder, so the move is atomic), which is then
// moved over it. A failed or short write (a full disk) leaves the old file as it was and no
// temporary file behind. Only a regular file (or a symbolic link, itself replaced, never
// followed) is ever replaced: moving a file over a device or a FIFO would replace the device
// itself (as root, /dev/null).
import { randomBytes } from 'node:crypto';
import { chmod, link, lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWrite {
  /** The mode of a new file (default 0600: the tool's files hold tokens or customers' data). */
  mode?: number;
  /** Replace a file already there (default), or fail with EEXIST if there is one. */
  replace?: boolean;
  /** A replaced file keeps its mode (a download over a file the user made). */
  keepMode?: boolean;
  /** The temporary file's path, when a caller must know it beforehand (default: a hidden name beside the target). */
  temp?: string;
}

/** A target that is there but is not a regular file: a device, a FIFO, a socket. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
}

/**
 * Writes `content` to `path` whole or not at all. `content` may instead fill the temporary file
 * itself: through the open handle (a stream), or by its path (a library that writes files).
 */
export async function writeAtomically(path: string, content: string | ((file: FileHandle, temp: string) => Promise<void>), options: AtomicWrite = {}): Promise<void> {
  const { mode = 0o600, replace = true, keepMode = false } = options;
  const temp = options.temp ?? join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  let moved = false;
  try {
    const existing = replace ? await lstat(path).catch(() => undefined) : undefined;
    if (existing && !existing.isFile() && !existing.isSymbolicLink() && !existing.isDirectory()) {
      throw new NotRegularFileError(`${path} is not a regular file`);
    }
    // Opened (and so created) before any byte flows: removing it below can never come first.
    handle = await open(temp, 'wx', mode);
    if (typeof content === 'string') await handle.writeFile(content);
    else await content(handle, temp);
    if (existing?.isFile() && keepMode) await chmod(temp, existing.mode & 0o7777);
    await handle.close();
    handle = undefined;
    if (replace) await rename(temp, path);
    else await link(temp, path);
    moved = replace;
  } finally {
    await handle?.close().catch(() => {});
    // After a rename nothing is left; after a link (or a failure) the temporary name goes.
    if (!moved) await unlink(temp).catch(() => {});
  }
}
