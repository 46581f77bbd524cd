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
