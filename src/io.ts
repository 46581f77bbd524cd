// The streams and environment a run uses, passed down rather than reached for, so tests and the
// embedded sandbox can run commands with their own. The process's own: src/output/stream.ts.

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
  /** The first write to stdout that failed, if one did: its reader went away (EPIPE), or a full disk (ENOSPC). */
  stdoutFailure?(): NodeJS.ErrnoException | undefined;
}

/**
 * The environment of a program the tool starts (a browser, an editor, a pager): the run's own,
 * without this tool's variables. STORE_ADMIN_TOKEN and STORE_ADMIN_CLIENT_SECRET would sit in the
 * program's environment (and its children's) for as long as it runs, which may outlive the run.
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('STORE_ADMIN_')));
}
