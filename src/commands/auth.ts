// `store-admin auth …` and `store-admin profiles …`: stores, tokens and which one is in use.
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { examples, localAction } from './local.js';

const actions = () => import('../config/auth-actions.js');

export function registerAuth(program: Command, io: IO): void {
  const auth = program.command('auth').description('Log in to a store, check the token, log out');

  auth
    .command('login')
    .description('Store a token for a store in a profile (verified with a cheap read first)')
    .option('--with-token', 'read the token from standard input (for scripts)')
    .option('--skip-verify', 'store the token without checking it against the store')
    .addHelpText('after', examples(
      'store-admin auth login',
      'store-admin auth login --profile staging --base-url https://staging.example.com',
      'printf %s "$TOKEN" | store-admin auth login --profile ci --base-url shop.example.com --with-token',
    ))
    .action(localAction(io, async (ctx, opts) => (await actions()).login(ctx, opts)));

  auth
    .command('status')
    .description('Show the profile, store URL and token in use, where each came from, and whether the token works')
    .addHelpText('after', examples('store-admin auth status', 'store-admin auth status --profile staging --json'))
    .action(localAction(io, async (ctx) => (await actions()).status(ctx)));

  auth
    .command('logout')
    .description("Forget a profile's token (its store URL stays unless --all)")
    .option('--all', 'forget the whole profile, store URL included')
    .addHelpText('after', examples('store-admin auth logout', 'store-admin auth logout --profile staging --all'))
    .action(localAction(io, async (ctx, opts) => (await actions()).logout(ctx, opts)));

  auth
    .command('token')
    .description('Print the token in use, alone, for $(store-admin auth token)')
    .addHelpText('after', examples('store-admin auth token', 'curl -H "Authorization: Bearer $(store-admin auth token --profile prod)" …'))
    .action(localAction(io, async (ctx) => (await actions()).token(ctx)));

  const profiles = program.command('profiles').description('List, choose and remove profiles');

  profiles
    .command('list')
    .description('List profiles: name, store URL, which is active, masked token')
    .addHelpText('after', examples('store-admin profiles list', 'store-admin profiles list --json'))
    .action(localAction(io, async (ctx) => (await actions()).listProfiles(ctx)));

  profiles
    .command('use <name>')
    .description('Make a profile the active one')
    .addHelpText('after', examples('store-admin profiles use staging', 'store-admin profiles use prod'))
    .action(localAction(io, async (ctx, _opts, [name]) => (await actions()).useProfile(ctx, name!)));

  profiles
    .command('remove <name>')
    .description('Remove a profile and its token (asks first; --yes skips)')
    .addHelpText('after', examples('store-admin profiles remove staging', 'store-admin profiles remove old-shop --yes'))
    .action(localAction(io, async (ctx, _opts, [name]) => (await actions()).removeProfile(ctx, name!)));
}
