// Runs the built CLI as a user would: a separate process, real environment, real sockets.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { within } from '../helpers.js';

export const BIN = new URL('../../bin/store-admin.js', import.meta.url).pathname;

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  json(): any;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Working directory of the run (default: the test's own). */
  cwd?: string;
}

/** A private config dir for the calling test file, removed afterwards. */
export function useConfigDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The environment every run starts from: nothing inherited that could change the outcome. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
  return env;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const env = { ...baseEnv(), ...options.env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    const child = spawn(process.execPath, [BIN, ...args], { env: env as NodeJS.ProcessEnv, stdio: 'pipe', cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        json: () => JSON.parse(stdout),
      }),
    );
    child.stdin.end(options.stdin ?? '');
  });
}

/** A long-running command (listen), read line by line as it prints. */
export function startCli(args: string[], env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: 'pipe',
  });
  const out = { stdout: '', stderr: '' };
  const waiters: { stream: 'stdout' | 'stderr'; pattern: RegExp; resolve: (m: RegExpMatchArray) => void; reject: (e: Error) => void }[] = [];
  const check = () => {
    for (const w of waiters.slice()) {
      const match = out[w.stream].match(w.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(match);
      }
    }
  };
  child.stdout.on('data', (chunk: Buffer) => ((out.stdout += chunk.toString()), check()));
  child.stderr.on('data', (chunk: Buffer) => ((out.stderr += chunk.toString()), check()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  exited.then(() => {
    for (const w of waiters.splice(0)) w.reject(new Error(`exited before printing ${w.pattern}:\n${out.stderr}`));
  });
  return {
    out,
    exited,
    /** Resolves when `stream` has printed something matching `pattern`; fails if it has not within a deadline. */
    printed(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray> {
      const match = new Promise<RegExpMatchArray>((resolve, reject) => {
        waiters.push({ stream, pattern, resolve, reject });
        check();
      });
      return within(`${stream} to show ${pattern}`, match, { seen: () => `${stream}:\n${out[stream]}` });
    },
    interrupt: () => child.kill('SIGINT'),
    kill: () => child.kill('SIGKILL'),
  };
}
