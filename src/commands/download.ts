// `exports create --download`: streams the export's file to disk. The link is pre-signed, so
// no token is sent with it.
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from '../api/transport.js';
import { NetworkError, StoreAdminError } from '../api/errors.js';
import type { Context } from '../context.js';

export async function downloadExport(data: unknown, file: string, ctx: Context): Promise<void> {
  const created = (data ?? {}) as { id?: unknown; url?: unknown; status?: unknown };
  if (typeof created.url !== 'string' || !created.url) {
    throw new StoreAdminError(`Export ${String(created.id ?? '')} has no file to download yet (status: ${String(created.status ?? 'unknown')})`, {
      hint: 'Run the export again later, or fetch its URL once it is available',
    });
  }
  const agent = new Agent();
  try {
    await save(created, file, agent, ctx);
  } finally {
    await agent.close();
  }
}

async function save(created: { id?: unknown; url?: unknown }, file: string, agent: Agent, ctx: Context) {
  let response;
  let url = String(created.url);
  // Pre-signed links often redirect to storage; no token is ever sent with them, so follow a few.
  for (let hops = 0; ; hops++) {
    try {
      response = await request(agent, url, { method: 'GET', headersTimeout: 30_000 });
    } catch (error) {
      throw new NetworkError('other', `Cannot download the export: ${(error as Error).message}`, { cause: error });
    }
    const location = response.headers.location;
    if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== 'string' || hops === 5) break;
    await response.body.dump();
    url = new URL(location, url).toString();
  }
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new NetworkError('other', `Cannot download the export: the file link answered ${response.statusCode}`);
  }
  const total = Number(response.headers['content-length'] ?? 0);
  let received = 0;
  const showProgress = ctx.io.stderr.isTTY && !ctx.options.quiet;
  const progress = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (showProgress) ctx.io.stderr.write(`\rDownloading… ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}`);
      done(null, chunk);
    },
  });
  const partial = `${file}.part`;
  try {
    await pipeline(response.body, progress, createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } catch (error) {
    await unlink(partial).catch(() => {});
    throw new StoreAdminError(`Cannot save the export to ${file}: ${(error as Error).message}`);
  }
  if (showProgress) ctx.io.stderr.write('\r\x1b[2K');
  ctx.note(`Saved export ${String(created.id)} to ${file} (${formatBytes(received)})`);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
