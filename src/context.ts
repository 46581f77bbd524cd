// One context per run: streams, options, output format, prompts and a lazily built client.
// Commands receive it and never reach for globals.
import { UsageError } from './api/errors.js';
import type { ClientOptions, StoreClient } from './api/client.js';
import type { IO } from './io.js';
import type { GlobalOptions } from './options.js';
import { colorLevel, type ColorLevel } from './output/color.js';
import type { Format } from './output/render.js';
import type { Prompter } from './prompt.js';

export interface Context {
  io: IO;
  options: GlobalOptions;
  format: Format;
  color: ColorLevel;
  /** Prompts are allowed: both ends are terminals and --no-input was not given. */
  readonly interactive: boolean;
  prompt: Prompter;
  /** Connects to the store (or the embedded sandbox) on first use; `tuning` applies to that first call. */
  client(tuning?: Partial<ClientOptions>): Promise<StoreClient>;
  /** A diagnostic line on stderr, unless --quiet. */
  note(message: string): void;
  close(): Promise<void>;
}

export function createContext(options: GlobalOptions, io: IO): Context {
  if (options.json && options.output === 'table') throw new UsageError('--json and --output table contradict each other');
  const format: Format = options.json ? 'json' : (options.output ?? (io.stdout.isTTY && options.query === undefined ? 'table' : 'json'));
  // Asked only when needed: looking at stdin sets it up, which costs start-up time.
  const interactive = () => options.input !== false && !!io.stdin.isTTY && !!io.stdout.isTTY;
  let connection: Promise<{ client: StoreClient; close(): Promise<void> }> | undefined;
  const note = (message: string) => {
    // On a terminal, clear the line first: a spinner may be drawn there.
    if (!options.quiet) io.stderr.write(`${io.stderr.isTTY ? '\r\x1b[2K' : ''}${message}\n`);
  };
  const ctx: Context = {
    io,
    options,
    format,
    color: colorLevel(io, options.color !== false),
    get interactive() {
      return interactive();
    },
    prompt: lazyPrompter(io, interactive),
    note,
    client: async (tuning) => {
      connection ??= import('./connect.js').then((m) => m.connect(options, io, note, tuning));
      return (await connection).client;
    },
    close: async () => {
      if (connection) await (await connection.catch(() => undefined))?.close();
    },
  };
  return ctx;
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
