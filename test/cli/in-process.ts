// Runs the CLI's main() inside the test process, with its own streams and environment: the
// same code path as the binary, fast enough for thousands of cases.
import { Readable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { IO, OutputStream } from '../../src/io.js';

function collector(): OutputStream & { text: string } {
  const stream = {
    text: '',
    isTTY: false,
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream;
}

export async function runInProcess(args: string[], env: Record<string, string>, stdinText = '') {
  const stdout = collector();
  const stderr = collector();
  const stdin = Object.assign(Readable.from(stdinText ? [Buffer.from(stdinText)] : []), { isTTY: false });
  const io: IO = { stdin, stdout, stderr, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } };
  const code = await main(args, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}
