// The work behind `auth …` and `profiles …`.
import { ApiError, AuthError, StoreAdminError, UsageError } from '../api/errors.js';
import { createClient } from '../api/client.js';
import { operations } from '../api/operations.js';
import { assertSafeTransport, normalizeStoreUrl } from '../api/url.js';
import type { Context } from '../context.js';
import { render } from '../output/render.js';
import { maskToken } from '../output/mask.js';
import type { Options } from '../commands/define.js';
import { textFrom } from '../commands/values.js';
import { checkProfileName, type ConfigData } from './profiles.js';
import { profileStore, resolveConnection } from './resolve.js';

interface Verdict {
  authenticated: boolean;
  detail: string;
}

/** A cheap read proves the token: 200 or 403 means it authenticates, 401 means it does not. */
async function verify(baseUrl: string, token: string, allowHttp: boolean): Promise<Verdict> {
  const client = createClient({ baseUrl, token, allowHttp, timeoutMs: 15_000 });
  try {
    await client.exports.listTypes({});
    return { authenticated: true, detail: 'token accepted' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return { authenticated: true, detail: `token accepted (it lacks ${operations['exports.listTypes'].scopes.join(' and ')})` };
    }
    if (error instanceof ApiError && error.status === 401) return { authenticated: false, detail: `token rejected: ${error.message}` };
    throw error;
  } finally {
    await client.close();
  }
}

const show = (ctx: Context, data: unknown) => render(data, ctx.io, { format: ctx.format, query: ctx.options.query, raw: ctx.options.raw, color: ctx.color, view: 'settings' });

/** The profile a command means: --profile, then STORE_ADMIN_PROFILE, then the active one. */
function targetProfile(ctx: Context, data: ConfigData, fallback?: string): string {
  const name = ctx.options.profile ?? (ctx.io.env.STORE_ADMIN_PROFILE || data.activeProfile || fallback);
  if (!name) throw new UsageError('No profile given and none is active', { hint: 'Pass --profile NAME; see store-admin profiles list' });
  return checkProfileName(name);
}

function existing(data: ConfigData, name: string) {
  const profile = data.profiles[name];
  if (!profile) throw new UsageError(`No profile named "${name}"`, { hint: 'See: store-admin profiles list' });
  return profile;
}

export async function login(ctx: Context, opts: Options): Promise<void> {
  const store = profileStore(ctx.io);
  const data = store.read();
  const name = targetProfile(ctx, data, 'default');
  const known = data.profiles[name];
  // The same order as every other command: a flag, then a profile named by flag, then the environment.
  const named = ctx.options.profile !== undefined ? known?.baseUrl : undefined;
  const rawUrl =
    ctx.options.baseUrl ||
    named ||
    ctx.io.env.STORE_ADMIN_BASE_URL ||
    known?.baseUrl ||
    (await ctx.prompt.text({ flag: '--base-url', message: 'Store URL (e.g. shop.example.com):' }));
  const baseUrl = normalizeStoreUrl(rawUrl);
  const allowHttp = !!ctx.options.allowHttp;
  assertSafeTransport(baseUrl, allowHttp);
  let token: string;
  if (opts.withToken) token = (await textFrom('-', '--with-token', ctx.io)).trim();
  else if (ctx.interactive) token = (await ctx.prompt.secret({ flag: '--with-token', message: 'API token:' })).trim();
  else throw new UsageError('No token given', { hint: 'Pipe it in with --with-token; tokens are never taken as arguments' });
  if (!token) throw new UsageError('The token is empty');
  if (/\s/.test(token)) throw new UsageError('The token contains white space; paste it alone');

  let verdict: Verdict = { authenticated: true, detail: 'not checked (--skip-verify)' };
  if (!opts.skipVerify) {
    try {
      verdict = await verify(baseUrl, token, allowHttp);
    } catch (error) {
      if (error instanceof StoreAdminError) error.hint = 'Nothing was saved. Check the store URL, or pass --skip-verify to save the token anyway';
      throw error;
    }
    if (!verdict.authenticated) {
      throw new AuthError(`The store rejected the token; nothing was saved (${verdict.detail})`, { hint: 'Create a token under Settings > API Access' });
    }
  }
  const active = await store.update((config) => {
    config.profiles[name] = { ...config.profiles[name], baseUrl, token, ...(allowHttp ? { allowHttp } : {}) };
    config.activeProfile ??= name;
    return config.activeProfile === name;
  });
  ctx.note(`Logged in to ${baseUrl} as profile "${name}"${active ? ' (active)' : ''}.`);
  await show(ctx, { profile: name, base_url: baseUrl, active, token: maskToken(token), verified: verdict.detail });
}

