// A request body read whole, up to a limit: past it the sandbox answers 413, as the platform does,
// without holding more of it in memory.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, { detail: 'Request body too large.' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
