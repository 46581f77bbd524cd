// The process's streams and environment, passed down rather than reached for, so tests and
// the embedded sandbox can run commands with their own.
export interface OutputStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface IO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
}

export function processIO(): IO {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}
