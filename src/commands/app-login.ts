// `auth login --app`: signs in as a partner app through the platform's Authorization Code flow.
// The browser goes to the store's consent page; the store sends it back to a listener on this
// machine with a code (the listener refuses any answer without the state sent); the code is
// traded for a token, and the token, refresh token and client secret are kept as a dashboard
// token is.
import { randomBytes } from 'node:crypto';
import { AuthError, InterruptedError, StoreAdminError, UsageError } from '../api/errors.js';
import { createClient } from '../api/client.js';
import { AUTHORIZE_PATH } from '../api/oauth.js';
import { proxyFromEnv } from '../api/proxy.js';
import { operationScopes, parseScopes, platformScopes } from '../api/scopes.js';
import { nearest } from '../fields/nearest.js';
import type { Context } from '../context.js';
import { DEFAULTS } from '../defaults.js';
import { maskToken } from '../output/mask.js';
import { profileStore } from '../config/resolve.js';
import type { ProfileStore } from '../config/profiles.js';
import { exchangeCode } from '../oauth/exchange.js';
import { listenForCallback, type Callback } from '../oauth/loopback.js';
import { openBrowser } from '../oauth/browser.js';
import { tabPage } from '../oauth/tab-page.js';
import { loginStore, show, targetProfile } from './auth-actions.js';
import type { Options } from '../options.js';
import { textFrom } from '../fields/values.js';

const SCOPE = /^[a-z][a-z_]*:(read|write)$/;
/** A store's domain as a callback names it: a host name, and a port where it has one. */
const DOMAIN = /^[a-z0-9.-]{1,253}(:\d{1,5})?$/;

export async function loginAsApp(ctx: Context, opts: Options): Promise<void> {
  const clientId = checkOptions(opts);
  const scopes = opts.scopes === undefined ? await operationScopes() : checkScopes(parseScopes(String(opts.scopes)), await platformScopes());
  const port = typeof opts.redirectPort === 'number' ? opts.redirectPort : DEFAULTS.redirectPort;
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  // Written even with --quiet: without it listed in the app's settings, the store refuses the login.
  ctx.output.log(`Redirect URI: ${redirectUri} (it must be listed in the app's Redirect URLs)\n`);

  const store = profileStore(ctx.io);
  const data = store.read();
  const name = targetProfile(ctx, data, 'default');
  const { baseUrl, allowHttp } = await loginStore(ctx, name, data.profiles[name]);
  const state = randomBytes(24).toString('base64url');
  const url = new URL(`${baseUrl}${AUTHORIZE_PATH}`);
  for (const [key, value] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: scopes.join(' '), state })) {
    url.searchParams.set(key, value);
  }
  // Before a secret is typed or a browser opened: a link the store refuses never redirects back.
  await checkAuthorizeLink(ctx, url.href, allowHttp);
  const clientSecret = await clientSecretFrom(ctx, opts);
  ctx.io.protect?.(clientSecret);

  const storeHost = new URL(baseUrl).host;
  /** The last answer without a state that was ignored, for the wait's end to mention. */
  let stateless: { named: string | undefined } | undefined;
  const listener = await listenForCallback(port, {
    state,
    storeHost,
    onForged: () => ctx.output.prose("warning: refused an answer that did not carry this login's state (it did not come from this login); still waiting"),
    onStateless: (named) => {
      stateless = { named: named && DOMAIN.test(named) ? named : undefined };
      ctx.output.prose(`warning: ignored an answer without a state that does not name ${storeHost} as its store; still waiting`);
    },
  });
  try {
    await showConsentPage(ctx, url.href, opts.browser !== false);
    const callback = await waitForCallback(listener.callback, ctx.signal, waitSeconds(ctx.io.env), () => stateless && statelessHint(stateless.named, storeHost));
    const login: AppLoginRequest = { name, baseUrl, allowHttp, clientId, clientSecret, redirectUri, scopes, insecureStorage: !!opts.insecureStorage };
    const { token, granted, saved, storeDomain } = await complete(ctx, store, callback, login);

    const storage = saved.inKeychain ? 'the OS keychain' : store.path;
    if (!saved.inKeychain && !opts.insecureStorage) ctx.output.prose(`warning: no OS keychain answered; the secrets are kept in ${store.path}, readable only by you`);
    const refused = scopes.filter((scope) => !granted.includes(scope));
    if (refused.length > 0) ctx.output.prose(`warning: the store did not grant ${refused.join(' ')}; commands that need ${refused.length > 1 ? 'them' : 'it'} will be refused (see: store-admin auth status)`);
    ctx.output.prose(`Logged in to ${baseUrl} as profile "${name}"${saved.active ? ' (active)' : ''} with the app ${clientId}; its token, refresh token and client secret are kept in ${storage}.`);
    if (storeDomain && storeDomain !== new URL(baseUrl).host) ctx.output.prose(`The store names itself ${storeDomain} (its platform domain); commands go to ${baseUrl}, as given.`);
    await show(ctx, {
      profile: name,
      base_url: baseUrl,
      ...(storeDomain ? { store_domain: storeDomain } : {}),
      active: saved.active,
      login: 'app',
      client_id: clientId,
      scopes: granted,
      not_granted: refused,
      token: maskToken(token, ctx.io.env),
      storage: saved.inKeychain ? 'keychain' : 'file',
    });
  } finally {
    await listener.close();
  }
}

