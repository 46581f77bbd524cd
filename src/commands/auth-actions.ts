// The work behind `auth …` and `profiles …`.
import { ApiError, AuthError, NetworkError, StoreAdminError, UsageError } from '../api/errors.js';
import { createClient } from '../api/client.js';
import { loadOperation } from '../api/operations.js';
import { proxyFromEnv } from '../api/proxy.js';
import { apiRoot, assertSafeTransport, normalizeStoreUrl, noteAssumedHttps, storeUrlFromInput } from '../api/url.js';
import type { Context } from '../context.js';
import { maskToken } from '../output/mask.js';
import type { Options } from '../options.js';
import { argumentOrChoice } from './local.js';
import { textFrom } from '../fields/values.js';
import { checkProfileName, type AppLogin, type ConfigData, type Profile } from '../config/profiles.js';
import { chosenBaseUrl, chosenProfile, noToken, profileStore, resolveConnection, type Setting } from '../config/resolve.js';
import { cleanToken } from '../config/token.js';

interface Verdict {
  authenticated: boolean;
  detail: string;
}

/** A cheap read proves the token: 200 or 403 means it authenticates, 401 means it does not. */
async function verify(ctx: Context, baseUrl: string, token: string, allowHttp: boolean): Promise<Verdict> {
  const client = createClient({ baseUrl, token, allowHttp, timeoutMs: 15_000, proxy: proxyFromEnv(ctx.io.env) });
  try {
    await client.exports.types({});
    return { authenticated: true, detail: 'token accepted' };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      return { authenticated: true, detail: `token accepted (it lacks ${(await loadOperation('exportsTypesRetrieve')).scopes.join(' or ')})` };
    }
    if (error instanceof ApiError && error.status === 401) return { authenticated: false, detail: `token rejected: ${error.message}` };
    throw error;
  } finally {
    await client.close();
  }
}

/** A setting or a login's outcome, as a table of settings; `text` is what a person reads instead. */
export const show = <T>(ctx: Context, data: T, text?: (data: T) => string) => ctx.output.result(data, { view: 'settings', ...(text ? { text } : {}) });

/** The profile a command means (see chosenProfile), or `fallback` when none is. */
export function targetProfile(ctx: Context, data: ConfigData, fallback?: string): string {
  const name = chosenProfile(ctx.options, ctx.io.env, data)?.value ?? fallback;
  if (!name) throw new UsageError('No profile given and none is active', { hint: 'Pass --profile NAME; see store-admin profiles list' });
  return checkProfileName(name);
}

function existing(data: ConfigData, name: string) {
  const profile = data.profiles[name];
  if (!profile) throw new UsageError(`No profile named "${name}"`, { hint: 'See: store-admin profiles list' });
  return profile;
}

/** The store a login is for: the same order as every other command; asked for when nothing gives one. */
export async function loginStore(
  ctx: Context,
  name: string,
  known: Profile | undefined,
  { probe = false }: { probe?: boolean } = {},
): Promise<{ baseUrl: string; allowHttp: boolean; given: string }> {
  const profile = { value: name, source: ctx.options.profile !== undefined ? 'flag' : 'profile' } as const;
  const allowHttp = !!ctx.options.allowHttp;
  // A profile's URL was normalised when it was saved (a proxy's prefix included).
  const storeUrl = (raw: string, onDropped: (message: string) => void) => {
    const baseUrl = raw === known?.baseUrl ? normalizeStoreUrl(raw) : storeUrlFromInput(raw, onDropped);
    assertSafeTransport(baseUrl, allowHttp);
    return baseUrl;
  };
  const chosen = chosenBaseUrl(ctx.options, ctx.io.env, profile, known)?.value;
  // A URL typed at the prompt is asked again until the store answers at it (when `probe`).
  const rawUrl =
    chosen ??
    (await ctx.prompt.text({
      flag: '--base-url',
      message: 'Store URL (e.g. shop.example.com):',
      validate: async (typed) => {
        try {
          const baseUrl = storeUrl(typed, () => {});
          if (probe) await reachable(ctx, baseUrl, allowHttp, typed);
          return true;
        } catch (error) {
          if (!(error instanceof StoreAdminError)) throw error;
          return error.hint ? `${error.message}. ${error.hint}` : error.message;
        }
      },
    }));
  const baseUrl = storeUrl(rawUrl, ctx.output.prose);
  // A URL from a flag, the environment or the profile: said at once, before anything is typed in vain.
  if (probe && chosen !== undefined) await reachable(ctx, baseUrl, allowHttp, rawUrl);
  // `given` is the URL as typed: a TLS failure says when https was assumed for it.
  return { baseUrl, allowHttp, given: rawUrl };
}

