// `store-admin auth …`: log in to stores, check and print tokens, log out.
import { Option, type Command } from 'commander';
import { UsageError } from '../api/errors.js';
import { DEFAULTS } from '../defaults.js';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

const actions = () => import('./auth-actions.js');

/** The flags of a partner app's login: option key, value when not given, flag. */
const APP_FLAGS: [string, unknown, string][] = [
  ['clientId', undefined, '--client-id'],
  ['clientSecretFile', undefined, '--client-secret-file'],
  ['scopes', undefined, '--scopes'],
  ['redirectPort', undefined, '--redirect-port'],
  ['browser', true, '--no-browser'],
];

function parseRedirectPort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) throw new UsageError(`--redirect-port takes 1 to 65535 (got "${value}")`);
  return Number(value);
}

export function register(auth: Command, ctx: Context): void {
  describeCommand(
    auth
      .command('login')
      .description('Store a token for a store in a profile (verified with a cheap read first), or sign in as a partner app with --app')
      .option('--with-token', 'read the token from standard input (for scripts)')
      .option('--skip-verify', 'store the token without checking it against the store')
      .option('--insecure-storage', 'keep the token (and an app login\'s secrets) in the config file (0600) instead of the OS keychain')
      .addOption(new Option('--app', "sign in as a partner app: approve it in the browser (the Authorization Code flow)").helpGroup('PARTNER APP FLAGS'))
      .addOption(new Option('--client-id <id>', "with --app: the app's client id").helpGroup('PARTNER APP FLAGS'))
      .addOption(
        new Option('--client-secret-file <file>', "with --app: read the app's client secret from FILE (- for stdin); else STORE_ADMIN_CLIENT_SECRET, else a masked prompt").helpGroup(
          'PARTNER APP FLAGS',
        ),
      )
      .addOption(
        new Option('--scopes <scopes>', 'with --app: the scopes to ask for, separated by spaces or commas (default: every scope the commands need)').helpGroup(
          'PARTNER APP FLAGS',
        ),
      )
      .addOption(
        new Option('--redirect-port <port>', `with --app: the port of the redirect URI http://127.0.0.1:PORT/callback (default ${DEFAULTS.redirectPort})`)
          .argParser(parseRedirectPort)
          .helpGroup('PARTNER APP FLAGS'),
      )
      .addOption(new Option('--no-browser', 'with --app: print the consent page\'s URL instead of opening a browser').helpGroup('PARTNER APP FLAGS'))
      .action(
        localAction(ctx, async (ctx, opts) => {
          if (opts.app) return (await import('./app-login.js')).loginAsApp(ctx, opts);
          const stray = APP_FLAGS.find(([key, value]) => opts[key] !== value);
          if (stray) throw new UsageError(`${stray[2]} goes with --app`);
          return (await actions()).login(ctx, opts);
        }),
      ),
    {
      examples: [
        'store-admin auth login',
        'store-admin auth login --profile staging --base-url https://staging.example.com',
        'printf %s "$TOKEN" | store-admin auth login --profile ci --base-url shop.example.com --with-token',
        'store-admin auth login --app --client-id my-app --base-url shop.example.com',
        'STORE_ADMIN_CLIENT_SECRET=… store-admin auth login --app --client-id my-app --scopes "orders:read orders:write" --no-browser',
      ],
      globals: ['--profile', '--base-url', '--allow-http'],
    },
  );

  describeCommand(
    auth
      .command('status')
      .description('Show the profile, store URL and token in use, where each came from, and whether the token works')
      .action(localAction(ctx, async (ctx) => (await actions()).status(ctx))),
    { examples: ['store-admin auth status', 'store-admin auth status --profile staging --json'] },
  );

  describeCommand(
    auth
      .command('logout')
      .description("Forget a profile's token (its store URL stays unless --all, which asks first; --yes skips)")
      .option('--all', 'forget the whole profile, store URL included')
      .action(localAction(ctx, async (ctx, opts) => (await actions()).logout(ctx, opts))),
    {
      examples: ['store-admin auth logout', 'store-admin auth logout --profile staging --all'],
      confirms: { when: 'with --all', example: 'store-admin auth logout --profile staging --all' },
    },
  );

  describeCommand(
    auth
      .command('token')
      .description('Print the token in use, alone, for $(store-admin auth token)')
      .action(localAction(ctx, async (ctx) => (await actions()).token(ctx))),
    { examples: ['store-admin auth token', 'curl -H "Authorization: Bearer $(store-admin auth token --profile prod)" …'] },
  );
}
