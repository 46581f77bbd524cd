// Downloading an available export as the platform's guide describes: ask
// `GET /exports/{id}/download/` for a temporary signed link, fetch it at once with no token, and
// when the link has expired, ask for a fresh one.
import { lstat, open, realpath, stat, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { NetworkError, StoreAdminError, UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import { formatBytes, LinkRefusedError, NOT_REGULAR, openLink, saveResponse, temporaryName, type Downloaded, type DownloadTarget } from './save-file.js';
import { finishLater, stopped } from './later.js';
import { quotedExcerpt } from '../printable.js';

/** Fresh links asked for in all when each one is refused on arrival. */
const LINK_ATTEMPTS = 3;

/** A finished download, as scripts and CI outputs name it. */
export interface SavedExport extends Downloaded {
  id: number;
  /** The file as given, or `-` for stdout. */
  path: string;
}

/**
 * Checks that the file can be written before anything is sent (for `exports create`, before the
 * export is even created): its directory exists and takes a new file, a link at its name leads
 * somewhere, and without --force the file does not exist.
 */
export async function checkTarget(target: DownloadTarget, flag: string): Promise<void> {
  if (target.file === '-') return;
  if (target.file === '') throw new UsageError(`${flag} needs a file name, or - for stdout`);
  const cannot = (why: string, hint?: string) => new UsageError(`Cannot save to ${target.file}: ${why}`, hint ? { hint } : undefined);
  const linked = await lstat(target.file).catch(() => undefined);
  const fileStat = await stat(target.file).catch(() => undefined);
  if (linked?.isSymbolicLink() && !fileStat) throw cannot('it is a symbolic link to a file that does not exist', 'Remove the link, or choose another path');
  // A link to a file is written through: the file it leads to is the one replaced.
  const file = fileStat ? await realpath(target.file) : resolve(target.file);
  const dirStat = await stat(dirname(file)).catch(() => undefined);
  if (!dirStat?.isDirectory()) throw cannot(`the directory ${dirname(target.file)} does not exist`, 'Create it first, or choose another path');
  if (fileStat?.isDirectory()) throw cannot('it is a directory');
  if (fileStat && !fileStat.isFile()) throw cannot(NOT_REGULAR);
  if (fileStat && !target.force) {
    throw new UsageError(`${target.file} already exists`, { hint: 'Pass --force to replace it, or choose another path' });
  }
  await probe(target.file, file, cannot);
}

/** Creates and removes the temporary file the download will write: only trying proves a directory takes it. */
async function probe(given: string, file: string, cannot: (why: string, hint?: string) => UsageError): Promise<void> {
  const partial = temporaryName(file);
  try {
    await (await open(partial, 'wx', 0o600)).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return; // a leftover of this process id: the download replaces it
    const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? `the directory ${dirname(given)} cannot be written to` : `a file cannot be created there (${code ?? (error as Error).message})`;
    throw cannot(why, 'Choose another path');
  }
  await unlink(partial).catch(() => {});
}

/** The id of an export the store answered, if the client's own check takes it. */
export async function usableExportId(data: unknown): Promise<number | undefined> {
  const given = (data as { id?: unknown } | undefined)?.id;
  const { id } = await import('../api/schemas/path-values.js');
  return id.safeParse(given).success ? (given as number) : undefined;
}

/**
 * The id of the export just created, to wait for it. The export exists whatever its answer says,
 * so an id the tool cannot use is a failure (exit 1) that says so, never a usage error (exit 2:
 * nothing was created).
 */
export async function createdExportId(data: unknown): Promise<number> {
  const usable = await usableExportId(data);
  if (usable !== undefined) return usable;
  const given = (data as { id?: unknown } | undefined)?.id;
  const shown = given === undefined ? 'no id' : `the id ${quotedExcerpt(given)}`;
  throw new StoreAdminError(`The export was created, but the store's answer gives it ${shown}, which is not an export id (a positive whole number); nothing was waited for or downloaded`, {
    hint: 'Find the new export in the store admin; `store-admin exports download ID --wait` fetches it',
  });
}

/**
 * Fetches export `id`'s file into the target; the export must be available. `link` is a signed
 * link already asked for; without it (or when it has expired) the download endpoint is asked.
 * Ctrl-C and SIGTERM stop it at once; a closed stdout ends it quietly (undefined).
 */
export async function downloadExport(id: number, target: DownloadTarget, ctx: Context, { link, later }: { link?: string; later: string }): Promise<SavedExport | undefined> {
  const { signal } = ctx;
  let saved: Downloaded;
  try {
    saved = await fetchFile(id, target, ctx, link);
  } catch (error) {
    if (signal.aborted) {
      if (signal.reason === 'EPIPE') return undefined;
      throw stopped(`Stopped downloading export ${id} (${target.file === '-' ? 'the output is incomplete' : `${target.file} was not written`})`, later);
    }
    // The export exists and is available: say how to fetch it without creating another.
    const hint = `The export is available: ${later}`;
    if (target.file === '-' && error instanceof NetworkError && error.kind === 'body') {
      throw new NetworkError('body', `Cannot download export ${id}: ${error.message}; the output is incomplete`, { cause: error, hint });
    }
    if (error instanceof StoreAdminError && !error.hint) error.hint = hint;
    throw error;
  }
  const where = target.file === '-' ? 'stdout' : target.file;
  ctx.output.prose(`${target.file === '-' ? 'Wrote' : 'Saved'} export ${id} to ${where}: ${saved.bytes} bytes (${formatBytes(saved.bytes)}), sha256 ${saved.sha256}`);
  return { id, path: target.file, ...saved };
}

async function fetchFile(id: number, target: DownloadTarget, ctx: Context, link: string | undefined): Promise<Downloaded> {
  const client = await ctx.client();
  const { signal } = ctx;
  for (let attempt = 1; ; attempt++) {
    const url = attempt === 1 && link ? link : ((await client.call('exportsDownloadRetrieve', { params: { id } }, { signal })) as { url?: unknown }).url;
    let answer;
    try {
      answer = await openLink(String(url), client, signal);
    } catch (error) {
      if (!(error instanceof LinkRefusedError) || attempt === LINK_ATTEMPTS) throw error;
      ctx.output.prose(`The download link of export ${id} was refused (expired?); asking for a fresh one`);
      continue;
    }
    return saveResponse(answer, target, ctx, signal);
  }
}

/** Hands a finished download to the CI: step outputs (`export_id` goes first, on its own) and a summary on GitHub Actions. */
export async function reportDownload(ctx: Context, saved: SavedExport): Promise<void> {
  const { setOutputs, addSummary, markdownCode } = await import('../output/github-actions.js');
  setOutputs(ctx.io, { ...(saved.path === '-' ? {} : { path: saved.path }), bytes: saved.bytes, sha256: saved.sha256 });
  addSummary(
    ctx.io,
    `### Export ${saved.id} downloaded\n\n| File | Bytes | SHA-256 |\n|---|---|---|\n| ${saved.path === '-' ? 'stdout' : markdownCode(saved.path)} | ${saved.bytes} | ${markdownCode(saved.sha256)} |\n`,
  );
}

/** The command `exports download <id>`: the answer's link is fetched at once, never printed. */
export async function saveDownload(data: unknown, opts: { outputFile?: string; force?: true }, ctx: Context, id: number): Promise<{ data: unknown } | undefined> {
  const link = (data as { url?: unknown } | undefined)?.url;
  const target = { file: outputOf(opts, id), force: !!opts.force };
  const saved = await downloadExport(id, target, ctx, { link: typeof link === 'string' ? link : undefined, later: finishLater(id, target.file, target.force) });
  if (!saved) return undefined;
  const { setOutputs } = await import('../output/github-actions.js');
  setOutputs(ctx.io, { export_id: id });
  await reportDownload(ctx, saved);
  // What was saved, as data: JSON in a pipe as everywhere else (a table's reader has the prose line); stdout is the file's with -.
  return ctx.format !== 'table' && target.file !== '-' ? { data: { export_id: id, path: saved.path, bytes: saved.bytes, sha256: saved.sha256 } } : undefined;
}

/** `--output-file`, or `export-<id>.csv` in the current directory. */
export function outputOf(opts: { outputFile?: string }, id: number): string {
  return opts.outputFile ?? `export-${id}.csv`;
}