/**
 * Whether a store answers at `baseUrl` at all, asked without a token (any HTTP answer will do): a
 * URL that cannot work (a plain-http store given without a scheme, a wrong port) is found out
 * before a secret is typed for it.
 */
async function reachable(ctx: Context, baseUrl: string, allowHttp: boolean, given: string): Promise<void> {
  const client = createClient({ baseUrl, allowHttp, timeoutMs: 15_000, proxy: proxyFromEnv(ctx.io.env) });
  try {
    const answer = await client.openLink(apiRoot(baseUrl).href);
    answer.body.destroy();
    answer.done();
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    const failure = new NetworkError(error.kind, `No store answers at ${baseUrl}: ${error.message}`, { cause: error, sent: false });
    noteAssumedHttps(failure, given);
    throw failure;
  } finally {
    await client.close();
  }
}

/** How many times a token pasted at the prompt may be refused before the login gives up. */
const TOKEN_TRIES = 3;

export async function login(ctx: Context, opts: Options): Promise<void> {
  const store = profileStore(ctx.io);
  const data = store.read();
  const name = targetProfile(ctx, data, 'default');
  const known = data.profiles[name];
  const prompted = !opts.withToken && ctx.interactive;
  // Before the token is asked for: a token typed in to be refused afterwards is typed in vain.
  const { baseUrl, allowHttp, given } = await loginStore(ctx, name, known, { probe: prompted && !opts.skipVerify });
  store.checkPrivate();
  let token: string;
  let verdict: Verdict = { authenticated: true, detail: 'not checked (--skip-verify)' };
  const check = async (candidate: string): Promise<Verdict> => {
    if (opts.skipVerify) return verdict;
    try {
      return await verify(ctx, baseUrl, candidate, allowHttp);
    } catch (error) {
      if (error instanceof StoreAdminError) error.hint = 'Nothing was saved. Check the store URL, or pass --skip-verify to save the token anyway';
      noteAssumedHttps(error, given);
      throw error;
    }
  };
  if (opts.withToken) {
    token = cleanToken(await textFrom('-', '--with-token', ctx.io), '--with-token');
    ctx.io.protect?.(token);
    verdict = await check(token);
  } else if (ctx.interactive) {
    // A token the store refuses is asked for again; the store URL stays.
    for (let tries = 1; ; tries++) {
      try {
        token = cleanToken(await ctx.prompt.secret({ flag: '--with-token', message: 'API token:' }), 'The pasted token');
      } catch (error) {
        if (!(error instanceof UsageError) || tries === TOKEN_TRIES) throw error;
        ctx.output.log(`${error.message}; paste the token again (Ctrl-C to stop).\n`);
        continue;
      }
      ctx.io.protect?.(token);
      verdict = await check(token);
      if (verdict.authenticated || tries === TOKEN_TRIES) break;
      ctx.output.log(`The store rejected the token (${verdict.detail}); paste it again (Ctrl-C to stop).\n`);
    }
  } else {
    throw new UsageError('No token given', { hint: 'Pipe it in with --with-token; tokens are never taken as arguments' });
  }
  if (!verdict.authenticated) {
    throw new AuthError(`The store rejected the token; nothing was saved (${verdict.detail})`, { hint: 'Create a token under Settings > API Access' });
  }
  if (known?.token || known?.keychain) {
    ctx.output.prose(`Profile "${name}" already has a token${known.token ? ` (${maskToken(known.token, ctx.io.env)})` : ''} for ${known.baseUrl ?? 'no store'}; it will be replaced.`);
  }

  // The keychain first (a token kept in the file before moves there now); the 0600 file when
  // --insecure-storage asks for it or no keychain answers.
  const { saveLogin } = await import('../config/save-login.js');
  const { inKeychain, active } = await saveLogin(store, name, { baseUrl, allowHttp, secrets: { token }, insecureStorage: !!opts.insecureStorage });
  const storage = inKeychain ? 'the OS keychain' : store.path;
  if (!inKeychain && !opts.insecureStorage) ctx.output.prose(`warning: no OS keychain answered; the token is kept in ${store.path}, readable only by you`);
  ctx.output.prose(`Logged in to ${baseUrl} as profile "${name}"${active ? ' (active)' : ''}; the token is kept in ${storage}.`);
  await show(ctx, { profile: name, base_url: baseUrl, active, token: maskToken(token, ctx.io.env), storage: inKeychain ? 'keychain' : 'file', verified: verdict.detail });
}

