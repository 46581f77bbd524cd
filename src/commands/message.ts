// The `--message T | --message-file F|-` pair shared by the note commands.
import { Option, type Command } from 'commander';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { Options } from './define.js';
import { textFrom } from './values.js';

export function messageOptions(command: Command): void {
  command
    .option('-m, --message <text>', 'the note text')
    .addOption(new Option('--message-file <file>', 'read the note text from a file, or - for standard input').conflicts('message'));
}

export async function messageFrom(opts: Options, ctx: Context): Promise<string> {
  if (opts.message !== undefined) return String(opts.message);
  if (opts.messageFile !== undefined) {
    const text = await textFrom(String(opts.messageFile), '--message-file', ctx.io);
    if (!text.trim()) throw new UsageError('--message-file: the note is empty');
    return text;
  }
  return ctx.prompt.text({ flag: '--message', message: 'Note:' });
}
