// Tokens in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on
// Linux) through @napi-rs/keyring. Loaded only when a token is read or written: the native
// module costs start-up time that --help, --version and most commands never need.
import { StoreAdminError } from '../api/errors.js';

const SERVICE = 'store-admin';

interface Entry {
  setPassword(password: string): void;
  getPassword(): string | null | undefined;
  deletePassword(): boolean;
}

/** One entry per profile and config file, so that two config dirs never share a token. */
async function entry(configPath: string, profile: string): Promise<Entry | undefined> {
  try {
    const { Entry } = await import('@napi-rs/keyring');
    return new Entry(SERVICE, `${profile} (${configPath})`);
  } catch {
    // No prebuilt binary for this platform: the 0600 file it is.
    return undefined;
  }
}

/** Stores the token; false when no keychain answers (a headless Linux without a Secret Service). */
export async function saveToKeychain(configPath: string, profile: string, token: string): Promise<boolean> {
  const found = await entry(configPath, profile);
  try {
    found?.setPassword(token);
    return found?.getPassword() === token;
  } catch {
    return false;
  }
}

export async function readFromKeychain(configPath: string, profile: string): Promise<string | undefined> {
  const found = await entry(configPath, profile);
  try {
    return found?.getPassword() ?? undefined;
  } catch (error) {
    throw new StoreAdminError(`The token of profile "${profile}" is in the OS keychain, which did not answer (${(error as Error).message})`, {
      hint: 'Unlock the keychain, or log in again with --insecure-storage to keep the token in a file',
    });
  }
}

export async function deleteFromKeychain(configPath: string, profile: string): Promise<void> {
  try {
    (await entry(configPath, profile))?.deletePassword();
  } catch {
    // Nothing there, or no keychain: nothing to forget.
  }
}