export async function status(ctx: Context): Promise<void> {
  // connect.js is loaded by every command that talks to a store: imported here on use, it stays one chunk.
  if ((await import('../connect.js')).sandboxRequested(ctx.options, ctx.io.env)) return sandboxStatus(ctx);
  const resolved = await resolveConnection(ctx.options, ctx.io);
  const report: Record<string, unknown> = {
    profile: resolved.profile?.value ?? null,
    profile_source: resolved.profile?.source ?? null,
    base_url: resolved.baseUrl ? normalizeStoreUrl(resolved.baseUrl.value) : null,
    base_url_source: resolved.baseUrl?.source ?? null,
    token: resolved.token ? maskToken(resolved.token.value, ctx.io.env) : null,
    token_source: resolved.token?.source ?? null,
    token_storage: resolved.token?.storage ?? null,
    login: resolved.token ? (resolved.app ? 'app' : 'token') : null,
    ...(await appReport(ctx, resolved.app)),
    authenticated: false,
  };
  const fromEnv = resolved.token?.source === 'environment';
  let failure: StoreAdminError | undefined;
  if (!resolved.baseUrl) failure = new AuthError('No store URL', { hint: 'Run: store-admin auth login' });
  else if (!resolved.token) failure = noToken(String(report.base_url), resolved.withheld);
  else {
    try {
      const verdict = await verify(ctx, resolved.baseUrl.value, resolved.token.value, resolved.allowHttp);
      report.authenticated = verdict.authenticated;
      report.detail = verdict.detail;
      if (!verdict.authenticated) {
        // Logging in again cannot help while the variable outranks the profile.
        failure = fromEnv
          ? new AuthError(`The store rejected the token in STORE_ADMIN_TOKEN (${verdict.detail})`, {
              hint: `Fix STORE_ADMIN_TOKEN, or unset it${resolved.profile ? ` to use profile "${resolved.profile.value}"` : ''}`,
            })
          : new AuthError(`The store rejected the token (${verdict.detail})`, { hint: 'Run: store-admin auth login' });
      }
    } catch (error) {
      report.detail = error instanceof Error ? error.message : String(error);
      failure = error instanceof StoreAdminError ? error : new StoreAdminError(String(error));
    }
  }
  await show(ctx, report, (report) => statusLines(report, resolved.token, resolved.store.path));
  if (failure) throw failure;
}

