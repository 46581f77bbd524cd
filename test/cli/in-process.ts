// Runs the CLI's main() inside the test process, with its own streams and environment: the
// same code path as the binary, fast enough for thousands of cases.
import { Readable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { ContextOverrides } from '../../src/context.js';
import type { IO, OutputStream } from '../../src/io.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandboxClock } from '../helpers.js';

function collector(isTTY: boolean): OutputStream & { text: string } {
  const stream = {
    text: '',
    isTTY,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream;
}

export interface InProcessOptions {
  /** stdin and stdout are a terminal: prompts are allowed (give `overrides.prompter` to answer them). */
  terminal?: boolean;
  /** The run's test seams: a prompter, a client. */
  overrides?: ContextOverrides;
}

export async function runInProcess(args: string[], env: Record<string, string>, stdinText = '', { terminal = false, overrides }: InProcessOptions = {}) {
  const stdout = collector(terminal);
  const stderr = collector(false);
  const stdin = Object.assign(Readable.from(stdinText ? [Buffer.from(stdinText)] : []), { isTTY: terminal });
  // At a terminal, long output would go to a pager on the test's own terminal: it stays here.
  const paging = terminal ? { STORE_ADMIN_PAGER: '' } : {};
  const io: IO = { stdin, stdout, stderr, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...paging, ...env } };
  const code = await main(args, io, overrides);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * A command that waits (an export's --wait), run in process with its clock on the sandbox's: each
 * of its pauses moves the sandbox's clock on instead of passing in wall time. `waits` are the pauses.
 */
export async function runWaiting(sandbox: Sandbox, args: string[], env: Record<string, string>) {
  const clock = sandboxClock(sandbox);
  const r = await runInProcess(args, env, '', { overrides: { clock } });
  return { ...r, waits: clock.waits, json: () => JSON.parse(r.stdout) };
}
