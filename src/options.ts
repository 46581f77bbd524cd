// The global options every command accepts, declared once on the root command.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULTS } from './defaults.js';

/** A command's own flags as Commander parsed them (by attribute name: `--retry-unknown` → `retryUnknown`). */
export type Options = Readonly<Record<string, unknown>>;

/**
 * A command's own flag, declared once as data: Commander declares it from this entry, and the type
 * of its value follows from it, so the code that reads it gets a typed struct (FlagsOf).
 */
export interface Flag<Value = unknown> {
  /** As Commander declares it: `--force`, `--output-file <file>`, `--resume [run]`. */
  flags: string;
  help: string;
  /** Makes the typed text the value (a duration, a list); Commander calls it as it parses. */
  parse?: (text: string, previous: Value) => Value;
}

/** A command's flags, each under the name Commander gives its value (`--output-file` → `outputFile`). */
export type FlagTable = Readonly<Record<string, Flag<any>>>;

/**
 * A flag's value: its parser's, text for `<value>`, text or true for `[value]`, true for a switch;
 * unknown for a flag whose text is not known (the wide table the run layer holds every spec by).
 */
type ValueOf<F> = F extends { flags: infer Text } ? (string extends Text ? unknown : KnownValueOf<F>) : never;

type KnownValueOf<F> = F extends { parse: (text: string, previous: never) => infer V }
  ? V
  : F extends { flags: `${string}<${string}>` }
    ? string
    : F extends { flags: `${string}[${string}]` }
      ? string | true
      : true;

/** What a command reads of its flags (declared `as const`, so their text is known): each value, or undefined. */
export type FlagsOf<T extends FlagTable> = { readonly [K in keyof T]?: ValueOf<T[K]> };

/** Declares a table's flags on a command, in the table's order. */
export function addFlags(command: Command, table: FlagTable): Command {
  for (const [name, flag] of Object.entries(table)) {
    const option = new Option(flag.flags, flag.help);
    // The value is read by the table's name: a name Commander does not give would read nothing.
    if (option.attributeName() !== name) throw new Error(`${flag.flags} is read as ${option.attributeName()}, not ${name}`);
    if (flag.parse) option.argParser(flag.parse);
    command.addOption(option);
  }
  return command;
}

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  output?: 'json' | 'ndjson' | 'table' | 'csv' | 'tsv';
  /** --columns: dotted paths (`id,user.email`), for CSV, TSV and tables. */
  columns?: string[];
  /** --csv-raw: CSV and TSV cells as the store sent them, formulas and control characters included. */
  csvRaw?: boolean;
  query?: string;
  raw?: boolean;
  input: boolean;
  yes?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  dryRun?: boolean;
  apiVersion?: string;
  color: boolean;
  sandbox?: boolean;
  allowHttp?: boolean;
  timeout?: number;
  retries?: number;
}

export function addGlobalOptions(program: Command): Command {
  return program
    .option('--profile <name>', 'use this profile (see: store-admin profiles list)')
    .option('--base-url <url>', 'store URL, e.g. https://shop.example.com')
    .option('--json', 'print the JSON the store answered (the default when stdout is not a terminal)')
    .addOption(
      new Option('-o, --output <format>', 'output format (ndjson: one JSON record per line, for lists, pages and --each; csv and tsv: a header row, then a row per record)').choices([
        'json',
        'ndjson',
        'table',
        'csv',
        'tsv',
      ]),
    )
    .addOption(new Option('--columns <paths>', 'the columns of csv, tsv and tables, as dotted paths: id,status,user.email').argParser(columnPaths))
    .option('--csv-raw', "write csv and tsv cells as sent: text a spreadsheet would run as a formula (=, +, -, @) without its leading ', control characters unescaped")
    .option('-q, --query <jmespath>', 'filter the JSON result with a JMESPath expression (jmespath.org)')
    .option('--raw', 'print a string result without quotes, a list of strings or numbers one per line')
    .option('--no-input', 'never prompt; fail on anything missing instead')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--quiet', 'print only the result and errors: no progress or warnings')
    .option('--verbose', 'trace each request and response on stderr (token redacted)')
    .option('--dry-run', 'print the request that would be sent, send nothing')
    .addOption(new Option('--api-version <version>', "override the operation's X-Store-API-Version value").argParser(apiVersion))
    .option('--no-color', 'disable colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--sandbox', 'run against the embedded sandbox store (or set STORE_ADMIN_SANDBOX=1)')
    .option('--allow-http', 'allow sending the token over plain http to a store that is not on this machine')
    .addOption(new Option('--timeout <seconds>', `give up on an attempt after this long, and on a store that keeps answering 429 (default ${DEFAULTS.timeoutSeconds})`).argParser(positiveNumber('--timeout')))
    .addOption(new Option('--retries <n>', `further attempts after a failure that is safe to repeat (default ${DEFAULTS.retries})`).argParser(wholeNumber('--retries')));
}

function positiveNumber(flag: string) {
  return (value: string) => {
    const number = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || number < 0.1 || number > 3600) {
      throw new InvalidArgumentError(`${flag} takes seconds, from 0.1 to 3600`);
    }
    return number;
  };
}

function wholeNumber(flag: string) {
  return (value: string) => {
    if (!/^\d{1,2}$/.test(value.trim()) || Number(value) > 10) throw new InvalidArgumentError(`${flag} takes a whole number from 0 to 10`);
    return Number(value);
  };
}

/** `id, user.email,lines.0.sku` → the paths, each a dotted path of keys (or list positions). */
function columnPaths(value: string): string[] {
  const paths = value.split(',').map((path) => path.trim());
  const bad = paths.find((path) => !/^[^.\s]+(\.[^.\s]+)*$/.test(path));
  if (bad !== undefined) throw new InvalidArgumentError(`--columns takes dotted paths separated by commas, such as id,user.email (got ${JSON.stringify(bad)})`);
  return paths;
}

function apiVersion(value: string) {
  if (!/^[\w.-]{1,40}$/.test(value)) throw new InvalidArgumentError('--api-version takes a version such as 2024-04-01 or unstable');
  return value;
}
