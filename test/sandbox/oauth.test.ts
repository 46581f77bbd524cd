// The sandbox's side of the Authorization Code flow, over real HTTP as a browser and an app's
// server speak it: the consent page, its refusals, the redirect back, the form-encoded exchange
// with RFC 6749 §5.2 errors, and the granted scopes enforced on the API.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { operation } from '../../src/api/operations.js';
import { AUTHORIZE_PATH, TOKEN_PATH } from '../../src/api/oauth.js';
import { useSandbox } from '../helpers.js';

const EXTRA_REDIRECT = 'http://127.0.0.1:45678/callback';
const SECRET = 'the-app-secret-for-tests';

describe('sandbox OAuth: consent page and token exchange', () => {
  const ctx = useSandbox({ oauth: { clientSecret: SECRET, redirectUris: [EXTRA_REDIRECT] } });
  afterEach(() => vi.useRealTimers());

  const authorizeUrl = (params: Record<string, string>) => {
    const url = new URL(AUTHORIZE_PATH, ctx.sandbox.url);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.href;
  };
  const good = (extra: Record<string, string> = {}) => ({
    response_type: 'code',
    client_id: 'sandbox-app',
    redirect_uri: EXTRA_REDIRECT,
    scope: 'orders:read exports:read orders:write',
    state: 'st-123',
    ...extra,
  });

  /** What a person does on the page: load it, keep `keep` of the boxes ticked, press a button. */
  async function answer(params: Record<string, string>, decision: 'approve' | 'deny', keep?: string[]) {
    const page = await fetch(authorizeUrl(params));
    const html = await page.text();
    expect(page.status, html).toBe(200);
    const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
    const offered = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]!);
    const form = new URLSearchParams({ request, decision });
    for (const scope of keep ?? offered) form.append('scope', scope);
    const response = await fetch(authorizeUrl(params), { method: 'POST', body: form, redirect: 'manual' });
    return { response, location: response.headers.get('location') ? new URL(response.headers.get('location')!) : undefined };
  }

  const exchange = (fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') =>
    fetch(new URL(TOKEN_PATH, ctx.sandbox.url), { method: 'POST', headers: { 'content-type': contentType }, body: new URLSearchParams(fields).toString() });
  const exchangeFields = (code: string) => ({ grant_type: 'authorization_code', client_id: 'sandbox-app', client_secret: SECRET, redirect_uri: EXTRA_REDIRECT, code });

  const callApi = (token: string, id: 'exportsTypesRetrieve' | 'ordersFulfillmentOrdersRetrieve' | 'categoriesRetrieve', path: string) =>
    fetch(`${ctx.sandbox.url}/api/admin${path}`, { headers: { authorization: `Bearer ${token}`, 'x-store-api-version': operation(id).version } });

  it('serves a consent page: store, app, scopes in plain words, labelled boxes, no script, never framed', async () => {
    const response = await fetch(authorizeUrl(good()));
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(html).toContain('Northwind Outfitters');
    expect(html).toContain('Northwind Ops Console');
    expect(html).toContain('<span>See orders</span><code>orders:read</code>');
    expect(html).toContain('<span>Change orders</span><code>orders:write</code>');
    expect(html).toContain('<span>See exports</span>');
    for (const index of [0, 1, 2]) expect(html).toContain(`<label for="scope-${index}"><input type="checkbox" id="scope-${index}"`);
    expect(html).toMatch(/<form method="post"/);
    expect(html).toContain('<button type="submit" name="decision" value="approve"');
    expect(html).toContain('<button type="submit" name="decision" value="deny"');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes what the request puts on the page', async () => {
    const html = await (await fetch(authorizeUrl(good({ state: '"><script>alert(1)</script>' })))).text();
    expect(html).not.toContain('<script>');
    const bad = await (await fetch(authorizeUrl(good({ client_id: '<img src=x onerror=alert(1)>' })))).text();
    expect(bad).toContain('&lt;img src=x');
    expect(bad).not.toContain('<img');
  });

  it.each([
    ['an unknown client_id', { client_id: 'other-app' }, 'Unknown app'],
    ['a redirect_uri not registered', { redirect_uri: 'http://127.0.0.1:45679/callback' }, 'Redirect URL not registered'],
    ['a redirect_uri that differs by one character', { redirect_uri: `${EXTRA_REDIRECT}/` }, 'Redirect URL not registered'],
    ['response_type token', { response_type: 'token' }, 'Unsupported response type'],
    ['no response_type', { response_type: '' }, 'Unsupported response type'],
  ])('%s is an error page, never a redirect', async (_name, params, title) => {
    const response = await fetch(authorizeUrl(good(params)), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain(`<h1>${title}</h1>`);
  });

  it('an unknown or missing scope goes back to the app as invalid_scope, with the state', async () => {
    for (const scope of ['orders:read bogus', '']) {
      const response = await fetch(authorizeUrl(good({ scope })), { redirect: 'manual' });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(EXTRA_REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_scope');
      expect(location.searchParams.get('state')).toBe('st-123');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('Approve redirects with store, code and state; the exchange answers the platform fields; the token works', async () => {
    const { response, location } = await answer(good(), 'approve');
    expect(response.status).toBe(303);
    expect(`${location!.origin}${location!.pathname}`).toBe(EXTRA_REDIRECT);
    // The store's platform domain, whatever address the login went through.
    expect(location!.searchParams.get('store')).toBe('shop.northwind-outfitters.example');
    expect(location!.searchParams.get('state')).toBe('st-123');
    const code = location!.searchParams.get('code')!;
    expect(code).toMatch(/^[\w-]{20,}$/);
    const exchanged = await exchange(exchangeFields(code));
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    const body = (await exchanged.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'orders:read exports:read orders:write' });
    expect((await callApi(String(body.access_token), 'exportsTypesRetrieve', '/exports/types/')).status).toBe(200);
    expect((await callApi(String(body.access_token), 'ordersFulfillmentOrdersRetrieve', '/orders/10001/fulfillment-orders/')).status).toBe(200);
  });

  it('a token carries only the scopes left ticked; the API refuses the others with 403', async () => {
    const { location } = await answer(good(), 'approve', ['exports:read']);
    const body = (await (await exchange(exchangeFields(location!.searchParams.get('code')!))).json()) as Record<string, string>;
    expect(body.scope).toBe('exports:read');
    expect((await callApi(body.access_token!, 'exportsTypesRetrieve', '/exports/types/')).status).toBe(200);
    const refused = await callApi(body.access_token!, 'ordersFulfillmentOrdersRetrieve', '/orders/10001/fulfillment-orders/');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  it('Approve with nothing ticked shows the page again; a box the app did not ask for grants nothing', async () => {
    const none = await answer(good(), 'approve', []);
    expect(none.response.status).toBe(400);
    expect(none.location).toBeUndefined();
    expect(await none.response.text()).toContain('Tick at least one permission');
    const tampered = await answer(good(), 'approve', ['orders:read', 'admin:write']);
    expect(tampered.response.status).toBe(400);
    expect(tampered.location).toBeUndefined();
  });

  it('Deny redirects with error=access_denied and the state, and no code', async () => {
    const codes = ctx.sandbox.counters.oauth.codes;
    const { response, location } = await answer(good(), 'deny');
    expect(response.status).toBe(303);
    expect(location!.searchParams.get('error')).toBe('access_denied');
    expect(location!.searchParams.get('state')).toBe('st-123');
    expect(location!.searchParams.get('code')).toBeNull();
    expect(ctx.sandbox.counters.oauth.codes).toBe(codes);
  });

  it('a consent page answers once', async () => {
    const page = await (await fetch(authorizeUrl(good()))).text();
    const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const post = () => fetch(authorizeUrl(good()), { method: 'POST', body: new URLSearchParams({ request, decision: 'deny' }), redirect: 'manual' });
    expect((await post()).status).toBe(303);
    expect((await post()).status).toBe(400);
  });

  it('a code is good once; replaying it also withdraws the token it gave', async () => {
    const { location } = await answer(good(), 'approve');
    const code = location!.searchParams.get('code')!;
    const first = (await (await exchange(exchangeFields(code))).json()) as Record<string, string>;
    const again = await exchange(exchangeFields(code));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await callApi(first.access_token!, 'exportsTypesRetrieve', '/exports/types/')).status).toBe(401);
  });

  it('a code expires after 10 minutes', async () => {
    const { location } = await answer(good(), 'approve');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10 * 60 * 1000 + 1000);
    const late = await exchange(exchangeFields(location!.searchParams.get('code')!));
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({ error: 'invalid_grant', error_description: 'The code has expired.' });
  });

  it('refuses bad exchanges with RFC 6749 errors', async () => {
    const { location } = await answer(good(), 'approve');
    const fields = exchangeFields(location!.searchParams.get('code')!);
    const cases: [Record<string, string>, number, string, string?][] = [
      [{ ...fields, client_secret: 'wrong' }, 401, 'invalid_client'],
      [{ ...fields, client_id: 'other-app' }, 401, 'invalid_client'],
      [{ ...fields, grant_type: 'password' }, 400, 'unsupported_grant_type'],
      [{ ...fields, redirect_uri: 'http://127.0.0.1:8976/callback' }, 400, 'invalid_grant'],
      [{ ...fields, code: 'made-up' }, 400, 'invalid_grant'],
      [{ grant_type: 'authorization_code', client_id: 'sandbox-app', client_secret: SECRET, redirect_uri: EXTRA_REDIRECT }, 400, 'invalid_request'],
      [fields, 400, 'invalid_request', 'application/json'],
    ];
    for (const [body, status, error, contentType] of cases) {
      const response = await exchange(body, contentType);
      expect([response.status, ((await response.json()) as { error: string }).error], JSON.stringify(body)).toEqual([status, error]);
    }
    expect((await exchange(fields)).status).toBe(200);
  });

  it('knows the two default redirect URIs and answers other methods with 405', async () => {
    for (const redirect_uri of ['http://127.0.0.1:8976/callback', 'http://localhost:8976/callback']) {
      expect((await fetch(authorizeUrl(good({ redirect_uri })))).status).toBe(200);
    }
    expect((await fetch(new URL(TOKEN_PATH, ctx.sandbox.url))).status).toBe(405);
  });
});

describe('sandbox OAuth: the default client secret', () => {
  const ctx = useSandbox();

  it('is sandbox-secret', async () => {
    const body = new URLSearchParams({ grant_type: 'authorization_code', client_id: 'sandbox-app', client_secret: 'sandbox-secret', redirect_uri: 'http://127.0.0.1:8976/callback', code: 'x' });
    const response = await fetch(new URL(TOKEN_PATH, ctx.sandbox.url), { method: 'POST', body });
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
