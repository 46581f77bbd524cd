// The webhooks file of `webhooks apply`: read, checked field by field (each field as `webhooks
// create` checks it, with event names checked too), and its secrets resolved from where the file
// names them. Every problem is reported with its place in the file (`webhooks[2].target: …`)
// before anything is sent.
import { dirname, resolve } from 'node:path';
import * as z from 'zod/mini';
import { UsageError } from '../api/errors.js';
import { repeatedKeys } from '../api/json-keys.js';
import { parseJson } from '../api/json-syntax.js';
import { create } from '../api/schemas/webhooks.js';
import { toFieldIssues } from '../api/validate.js';
import { textFrom } from '../fields/values.js';
import type { IO } from '../io.js';
import { unknownEvent } from './event-names.js';
import { lookAlike, quotedName } from './look-alike.js';
import { secretReader } from './secret-sources.js';

/** A webhook as the file declares it, its defaults filled in and its secret read. */
export interface DeclaredWebhook {
  name: string;
  events: string[];
  target: string;
  /** True unless the file says false. */
  active: boolean;
  /** Null when the file names none: the store's version is then left as it is. */
  api_version: string | null;
  /** Where the secret comes from, as the plan may show it (`env ORDERS_HOOK_SECRET`). */
  secretSource?: string;
  /** The secret itself: sent, never shown. */
  secret?: string;
}

const { events, target } = create.body.shape;

const entry = z.strictObject({
  name: z.string().check(z.refine((value) => value.trim() !== '', 'must not be empty')),
  events,
  target,
  active: z.optional(z.boolean()),
  api_version: z.optional(z.nullable(z.string().check(z.minLength(1, 'must not be empty')))),
  // Checked by hand below, to say how a secret is named.
  secret: z.optional(z.unknown()),
});

const file = z.strictObject({ webhooks: z.array(entry) });

type Entry = z.output<typeof entry>;

/** `['webhooks', 2, 'target']` → `webhooks[2].target`. */
function placeOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((place, part) => (typeof part === 'number' ? `${place}[${part}]` : place ? `${place}.${part}` : part), '');
}

export interface ReadOptions {
  allowUnknownEvent: boolean;
  /** The variables a `{"env": …}` secret may name (--secret-env). */
  secretEnv: readonly string[];
  /** The folder `{"file": …}` secrets are read from (--secret-root); else the webhooks file's. */
  secretRoot?: string;
}

/** Reads FILE (or - for standard input) and checks all of it; throws one UsageError listing every problem. */
export async function readDeclaredWebhooks(path: string, io: IO, options: ReadOptions): Promise<DeclaredWebhook[]> {
  const text = await textFrom(path, '-f', io);
  const shown = path === '-' ? 'standard input' : path;
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (error) {
    throw new UsageError(`${shown}: ${(error as Error).message}`);
  }
  const parsed = file.safeParse(json);
  // A key given twice keeps only its last value, so one of them would be lost without a word.
  const repeated = repeatedKeys(text).map((place) => `${place}: given twice; JSON keeps only the last, so write it once`);
  // Names and events are checked even when other fields are wrong: one run reports everything.
  const problems = [
    ...repeated,
    ...(parsed.success ? [] : toFieldIssues('', parsed.error.issues, json).map((issue) => `${placeOf(issue.path) || '(file)'}: ${issue.message}`)),
    ...namesAndEvents(json, options),
  ];
  if (!parsed.success || repeated.length > 0) throw new UsageError(`${shown}: ${problems.join('; ')}`, { hint: FILE_HINT });
  // Secret files are named relative to the webhooks file, and read from its folder unless told otherwise.
  const base = path === '-' ? process.cwd() : dirname(resolve(path));
  const secrets = secretReader(io, {
    base,
    root: options.secretRoot === undefined ? base : resolve(options.secretRoot),
    rootNamed: options.secretRoot !== undefined,
    allowedEnv: options.secretEnv,
  });
  const declared: DeclaredWebhook[] = [];
  for (const [index, webhook] of parsed.data.webhooks.entries()) {
    const place = `webhooks[${index}]`;
    const secret = await secretOf(webhook, `${place}.secret`, secrets, io, problems);
    declared.push({
      name: webhook.name,
      events: webhook.events,
      target: webhook.target,
      active: webhook.active ?? true,
      api_version: webhook.api_version ?? null,
      ...secret,
    });
  }
  if (problems.length > 0) throw new UsageError(`${shown}: ${problems.join('; ')}`, { hint: FILE_HINT });
  return declared;
}

/** Names declared twice and unknown event names, read from the file as it is. */
function namesAndEvents(json: unknown, options: ReadOptions): string[] {
  const webhooks = (json as { webhooks?: unknown } | null)?.webhooks;
  if (!Array.isArray(webhooks)) return [];
  const problems: string[] = [];
  const firstOf = new Map<string, number>();
  for (const [index, webhook] of webhooks.entries()) {
    const { name, events } = (webhook ?? {}) as { name?: unknown; events?: unknown };
    if (typeof name === 'string') {
      const earlier = firstOf.get(name);
      if (earlier !== undefined) problems.push(`webhooks[${index}].name: ${quotedName(name)} is declared twice (also webhooks[${earlier}])`);
      else firstOf.set(name, index);
      // Matched by name, a look-alike would replace the webhook it imitates.
      const looks = lookAlike(name);
      if (looks) problems.push(`webhooks[${index}].name: ${quotedName(name)} ${looks}, so it reads as another name`);
    }
    if (options.allowUnknownEvent || !Array.isArray(events)) continue;
    for (const [at, event] of events.entries()) {
      const problem = typeof event === 'string' && event !== '' ? unknownEvent(event) : undefined;
      if (problem) problems.push(`webhooks[${index}].events[${at}]: ${problem}`);
    }
  }
  return problems;
}

const FILE_HINT =
  'Nothing was sent. The file holds {"webhooks": [{"name", "events", "target", "active"?, "api_version"?, "secret"?: {"env": "VAR"} (with --secret-env VAR) or {"file": "path"} (inside its folder)}]}';

/** A secret named by the file: an environment variable or a file, never the secret itself. */
async function secretOf(
  webhook: Entry,
  place: string,
  secrets: ReturnType<typeof secretReader>,
  io: IO,
  problems: string[],
): Promise<Pick<DeclaredWebhook, 'secret' | 'secretSource'>> {
  const named = webhook.secret;
  if (named === undefined) return {};
  if (typeof named === 'string') {
    problems.push(`${place}: a secret is never written in the file; name it instead: {"env": "VAR"} or {"file": "path"}`);
    return {};
  }
  const keys = named && typeof named === 'object' && !Array.isArray(named) ? Object.keys(named) : [];
  const value = keys.length === 1 ? (named as Record<string, unknown>)[keys[0]!] : undefined;
  if ((keys[0] !== 'env' && keys[0] !== 'file') || typeof value !== 'string' || value === '') {
    problems.push(`${place}: must be {"env": "VAR"} or {"file": "path"}`);
    return {};
  }
  const kind = keys[0];
  const read = kind === 'env' ? await secrets.env(value) : await secrets.file(value);
  if (read.problem !== undefined) {
    problems.push(`${place}.${kind}: ${read.problem}`);
    return {};
  }
  io.protect?.(read.secret);
  return { secret: read.secret, secretSource: `${kind} ${value}` };
}
