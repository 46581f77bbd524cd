// Every secret the tool holds or was given: the environment's token and client secret, and each
// profile's token, refresh token and client secret, from the config file or the OS keychain.
// Text that leaves for a store from a file the user did not write (a webhooks file's secret) is
// checked against them, so that it can never carry one of them away.
import type { IO } from '../io.js';
import { SECRET_KINDS } from './keychain.js';
import { profileStore } from './resolve.js';

/** The secrets, each trimmed; a config file or keychain that cannot be read adds nothing. */
export async function knownTokens(io: IO): Promise<string[]> {
  const found = new Set<string>();
  const add = (value: string | null | undefined) => {
    const trimmed = value?.trim();
    if (trimmed) found.add(trimmed);
  };
  add(io.env.STORE_ADMIN_TOKEN);
  add(io.env.STORE_ADMIN_CLIENT_SECRET);
  const store = profileStore(io);
  let profiles;
  try {
    profiles = store.read().profiles;
  } catch {
    // A broken config file is reported by whatever reads it for its own use.
    return [...found];
  }
  for (const [name, profile] of Object.entries(profiles)) {
    add(profile.token);
    add(profile.refreshToken);
    add(profile.clientSecret);
    if (!profile.keychain) continue;
    const { readFromKeychain } = await import('./keychain.js');
    for (const kind of SECRET_KINDS) add(await readFromKeychain(store.path, name, kind).catch(() => undefined));
  }
  return [...found];
}
