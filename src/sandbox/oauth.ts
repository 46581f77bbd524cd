// The sandbox plays the store's side of the Authorization Code flow, as the platform's app guide
// describes it: the consent page at AUTHORIZE_PATH, a redirect carrying `store`, `code` and
// `state`, and the form-encoded exchange at TOKEN_PATH with RFC 6749 §5.2 errors. Tokens it issues
// carry the scopes the person granted; the server enforces them like any scoped token.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AUTHORIZE_PATH, TOKEN_PATH } from '../api/oauth.js';
import { consentPage, errorPage } from './consent-page.js';
import { platformScopes } from '../api/scopes.js';
import { readBody } from './read-body.js';
import { STORE } from './seed/store-facts.js';
import { DEFAULT_CLIENT_SECRET, PARTNER_APP, REGISTERED_REDIRECT_URIS } from './settings.js';

/** As on the platform: a code is good once, for ten minutes; a consent page as long. */
const CODE_TTL_MS = 10 * 60 * 1000;
/** A granted token is long-lived; the answer still says for how long. */
/** The token's lifetime, as the platform's app guide shows it in its example answer. */
const TOKEN_LIFETIME_SECONDS = 15_778_476_000;
const MAX_FORM_BYTES = 64 * 1024;

export interface OAuthOptions {
  /** The partner app's client secret (default DEFAULT_CLIENT_SECRET). */
  clientSecret?: string;
  /** Redirect URIs registered besides the two defaults. */
  redirectUris?: readonly string[];
}

export interface OAuthCounters {
  /** Codes handed out by an approval. */
  codes: number;
  /** Codes exchanged for a token. */
  exchanges: number;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  expiresAt: number;
}

interface Pending extends Grant {
  state?: string;
  /** The store's domain, as the person reached it: it names the store that grants the code. */
  store: string;
}

interface Code extends Grant {
  used: boolean;
  /** The token the code was exchanged for: revoked if the code is replayed (RFC 6749 §4.1.2). */
  token?: string;
}

