// Where the secrets of a webhooks file may come from. The file is hostile input: it comes from a
// repository, often from a pull request, and the store shows a webhook's secret to anyone with
// webhooks:read. So a secret is read only from what the person running apply allows:
//   {"file": "path"}  a regular file inside the webhooks file's folder (or --secret-root DIR), its
//                     real path resolved before any check; never under /proc, /dev or /sys, never
//                     in store-admin's config directory, never a FIFO, socket or device;
//   {"env": "VAR"}    a variable named on the command line with --secret-env VAR, never one of
//                     store-admin's own (STORE_ADMIN_*).
// Either way, a value that is, or holds, a token the tool holds or was given is refused.
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { SHORTEST_SECRET } from '../api/errors.js';
import { configDir } from '../config/paths.js';
import type { IO } from '../io.js';

/** A secret file larger than this is not a secret (a log, an archive, /dev/zero behind a link). */
export const MAX_SECRET_BYTES = 64 * 1024;

/** Trees that hold the system's live state and devices: never a place a secret is kept. */
const SYSTEM_TREES = ['/proc', '/dev', '/sys'];

export interface SecretRules {
  /** Where relative file names start: the webhooks file's folder (the working directory for stdin). */
  base: string;
  /** The one folder secret files are read from (--secret-root, else `base`). */
  root: string;
  /** Whether --secret-root named the root. */
  rootNamed: boolean;
  /** The variables --secret-env names. */
  allowedEnv: readonly string[];
}

export type SecretRead = { secret: string; problem?: undefined } | { problem: string; secret?: undefined };

/** Reads the secrets of a run, checking each against the tool's own tokens (read once, when first needed). */
export function secretReader(io: IO, rules: SecretRules) {
  let tokens: Promise<string[]> | undefined;
  let realRoot: Promise<string | undefined> | undefined;
  const holdsToken = async (secret: string) => {
    tokens ??= import('../config/known-tokens.js').then((m) => m.knownTokens(io));
    const trimmed = secret.trim();
    return (await tokens).some((token) => trimmed === token || (token.length >= SHORTEST_SECRET && trimmed.includes(token)));
  };
  const TOKEN_PROBLEM = "its value is one of store-admin's own tokens or secrets, which are never a webhook's secret";

  return {
    async env(name: string): Promise<SecretRead> {
      // The tool's own settings hold its token and the app's secret, whatever --secret-env says.
      if (name.startsWith('STORE_ADMIN_')) return { problem: `${name} is one of store-admin's own settings, not a webhook secret` };
      if (!rules.allowedEnv.includes(name)) {
        return { problem: `${name} is read only when the command names it: add --secret-env ${name}` };
      }
      const secret = io.env[name];
      if (!secret?.trim()) return { problem: `${name} is not set${secret === undefined ? '' : ' (it is empty)'}` };
      if (await holdsToken(secret)) return { problem: `${name}: ${TOKEN_PROBLEM}` };
      return { secret };
    },

    async file(name: string): Promise<SecretRead> {
      realRoot ??= realpath(rules.root).catch(() => undefined);
      const root = await realRoot;
      if (root === undefined) return { problem: `cannot read ${name}: the folder ${rules.root} cannot be read` };
      const where = rules.rootNamed ? `the folder --secret-root names (${root})` : `the webhooks file's folder (${root})`;
      const config = configDir(io.env);
      const realConfig = await realpath(config).catch(() => resolve(config));
      // The path as written, then the real path: a link (in the repository, or /proc/self/root/…)
      // is judged by where it leads. A path outside the folder as written is not even looked at,
      // so the file's author learns nothing of what exists elsewhere.
      const judge = (path: string, real: boolean): SecretRead | undefined => {
        const tree = SYSTEM_TREES.find((top) => within(path, top));
        if (tree) return { problem: `${name} is under ${tree}, which holds no secret files` };
        if (within(path, realConfig) || within(path, resolve(config))) {
          return { problem: `${name} is in store-admin's config directory, which holds its tokens, not a webhook secret` };
        }
        if (!within(path, root) && (real || !within(path, resolve(rules.root)))) {
          return { problem: `${name} is outside ${where}: secret files are read from there only (--secret-root DIR names another)` };
        }
        return undefined;
      };
      const named = resolve(rules.base, name);
      const asWritten = judge(named, false);
      if (asWritten) return asWritten;
      let real: string;
      try {
        real = await realpath(named);
      } catch (error) {
        return { problem: `cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
      }
      const found = judge(real, true);
      if (found) return found;
      const read = await readRegularFile(real, name);
      if (read.problem !== undefined) return read;
      const secret = read.secret.replace(/\r?\n$/, '');
      if (!secret.trim()) return { problem: `cannot read ${name} (it is empty)` };
      if (await holdsToken(secret)) return { problem: `${name}: ${TOKEN_PROBLEM}` };
      return { secret };
    },
  };
}

/** Whether `path` is `top` or inside it (both absolute). */
function within(path: string, top: string): boolean {
  const rest = relative(top, path);
  return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest));
}

/**
 * The file's text, if it is a regular file no larger than a secret. Opened without following a
 * link and without waiting (a FIFO would hold the run), then checked to be the very file whose
 * real path was judged.
 */
async function readRegularFile(real: string, name: string): Promise<SecretRead> {
  const cannot = (error: unknown): SecretRead => ({ problem: `cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
  let handle;
  try {
    // A FIFO, a socket or a device is refused before it is opened.
    if (!(await stat(real)).isFile()) return { problem: `${name} is not a regular file` };
    handle = await open(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return cannot(error);
  }
  try {
    const [opened, named] = [await handle.stat(), await stat(real)];
    if (!opened.isFile() || opened.ino !== named.ino || opened.dev !== named.dev) return { problem: `${name} changed while it was read` };
    if (opened.size > MAX_SECRET_BYTES) return { problem: `${name} is larger than ${MAX_SECRET_BYTES / 1024} kB, which no secret is` };
    return { secret: await handle.readFile('utf8') };
  } catch (error) {
    return cannot(error);
  } finally {
    await handle.close();
  }
}
