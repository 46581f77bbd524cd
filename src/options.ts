// The global options every command accepts, declared once on the root command.
import { Option, type Command } from 'commander';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  output?: 'json' | 'table';
  query?: string;
  input: boolean;
  yes?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  dryRun?: boolean;
  apiVersion?: string;
  color: boolean;
  sandbox?: boolean;
  allowHttp?: boolean;
}

export function addGlobalOptions(program: Command): Command {
  return program
    .option('--profile <name>', 'use this profile (see: store-admin profiles list)')
    .option('--base-url <url>', 'store URL, e.g. https://shop.example.com')
    .option('--json', 'print the JSON the store answered (the default when stdout is not a terminal)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['json', 'table']))
    .option('-q, --query <jmespath>', 'filter the JSON result with a JMESPath expression')
    .option('--no-input', 'never prompt; fail on anything missing instead')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--quiet', 'print only the result: no progress, warnings or hints')
    .option('--verbose', 'trace each request and response on stderr (token redacted)')
    .option('--dry-run', 'print the request that would be sent, send nothing')
    .option('--api-version <version>', "override the operation's X-Store-API-Version value")
    .option('--no-color', 'disable colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--sandbox', 'run against the embedded sandbox store (or set STORE_ADMIN_SANDBOX=1)')
    .option('--allow-http', 'allow sending the token over plain http to a store that is not on this machine');
}
