// A request body read whole, up to a limit: past it the sandbox answers 413, as the platform does,
// without holding more of it in memory.
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, readCappedBody } from '../capped-body.js';
import { HttpError } from './http-error.js';

export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  try {
    return (await readCappedBody(req, maxBytes)).toString('utf8');
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new HttpError(413, { detail: 'Request body too large.' });
    throw error;
  }
}
