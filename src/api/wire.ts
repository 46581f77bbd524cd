// What lies under the HTTP core (./http.ts): a wire sends one request and hands back the
// answer's head; Node's own HTTP is one wire (in ./http.ts), undici the other (./transport.ts).
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/** A failure of the exchange itself; `code` tells which (system codes such as ECONNRESET pass through). */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly code: 'CONNECT_TIMEOUT' | 'TIMEOUT' | 'TOO_LARGE' | 'CUT_SHORT' | 'ABORTED' | 'BAD_HEADER',
    /** The answer's status, when it had begun. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** What a wire hands back once the answer's head has come. */
export interface Head {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** Sends one request; aborting `signal` destroys it at whatever stage it is, `fail` ends it with a reason of the wire's own. */
export interface Wire {
  request(request: { method: string; url: URL; headers: string[]; body?: string | Buffer; signal: AbortSignal }, fail: (reason: ExchangeError) => void): Promise<Head>;
  close(): Promise<void>;
}