/** A partner app's login: the app, what it was granted and when, and the commands it does not cover. */
async function appReport(ctx: Context, app: AppLogin | undefined): Promise<Record<string, unknown>> {
  if (!app) return {};
  const uncovered = await (await import('./scope-coverage.js')).uncoveredCommands(ctx, app.scopes);
  return { client_id: app.clientId, scopes: app.scopes, logged_in_at: app.loggedInAt, not_covered: uncovered };
}

const ORIGIN: Record<string, string> = {
  flag: 'from a flag',
  environment: 'from the environment',
  profile: 'from the profile',
  'active profile': 'the active profile',
};

/** gh's layout: the store, then one line per fact with where it came from. */
function statusLines(report: Record<string, unknown>, token: Setting<string> | undefined, configPath: string): string {
  const mark = report.authenticated ? '✓' : '✗';
  const from = (source: unknown) => (source ? ` (${ORIGIN[String(source)] ?? String(source)})` : '');
  const kept = token?.storage === 'keychain' ? 'the OS keychain' : configPath;
  const tokenFrom = token?.source === 'environment' ? ' (from STORE_ADMIN_TOKEN)' : token ? ` (stored in ${kept})` : '';
  const lines = [
    String(report.base_url ?? 'No store'),
    `  ${mark} ${report.authenticated ? 'Logged in' : 'Not logged in'}${report.detail ? `: ${String(report.detail)}` : ''}`,
    `  - Profile: ${report.profile ?? 'none'}${from(report.profile_source)}`,
    `  - Store URL: ${report.base_url ?? 'none'}${from(report.base_url_source)}`,
    `  - Token: ${report.token ?? 'none'}${tokenFrom}`,
  ];
  if (report.login === 'app') {
    const scopes = report.scopes as string[];
    const uncovered = report.not_covered as { command: string; missing: string[] }[];
    lines.push(
      `  - Login: the partner app ${String(report.client_id)}, on ${String(report.logged_in_at)}`,
      `  - Granted scopes: ${scopes.length > 0 ? scopes.join(' ') : 'none'}`,
      uncovered.length === 0 ? '  - Every command is covered by these scopes' : `  - Not covered (${uncovered.length} commands):`,
      ...byScopes(uncovered),
    );
  } else if (report.login === 'token') {
    lines.push("  - Login: an API token (not a partner app's)");
  }
  return `${lines.join('\n')}\n`;
}

/** The commands a grant does not cover, a line per scope they need (the JSON lists each command). */
function byScopes(uncovered: readonly { command: string; missing: string[] }[]): string[] {
  const commands = new Map<string, string[]>();
  for (const { command, missing } of uncovered) {
    const needs = missing.join(' and ');
    commands.set(needs, [...(commands.get(needs) ?? []), command]);
  }
  const SHOWN = 4;
  return [...commands].map(([needs, named]) => `      needs ${needs}: ${named.slice(0, SHOWN).join(', ')}${named.length > SHOWN ? ` and ${named.length - SHOWN} more` : ''}`);
}

/** With --sandbox every command goes to the embedded sandbox, so that is what status reports. */
async function sandboxStatus(ctx: Context): Promise<void> {
  const client = await ctx.client();
  await client.exports.types({});
  const source = ctx.options.sandbox ? '--sandbox' : 'STORE_ADMIN_SANDBOX';
  const report = { store: 'embedded sandbox', base_url: client.baseUrl, base_url_source: source, token: 'the sandbox token', authenticated: true, detail: 'token accepted' };
  await show(ctx, report, () => `embedded sandbox (${source})\n  ✓ Logged in: ${report.detail}\n  - Store URL: ${client.baseUrl}\n  - Profiles are not used with the sandbox\n`);
}