interface AppLoginRequest {
  name: string;
  baseUrl: string;
  allowHttp: boolean;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string[];
  insecureStorage: boolean;
}

/**
 * From the store's answer to a saved login: the callback checked, the code exchanged, the secrets
 * kept. The browser's tab is told how it ended, whichever way that is.
 */
async function complete(ctx: Context, store: ProfileStore, callback: Callback, login: AppLoginRequest) {
  let refused = true;
  try {
    const { code, storeDomain } = checkCallback(callback.params);
    refused = false;
    const timeoutMs = (ctx.options.timeout ?? DEFAULTS.timeoutSeconds) * 1000;
    const answer = await exchangeCode({ ...login, code, timeoutMs, signal: ctx.signal, proxy: proxyFromEnv(ctx.io.env) });
    ctx.io.protect?.(answer.access_token);
    if (answer.refresh_token) ctx.io.protect?.(answer.refresh_token);
    // The answer's `scope` is what was granted, which may be less than was asked for.
    const granted = answer.scope === undefined ? login.scopes : parseScopes(answer.scope);
    const { saveLogin } = await import('../config/save-login.js');
    const saved = await saveLogin(store, login.name, {
      baseUrl: login.baseUrl,
      allowHttp: login.allowHttp,
      secrets: { token: answer.access_token, ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}), clientSecret: login.clientSecret },
      app: { clientId: login.clientId, scopes: granted, loggedInAt: new Date().toISOString(), ...(storeDomain ? { storeDomain } : {}) },
      insecureStorage: login.insecureStorage,
    });
    await callback.answer(200, tabPage(true, 'Logged in', `store-admin is signed in to ${new URL(login.baseUrl).host} as the app ${login.clientId}.`));
    return { token: answer.access_token, granted, saved, storeDomain };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The page leaves by the browser, not the guarded streams: a secret the store echoed is hidden here too.
    const shown = ctx.io.scrub ? ctx.io.scrub(message) : message;
    await callback.answer(refused ? 400 : 502, tabPage(false, refused ? 'The login was refused' : 'The login failed', shown));
    throw error;
  }
}

/** The client id, once the flags are known to fit together. */
function checkOptions(opts: Options): string {
  if (opts.withToken) throw new UsageError('--with-token and --app contradict each other', { hint: '--with-token reads a dashboard token; --app signs in through the browser' });
  if (opts.skipVerify) throw new UsageError('--skip-verify goes with a dashboard token, not --app: the store issues the token itself');
  const clientId = opts.clientId as string | undefined;
  if (clientId === undefined) throw new UsageError('auth login --app needs --client-id ID', { hint: "The client id is in the app's settings" });
  if (!/^[\x21-\x7e]{1,200}$/.test(clientId)) throw new UsageError(`--client-id takes the app's client id, printable characters without spaces (got "${clientId}")`);
  return clientId;
}