export async function status(ctx: Context): Promise<void> {
  const resolved = resolveConnection(ctx.options, ctx.io);
  const report: Record<string, unknown> = {
    profile: resolved.profile?.value ?? null,
    profile_source: resolved.profile?.source ?? null,
    base_url: resolved.baseUrl ? normalizeStoreUrl(resolved.baseUrl.value) : null,
    base_url_source: resolved.baseUrl?.source ?? null,
    token: resolved.token ? maskToken(resolved.token.value) : null,
    token_source: resolved.token?.source ?? null,
    authenticated: false,
  };
  let failure: StoreAdminError | undefined;
  if (!resolved.baseUrl) failure = new AuthError('No store URL', { hint: 'Run: store-admin auth login' });
  else if (!resolved.token) failure = new AuthError(`No token for ${report.base_url}`, { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
  else {
    try {
      const verdict = await verify(resolved.baseUrl.value, resolved.token.value, resolved.allowHttp);
      report.authenticated = verdict.authenticated;
      report.detail = verdict.detail;
      if (!verdict.authenticated) failure = new AuthError(`The store rejected the token (${verdict.detail})`, { hint: 'Run: store-admin auth login' });
    } catch (error) {
      report.detail = error instanceof Error ? error.message : String(error);
      failure = error instanceof StoreAdminError ? error : new StoreAdminError(String(error));
    }
  }
  await show(ctx, report);
  if (failure) throw failure;
}

export async function logout(ctx: Context, opts: Options): Promise<void> {
  const store = profileStore(ctx.io);
  const name = targetProfile(ctx, store.read());
  await store.update((config) => {
    const profile = existing(config, name);
    if (opts.all) {
      delete config.profiles[name];
      if (config.activeProfile === name) delete config.activeProfile;
    } else {
      delete profile.token;
    }
  });
  ctx.note(opts.all ? `Removed profile "${name}".` : `Forgot the token of profile "${name}"; its store URL is kept.`);
}

export async function token(ctx: Context): Promise<void> {
  const resolved = resolveConnection(ctx.options, ctx.io);
  if (!resolved.token) throw new AuthError('No token', { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
  ctx.io.stdout.write(`${resolved.token.value}\n`);
}

export async function listProfiles(ctx: Context): Promise<void> {
  const data = profileStore(ctx.io).read();
  const rows = Object.entries(data.profiles).map(([name, profile]) => ({
    name,
    active: data.activeProfile === name,
    base_url: profile.baseUrl ?? null,
    token: profile.token ? maskToken(profile.token) : null,
  }));
  await render(rows, ctx.io, { format: ctx.format, query: ctx.options.query, raw: ctx.options.raw, color: ctx.color, view: 'profiles' });
}

export async function useProfile(ctx: Context, name: string): Promise<void> {
  checkProfileName(name);
  await profileStore(ctx.io).update((config) => {
    existing(config, name);
    config.activeProfile = name;
  });
  ctx.note(`Now using profile "${name}".`);
}

export async function removeProfile(ctx: Context, name: string): Promise<void> {
  checkProfileName(name);
  const store = profileStore(ctx.io);
  existing(store.read(), name);
  if (!ctx.options.yes) {
    const confirmed = await ctx.prompt.confirm({
      message: `Remove profile "${name}" and its token?`,
      refusal: `Removing profile "${name}" needs confirmation`,
    });
    if (!confirmed) throw new UsageError('Canceled; nothing was removed');
  }
  await store.update((config) => {
    existing(config, name);
    delete config.profiles[name];
    if (config.activeProfile === name) delete config.activeProfile;
  });
  ctx.note(`Removed profile "${name}".`);
}
