// Named profiles (store URL and token per store) in a conf-backed JSON file that only its owner
// can read: the directory is created 0700 and the file 0600 before anything is written.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../api/errors.js';
import { withLockFile } from '../lock.js';

export interface Profile {
  baseUrl?: string;
  token?: string;
  /** Sending the token over plain http to this non-loopback store was allowed at login. */
  allowHttp?: boolean;
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

  private async open(): Promise<Conf<ConfigData>> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const { default: Conf } = await import('conf');
    try {
      return new Conf<ConfigData>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'store-admin',
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
      });
    } catch (error) {
      throw this.broken(error);
    }
  }

  private broken(error: unknown): ConfigError {
    return new ConfigError(`Cannot read ${this.path}: ${(error as Error).message}`, {
      hint: `Nothing was changed. Fix the file by hand, or move it aside (mv ${this.path} ${this.path}.broken) and log in again`,
    });
  }

  /**
   * Reads the file directly: every command that talks to a store resolves its profile, and
   * loading conf (with its schema validator) for a read would cost start-up time on each one.
   */
  read(): ConfigData {
    let store: Partial<ConfigData>;
    try {
      store = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<ConfigData>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw this.broken(error);
    }
    if (!store || typeof store !== 'object' || Array.isArray(store)) throw this.broken(new Error('not a JSON object'));
    if (store.profiles !== undefined && (typeof store.profiles !== 'object' || store.profiles === null || Array.isArray(store.profiles))) {
      throw this.broken(new Error('"profiles" is not an object'));
    }
    return { activeProfile: store.activeProfile, profiles: store.profiles ?? {} };
  }

  /** Read, change and write under a lock, so concurrent commands keep each other's changes. */
  update<T>(change: (data: ConfigData) => T): Promise<T> {
    return withLockFile(`${this.path}.lock`, async () => {
      const data = this.read();
      const conf = await this.open();
      const result = change(data);
      conf.store = data;
      return result;
    });
  }
}
