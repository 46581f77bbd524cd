// Entry point: builds the command tree, runs it, and turns every failure into one line on
// stderr and a documented exit code. Commands never print errors or exit themselves.
import { Command, CommanderError } from 'commander';
import { EXIT, StoreAdminError } from './api/errors.js';
import { commandGroups } from './commands/index.js';
import { processIO, type IO } from './io.js';

declare const __STORE_ADMIN_VERSION__: string;

export async function main(argv: string[], io: IO = processIO()): Promise<number> {
  const program = new Command('store-admin')
    .description('Administer an online store from the command line: orders, subscriptions, exports, webhooks and more')
    .version(__STORE_ADMIN_VERSION__, '-V, --version')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`store-admin: ${text.replace(/^error: /, '')}`),
    })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  for (const register of commandGroups) register(program, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    return report(error, io);
  }
}

function report(error: unknown, io: IO): number {
  if (error instanceof CommanderError) {
    // Commander has already printed help, the version or its own one-line message.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof StoreAdminError) {
    io.stderr.write(`store-admin: ${error.message}\n`);
    if (error.hint) io.stderr.write(`hint: ${error.hint}\n`);
    return error.exitCode;
  }
  io.stderr.write(`store-admin: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (io.env.STORE_ADMIN_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return EXIT.failure;
}
