// The process's streams and environment, passed down rather than reached for, so tests and
// the embedded sandbox can run commands with their own.
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
}

/** The process's own streams, each touched only when used: setting up stdin alone costs ~8 ms. */
export function processIO(): IO {
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    env: process.env,
  };
}

/** Shorter strings are not treated as secrets: hiding them would garble ordinary words. */
const SHORTEST_SECRET = 8;

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
