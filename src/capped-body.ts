// A body read whole, never past a cap: the one reader for every body the tool takes in whole (a
// store's answer, a request to the sandbox or to webhooks listen, an app's answer to a forwarded
// delivery, standard input or a file given as a flag's value). A body announced larger than the cap is refused
// unread; one that grows past it stops being read, so a sender cannot fill the memory; one that
// ends short of the length it announced is not taken for whole. The stream is left as it is (only
// paused): the caller may still answer on its connection.

/** The body is (or says it will be) larger than `limit` bytes. */
export class BodyTooLargeError extends Error {
  readonly code = 'TOO_LARGE';
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
  }
}

/** The body ended before the length it announced. */
export class BodyCutShortError extends Error {
  readonly code = 'CUT_SHORT';
}

export interface BodySource {
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  pause(): unknown;
  /** An HTTP message's headers: its Content-Length is checked against the cap and the bytes. */
  headers?: Record<string, string | string[] | undefined>;
}

/** The whole body, up to `limit` bytes; `declared` is its Content-Length when the source does not carry its headers. */
export function readCappedBody(source: BodySource, limit: number, declared: string | string[] | undefined = source.headers?.['content-length']): Promise<Buffer> {
  const header = declared;
  const length = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : undefined;
  if (length !== undefined && length > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      source.off('data', take);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const take = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size <= limit) return void chunks.push(bytes);
      source.pause();
      settle(new BodyTooLargeError(limit));
    };
    source.on('data', take);
    source.on('end', () => settle(length !== undefined && size < length ? new BodyCutShortError(`the body ended after ${size} of the ${length} bytes announced`) : undefined));
    source.on('error', (error) => settle(error));
    // Closed without an end: the sender went away mid-body.
    source.on('close', () => settle(new BodyCutShortError(`the body was cut short after ${size} bytes`)));
  });
}
