// Downloading an available export as the platform's guide describes: ask
// `GET /exports/{id}/download/` for a temporary signed link, fetch it at once with no token, and
// when the link has expired, ask for a fresh one.
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InterruptedError, UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { Options } from './define.js';
import { formatBytes, LinkRefusedError, openLink, saveResponse, type DownloadTarget } from './download.js';

/** Fresh links asked for in all when each one is refused on arrival. */
const LINK_ATTEMPTS = 3;

/**
 * Checks that the file can be written before anything is sent (for `exports create`, before the
 * export is even created): its directory exists and, without --force, the file does not.
 */
export async function checkTarget(target: DownloadTarget, flag: string): Promise<void> {
  if (target.file === '-') return;
  if (target.file === '') throw new UsageError(`${flag} needs a file name, or - for stdout`);
  const directory = dirname(resolve(target.file));
  const dirStat = await stat(directory).catch(() => undefined);
  if (!dirStat?.isDirectory()) {
    throw new UsageError(`Cannot save to ${target.file}: the directory ${dirname(target.file)} does not exist`, {
      hint: 'Create it first, or choose another path',
    });
  }
  const fileStat = await stat(target.file).catch(() => undefined);
  if (fileStat?.isDirectory()) throw new UsageError(`Cannot save to ${target.file}: it is a directory`);
  if (fileStat && !target.force) {
    throw new UsageError(`${target.file} already exists`, { hint: 'Pass --force to replace it, or choose another path' });
  }
}

/**
 * Fetches export `id`'s file into the target; the export must be available. `link` is a signed
 * link already asked for; without it (or when it has expired) the download endpoint is asked.
 */
export async function downloadExport(
  id: number,
  target: DownloadTarget,
  ctx: Context,
  { link, signal }: { link?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const client = await ctx.client();
  for (let attempt = 1; ; attempt++) {
    const url = attempt === 1 && link ? link : (await client.call('exports.download', { params: { id } }, signal ? { signal } : {})).url;
    let answer;
    try {
      answer = await openLink(String(url), client, signal);
    } catch (error) {
      if (!(error instanceof LinkRefusedError) || attempt === LINK_ATTEMPTS) throw error;
      ctx.note(`The download link of export ${id} was refused (expired?); asking for a fresh one`);
      continue;
    }
    const bytes = await saveResponse(answer, target, ctx);
    if (target.file !== '-') ctx.note(`Saved export ${id} to ${target.file} (${formatBytes(bytes)})`);
    return;
  }
}

/** The command `exports download <id>`: the answer's link is fetched at once, never printed. */
export async function saveDownload(data: unknown, opts: Options, ctx: Context, id: number): Promise<undefined> {
  const link = (data as { url?: unknown } | undefined)?.url;
  const target = { file: outputOf(opts, id), force: !!opts.force };
  try {
    await downloadExport(id, target, ctx, { link: typeof link === 'string' ? link : undefined, signal: ctx.signal });
  } catch (error) {
    if (ctx.signal.aborted) throw new InterruptedError(`Stopped downloading export ${id}; ${target.file === '-' ? 'the output is incomplete' : `${target.file} was not written`}`);
    throw error;
  }
  return undefined;
}

/** `--output-file`, or `export-<id>.csv` in the current directory. */
export function outputOf(opts: Options, id: unknown): string {
  return opts.outputFile === undefined ? `export-${String(id)}.csv` : String(opts.outputFile);
}
