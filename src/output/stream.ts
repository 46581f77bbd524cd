// The process's own streams, the one place that touches process.stdout and process.stderr, and
// the one rule for a write that fails (a reader that goes away, a full disk): the failure is kept,
// never thrown, and main() decides the exit code from it. Everything else writes through the
// run's IO (and commands through ctx.output); tests and an embedding program pass streams of
// their own.
import { fstatSync, statSync, writeSync } from 'node:fs';
import { SHORTEST_SECRET } from '../api/errors.js';
import type { IO, OutputStream } from '../io.js';

/** The process's streams, each made only when used: setting up stdin alone costs ~8 ms. */
export function processIO(): IO {
  let stdout: OutputStream | undefined;
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return (stdout ??= surelyNotTerminal() ? directStdout() : processStream('stdout'));
    },
    get stderr() {
      return processStream('stderr');
    },
    env: process.env,
    stdoutFailure: () => failureOf('stdout'),
  };
}

/**
 * process.stdout or process.stderr, given the rule for a failed write when first made: the first
 * failure is kept for main() to report, and the writes after it go nowhere. A run that listens
 * (the interrupt signals: a bulk run stops and reports what it did) stops its work.
 */
function processStream(name: 'stdout' | 'stderr'): NodeJS.WriteStream {
  const stream = process[name];
  if (!made.has(name)) {
    made.add(name);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!failures.has(stream)) failures.set(stream, error);
    });
  }
  return stream;
}

const failures = new WeakMap<NodeJS.WriteStream, NodeJS.ErrnoException>();
const made = new Set<'stdout' | 'stderr'>();

/**
 * The stream's first failed write. A stream marks itself errored at once, but says so only a tick
 * later: a run that ends on the write that failed has not heard of it yet.
 */
function failureOf(name: 'stdout' | 'stderr'): NodeJS.ErrnoException | undefined {
  if (!made.has(name)) return undefined;
  const stream = process[name];
  return failures.get(stream) ?? ((stream.errored as NodeJS.ErrnoException | null) || undefined);
}

type EventStream = OutputStream & Pick<NodeJS.WriteStream, 'on' | 'once' | 'off'>;

/**
 * stdout written straight to its file descriptor while a command only writes to it: making
 * process.stdout for a pipe costs each command ~2 ms of CPU (--help: 76 against 78 ms, help
 * exit-codes: 93 against 96 ms, medians of 100 alternating runs), under 1 ms for a file or
 * /dev/null. A write cut short (a full pipe, a closed one) and any event listener hand over to
 * process.stdout for good; it writes to a file or pipe synchronously too, so order is kept. A file
 * or pipe is no terminal and has no size, as process.stdout would say.
 */
function directStdout(): EventStream {
  let stream: NodeJS.WriteStream | undefined;
  const handOver = () => (stream ??= processStream('stdout'));
  const direct: EventStream = {
    write(chunk: string | Uint8Array) {
      if (stream) return stream.write(chunk);
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
        // A full non-blocking pipe (EAGAIN) waits in the stream; a closed one (EPIPE) or a full disk (ENOSPC) meets the rule.
        bytes ??= typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        return handOver().write(bytes.subarray(written));
      }
    },
    on: (event, listener) => (handOver().on(event, listener), direct) as never,
    once: (event, listener) => (handOver().once(event, listener), direct) as never,
    off: (event, listener) => (handOver().off(event, listener), direct) as never,
  };
  return direct;
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
 * the same for text that leaves another way (through a pager). A proxy, because a prompt writes
 * to the terminal's stream as a stream (events, piping), not just with write().
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
    ...(io.stdoutFailure ? { stdoutFailure: io.stdoutFailure } : {}),
    protect(secret) {
      if (secret.length >= SHORTEST_SECRET && !secrets.includes(secret)) secrets.push(secret);
    },
    scrub,
  };
}
