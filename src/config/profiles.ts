// Named profiles (store URL and token per store) in a conf-backed JSON file that only its owner
// can read: the directory is created 0700 and the file 0600 before anything is written.
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { UsageError } from '../api/errors.js';
import { parseJson } from '../api/json-syntax.js';

const text = z.optional(z.string());
const flag = z.optional(z.boolean());

/** What a partner app's login (auth login --app) records beside its secrets. */
const appLogin = z.looseObject({
  clientId: z.string(),
  /** The scopes the store granted: the token exchange's `scope`. */
  scopes: z.array(z.string()),
  /** When the login was made (ISO 8601). */
  loggedInAt: z.string(),
  /**
   * The store's platform domain, as its answer named it (`store`): the platform's unique name for
   * the store, which differs from the URL given when that is a custom domain. API calls still go
   * to the URL given.
   */
  storeDomain: z.optional(z.string()),
});

/** One store's settings. Fields a later version adds are kept as they are when the file is written again. */
const profile = z.looseObject({
  baseUrl: text,
  token: text,
  /** An app login's refresh token and client secret, when no keychain holds them. */
  refreshToken: text,
  clientSecret: text,
  /** Set when the token came from a partner app's login rather than the dashboard. */
  app: z.optional(appLogin),
  /** Sending the token over plain http to this non-loopback store was allowed at login. */
  allowHttp: flag,
  /** The token (and an app login's other secrets) are in the OS keychain, not in this file. */
  keychain: flag,
});

/** The profile file's shape: every read and every write goes through it. */
const configFile = z.looseObject({
  activeProfile: text,
  profiles: z._default(z.record(z.string(), profile), () => ({})),
});

export type AppLogin = z.output<typeof appLogin>;
export type Profile = z.output<typeof profile>;
export type ConfigData = z.output<typeof configFile>;

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
      const [{ default: Conf }, { writeAtomically }] = await Promise.all([import('conf'), import('../atomic-write.js')]);
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
        // Written through the file's shape, as it is read: a profile of the wrong shape never lands on disk.
        const checked = configFile.parse(data);
        conf.store = checked;
        if (!isWhole(readFileSync(temp, 'utf8'), checked)) throw Object.assign(new Error('the file was not written whole'), { code: 'EIO' });
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
        store = parseJson(readFileSync(fd, 'utf8'));
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

  /**
   * Read, change and write under a lock, so concurrent commands keep each other's changes. The
   * writing modules load here: most commands only read the file, and they start without them.
   */
  async update<T>(change: (data: ConfigData) => T): Promise<T> {
    const { withLockFile } = await import('../lock.js');
    return withLockFile(`${this.path}.lock`, async () => {
      const data = this.read();
      const result = change(data);
      await this.write(data);
      return result;
    });
  }
}

/** The file's shape checked by its schema; a hand-edit gone wrong is named by its field, as a person wrote it. */
function checkShape(store: unknown, broken: (problem: string) => ConfigError): ConfigData {
  const parsed = configFile.safeParse(store);
  if (parsed.success) return parsed.data;
  throw broken(describeIssue(parsed.error.issues[0]!, store));
}

/** `"token" of profile "main" is a number, expected text`, from the first issue the schema found. */
function describeIssue(issue: z.core.$ZodIssue, store: unknown): string {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`);
  const valueAt = (path: readonly PropertyKey[]) => path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], store);
  const [top, name, field] = issue.path;
  const expected = 'expected' in issue && issue.expected === 'boolean' ? 'true or false' : 'text';
  if (top === undefined) return 'not a JSON object';
  if (top !== 'profiles') return `"${String(top)}" is ${kind(valueAt([top]))}, expected ${expected}`;
  if (name === undefined) return '"profiles" is not an object';
  if (field === undefined) return `profile "${String(name)}" is not an object`;
  if (field === 'app') return `"app" of profile "${String(name)}" is not {clientId, scopes: [text], loggedInAt}`;
  return `"${String(field)}" of profile "${String(name)}" is ${kind(valueAt(['profiles', name, field]))}, expected ${expected}`;
}

/** What landed on disk parses back to exactly what was meant to be written. */
function isWhole(text: string, data: ConfigData): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(data);
  } catch {
    return false;
  }
}
