// Runs the built CLI as a user would: a separate process, real environment, real sockets.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

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
