// Entry point: builds the command tree, runs it, and turns every failure into one line on
// stderr and a documented exit code. Commands never print errors or exit themselves.
import { CommanderError, type Command } from 'commander';
import { ApiError, EXIT, StoreAdminError } from './api/errors.js';
import { registerHelp } from './commands/help.js';
import { commandGroups, groupsFor } from './commands/index.js';
import { createContext, type Context, type ContextOverrides } from './context.js';
import { listenForInterrupts, type StopReason } from './interrupts.js';
import type { IO } from './io.js';
import { processIO } from './output/stream.js';
import { addGlobalOptions } from './options.js';
import { DescribedCommand, metaOf } from './commands/meta.js';
import { helpLayout, helpWidth } from './output/help-layout.js';
import { jsonText, printableLine } from './printable.js';
import { wrapForTerminal } from './output/wrap.js';

declare const __STORE_ADMIN_VERSION__: string;

/**
 * The command tree: every group when `argv` is not given, else only the groups it needs. What
 * Commander prints on stdout (help, the version) goes to `writeOut`: `main()` pages it.
 */
export async function buildProgram(ctx: Context, argv?: readonly string[], writeOut: (text: string) => void = ctx.output.text): Promise<Command> {
  const { io, output } = ctx;
  const program = new DescribedCommand('store-admin')
    .description('Administer an online store from the command line: orders, subscriptions, exports, webhooks and more')
    .version(__STORE_ADMIN_VERSION__, '-V, --version')
    .configureOutput({
      writeOut,
      writeErr: output.log,
      outputError: (text, write) => write(`${wrapForTerminal(`store-admin: ${text.replace(/^error: /, '').trimEnd()}`, io.stderr)}\n`),
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
  // Help is read at a terminal like any long output: gathered, then paged once Commander is done.
  let help = '';
  const program = await buildProgram(ctx, argv, (text) => void (help += text));
  const showHelp = async () => {
    if (help) await ctx.output.page(help);
    help = '';
  };
  // The one context learns the parsed global options before any command runs.
  program.hook('preAction', (_root, action) => ctx.bind(action.optsWithGlobals()));
  let code: number;
  try {
    await program.parseAsync(argv, { from: 'user' });
    await showHelp();
    // A command that ends cleanly once told to stop (the sandbox, webhooks listen) still reports SIGTERM.
    code = interrupts.stoppedBy === 'SIGTERM' ? EXIT.terminated : EXIT.ok;
  } catch (error) {
    await showHelp();
    await ctx.explain(error);
    // The error as a JSON object too, on stderr, only when JSON output was asked for by name.
    const { json, output } = program.opts<{ json?: boolean; output?: string }>();
    code = report(error, ctx.output.log, ctx.io, !!json || output === 'json' || output === 'ndjson', interrupts.stoppedBy);
    if (ctx.io.env.GITHUB_ACTIONS === 'true' && code !== EXIT.ok) await annotate(error, code, ctx);
  } finally {
    await ctx.close();
    interrupts.dispose();
  }
  return outputFailure(ctx.io.stdoutFailure?.(), code, ctx.output.log);
}

/**
 * A write to stdout that failed decides the end too. Its reader gone (`| head`), a command that
 * only had output left ends quietly with its own code, and work it stopped ends 141 (report()).
 * Any other failure (a full disk) means the output is incomplete: one line says so, and a run that
 * would have ended 0 (or was stopped by it) ends 1.
 */
function outputFailure(failure: NodeJS.ErrnoException | undefined, code: number, log: (text: string) => void): number {
  if (!failure || failure.code === 'EPIPE') return code;
  const why = failure.code === 'ENOSPC' ? 'no space left on the device' : failure.code === 'EDQUOT' ? 'the disk quota is exceeded' : (failure.code ?? failure.message);
  log(`store-admin: cannot write to stdout (${why}); the output is incomplete\n`);
  return code === EXIT.ok || code === EXIT.interrupted ? EXIT.failure : code;
}

/**
 * On GitHub Actions, the error also shows on the run's page (through the guarded stderr: no
 * token), and in the step's summary, which would otherwise say nothing of a step that failed.
 */
async function annotate(error: unknown, exitCode: number, ctx: Context): Promise<void> {
  const { addSummary, errorAnnotation, failureSummary } = await import('./output/github-actions.js');
  const message = error instanceof Error ? error.message.replace(/^error: /, '') : String(error);
  const hint = error instanceof StoreAdminError ? error.hint : undefined;
  ctx.output.runnerCommand(errorAnnotation(exitCode, message, hint));
  try {
    addSummary(ctx.io, failureSummary(exitCode, message, hint));
  } catch (failure) {
    // The error itself is what the step must report.
    ctx.output.log(`warning: ${(failure as Error).message}\n`);
  }
}

function report(error: unknown, log: (text: string) => void, io: IO, json: boolean, stoppedBy: StopReason | undefined): number {
  const { env } = io;
  if (error instanceof CommanderError) {
    // Commander has already printed help, the version or its own one-line message.
    if (error.exitCode === 0) return EXIT.ok;
    // A group named without a command: its help was the answer, and there is no other message.
    if (error.code === 'commander.help') return EXIT.usage;
    const message = error.message.replace(/^error: /, '');
    if (json) log(`${jsonText({ error: { message, exitCode: EXIT.usage, type: 'UsageError' } })}\n`);
    return EXIT.usage;
  }
  const known = error instanceof StoreAdminError;
  const message = known ? error.message : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  // Work stopped by SIGTERM ends as a process killed by it would: 143 (128 + 15); by stdout's
  // reader going away, as by SIGPIPE: 141; Ctrl-C: 130.
  const stoppedCode = stoppedBy === 'SIGTERM' ? EXIT.terminated : stoppedBy === 'EPIPE' ? EXIT.closed : EXIT.interrupted;
  const exitCode = known ? (error.exitCode === EXIT.interrupted ? stoppedCode : error.exitCode) : EXIT.failure;
  // The status tells a wrong store URL (a bare 404) from a missing object.
  const status = error instanceof ApiError && !message.startsWith(String(error.status)) ? ` (HTTP ${error.status})` : '';
  // One line each, whatever a store put in them; a terminal's wrapped at words.
  // (io.stderr is made only here: --help, which ends through this function too, never needs it.)
  log(`${wrapForTerminal(`store-admin: ${printableLine(message)}${status}`, io.stderr)}\n`);
  if (known && error.hint) log(`${wrapForTerminal(`hint: ${printableLine(error.hint)}`, io.stderr)}\n`);
  if (env.STORE_ADMIN_DEBUG && error instanceof Error && error.stack) log(`${error.stack}\n`);
  if (json) {
    const httpStatus = error instanceof ApiError ? error.status : undefined;
    const type = known ? error.name : 'Error';
    log(`${jsonText({ error: { message, exitCode, type, ...(httpStatus ? { status: httpStatus } : {}), ...(error instanceof ApiError && error.body !== undefined ? { body: error.body } : {}) } })}\n`);
  }
  return exitCode;
}
