// The process's streams and environment, passed down rather than reached for, so tests and
// the embedded sandbox can run commands with their own.
import { fstatSync, statSync, writeSync } from 'node:fs';
import { SHORTEST_SECRET } from './api/errors.js';

export interface OutputStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

export interface IO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
  /** Hides the run's secrets in text that leaves by another way than stdout and stderr (a pager). */
  scrub?(text: string): string;
  /** Adds a secret (a token just read) to those never printed. */
  protect?(secret: string): void;
}

/** The process's own streams, each touched only when used: setting up stdin alone costs ~8 ms. */
export function processIO(): IO {
  let stdout: OutputStream | undefined;
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return (stdout ??= directStdout());
    },
    get stderr() {
      return process.stderr;
    },
    env: process.env,
  };
}

/**
 * The process's stdout, written straight to its file descriptor while a command only writes to it
 * and asks whether it is a terminal or how wide it is: making process.stdout costs a short command
 * (--help, a --json answer) about 1.5 ms. Anything else (events, a full or closed pipe) hands over
 * to process.stdout for good; it writes to a file or pipe synchronously too, so order is kept.
 */
function directStdout(): OutputStream {
  let stream: NodeJS.WriteStream | undefined;
  const handOver = () => (stream ??= process.stdout);
  if (!surelyNotTerminal()) return handOver();
  return new Proxy({} as OutputStream, {
    get(_target, property) {
      // A file or pipe is no terminal and has no size: process.stdout would say the same.
      if (!stream && (property === 'isTTY' || property === 'columns' || property === 'rows')) return undefined;
      if (property !== 'write' || stream) {
        const value = Reflect.get(handOver(), property) as unknown;
        return typeof value === 'function' ? value.bind(stream) : value;
      }
      return (chunk: string | Uint8Array) => {
        let bytes: Uint8Array | undefined;
        let written = 0;
        try {
          // A string goes as it is; only a write cut short (a pipe) needs its bytes.
          if (typeof chunk === 'string') {
            written = writeSync(1, chunk);
            if (written === Buffer.byteLength(chunk)) return true;
          }
          bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          while (written < bytes.length) written += writeSync(1, bytes, written);
          return true;
        } catch {
          // A full non-blocking pipe (EAGAIN) or a closed one (EPIPE): the stream waits, or reports it.
          bytes ??= typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          return handOver().write(bytes.subarray(written));
        }
      };
    },
  });
}

/** Whether stdout is a file, a pipe or /dev/null, asked without loading node:tty (which costs as much as the stream). */
function surelyNotTerminal(): boolean {
  if (process.platform === 'win32') return false;
  try {
    const out = fstatSync(1);
    return !out.isCharacterDevice() || out.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}


/**
 * The same streams, but every secret the run learns (the token in use) is written as `***`: a
 * store that echoes the token back, in an error or a header, never gets it printed. `scrub` does
 * the same for text that leaves another way (through a pager).
 */
export function guardedIO(io: IO): IO & { protect(secret: string): void; scrub(text: string): string } {
  const secrets: string[] = [];
  const scrub = (text: string) => {
    for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join('***');
    return text;
  };
  const guard = (stream: OutputStream): OutputStream =>
    new Proxy(stream, {
      get(target, property) {
        if (property === 'write') return (chunk: unknown, ...rest: unknown[]) => (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' && secrets.length > 0 ? scrub(chunk) : chunk, ...rest);
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  let stdout: OutputStream | undefined;
  let stderr: OutputStream | undefined;
  return {
    // The streams are made on first use, as in processIO.
    get stdin() {
      return io.stdin;
    },
    get stdout() {
      return (stdout ??= guard(io.stdout));
    },
    get stderr() {
      return (stderr ??= guard(io.stderr));
    },
    env: io.env,
    protect(secret) {
      if (secret.length >= SHORTEST_SECRET && !secrets.includes(secret)) secrets.push(secret);
    },
    scrub,
  };
}
