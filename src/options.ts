// The global options every command accepts, declared once on the root command.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULTS } from './defaults.js';

/** A command's own flags as Commander parsed them (by attribute name: `--retry-unknown` → `retryUnknown`). */
export type Options = Record<string, any>;

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  output?: 'json' | 'ndjson' | 'table';
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
    .addOption(new Option('-o, --output <format>', 'output format (ndjson: one JSON record per line, for lists, pages and --each)').choices(['json', 'ndjson', 'table']))
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
    .addOption(new Option('--timeout <seconds>', `give up on an attempt after this long (default ${DEFAULTS.timeoutSeconds})`).argParser(positiveNumber('--timeout')))
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

function apiVersion(value: string) {
  if (!/^[\w.-]{1,40}$/.test(value)) throw new InvalidArgumentError('--api-version takes a version such as 2024-04-01 or unstable');
  return value;
}
