// Entry point: builds the command tree, runs it, and turns every failure into one line on
// stderr and a documented exit code. Commands never print errors or exit themselves.
import { CommanderError, type Command } from 'commander';
import { ApiError, EXIT, StoreAdminError } from './api/errors.js';
import { registerHelp } from './commands/help.js';
import { commandGroups, groupsFor } from './commands/index.js';
import { createContext, type Context, type ContextOverrides } from './context.js';
import { listenForInterrupts } from './interrupts.js';
import type { IO } from './io.js';
import { processIO } from './output/stream.js';
import { addGlobalOptions } from './options.js';
import { metaOf } from './commands/meta.js';
import { helpLayout, helpWidth } from './output/help-layout.js';
import { printableLine } from './printable.js';
import { StoreAdminCommand } from './usage-errors.js';

declare const __STORE_ADMIN_VERSION__: string;

/** The command tree: every group when `argv` is not given, else only the groups it needs. */
export async function buildProgram(ctx: Context, argv?: readonly string[]): Promise<Command> {
  const { io, output } = ctx;
  const program = new StoreAdminCommand('store-admin')
    .description('Administer an online store from the command line: orders, subscriptions, exports, webhooks and more')
    .version(__STORE_ADMIN_VERSION__, '-V, --version')
    .configureOutput({
      writeOut: output.text,
      writeErr: output.log,
      outputError: (text, write) => write(`store-admin: ${text.replace(/^error: /, '')}`),
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
      // The help is never coloured: Commander need not ask process.stdout (and so make it).
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({
      // gh's layout; the options a command inherits are named in one line under it.
      formatHelp: helpLayout(metaOf),
      showGlobalOptions: true,
      // Narrow terminals still get wrapped descriptions (Commander stops wrapping below 40).
      minWidthToWrap: 20,
    });
  addGlobalOptions(program);
  const needed = argv ? groupsFor(argv, program) : commandGroups;
  for (const group of commandGroups) {
    const command = program.command(group.name).description(group.description);
    if (needed.includes(group)) (await group.load()).register(command, ctx);
  }
  registerHelp(program, ctx);
  return program;
}

/** The whole command tree, for help, the reference docs and completion. */
export function commandTree(io: IO = processIO()): Promise<Command> {
  const ctx: Context = createContext(io, listenForInterrupts(io), (argv) => buildProgram(ctx, argv));
  return buildProgram(ctx);
}

/** Runs one command line; tests (and programs embedding the CLI) may put in their own client and prompter. */
export async function main(argv: string[], io: IO = processIO(), overrides: ContextOverrides = {}): Promise<number> {
  const interrupts = listenForInterrupts(io);
  const ctx: Context = createContext(io, interrupts, (line) => buildProgram(ctx, line), overrides, argv);
  const program = await buildProgram(ctx, argv);
  // The one context learns the parsed global options before any command runs.
  program.hook('preAction', (_root, action) => ctx.bind(action.optsWithGlobals()));
  try {
    await program.parseAsync(argv, { from: 'user' });
    // A command that ends cleanly once told to stop (the sandbox, webhooks listen) still reports SIGTERM.
    return interrupts.stoppedBy === 'SIGTERM' ? EXIT.terminated : EXIT.ok;
  } catch (error) {
    await ctx.explain(error);
    // The error as a JSON object too, on stderr, only when JSON output was asked for by name.
    const { json, output } = program.opts<{ json?: boolean; output?: string }>();
    const code = report(error, ctx.output.log, ctx.io.env, !!json || output === 'json' || output === 'ndjson', interrupts.stoppedBy === 'SIGTERM');
    if (ctx.io.env.GITHUB_ACTIONS === 'true' && code !== EXIT.ok) await annotate(error, code, ctx.output.log);
    return code;
  } finally {
    await ctx.close();
    interrupts.dispose();
  }
}

/** On GitHub Actions, the error also shows on the run's page (through the guarded stderr: no token). */
async function annotate(error: unknown, exitCode: number, log: (text: string) => void): Promise<void> {
  const { errorAnnotation } = await import('./output/github-actions.js');
  const message = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
  log(errorAnnotation(exitCode, message, error instanceof StoreAdminError ? error.hint : undefined));
}

function report(error: unknown, log: (text: string) => void, env: NodeJS.ProcessEnv, json: boolean, terminated: boolean): number {
  if (error instanceof CommanderError) {
    // Commander has already printed help, the version or its own one-line message.
    if (error.exitCode === 0) return EXIT.ok;
    // A group named without a command: its help was the answer, and there is no other message.
    if (error.code === 'commander.help') return EXIT.usage;
    const message = error.message.replace(/^error: /, '');
    if (json) log(`${JSON.stringify({ error: { message, exitCode: EXIT.usage, type: 'UsageError' } })}\n`);
    return EXIT.usage;
  }
  const known = error instanceof StoreAdminError;
  const message = known ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  // Work stopped by SIGTERM ends as a process killed by it would: 143 (128 + 15); Ctrl-C: 130.
  const exitCode = known ? (terminated && error.exitCode === EXIT.interrupted ? EXIT.terminated : error.exitCode) : EXIT.failure;
  // The status tells a wrong store URL (a bare 404) from a missing object.
  const status = error instanceof ApiError && !message.startsWith(String(error.status)) ? ` (HTTP ${error.status})` : '';
  // One line each, whatever a store put in them.
  log(`store-admin: ${printableLine(message)}${status}\n`);
  if (known && error.hint) log(`hint: ${printableLine(error.hint)}\n`);
  if (env.STORE_ADMIN_DEBUG && error instanceof Error && error.stack) log(`${error.stack}\n`);
  if (json) {
    const httpStatus = error instanceof ApiError ? error.status : undefined;
    const type = known ? error.name : 'Error';
    log(`${JSON.stringify({ error: { message, exitCode, type, ...(httpStatus ? { status: httpStatus } : {}), ...(error instanceof ApiError && error.body !== undefined ? { body: error.body } : {}) } })}\n`);
  }
  return exitCode;
}
