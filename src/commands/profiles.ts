// `store-admin profiles …`: which stores are known and which one is active.
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { examples, localAction } from './local.js';

const actions = () => import('../config/auth-actions.js');

export function register(profiles: Command, io: IO): void {
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