function checkScopes(scopes: string[], known: readonly string[]): string[] {
  if (scopes.length === 0) throw new UsageError('--scopes is empty', { hint: 'Leave it out to ask for the scopes every command needs' });
  const wrong = scopes.find((scope) => !SCOPE.test(scope));
  if (wrong) throw new UsageError(`--scopes: "${wrong}" is not a scope (scopes look like orders:read or orders:write)${didYouMean(wrong, known)}`);
  // A typo would be refused by the store only after the browser opened, or silently not granted.
  const unknown = scopes.find((scope) => !known.includes(scope));
  if (unknown) throw new UsageError(`--scopes: "${unknown}" is not one of the platform's scopes${didYouMean(unknown, known)}`);
  return scopes;
}

function didYouMean(scope: string, known: readonly string[]): string {
  const guess = nearest(scope, known);
  return guess ? `; did you mean ${guess}?` : '';
}

/** Never an argument: a file (or stdin), the environment, or a masked prompt at a terminal. */
async function clientSecretFrom(ctx: Context, opts: Options): Promise<string> {
  let secret: string;
  let from: string;
  if (opts.clientSecretFile !== undefined) {
    secret = await textFrom(String(opts.clientSecretFile), '--client-secret-file', ctx.io);
    from = `--client-secret-file ${opts.clientSecretFile === '-' ? '(standard input)' : String(opts.clientSecretFile)}`;
  } else if (ctx.io.env.STORE_ADMIN_CLIENT_SECRET) {
    secret = ctx.io.env.STORE_ADMIN_CLIENT_SECRET;
    from = 'STORE_ADMIN_CLIENT_SECRET';
  } else if (ctx.interactive) {
    secret = await ctx.prompt.secret({ flag: '--client-secret-file', message: "The app's client secret:" });
    from = 'The pasted client secret';
  } else {
    throw new UsageError('No client secret given', {
      hint: 'Pass --client-secret-file FILE (- for standard input) or set STORE_ADMIN_CLIENT_SECRET; secrets are never taken as arguments',
    });
  }
  secret = secret.trim();
  if (!secret) throw new UsageError(`${from}: the client secret is empty`);
  if (/[\s\p{Cc}]/u.test(secret)) throw new UsageError(`${from}: the client secret contains white space or control characters; give the secret alone`);
  return secret;
}

/** Where the store's error page says what went wrong: its title, then the first paragraph. */
const ERROR_PAGE_LIMIT = 64 * 1024;

/**
 * Opens the consent page's link as the browser will, without a token: a store that refuses the
 * request itself (an unknown client id, a redirect URI not among the app's Redirect URLs) answers
 * it with an error page that never sends the browser back, so the login would wait out its whole
 * time for nothing. That answer (4xx) ends the login at once, saying what the page says. A page
 * (200) or a redirect to the store's sign-in (3xx) is what a person goes on from.
 */
async function checkAuthorizeLink(ctx: Context, link: string, allowHttp: boolean): Promise<void> {
  const client = createClient({ baseUrl: new URL(link).origin, allowHttp, proxy: proxyFromEnv(ctx.io.env) });
  try {
    const answer = await client.openLink(link, { signal: ctx.signal }).catch(() => undefined);
    // Not reachable now: the browser tries for itself, and the wait says when nothing came.
    if (!answer) return;
    let html = '';
    if (answer.status >= 400 && answer.status < 500) {
      for await (const chunk of answer.body) {
        html += String(chunk);
        if (html.length > ERROR_PAGE_LIMIT) break;
      }
    }
    answer.body.destroy();
    answer.done();
    if (answer.status < 400 || answer.status >= 500) return;
    const said = pageText(html);
    throw new AuthError(`The store refused the login before anyone could approve it (${answer.status}${said ? `: ${said}` : ''}); nothing was saved`, {
      hint: "Check --client-id against the app's settings, and that the redirect URI printed above is one of its Redirect URLs (--redirect-port picks the port)",
    });
  } finally {
    await client.close();
  }
}

