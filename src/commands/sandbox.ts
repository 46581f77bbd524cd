// `store-admin sandbox`: the local store that speaks the same API, for trying every command.
import { Option, type Command } from 'commander';
import { UsageError } from '../api/errors.js';
import type { Context } from '../context.js';
import type { RunSandboxOptions } from '../sandbox/run.js';
import {
  DEFAULT_BACKOFF_MS,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_EXPORT_DELAY_SECONDS,
  DEFAULT_HOST,
  DEFAULT_LINK_TTL_SECONDS,
  DEFAULT_PORT,
  PARTNER_APP,
  PLATFORM_RATE_PER_SECOND,
  REGISTERED_REDIRECT_URIS,
} from '../sandbox/settings.js';
import { describeCommand } from './meta.js';
import { registerClock } from './sandbox-clock.js';

function collectScopedToken(value: string, previous: Record<string, string[]> = {}) {
  const match = /^([^=\s]+)=([\w:,\s]*)$/.exec(value);
  if (!match) throw new UsageError(`--scoped-token takes TOKEN=scope,scope (got "${value}")`);
  const scopes = match[2]!.split(',').map((s) => s.trim()).filter(Boolean);
  return { ...previous, [match[1]!]: scopes };
}

function parseSeed(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--seed takes a whole number (got "${value}")`);
  return Number(value);
}

function parseSize(value: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > 100_000) throw new UsageError(`--size takes a number of orders from 1 to 100000 (got "${value}")`);
  return Number(value);
}

function parseSeconds(flag: string) {
  return (value: string): number => {
    if (!/^\d{1,6}(\.\d{1,3})?$/.test(value.trim())) throw new UsageError(`${flag} takes seconds, such as 5 or 0.5 (got "${value}")`);
    return Number(value);
  };
}

function parseBackoff(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--webhook-backoff takes a whole number of milliseconds (got "${value}")`);
  return Number(value);
}

function collectRedirectUri(value: string, previous: string[] = []): string[] {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.hash) {
    throw new UsageError(`--oauth-redirect-uri takes an absolute http(s) URL without a #fragment (got "${value}")`);
  }
  return [...previous, value];
}

function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`--port takes 0 to 65535 (got "${value}")`);
  return Number(value);
}

export function register(sandbox: Command, ctx: Context): void {
  const start = sandbox
    .command('start', { isDefault: true })
    .description('Run the sandbox store in the foreground (the default)')
    .option('--host <host>', 'address to listen on', DEFAULT_HOST)
    .addOption(new Option('--port <port>', 'port to listen on (0 picks a free one)').default(DEFAULT_PORT).argParser(parsePort))
    .option('--token <token>', 'the full-access token (random when not given)')
    // Repeatable flags start from nothing: a default of {} or [] would show in the help as it is.
    .option('--scoped-token <token=scopes>', 'a token limited to comma-separated scopes (repeatable)', collectScopedToken)
    .option(
      '--faults <spec>',
      `misbehave on purpose, with any of latency=MS[-MS] rate=N (requests per second per token; default ${PLATFORM_RATE_PER_SECOND}, as on the platform; 0 for none) error=SHARE[:503/502] reset-before=SHARE reset-after=SHARE truncate=SHARE html=SHARE hang=SHARE, joined by commas`,
    )
    .addOption(new Option('--seed <n>', 'seed for the fault draws, to repeat a run exactly').argParser(parseSeed))
    .addOption(new Option('--size <orders>', "grow the store to this many orders, each in one of the seed's states, for paging and load work").argParser(parseSize))
    .addOption(
      new Option('--export-delay <seconds>', `how long a new export stays pending before it is available (default ${DEFAULT_EXPORT_DELAY_SECONDS})`).argParser(
        parseSeconds('--export-delay'),
      ),
    )
    .addOption(
      new Option('--link-ttl <seconds>', `how long a signed download link stays valid (default ${DEFAULT_LINK_TTL_SECONDS})`).argParser(parseSeconds('--link-ttl')),
    )
    .addOption(
      new Option('--webhook-backoff <ms>', `the first webhook retry's delay in milliseconds; each further retry waits twice as long (default ${DEFAULT_BACKOFF_MS})`).argParser(
        parseBackoff,
      ),
    )
    .option('--oauth-client-secret <secret>', `the partner app ${PARTNER_APP.client_id}'s client secret (default ${DEFAULT_CLIENT_SECRET})`)
    .option(
      '--oauth-redirect-uri <uri>',
      `register another redirect URI for ${PARTNER_APP.client_id}, besides ${REGISTERED_REDIRECT_URIS.join(' and ')} (repeatable)`,
      collectRedirectUri,
    )
    .action(async (options: RunSandboxOptions) => {
      const { runSandbox } = await import('../sandbox/run.js');
      await runSandbox(options, ctx.output, ctx.signal);
    });
  describeCommand(start, {
    examples: [
      'store-admin sandbox --port 0',
      'store-admin sandbox --token dev --scoped-token ro=orders:read,exports:read',
      'store-admin sandbox --faults error=0.3:503,reset-after=0.1 --seed 7',
      'store-admin sandbox --faults rate=0',
      'store-admin sandbox start --size 10000',
      'store-admin sandbox --export-delay 60 --link-ttl 30',
      'store-admin sandbox --webhook-backoff 1000',
      'store-admin sandbox --oauth-redirect-uri http://127.0.0.1:9000/callback',
    ],
  });

  const reset = sandbox
    .command('reset')
    .description('Restore the seed data and clock of the embedded sandbox used by --sandbox; with --base-url, of the running sandbox there')
    .action(async () => {
      // A store named by flag: a running `store-admin sandbox` (refused on a real store).
      if (ctx.options.baseUrl !== undefined || ctx.options.profile !== undefined) {
        const { resetSandbox } = await import('../webhooks/sandbox-admin.js');
        const client = await ctx.client();
        const { now } = await resetSandbox(client);
        ctx.output.log(`The sandbox at ${new URL(client.baseUrl).origin} is back to its seed data; its clock reads ${now}.\n`);
        return;
      }
      const [{ fileStore }, { sandboxStatePath }] = await Promise.all([
        import('../sandbox/file-store.js'),
        import('../sandbox/embedded.js'),
      ]);
      await fileStore(sandboxStatePath(ctx.io.env)).reset();
      ctx.output.log('The embedded sandbox is back to its seed data.\n');
    });
  describeCommand(reset, {
    examples: [
      'store-admin sandbox reset',
      'STORE_ADMIN_TOKEN=dev store-admin sandbox reset --base-url http://127.0.0.1:4010',
      'STORE_ADMIN_CONFIG_DIR=/tmp/demo store-admin sandbox reset',
    ],
    globals: ['--base-url'],
  });

  registerClock(sandbox, ctx);
}
