// Tokens in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring. Loaded only when a token is read or written: the native
// module costs start-up time that --help, --version and most commands never need.
import { StoreAdminError } from '../api/errors.js';

const SERVICE = 'store-admin';

/** What a profile may keep: its token, and for a partner app's login the refresh token and client secret too. */
export type SecretKind = 'token' | 'refresh token' | 'client secret';
export const SECRET_KINDS: readonly SecretKind[] = ['token', 'refresh token', 'client secret'];

interface Entry {
  setPassword(password: string): void;
  getPassword(): string | null | undefined;
  deletePassword(): boolean;
}

/**
 * One entry per profile, secret and config file, so that two config dirs never share a token.
 * The token's name has no kind in it: it was named so before there were other secrets.
 */
async function entry(configPath: string, profile: string, kind: SecretKind = 'token'): Promise<Entry | undefined> {
  try {
    const { Entry } = await import('@napi-rs/keyring');
    return new Entry(SERVICE, `${profile}${kind === 'token' ? '' : ` ${kind}`} (${configPath})`);
  } catch {
    // No prebuilt binary for this platform: the 0600 file it is.
    return undefined;
  }
}

/** Stores the secret; false when no keychain answers (a headless Linux without a Secret Service). */
export async function saveToKeychain(configPath: string, profile: string, token: string, kind: SecretKind = 'token'): Promise<boolean> {
  const found = await entry(configPath, profile, kind);
  try {
    found?.setPassword(token);
    return found?.getPassword() === token;
  } catch {
    return false;
  }
}

export async function readFromKeychain(configPath: string, profile: string, kind: SecretKind = 'token'): Promise<string | undefined> {
  const found = await entry(configPath, profile, kind);
  try {
    return found?.getPassword() ?? undefined;
  } catch (error) {
    throw new StoreAdminError(`The ${kind} of profile "${profile}" is in the OS keychain, which did not answer (${(error as Error).message})`, {
      hint: 'Unlock the keychain, or log in again with --insecure-storage to keep the token in a file',
    });
  }
}

/** Forgets the profile's secrets, all of them unless `kinds` says which. */
export async function deleteFromKeychain(configPath: string, profile: string, kinds: readonly SecretKind[] = SECRET_KINDS): Promise<void> {
  for (const kind of kinds) {
    try {
      (await entry(configPath, profile, kind))?.deletePassword();
    } catch {
      // Nothing there, or no keychain: nothing to forget.
    }
  }
}