/** An HTML page's title and first paragraph, as one plain line. */
function pageText(html: string): string {
  const plain = (fragment: string | undefined) =>
    (fragment ?? '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(amp|lt|gt|quot|#39);/g, (_entity, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '')
      .replace(/\s+/g, ' ')
      .trim();
  const title = plain(/<title[^>]*>([^]*?)<\/title>/i.exec(html)?.[1]);
  const paragraph = plain(/<p[^>]*>([^]*?)<\/p>/i.exec(html)?.[1]);
  return [title, paragraph].filter(Boolean).join(' — ').slice(0, 300);
}

/** The URL is always printed (it holds no secret): a browser that did not come up leaves the person a way on. */
async function showConsentPage(ctx: Context, url: string, open: boolean): Promise<void> {
  const write = (line: string) => ctx.output.log(`${line}\n`);
  if (!open) {
    write('No browser opened (--no-browser); open this URL to approve the app:');
  } else {
    const outcome = await openBrowser(url, ctx.io.env);
    write(outcome.opened ? `Opened the store's consent page with ${outcome.by}; if no browser came up, open this URL:` : `Could not open a browser (${outcome.reason}); open this URL to approve the app:`);
  }
  write(`  ${url}`);
  ctx.output.prose(`Waiting for the store's answer (at most ${spanOf(waitSeconds(ctx.io.env))}; Ctrl-C to stop)…`);
}

/** `45 seconds`, `1 minute`, `5 minutes`: whole minutes from a minute up, rounded. */
function spanOf(seconds: number): string {
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.round(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** STORE_ADMIN_LOGIN_WAIT: seconds to wait for the store's answer. */
function waitSeconds(env: NodeJS.ProcessEnv): number {
  const value = env.STORE_ADMIN_LOGIN_WAIT?.trim();
  if (!value) return DEFAULTS.loginWaitSeconds;
  if (!/^\d{1,5}$/.test(value) || Number(value) === 0) throw new UsageError(`STORE_ADMIN_LOGIN_WAIT takes a whole number of seconds, 1 to 99999 (got "${value}")`);
  return Number(value);
}

/** What the wait's end says about an ignored answer without a state: it may have been the store's own, under another name. */
function statelessHint(named: string | undefined, storeHost: string): string {
  const which = named ? `named the store ${named}` : 'named no store';
  return `An answer without a state arrived and was ignored: it ${which}, not ${storeHost}. A store that sends no state back is answered only when it names the host the login was started at; if it was this store's, log in again with --base-url https://<the domain it named>`;
}

function waitForCallback(callback: Promise<Callback>, signal: AbortSignal, seconds: number, ignored: () => string | undefined): Promise<Callback> {
  return new Promise((resolve, reject) => {
    const settle = (done: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      done();
    };
    const timer = setTimeout(() => {
      const wait = seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} second${seconds === 1 ? '' : 's'}`;
      const error = new StoreAdminError(`No answer from the store within ${wait}; nothing was saved`, {
        hint: ignored() ?? "Run the login again and approve the app in the browser; check that the redirect URI is listed in the app's Redirect URLs",
      });
      settle(() => reject(error));
    }, seconds * 1000);
    const stop = () => settle(() => reject(new InterruptedError('Interrupted; the login was abandoned and nothing was saved')));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    void callback.then((arrived) => settle(() => resolve(arrived)));
  });
}

/**
 * The code, from a callback that is the answer to this login, and the store's platform domain as
 * it names itself (`store`). A store reached through a custom domain names its platform domain,
 * which differs from the URL given: that is the same store (the code came back to this login, and
 * is exchanged at the URL given), so the two names are both kept, not compared.
 */
function checkCallback(params: URLSearchParams): { code: string; storeDomain?: string } {
  // The listener has refused any other state: what gets here carries this login's, or none and names this store.
  if (!params.has('state')) {
    throw new AuthError("The store's answer carried no state, so it cannot be told from one sent by someone else; nothing was saved", {
      hint: 'The store must send back the state of the login it answers (OAuth 2.0, RFC 6749 §4.1.2)',
    });
  }
  const error = params.get('error');
  if (error === 'access_denied') throw new AuthError("The store refused the app's access (Deny was chosen); nothing was saved");
  if (error) {
    const description = params.get('error_description');
    throw new AuthError(`The store refused the login: ${error}${description ? ` (${description})` : ''}`);
  }
  const store = params.get('store')?.trim().toLowerCase();
  const code = params.get('code');
  if (!code) throw new AuthError('The store answered without a code; nothing was saved');
  // A domain name, no more: the value is kept in the profile and shown.
  return { code, ...(store && DOMAIN.test(store) ? { storeDomain: store } : {}) };
}
