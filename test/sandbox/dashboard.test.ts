// The changes a store's owner makes in the dashboard, which the Admin API has no operation for,
// taken on the sandbox's own routes: a gateway added or changed, the store's details, an app
// uninstalled (its sign-in taken back). Each answers the object as the API shows it and sends its
// event; a bad field, an unknown record or a token that is not the owner's changes nothing.
// Then the sandbox's clock abandoning a cart left alone for a day.
import { describe, expect, it } from 'vitest';
import { AUTHORIZE_PATH, TOKEN_PATH } from '../../src/api/oauth.js';
import { clockNow, isoSeconds } from '../../src/sandbox/clock.js';
import { FULL_TOKEN } from '../helpers.js';
import { WEBHOOK_EVENTS } from '../../src/api/enums.js';
import { useOrderSandbox } from './order-store.js';

const SCOPED = 'token-with-gateways-read';

describe("the dashboard's changes", () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS, sandbox: { scopedTokens: { [SCOPED]: ['gateways:read'] }, oauth: { clientSecret: 'app-secret', redirectUris: ['http://127.0.0.1:45679/callback'] } } });
  const dashboard = async (method: string, path: string, body: unknown = {}, token = FULL_TOKEN) => {
    const response = await fetch(`${s.sandbox.url}/sandbox/${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('adds a gateway, which the API then lists, and changes one', async () => {
    // The seed has gateways 1 to 4 (Stripe, PayPal, Klarna, Adyen): the one added is 5.
    const added = await dashboard('POST', 'gateways/', { name: 'Test Gateway', gateway_type: 'test', currencies: ['USD'], payment_flow: 'auth-capture' });
    expect(added).toMatchObject({ status: 200, body: { event: 'gateway.created', object: { id: 5, name: 'Test Gateway', gateway_type: 'test', active: true, currencies: [{ code: 'USD', label: 'US Dollar' }], payment_flow: 'auth-capture' } } });
    expect((await s.cli('GET', '/gateways/5/')).json).toEqual(added.body.object);
    const changed = await dashboard('PATCH', 'gateways/5/', { active: false, delayed_capture_days: 3 });
    expect(changed.body.object).toMatchObject({ id: 5, active: false, delayed_capture_days: 3 });
    expect(s.events().map((e) => [e.event_type, e.data.id, e.data.active])).toEqual([
      ['gateway.created', 5, true],
      ['gateway.updated', 5, false],
    ]);
  });

  it('refuses a field it has not, a value the reference does not allow, a currency the store does not sell in and a gateway that is not there', async () => {
    expect(await dashboard('POST', 'gateways/', { gateway_type: 'test' })).toMatchObject({ status: 400, body: { name: ['This field is required.'] } });
    expect(await dashboard('POST', 'gateways/', { name: 'X', gateway_type: 'test', delayed_capture_days: 9 })).toMatchObject({ status: 400, body: { delayed_capture_days: ['Ensure this value is less than or equal to 7.'] } });
    expect(await dashboard('POST', 'gateways/', { name: 'X', gateway_type: 'test', currencies: ['GBP'] })).toMatchObject({ status: 400, body: { currencies: ['"GBP" is not one of the store\'s currencies (USD, EUR).'] } });
    expect(await dashboard('PATCH', 'gateways/1/', { api_key: 'sk_live_x' })).toMatchObject({ status: 400, body: { non_field_errors: ['Unknown field: api_key.'] } });
    expect(await dashboard('PATCH', 'gateways/99/', { active: true })).toMatchObject({ status: 404, body: { detail: 'Gateway 99 not found.' } });
    expect(await dashboard('PATCH', 'store/', { timezone: 'Mars/Olympus_Mons' })).toMatchObject({ status: 400, body: { timezone: ['"Mars/Olympus_Mons" is not a valid choice.'] } });
    // Only the store's owner changes its dashboard: a token with scopes is refused.
    expect((await dashboard('POST', 'gateways/', { name: 'X', gateway_type: 'test' }, SCOPED)).status).toBe(403);
    expect(Object.keys(s.store.state.records.gateways)).toEqual(['1', '2', '3', '4']);
    expect(s.events()).toEqual([]);
  });

  it("changes the store's details, and deliveries name the store by its new name", async () => {
    const changed = await dashboard('PATCH', 'store/', { name: 'Northwind Outfitters Co.', timezone: 'America/Denver', contact_address: { city: 'Bend', state: 'OR' } });
    expect(changed.body.object).toMatchObject({ name: 'Northwind Outfitters Co.', timezone: 'America/Denver', contact_address: { city: 'Bend', state: 'OR', line1: '2200 NW Front Avenue' } });
    expect((await s.cli('GET', '/store/')).json[0]).toMatchObject({ name: 'Northwind Outfitters Co.' });
    const [event] = s.events();
    expect(event).toMatchObject({ event_type: 'store.updated', webhook: { store: 'Northwind Outfitters Co.' } });
  });

  it('uninstalls an app: gone from the API, its sign-in taken back, told once', async () => {
    expect((await dashboard('POST', 'apps/loyalty-points/uninstall/')).body).toMatchObject({ event: 'app.uninstalled', object: { client_id: 'loyalty-points', name: 'Trail Points Loyalty' } });
    expect((await s.cli('GET', '/apps/loyalty-points/')).stderr).toContain('Not found.');
    expect((await dashboard('POST', 'apps/loyalty-points/uninstall/')).status).toBe(404);
    expect(s.events().map((e) => [e.event_type, e.data.client_id])).toEqual([['app.uninstalled', 'loyalty-points']]);

    const token = await signInAsTheApp(s.sandbox.url);
    const ask = () => fetch(`${s.sandbox.url}/api/admin/gateways/`, { headers: { authorization: `Bearer ${token}`, 'x-store-api-version': '2024-04-01' } });
    expect((await ask()).status).toBe(200);
    expect((await dashboard('POST', 'apps/sandbox-app/uninstall/')).status).toBe(200);
    expect((await ask()).status).toBe(401);
  });
});

/** The partner app's token, through the Authorization Code flow: consent approved, the code exchanged. */
async function signInAsTheApp(origin: string): Promise<string> {
  const redirect = 'http://127.0.0.1:45679/callback';
  const authorize = new URL(AUTHORIZE_PATH, origin);
  for (const [key, value] of Object.entries({ response_type: 'code', client_id: 'sandbox-app', redirect_uri: redirect, scope: 'gateways:read', state: 's' })) authorize.searchParams.set(key, value);
  const page = await (await fetch(authorize)).text();
  const form = new URLSearchParams({ request: /name="request" value="([^"]+)"/.exec(page)![1]!, decision: 'approve', scope: 'gateways:read' });
  const approved = await fetch(authorize, { method: 'POST', body: form, redirect: 'manual' });
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const fields = { grant_type: 'authorization_code', client_id: 'sandbox-app', client_secret: 'app-secret', redirect_uri: redirect, code };
  const exchanged = await fetch(new URL(TOKEN_PATH, origin), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return ((await exchanged.json()) as { access_token: string }).access_token;
}

describe('carts abandoned on the clock', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });
  const moveClock = async (to: string) => {
    const response = await fetch(`${s.sandbox.url}/sandbox/clock/`, { method: 'POST', headers: { authorization: `Bearer ${FULL_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ to }) });
    return (await response.json()) as { carts: { id: number; at: string }[] };
  };

  it('abandons an open cart a day after its last change, once, with cart.abandoned; a cart turned into an order never', async () => {
    // Cart 8 was opened at 10:00 the day before the seed's moment (09:00), and left alone since.
    expect(s.record('carts', 8)).toMatchObject({ status: 'Open', abandoned: false, created_at: '2026-02-01T10:00:00Z' });
    const moved = await moveClock('2026-02-02T12:00:00Z');
    expect(moved.carts).toEqual([{ id: 8, at: '2026-02-02T10:00:00Z' }]);
    expect((await s.cli('GET', '/carts/8/')).json).toMatchObject({ abandoned: true, status: 'Open' });
    expect(s.events().map((e) => [e.event_type, e.data.id, e.data.abandoned])).toEqual([['cart.abandoned', 8, true]]);
    // The next day passes every open cart's: the submitted ones stay as they are.
    expect((await moveClock('2026-02-04T00:00:00Z')).carts.map((c) => c.id)).toEqual([5, 2]);
    expect(Object.values(s.store.state.records.carts).filter((cart) => cart.status === 'Submitted').every((cart) => cart.abandoned === false)).toBe(true);
    expect((await moveClock('2026-03-01T00:00:00Z')).carts).toEqual([]);
  });

  it('counts a day from a cart’s last change: a cart changed is abandoned a day after that', async () => {
    const changed = await s.cli('PUT', '/carts/8/', { lines: [{ product_id: 2104, quantity: 2 }] });
    expect(changed.code, changed.stderr).toBe(0);
    const now = clockNow(s.store.state);
    expect(s.record('carts', 8)).toMatchObject({ updated_at: isoSeconds(now) });
    expect((await moveClock('2026-02-02T12:00:00Z')).carts).toEqual([]);
    // Carts 5 and 2, left alone, go first.
    expect((await moveClock(isoSeconds(now + 86_400_000 + 1000))).carts).toEqual([
      { id: 5, at: '2026-02-02T19:00:00Z' },
      { id: 2, at: '2026-02-03T04:00:00Z' },
      { id: 8, at: isoSeconds(now + 86_400_000) },
    ]);
  });
});
