// `store-admin auth …`: log in to stores, check and print tokens, log out.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

const actions = () => import('./auth-actions.js');

export function register(auth: Command, ctx: Context): void {
  describeCommand(
    auth
      .command('login')
      .description('Store a token for a store in a profile (verified with a cheap read first)')
      .option('--with-token', 'read the token from standard input (for scripts)')
      .option('--skip-verify', 'store the token without checking it against the store')
      .option('--insecure-storage', 'keep the token in the config file (0600) instead of the OS keychain')
      .action(localAction(ctx, async (ctx, opts) => (await actions()).login(ctx, opts))),
    {
      examples: [
        'store-admin auth login',
        'store-admin auth login --profile staging --base-url https://staging.example.com',
        'printf %s "$TOKEN" | store-admin auth login --profile ci --base-url shop.example.com --with-token',
      ],
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
