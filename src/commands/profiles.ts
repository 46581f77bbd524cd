// `store-admin profiles …`: which stores are known and which one is active.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { localAction } from './local.js';
import { describeCommand } from './meta.js';

const actions = () => import('./auth-actions.js');

/** Completion for a profile argument: the names in the config file. */
const profileNames = async (ctx: Context) => (await import('./complete-words.js')).profileNames(ctx.io);

export function register(profiles: Command, ctx: Context): void {
  describeCommand(
    profiles
      .command('list')
      .description('List profiles: name, store URL, which is active, masked token')
      .action(localAction(ctx, async (ctx) => (await actions()).listProfiles(ctx))),
    { examples: ['store-admin profiles list', 'store-admin profiles list --json'] },
  );

  describeCommand(
    profiles
      .command('use [name]')
      .description('Make a profile the active one (picked from a list at a terminal when not given)')
      .action(localAction(ctx, async (ctx, _opts, [name]) => (await actions()).useProfile(ctx, name))),
    { examples: ['store-admin profiles use staging', 'store-admin profiles use prod'], argumentValues: profileNames },
  );

  describeCommand(
    profiles
      .command('remove [name]')
      .description('Remove a profile and its token (asks first; --yes skips; picked from a list at a terminal when not given)')
      .action(localAction(ctx, async (ctx, _opts, [name]) => (await actions()).removeProfile(ctx, name))),
    {
      examples: ['store-admin profiles remove staging', 'store-admin profiles remove old-shop --yes'],
      confirms: { example: 'store-admin profiles remove staging' },
      argumentValues: profileNames,
    },
  );
}
