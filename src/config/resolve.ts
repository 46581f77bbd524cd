// Which store and token a command uses, and where each came from:
// flags (--profile, --base-url) over the environment over the active profile.
// A token goes only to the store it came with: a profile's token to that profile's URL, and
// STORE_ADMIN_TOKEN, when STORE_ADMIN_BASE_URL is set, to that URL alone. (A STORE_ADMIN_TOKEN set
// without a URL names no store, and goes to the one the command uses.)
import type { IO } from '../io.js';
import type { GlobalOptions } from '../options.js';
import { configDir } from './paths.js';
import { ProfileStore, checkProfileName, type AppLogin, type ConfigData, type Profile } from './profiles.js';
import { AuthError, UsageError } from '../api/errors.js';
import { normalizeStoreUrl } from '../api/url.js';
import { cleanToken } from './token.js';

export type Source = 'flag' | 'environment' | 'profile' | 'active profile';

export interface Setting<T> {
  value: T;
  source: Source;
  /** For a profile's token: where it is kept. */
  storage?: 'keychain' | 'file';
}

export interface Resolved {
  store: ProfileStore;
  profile?: Setting<string>;
  baseUrl?: Setting<string>;
  token?: Setting<string>;
  /** Why no token goes with this store although one was given (it belongs to another store). */
  withheld?: string;
  allowHttp: boolean;
  /** The partner app's login the token in use came from, if it did (auth login --app). */
  app?: AppLogin;
}

export function profileStore(io: IO): ProfileStore {
  return new ProfileStore(configDir(io.env));
}

export async function resolveConnection(options: GlobalOptions, io: IO): Promise<Resolved> {
  const { env } = io;
  const store = profileStore(io);
  const envBaseUrl = env.STORE_ADMIN_BASE_URL || undefined;
  // An unset or blank variable is no token; anything else must be a clean one.
  const envToken = tokenFromEnv(env.STORE_ADMIN_TOKEN);
  const envProfile = env.STORE_ADMIN_PROFILE || undefined;

  // The config file is read only when something may come from it.
  let profile: Setting<string> | undefined;
  let stored: Profile | undefined;
  // The store and the token both given without a profile (a CI job): nothing comes from one.
  const givenWithoutProfile = !!envToken && !!(options.baseUrl || envBaseUrl);
  const needsConfig = options.profile !== undefined || envProfile !== undefined || !givenWithoutProfile;
  if (needsConfig) {
    const data = store.read();
    profile = chosenProfile(options, env, data);
    stored = profile ? data.profiles[profile.value] : undefined;
    // STORE_ADMIN_PROFILE ranks below the store and token in the environment: a profile it names
    // that does not exist yet (the one a CI job's `auth login` makes) is no error when unused.
    if (profile?.source === 'environment' && !stored && givenWithoutProfile) profile = undefined;
    if (profile && profile.source !== 'active profile' && !stored) {
      throw new UsageError(`No profile named "${profile.value}"`, { hint: 'See: store-admin profiles list' });
    }
  }

  const baseUrl = chosenBaseUrl(options, env, profile, stored);
  // A token in the keychain is read only when the profile's token is the one that will be used.
  const wouldUseProfile = profile?.source === 'flag' || !envToken;
  const fromKeychain = stored?.keychain && profile && wouldUseProfile
    ? await (await import('./keychain.js')).readFromKeychain(store.path, profile.value)
    : undefined;
  let token = ranked(profile, envToken, fromKeychain ?? stored?.token);
  if (token?.source === 'profile') token.storage = fromKeychain ? 'keychain' : 'file';
  let withheld: string | undefined;
  // A profile's token belongs to that profile's store: it never goes to a URL from elsewhere.
  if (token?.source === 'profile' && baseUrl && !sameStore(baseUrl.value, stored?.baseUrl)) token = undefined;
  // So does the environment's, when the environment names its store.
  if (token?.source === 'environment' && envBaseUrl && baseUrl && !sameStore(baseUrl.value, envBaseUrl)) {
    withheld = `STORE_ADMIN_TOKEN belongs to ${envBaseUrl} (STORE_ADMIN_BASE_URL), not ${baseUrl.value}`;
    token = undefined;
  }
  return {
    store,
    profile,
    baseUrl,
    token,
    ...(withheld ? { withheld } : {}),
    // Permission for plain http was given for the profile's own URL only.
    allowHttp: !!options.allowHttp || (baseUrl?.source === 'profile' && !!stored?.allowHttp),
    ...(token?.source === 'profile' && stored?.app ? { app: stored.app } : {}),
  };
}

/** The profile a command means: --profile, then STORE_ADMIN_PROFILE, then the active one. */
export function chosenProfile(options: GlobalOptions, env: NodeJS.ProcessEnv, data: ConfigData): Setting<string> | undefined {
  if (options.profile !== undefined) return { value: checkProfileName(options.profile), source: 'flag' };
  if (env.STORE_ADMIN_PROFILE) return { value: checkProfileName(env.STORE_ADMIN_PROFILE), source: 'environment' };
  return data.activeProfile ? { value: data.activeProfile, source: 'active profile' } : undefined;
}

/** The store URL: --base-url, then the profile's when named by flag, then the environment, then the profile's. */
export function chosenBaseUrl(options: GlobalOptions, env: NodeJS.ProcessEnv, profile: Setting<string> | undefined, stored: Profile | undefined): Setting<string> | undefined {
  if (options.baseUrl) return { value: options.baseUrl, source: 'flag' };
  return ranked(profile, env.STORE_ADMIN_BASE_URL || undefined, stored?.baseUrl);
}

/** A profile named by flag outranks the environment; one chosen otherwise ranks below it. */
function ranked(profile: Setting<string> | undefined, envValue: string | undefined, profileValue: string | undefined): Setting<string> | undefined {
  const fromProfile: Setting<string> | undefined = profileValue ? { value: profileValue, source: 'profile' } : undefined;
  const fromEnv: Setting<string> | undefined = envValue ? { value: envValue, source: 'environment' } : undefined;
  return profile?.source === 'flag' ? (fromProfile ?? fromEnv) : (fromEnv ?? fromProfile);
}

/** No token for the store: none was given, or the one given belongs to another store. */
export function noToken(baseUrl: string, withheld?: string): AuthError {
  if (!withheld) return new AuthError(`No token for ${baseUrl}`, { hint: 'Run: store-admin auth login (or set STORE_ADMIN_TOKEN)' });
  return new AuthError(`No token for ${baseUrl}: ${withheld}, and a token goes only to the store it came with`, {
    hint: `Log in to that store (store-admin auth login), or set STORE_ADMIN_BASE_URL to it`,
  });
}

/** An unset or blank variable is no token; anything else must be a clean one. */
function tokenFromEnv(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    return cleanToken(value, 'STORE_ADMIN_TOKEN');
  } catch (error) {
    if (error instanceof UsageError) error.hint ??= "Fix STORE_ADMIN_TOKEN, or unset it to use the profile's token";
    throw error;
  }
}

function sameStore(a: string, b: string | undefined): boolean {
  if (!b) return false;
  try {
    return normalizeStoreUrl(a) === normalizeStoreUrl(b);
  } catch {
    return false;
  }
}
