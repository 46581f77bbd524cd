// The listener an app login waits on, over real HTTP: which callbacks end the wait. A callback
// without a state ends it only where it names the store the login was started at, as the
// platform's callback does (`store`, or `shop`); any other page's `?code=x` is refused and the
// wait goes on.
import { afterEach, describe, expect, it } from 'vitest';
import { listenForCallback, type Callback, type Listener } from '../../src/oauth/loopback.js';

const STATE = 'state-of-this-login';
const STORE_HOST = 'shop.example.com';

describe('the login callback listener', () => {
  let listener: Listener | undefined;
  afterEach(() => listener?.close());

  /** A listener on a free port, with what it refused. */
  async function listen() {
    const refused = { forged: 0, stateless: [] as (string | undefined)[] };
    listener = await listenForCallback(0, {
      state: STATE,
      storeHost: STORE_HOST,
      onForged: () => refused.forged++,
      onStateless: (named) => refused.stateless.push(named),
    });
    let taken: Callback | undefined;
    void listener.callback.then((callback) => (taken = callback));
    const get = (query: string) => fetch(`${listener!.redirectUri}?${query}`);
    return { refused, get, taken: () => taken, listener };
  }

  it('refuses a callback without a state that names no store, or another, and keeps waiting', async () => {
    const { refused, get, taken } = await listen();
    for (const query of ['code=x', 'error=access_denied', 'code=x&store=evil.example', 'code=x&shop=shop.example.com.evil.example']) {
      const answer = await get(query);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(await answer.text()).toContain('the login still waits');
    }
    expect(refused).toEqual({ forged: 0, stateless: [undefined, undefined, 'evil.example', 'shop.example.com.evil.example'] });
    expect(taken()).toBeUndefined();
  });

  it.each(['store', 'shop'])('takes a callback without a state that names this store in %s, so the login can say no state came back', async (param) => {
    const { refused, get, listener } = await listen();
    const answered = get(`code=from-the-store&${param}=SHOP.example.com`);
    const callback = await listener.callback;
    expect(callback.params.get('code')).toBe('from-the-store');
    await callback.answer(400, 'refused');
    expect((await answered).status).toBe(400);
    expect(refused).toEqual({ forged: 0, stateless: [] });
  });

  it("refuses another state whatever store it names, and takes this login's", async () => {
    const { refused, get, listener } = await listen();
    expect((await get(`code=x&state=guessed&store=${STORE_HOST}`)).status).toBe(400);
    expect(refused.forged).toBe(1);
    const answered = get(`code=good&state=${STATE}`);
    const callback = await listener.callback;
    expect(callback.params.get('code')).toBe('good');
    await callback.answer(200, 'ok');
    expect((await answered).status).toBe(200);
  });
});
