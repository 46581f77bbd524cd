// The sandbox's authorization server as the platform's app guide shows it: the token answer's
// `expires_in` is the guide's figure, the callback names the store by its platform domain, and a
// scope the platform does not have is refused as a real authorization server refuses it.
import { describe, expect, it } from 'vitest';
import { AUTHORIZE_PATH, TOKEN_PATH } from '../../src/api/oauth.js';
import { useSandbox } from '../helpers.js';

const REDIRECT = 'http://127.0.0.1:45679/callback';
const SECRET = 'the-app-secret-for-tests';

describe("the sandbox's authorization server, as the platform's", () => {
  const ctx = useSandbox({ oauth: { clientSecret: SECRET, redirectUris: [REDIRECT] } });
  const authorize = (scope: string) => {
    const url = new URL(AUTHORIZE_PATH, ctx.sandbox.url);
    for (const [key, value] of Object.entries({ response_type: 'code', client_id: 'sandbox-app', redirect_uri: REDIRECT, scope, state: 's-1' })) url.searchParams.set(key, value);
    return url;
  };

  it.each(['orders:reed', 'orders:delete', 'admin:everything', 'webhooks:read nope:read'])('refuses %s with invalid_scope, back to the app', async (scope) => {
    const response = await fetch(authorize(scope), { redirect: 'manual' });
    expect(response.status).toBe(303);
    const back = new URL(response.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('error_description')).toMatch(/^Unknown scope: /);
    expect(back.searchParams.get('state')).toBe('s-1');
  });

  it("names the store by its platform domain and answers the guide's expires_in", async () => {
    const page = await (await fetch(authorize('orders:read admin:read'))).text();
    const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const form = new URLSearchParams({ request, decision: 'approve' });
    for (const scope of ['orders:read', 'admin:read']) form.append('scope', scope);
    const approved = await fetch(authorize('orders:read admin:read'), { method: 'POST', body: form, redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    expect(back.searchParams.get('store')).toBe('shop.northwind-outfitters.example');
    const token = await fetch(new URL(TOKEN_PATH, ctx.sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'sandbox-app', client_secret: SECRET, redirect_uri: REDIRECT, code: back.searchParams.get('code')! }).toString(),
    });
    const answer = (await token.json()) as { expires_in: number; token_type: string; scope: string };
    expect(answer).toMatchObject({ expires_in: 15_778_476_000, token_type: 'Bearer', scope: 'orders:read admin:read' });
  });
});
