// Runs `auth login --app` as a separate process and follows it as a person would: waits for the
// consent page's URL on stderr, and for the exit. Shared by the scripted and the browser tests.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { BIN } from './run.js';

export const STAND_IN = new URL('../fixtures/browser-stand-in.mjs', import.meta.url).pathname;

export interface LoginRun {
  /** The consent page's URL, once printed. */
  url: Promise<string>;
  /** The state the login sent, read from its URL. */
  state(): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** The argument list the CLI was started with. */
  argv: string[];
  kill(signal?: NodeJS.Signals): void;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function startLogin(args: string[], env: Record<string, string>, stdin = ''): LoginRun {
  const argv = [BIN, 'auth', 'login', '--app', ...args];
  const child = spawn(process.execPath, argv, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  let found: (url: string) => void;
  const url = new Promise<string>((resolve) => (found = resolve));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const line = /^ {2}(http\S+\/oauth2\/authorize\/\S+)$/m.exec(stderr);
    if (line) found(line[1]!);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  // A run that ends before printing its URL fails the wait with what it said.
  void exited.then((end) => found(`(exited ${end.code} before printing a URL: ${end.stderr})`));
  child.stdin.end(stdin);
  return {
    url,
    state: async () => new URL(await url).searchParams.get('state') ?? '',
    exited,
    argv,
    kill: (signal = 'SIGINT') => child.kill(signal),
  };
}

/** Runs the browser stand-in on a URL, as a script would after reading it from --no-browser's output. */
export function runStandIn(url: string, env: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STAND_IN, url], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}
