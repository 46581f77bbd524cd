// Named profiles (store URL and token per store) in a conf-backed JSON file that only its owner
// can read: the directory is created 0700 and the file 0600 before anything is written.
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { writeAtomically } from '../atomic-write.js';
import { withLockFile } from '../lock.js';

/** What a partner app's login (auth login --app) records beside its secrets. */
export interface AppLogin {
  clientId: string;
  /** The scopes the store granted: the token exchange's `scope`. */
  scopes: string[];
  /** When the login was made (ISO 8601). */
  loggedInAt: string;
}

export interface Profile {
  baseUrl?: string;
  token?: string;
  /** An app login's refresh token and client secret, when no keychain holds them. */
  refreshToken?: string;
  clientSecret?: string;
  /** Set when the token came from a partner app's login rather than the dashboard. */
  app?: AppLogin;
  /** Sending the token over plain http to this non-loopback store was allowed at login. */
  allowHttp?: boolean;
  /** The token (and an app login's other secrets) are in the OS keychain, not in this file. */
  keychain?: boolean;
}

export interface ConfigData {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

/** A config file that does not parse: reported, never replaced. */
export class ConfigError extends UsageError {
  override name = 'ConfigError';
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`Profile names are letters, digits, ".", "_" and "-", up to 64 characters (got "${name}")`);
  }
  return name;
}

export class ProfileStore {
  readonly path: string;

  constructor(readonly dir: string) {
    this.path = join(dir, 'config.json');
  }

  /**
   * conf writes the file, as the temporary file of writeAtomically; the result is checked and then
   * moved over config.json. So a failed or short write (a full disk) leaves the old file whole,
   * and a symbolic link in its place is replaced, never followed — conf alone would write through
   * the link, and its writer does not retry a short write.
   */
  private async write(data: ConfigData): Promise<void> {
    // A dir made here is 0700 whatever the umask; one found here is only checked (see checkPrivate).
    if (mkdirSync(this.dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(this.dir, 0o700);
    if (Object.values(data.profiles).some((profile) => profile.token || profile.refreshToken || profile.clientSecret)) this.checkPrivate();
    try {
      const { default: Conf } = await import('conf');
      await writeAtomically(this.path, async (_file, temp) => {
        const conf = new Conf<ConfigData>({
          cwd: dirname(temp),
          configName: basename(temp, '.tmp'),
          fileExtension: 'tmp',
          configFileMode: 0o600,
          accessPropertiesByDotNotation: false,
          // The temporary file starts empty: conf may take it as no config.
          clearInvalidConfig: true,
        });
        conf.store = data;
        if (!isWhole(readFileSync(temp, 'utf8'), data)) throw Object.assign(new Error('the file was not written whole'), { code: 'EIO' });
      });
    } catch (error) {
      throw new ConfigError(`Cannot write ${this.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it was kept as it was`, {
        hint: 'Free some disk space, or check the permissions of the config dir',
      });
    }
  }

  private broken(error: unknown): ConfigError {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') {
      return new ConfigError(`Cannot use ${dirname(this.path)} as the config dir: it is not a directory`, {
        hint: 'Point STORE_ADMIN_CONFIG_DIR at a directory, or move the file aside',
      });
    }
    if (code === 'EACCES' || code === 'EPERM') {
      return new ConfigError(`Cannot read ${this.path}: permission denied`, {
        hint: `It belongs to another user or is not readable by you: check its owner and mode (ls -l ${this.path}), or set STORE_ADMIN_CONFIG_DIR`,
      });
    }
    return new ConfigError(`Cannot read ${this.path}: ${(error as Error).message}`, {
      hint: `Nothing was changed. Fix the file by hand, or move it aside (mv ${this.path} ${this.path}.broken) and log in again`,
    });
  }

  /**
   * Reads the file directly: every command that talks to a store resolves its profile, and
   * loading conf (with its schema validator) for a read would cost start-up time on each one.
   */
  read(): ConfigData {
    let store: unknown;
    try {
      // O_NOFOLLOW: a config.json that is a symbolic link could point at another user's file.
      const fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
        store = JSON.parse(readFileSync(fd, 'utf8'));
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { profiles: {} };
      if (code === 'ELOOP') throw this.broken(new Error('it is a symbolic link, which is not followed'));
      throw this.broken(error);
    }
    return checkShape(store, (problem) => this.broken(new Error(problem)));
  }

  /** Tokens go only into a dir that other users cannot read (one not made yet will be private). */
  checkPrivate(): void {
    let mode: number;
    try {
      mode = statSync(this.dir).mode & 0o777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (mode & 0o077) {
      throw new ConfigError(`${this.dir} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); not writing a token there`, {
        hint: `Make it private: chmod 700 ${this.dir}`,
      });
    }
  }

  /** Read, change and write under a lock, so concurrent commands keep each other's changes. */
  update<T>(change: (data: ConfigData) => T): Promise<T> {
    return withLockFile(`${this.path}.lock`, async () => {
      const data = this.read();
      const result = change(data);
      await this.write(data);
      return result;
    });
  }
}

const PROFILE_FIELDS = { baseUrl: 'string', token: 'string', refreshToken: 'string', clientSecret: 'string', allowHttp: 'boolean', keychain: 'boolean' } as const;

/** The file's shape, checked field by field so that a hand-edit gone wrong is named precisely. */
function checkShape(store: unknown, broken: (problem: string) => ConfigError): ConfigData {
  const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`);
  if (!isObject(store)) throw broken('not a JSON object');
  if (store.activeProfile !== undefined && typeof store.activeProfile !== 'string') {
    throw broken(`"activeProfile" is ${kind(store.activeProfile)}, expected text`);
  }
  const profiles = store.profiles ?? {};
  if (!isObject(profiles)) throw broken('"profiles" is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isObject(profile)) throw broken(`profile "${name}" is not an object`);
    for (const [field, type] of Object.entries(PROFILE_FIELDS)) {
      const value = profile[field];
      if (value !== undefined && typeof value !== type) {
        throw broken(`"${field}" of profile "${name}" is ${kind(value)}, expected ${type === 'string' ? 'text' : 'true or false'}`);
      }
    }
    const app = profile.app;
    if (app !== undefined) {
      const scopes = isObject(app) ? app.scopes : undefined;
      if (!isObject(app) || typeof app.clientId !== 'string' || typeof app.loggedInAt !== 'string' || !Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) {
        throw broken(`"app" of profile "${name}" is not {clientId, scopes: [text], loggedInAt}`);
      }
    }
  }
  return { activeProfile: store.activeProfile as string | undefined, profiles: profiles as Record<string, Profile> };
}

/** What landed on disk parses back to exactly what was meant to be written. */
function isWhole(text: string, data: ConfigData): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(data);
  } catch {
    return false;
  }
}