export interface OAuthStore {
  /** Handles a request to the flow's two paths; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  counters: OAuthCounters;
}

/** `issue` registers a token with its scopes; `revoke` forgets one. */
export function oauthStore(options: OAuthOptions, tokens: { issue(scopes: string[]): string; revoke(token: string): void }): OAuthStore {
  const secret = digest(options.clientSecret ?? DEFAULT_CLIENT_SECRET);
  const redirectUris = new Set([...REGISTERED_REDIRECT_URIS, ...(options.redirectUris ?? [])]);
  const pending = new Map<string, Pending>();
  const codes = new Map<string, Code>();
  const counters: OAuthCounters = { codes: 0, exchanges: 0 };

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname === AUTHORIZE_PATH && req.method === 'GET') await authorize(res, url);
    else if (url.pathname === AUTHORIZE_PATH && req.method === 'POST') decide(res, new URLSearchParams(await readBody(req, MAX_FORM_BYTES)));
    else if (url.pathname === TOKEN_PATH && req.method === 'POST') exchange(req, res, new URLSearchParams(await readBody(req, MAX_FORM_BYTES)));
    else if (url.pathname === AUTHORIZE_PATH || url.pathname === TOKEN_PATH) sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` });
    else return false;
    return true;
  }

  /** The link an app sends a person to: checked, then answered with the consent page. */
  async function authorize(res: ServerResponse, url: URL) {
    const one = (name: string) => (url.searchParams.getAll(name).length === 1 ? url.searchParams.get(name)! : undefined);
    const clientId = one('client_id');
    const redirectUri = one('redirect_uri');
    // A wrong client or redirect URI is never redirected to: the link may be an attacker's.
    if (clientId !== PARTNER_APP.client_id) return sendHtml(res, 400, errorPage('Unknown app', `No app with the client id "${clientId ?? ''}" is installed on this store.`));
    if (!redirectUri || !redirectUris.has(redirectUri)) {
      return sendHtml(res, 400, errorPage('Redirect URL not registered', `"${redirectUri ?? ''}" is not one of the app's Redirect URLs; it must match one character for character.`));
    }
    if (one('response_type') !== 'code') {
      return sendHtml(res, 400, errorPage('Unsupported response type', `response_type must be "code", the only flow this store offers (got "${url.searchParams.get('response_type') ?? ''}").`));
    }
    const state = url.searchParams.get('state') ?? undefined;
    const scopes = [...new Set((url.searchParams.get('scope') ?? '').split(' ').filter(Boolean))];
    const known = await platformScopes();
    const unknown = scopes.filter((scope) => !known.includes(scope));
    if (scopes.length === 0 || unknown.length > 0) {
      const description = scopes.length === 0 ? 'No scope was asked for.' : `Unknown scope: ${unknown.join(' ')}`;
      return redirect(res, redirectUri, { error: 'invalid_scope', error_description: description, state });
    }
    const id = randomBytes(16).toString('hex');
    sweep();
    // The store names itself by its platform domain, whatever host the link was opened on.
    pending.set(id, { clientId, redirectUri, scopes, state, store: STORE.domain, expiresAt: Date.now() + CODE_TTL_MS });
    sendHtml(res, 200, consentPage({ storeName: STORE.name, appName: PARTNER_APP.name, redirectUri, scopes, request: id }));
  }

  /** The person's answer: back to the app with a code, or with access_denied. */
  function decide(res: ServerResponse, form: URLSearchParams) {
    const id = form.get('request') ?? '';
    const found = pending.get(id);
    if (!found || found.expiresAt < Date.now()) {
      return sendHtml(res, 400, errorPage('This page has expired', 'Go back to the app and start again.'));
    }
    const decision = form.get('decision');
    if (decision !== 'approve' && decision !== 'deny') return sendHtml(res, 400, errorPage('No answer given', 'Choose Approve or Deny.'));
    const state = found.state;
    if (decision === 'deny') {
      pending.delete(id);
      return redirect(res, found.redirectUri, { error: 'access_denied', error_description: 'The store refused the app access.', state });
    }
    const chosen = form.getAll('scope');
    // Only what was asked for can be granted: a tampered form grants nothing more.
    if (chosen.some((scope) => !found.scopes.includes(scope))) return sendHtml(res, 400, errorPage('Unexpected permission', 'The form asked for a permission the app did not request.'));
    if (chosen.length === 0) {
      const view = { storeName: STORE.name, appName: PARTNER_APP.name, redirectUri: found.redirectUri, scopes: found.scopes, request: id };
      return sendHtml(res, 400, consentPage({ ...view, problem: 'Tick at least one permission to approve, or choose Deny.' }));
    }
    pending.delete(id);
    const code = randomBytes(24).toString('base64url');
    codes.set(code, { clientId: found.clientId, redirectUri: found.redirectUri, scopes: chosen, expiresAt: Date.now() + CODE_TTL_MS, used: false });
    counters.codes++;
    sweep();
    redirect(res, found.redirectUri, { store: found.store, code, state });
  }

  /** The app's server trades the code for a token (form-encoded, RFC 6749 §4.1.3). */
  function exchange(req: IncomingMessage, res: ServerResponse, form: URLSearchParams) {
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
      return oauthError(res, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    }
    const repeated = [...new Set(form.keys())].filter((key) => form.getAll(key).length > 1);
    if (repeated.length > 0) return oauthError(res, 400, 'invalid_request', `Repeated parameter: ${repeated.join(', ')}.`);
    const missing = ['grant_type', 'client_id', 'client_secret'].filter((key) => !form.get(key));
    if (missing.length > 0) return oauthError(res, 400, 'invalid_request', `Missing parameter: ${missing.join(', ')}.`);
    if (form.get('client_id') !== PARTNER_APP.client_id || !timingSafeEqual(digest(form.get('client_secret')!), secret)) {
      res.setHeader('www-authenticate', 'Basic realm="oauth2"');
      return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return oauthError(res, 400, 'unsupported_grant_type', `grant_type "${form.get('grant_type')}" is not supported here.`);
    }
    const absent = ['code', 'redirect_uri'].filter((key) => !form.get(key));
    if (absent.length > 0) return oauthError(res, 400, 'invalid_request', `Missing parameter: ${absent.join(', ')}.`);
    const code = codes.get(form.get('code')!);
    if (!code) return oauthError(res, 400, 'invalid_grant', 'The code is not valid.');
    if (code.used) {
      // A replayed code may be stolen: the token it gave is withdrawn too.
      if (code.token) tokens.revoke(code.token);
      codes.delete(form.get('code')!);
      return oauthError(res, 400, 'invalid_grant', 'The code was already used.');
    }
    if (code.expiresAt < Date.now()) {
      codes.delete(form.get('code')!);
      return oauthError(res, 400, 'invalid_grant', 'The code has expired.');
    }
    if (code.clientId !== form.get('client_id')) return oauthError(res, 400, 'invalid_grant', 'The code was issued to another client.');
    if (code.redirectUri !== form.get('redirect_uri')) return oauthError(res, 400, 'invalid_grant', 'redirect_uri does not match the one the code was issued for.');
    code.used = true;
    code.token = tokens.issue(code.scopes);
    counters.exchanges++;
    res.setHeader('cache-control', 'no-store');
    res.setHeader('pragma', 'no-cache');
    sendJson(res, 200, {
      access_token: code.token,
      expires_in: TOKEN_LIFETIME_SECONDS,
      token_type: 'Bearer',
      scope: code.scopes.join(' '),
      refresh_token: `sbx_refresh_${randomBytes(16).toString('hex')}`,
    });
  }

  /** Pages and codes left to expire are dropped, so that a long-running sandbox keeps none. */
  function sweep() {
    const now = Date.now();
    for (const [id, found] of pending) if (found.expiresAt < now) pending.delete(id);
    for (const [code, found] of codes) if (found.expiresAt < now) codes.delete(code);
  }

  return { handle, counters };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}


function redirect(res: ServerResponse, target: string, params: Record<string, string | undefined>) {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  // 303: the browser follows a POST's answer with a GET.
  res.writeHead(303, { location: url.href, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

function oauthError(res: ServerResponse, status: number, error: string, description: string) {
  res.setHeader('cache-control', 'no-store');
  sendJson(res, status, { error, error_description: description });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    // A consent page must never sit in another site's frame (clickjacking), nor run scripts.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  res.end(html);
}

