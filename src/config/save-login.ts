// Saves a login into its profile: the secrets into the OS keychain, or all of them into the 0600
// file when --insecure-storage asks for it or no keychain answers; never some in each. A login
// replaces the profile's earlier one whole, so nothing of a partner app's login outlives a
// dashboard token's, nor the other way round.
import type { SecretKind } from './keychain.js';
import type { AppLogin, Profile, ProfileStore } from './profiles.js';

export interface LoginSecrets {
  token: string;
  refreshToken?: string;
  clientSecret?: string;
}

export interface SavedLogin {
  inKeychain: boolean;
  /** The profile is the active one (the first profile becomes so). */
  active: boolean;
}

const FIELDS: Record<SecretKind, keyof LoginSecrets> = { token: 'token', 'refresh token': 'refreshToken', 'client secret': 'clientSecret' };

export async function saveLogin(
  store: ProfileStore,
  name: string,
  login: { baseUrl: string; allowHttp: boolean; secrets: LoginSecrets; app?: AppLogin; insecureStorage?: boolean },
): Promise<SavedLogin> {
  const keychain = await import('./keychain.js');
  const kinds = keychain.SECRET_KINDS.filter((kind) => login.secrets[FIELDS[kind]] !== undefined);
  let inKeychain = !login.insecureStorage;
  for (const kind of kinds) {
    if (!inKeychain) break;
    inKeychain = await keychain.saveToKeychain(store.path, name, login.secrets[FIELDS[kind]]!, kind);
  }
  // What the keychain keeps beyond this login's secrets (all of them, if they go to the file) is stale.
  await keychain.deleteFromKeychain(store.path, name, inKeychain ? keychain.SECRET_KINDS.filter((kind) => !kinds.includes(kind)) : keychain.SECRET_KINDS);
  const active = await store.update((config) => {
    const profile: Profile = { ...config.profiles[name], baseUrl: login.baseUrl, ...(login.allowHttp ? { allowHttp: true } : {}) };
    for (const field of ['token', 'refreshToken', 'clientSecret', 'keychain', 'app'] as const) delete profile[field];
    const secrets = Object.fromEntries(kinds.map((kind) => [FIELDS[kind], login.secrets[FIELDS[kind]]]));
    config.profiles[name] = { ...profile, ...(inKeychain ? { keychain: true } : secrets), ...(login.app ? { app: login.app } : {}) };
    config.activeProfile ??= name;
    return config.activeProfile === name;
  });
  return { inKeychain, active };
}