export async function logout(ctx: Context, opts: Options): Promise<void> {
  const store = profileStore(ctx.io);
  const data = store.read();
  const name = targetProfile(ctx, data);
  const known = existing(data, name);
  // The whole profile goes, as with `profiles remove`; a token alone is given again with `auth login`.
  if (opts.all) await confirmRemoval(ctx, name, data);
  await store.update((config) => {
    const profile = existing(config, name);
    if (opts.all) {
      delete config.profiles[name];
      if (config.activeProfile === name) delete config.activeProfile;
    } else {
      // An app login's refresh token and client secret go with its token.
      for (const field of ['token', 'refreshToken', 'clientSecret', 'keychain', 'app'] as const) delete profile[field];
    }
  });
  await (await import('../config/keychain.js')).deleteFromKeychain(store.path, name);
  ctx.output.prose(opts.all ? `Removed profile "${name}".` : `Forgot the ${known.app ? "app login's token, refresh token and client secret" : 'token'} of profile "${name}"; its store URL is kept.`);
}

export async function token(ctx: Context): Promise<void> {
  const resolved = await resolveConnection(ctx.options, ctx.io);
  if (!resolved.token) {
    if (resolved.withheld && resolved.baseUrl) throw noToken(resolved.baseUrl.value, resolved.withheld);
    throw new AuthError('No token', { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
  }
  ctx.output.text(`${resolved.token.value}\n`);
}

export async function listProfiles(ctx: Context): Promise<void> {
  const data = profileStore(ctx.io).read();
  const rows = Object.entries(data.profiles).map(([name, profile]) => ({
    name,
    active: data.activeProfile === name,
    base_url: profile.baseUrl ?? null,
    token: profile.keychain ? 'in the OS keychain' : profile.token ? maskToken(profile.token, ctx.io.env) : null,
  }));
  await ctx.output.result(rows, { view: 'profiles' });
}

/** The profile a command names, or one picked from the list at a terminal. */
async function profileArgument(ctx: Context, given: string | undefined, verb: 'use' | 'remove'): Promise<string> {
  return argumentOrChoice(ctx, given, {
    label: '<name>',
    message: verb === 'use' ? 'Which profile should be active?' : 'Which profile should be removed?',
    usage: `store-admin profiles ${verb} NAME (see store-admin profiles list)`,
    choices: () => {
      const data = profileStore(ctx.io).read();
      return Object.entries(data.profiles).map(([name, profile]) => ({
        value: name,
        name: `${name}${profile.baseUrl ? `  ${profile.baseUrl}` : ''}${data.activeProfile === name ? '  (active)' : ''}`,
      }));
    },
    none: new UsageError('No profiles yet', { hint: 'Run: store-admin auth login' }),
  });
}

export async function useProfile(ctx: Context, given: string | undefined): Promise<void> {
  const name = checkProfileName(await profileArgument(ctx, given, 'use'));
  await profileStore(ctx.io).update((config) => {
    existing(config, name);
    config.activeProfile = name;
  });
  ctx.output.prose(`Now using profile "${name}".`);
}

/** A removed profile cannot be brought back: asked at a terminal, refused without --yes elsewhere. */
async function confirmRemoval(ctx: Context, name: string, data: ConfigData): Promise<void> {
  existing(data, name);
  if (ctx.options.yes) return;
  const confirmed = await ctx.prompt.confirm({
    message: `Remove profile "${name}" and its token?`,
    refusal: `Removing profile "${name}" needs confirmation`,
  });
  if (!confirmed) throw new UsageError('Canceled; nothing was removed');
}

export async function removeProfile(ctx: Context, given: string | undefined): Promise<void> {
  const name = checkProfileName(await profileArgument(ctx, given, 'remove'));
  const store = profileStore(ctx.io);
  await confirmRemoval(ctx, name, store.read());
  await store.update((config) => {
    existing(config, name);
    delete config.profiles[name];
    if (config.activeProfile === name) delete config.activeProfile;
  });
  await (await import('../config/keychain.js')).deleteFromKeychain(store.path, name);
  ctx.output.prose(`Removed profile "${name}".`);
}
