// Builds the client for a run: the store named by flags and environment, or the embedded
// sandbox. Verbose tracing hooks in here, with the token and secrets redacted.
import { AuthError, UsageError } from './api/errors.js';
import { createClient, type ClientOptions, type StoreClient } from './api/client.js';
import { noteAssumedHttps, storeUrlFromInput } from './api/url.js';
import { proxyFromEnv } from './api/proxy.js';
import type { IO } from './io.js';
import type { GlobalOptions } from './options.js';
import type { Output } from './output/output.js';
import { noToken, resolveConnection } from './config/resolve.js';
import { redactSecrets } from './output/redact.js';
import { printable, printableLine } from './printable.js';

export interface Connection {
  client: StoreClient;
  /** The token the client sends, so that nothing the run prints can show it. */
  token?: string;
  /** Where changes go, as the history names it: the store's host, or `embedded sandbox`. */
  store: string;
  profile?: string;
  /** The scopes granted to the partner app's login whose token is in use (auth login --app). */
  grant?: Grant;
  /** Adds what only the connection knows to a failure's hint (https assumed for a bare host). */
  explain?(error: unknown): void;
  close(): Promise<void>;
}

export interface Grant {
  profile: string;
  clientId: string;
  scopes: readonly string[];
}

const TRACE_BODY_LIMIT = 4000;

const SWITCHED_ON = ['1', 'true', 'yes', 'on'];
const SWITCHED_OFF = ['', '0', 'false', 'no', 'off'];

/**
 * --sandbox or STORE_ADMIN_SANDBOX: every command runs against the embedded sandbox. A value that
 * is not clearly on or off (`1\r` from a Windows .env, `enabled`) is refused: read as off, it
 * would send changes meant for the sandbox to the real store. A flag that names another store
 * (--base-url, --profile) beside it is a contradiction, refused rather than silently overruled.
 */
export function sandboxRequested(options: GlobalOptions, env: NodeJS.ProcessEnv): boolean {
  const value = (env.STORE_ADMIN_SANDBOX ?? '').trim().toLowerCase();
  if (!options.sandbox && !SWITCHED_ON.includes(value) && !SWITCHED_OFF.includes(value)) {
    throw new UsageError(`STORE_ADMIN_SANDBOX takes 1 or 0 (or true/false, yes/no, on/off); got ${JSON.stringify(env.STORE_ADMIN_SANDBOX)}, so nothing was sent`, {
      hint: 'Set it to 1 for the embedded sandbox, or unset it for the store of your profile',
    });
  }
  const by = options.sandbox ? '--sandbox' : SWITCHED_ON.includes(value) ? `STORE_ADMIN_SANDBOX=${value}` : undefined;
  if (!by) return false;
  const other = options.baseUrl !== undefined ? '--base-url' : options.profile !== undefined ? '--profile' : undefined;
  if (other) {
    throw new UsageError(`${by} runs the command against the embedded sandbox, and ${other} names another store: give one of them`, {
      hint: by === '--sandbox' ? `Drop --sandbox to use ${other}, or drop ${other}` : `Unset STORE_ADMIN_SANDBOX to use ${other}, or drop ${other}`,
    });
  }
  return true;
}

export async function connect(options: GlobalOptions, io: IO, output: Pick<Output, 'prose' | 'log'>): Promise<Connection> {
  const common: Partial<ClientOptions> = {
    ...traceHooks(options, output),
    onWarning: (m) => output.prose(`warning: ${m}`),
    onRetry: ({ attempt, of, delayMs, reason, throttled }) =>
      output.prose(
        throttled
          ? `${reason}: sending it again in ${(delayMs / 1000).toFixed(1)} s, as the store asks`
          : `${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s (retry ${attempt} of ${of})`,
      ),
    ...(options.timeout !== undefined ? { timeoutMs: options.timeout * 1000 } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...maxResponse(io.env),
    proxy: proxyFromEnv(io.env),
    // Said when an operation's request is first built with it: the api command's raw requests
    // carry --api-version as their own version, with nothing to warn about.
    ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
    onApiVersion: (version) => output.prose(`warning: sending X-Store-API-Version: ${version} instead of each operation's own value`),
  };

  if (sandboxRequested(options, io.env)) {
    const { startEmbeddedSandbox } = await import('./sandbox/embedded.js');
    const sandbox = await startEmbeddedSandbox(io.env);
    const client = createClient({ ...common, baseUrl: sandbox.url, token: sandbox.token });
    return {
      client,
      token: sandbox.token,
      store: 'embedded sandbox',
      close: async () => {
        await client.close();
        await sandbox.close();
      },
    };
  }

  const resolved = await resolveConnection(options, io);
  if (!resolved.baseUrl) {
    throw new AuthError('No store URL given', {
      hint: 'Run: store-admin auth login, or pass --base-url / set STORE_ADMIN_BASE_URL (or try --sandbox)',
    });
  }
  // Nothing goes out without a token; here the error can say whose token was held back.
  if (!resolved.token && resolved.withheld) throw noToken(resolved.baseUrl.value, resolved.withheld);
  const client = createClient({
    ...common,
    // A URL pasted from the browser is cut to the store's; the user is told what was dropped.
    baseUrl: resolved.baseUrl.source === 'profile' ? resolved.baseUrl.value : storeUrlFromInput(resolved.baseUrl.value, output.prose),
    token: resolved.token?.value,
    allowHttp: resolved.allowHttp,
  });
  const grant = resolved.app && resolved.profile ? { profile: resolved.profile.value, clientId: resolved.app.clientId, scopes: resolved.app.scopes } : undefined;
  const given = resolved.baseUrl.source === 'profile' ? undefined : resolved.baseUrl.value;
  return {
    client,
    token: resolved.token?.value,
    store: new URL(client.baseUrl).host,
    profile: resolved.profile?.value,
    grant,
    explain: (error) => noteAssumedHttps(error, given),
    close: () => client.close(),
  };
}

/** STORE_ADMIN_MAX_RESPONSE_MB: the largest answer read, in megabytes. */
function maxResponse(env: NodeJS.ProcessEnv): Partial<ClientOptions> {
  const value = env.STORE_ADMIN_MAX_RESPONSE_MB;
  if (value === undefined || value === '') return {};
  if (!/^\d{1,5}$/.test(value.trim()) || Number(value) === 0) {
    throw new UsageError(`STORE_ADMIN_MAX_RESPONSE_MB takes a whole number of megabytes, 1 to 99999 (got "${value}")`);
  }
  return { maxResponseBytes: Number(value) * 1024 * 1024 };
}

function traceHooks(options: GlobalOptions, output: Pick<Output, 'log'>): Partial<ClientOptions> {
  if (!options.verbose) return {};
  const write = (line: string) => output.log(`${line}\n`);
  const body = (value: unknown) => {
    if (value === undefined) return;
    // The store's text, shown without its control characters (JSON leaves C1 controls and bidi overrides raw).
    const text = printable(typeof value === 'string' ? value : JSON.stringify(redactSecrets(value, { links: true }), null, 2));
    write(text.length > TRACE_BODY_LIMIT ? `${text.slice(0, TRACE_BODY_LIMIT)}… (${text.length} characters)` : text);
  };
  return {
    onRequest: (request) => {
      write(`> ${request.method} ${request.url}`);
      for (const [name, value] of Object.entries(request.headers)) write(`> ${name}: ${value}`);
      body(request.body);
    },
    onResponse: (response) => {
      write(`< ${response.status}`);
      for (const [name, value] of Object.entries(response.headers)) write(`< ${name}: ${printableLine(String(value))}`);
      body(response.body);
    },
  };
}
