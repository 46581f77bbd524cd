// One context per run, made once in main(): streams, the interrupt signals, prompts and a lazily
// built client. The global options are bound to it once Commander has parsed them (a preAction
// hook), so every command receives the same object and none reaches for globals.
import { UsageError } from './api/errors.js';
import type { StoreClient } from './api/client.js';
import { realClock, type Clock } from './clock.js';
import type { Interrupts } from './interrupts.js';
import type { IO } from './io.js';
import { guardedIO } from './output/stream.js';
import type { GlobalOptions } from './options.js';
import { colorLevel, type ColorLevel } from './output/color.js';
import { createOutput, type Output } from './output/output.js';
import type { Format } from './output/render.js';
import type { Prompter } from './prompt.js';

export interface Context {
  io: IO;
  /** Everything the run prints goes through here: the result, records, prose for people. */
  readonly output: Output;
  /** The command line as given after `store-admin`, for hints that repeat it (resuming a run). */
  readonly argv: readonly string[];
  /** The global options of this run (set before any command runs). */
  readonly options: GlobalOptions;
  readonly format: Format;
  readonly color: ColorLevel;
  /** Prompts are allowed: both ends are terminals and --no-input was not given. */
  readonly interactive: boolean;
  prompt: Prompter;
  /** Aborted by the first Ctrl-C, by SIGTERM, or when stdout closes (EPIPE): start nothing new. */
  readonly signal: AbortSignal;
  /** Aborted by a second Ctrl-C or SIGTERM: abandon requests in flight. */
  readonly forceSignal: AbortSignal;
  /** The time the run's own waits read and wait on (an export's polls). */
  readonly clock: Clock;
  /**
   * Connects to the store (or the embedded sandbox) on first use: the same client for every
   * caller. Work that needs settings of its own derives a client with `client.with(settings)`.
   */
  client(): Promise<StoreClient>;
  /** Where the client's changes go, as the history names it (connects if need be). */
  destination(): Promise<{ store: string; profile?: string }>;
  /** The scopes a partner app's login granted the token in use, if it came from one (connects if need be). */
  grant(): Promise<import('./connect.js').Grant | undefined>;
  /** The command tree, for completion and help (built on demand): whole, or only the groups a command line needs. */
  commandTree(argv?: readonly string[]): Promise<import('commander').Command>;
  /** Adds what the connection knows to a failure before it is reported (https assumed for a bare host). */
  explain(error: unknown): Promise<void>;
  /** Takes the parsed global options; called once, before the command's action. */
  bind(options: GlobalOptions): void;
  close(): Promise<void>;
}

/** What a test (or an embedding program) may put in place of the real thing. */
export interface ContextOverrides {
  client?: StoreClient;
  prompter?: Prompter;
  clock?: Clock;
}

export function createContext(
  io: IO,
  interrupts: Pick<Interrupts, 'signal' | 'forceSignal'>,
  commandTree: (argv?: readonly string[]) => Promise<import('commander').Command>,
  overrides: ContextOverrides = {},
  argv: readonly string[] = [],
): Context {
  // Whatever the run prints, the token it uses is never in it.
  const guarded = guardedIO(io);
  io = guarded;
  // Until Commander has parsed the line: no prompts, colour as the terminal allows.
  let options: GlobalOptions = { input: false, color: true };
  let format: Format = 'json';
  let color: ColorLevel = 0;
  // Asked only when needed, and stdout first: looking at stdin sets it up (about 2 ms), which a
  // command whose output goes to a pipe or a file never needs.
  const interactive = () => options.input !== false && !!io.stdout.isTTY && !!io.stdin.isTTY;
  let connection: Promise<import('./connect.js').Connection> | undefined;
  const connect = () =>
    (connection ??= import('./connect.js').then(async (m) => {
      const made = await m.connect(options, io, output);
      if (made.token) guarded.protect(made.token);
      return made;
    }));
  const output = createOutput(
    io,
    () => ({ format, query: options.query, raw: options.raw, color, quiet: options.quiet, columns: options.columns, csvRaw: options.csvRaw }),
    () => [interrupts.signal, interrupts.forceSignal],
  );
  return {
    io,
    argv,
    get options() {
      return options;
    },
    get format() {
      return format;
    },
    get color() {
      return color;
    },
    get interactive() {
      return interactive();
    },
    get signal() {
      return interrupts.signal;
    },
    get forceSignal() {
      return interrupts.forceSignal;
    },
    clock: overrides.clock ?? realClock,
    output,
    prompt: overrides.prompter ?? lazyPrompter(io, interactive),
    commandTree,
    bind(parsed) {
      if (parsed.json && parsed.output !== undefined && parsed.output !== 'json') {
        throw new UsageError(`--json and --output ${parsed.output} contradict each other`);
      }
      options = parsed;
      format = parsed.json ? 'json' : (parsed.output ?? (io.stdout.isTTY && parsed.query === undefined ? 'table' : 'json'));
      color = colorLevel(io, parsed.color !== false);
    },
    client: async () => overrides.client ?? (await connect()).client,
    destination: async () => {
      if (overrides.client) return { store: new URL(overrides.client.baseUrl).host };
      const { store, profile } = await connect();
      return { store, ...(profile ? { profile } : {}) };
    },
    grant: async () => (overrides.client ? undefined : (await connect()).grant),
    explain: async (error) => {
      if (connection) (await connection.catch(() => undefined))?.explain?.(error);
    },
    close: async () => {
      if (connection) await (await connection.catch(() => undefined))?.close();
    },
  };
}

function lazyPrompter(io: IO, interactive: () => boolean): Prompter {
  const load = () => import('./prompt.js').then((m) => m.createPrompter(io, interactive()));
  return {
    text: async (...args) => (await load()).text(...args),
    select: async (...args) => (await load()).select(...args),
    checkbox: async (...args) => (await load()).checkbox(...args),
    confirm: async (...args) => (await load()).confirm(...args),
    secret: async (...args) => (await load()).secret(...args),
  };
}
