// Subscriptions through the CLI against the seeded sandbox, as the platform's subscription guide
// describes them: lines added, replaced and removed with the total kept right, a past-due renewal
// retried (on another gateway if asked), the partial update's schedule, card, shipping and status,
// cancel and renew; and each refusal. Answers and events are held to the reference by the harness.
import { describe, expect, it } from 'vitest';
import { clockNow } from '../../src/sandbox/clock.js';
import type { Rec } from '../../src/sandbox/kinds.js';
import { WEBHOOK_EVENTS } from '../../src/api/enums.js';
import { useOrderSandbox } from './order-store.js';
import { VERSIONS } from './reference-answers.js';

describe('creating a subscription', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });
  // The guide's example, for a customer of the store found by e-mail.
  const request = {
    lines: [{ product_id: 2104, quantity: 1, price: '19.99' }],
    shipping_code: 'standard',
    shipping_price: '3.99',
    interval: 'day',
    interval_count: 30,
    next_renewal_date: '2026-03-04T08:41:37+07:00',
    user: { email: 'Maya.Lindqvist@example.com', first_name: 'Maya', last_name: 'Lindqvist' },
    use_default_billing_address: true,
    use_default_shipping_address: true,
    payment_method: 'card_token',
    payment_details: { card_token: 'tok_sock_club_renewals' },
  };

  it.each(VERSIONS)('makes it at %s for the customer found by e-mail, with their addresses, the card given and nothing charged', async (version) => {
    const orders = Object.keys(s.store.state.records.orders).length;
    const made = await s.cli('POST', '/subscriptions/', request, version);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ status: 'active', currency: 'USD', interval: 'day', interval_count: 30, frequency: 'Every 30 days', next_renewal_date: '2026-03-04T08:41:37+07:00', shipping_price: '3.99', total: '23.98', num_orders: 0, user: { id: 1 } });
    expect(made.json.shipping_address).toMatchObject({ line1: '1550 Larimer Street', notes: 'Leave with the front desk concierge.' });
    const kept = s.record('subscriptions', made.json.id);
    expect(kept).toMatchObject({ user_id: 1, shipping_code: 'standard', is_test: false, payment_method: 'bankcard', payment_details: { card_token: 'tok_sock_club_renewals', gateway: { id: 1, name: 'Stripe' } } });
    expect((kept.lines as Rec[])[0]).toMatchObject({ variant_id: 2104, price: '19.99', metadata: {} });
    expect(Object.keys(s.store.state.records.orders)).toHaveLength(orders);
    expect(s.events().map((e) => e.event_type)).toEqual(['subscription.created']);
  });

  it('makes a new customer for an e-mail the store does not know, shipping where the request says', async () => {
    const address = { first_name: 'Ines', last_name: 'Moreau', line1: '12 Rue de la République', line4: 'Lyon', postcode: '69002', country: 'FR' };
    const made = await s.cli('POST', '/subscriptions/', {
      ...request,
      currency: 'EUR',
      lines: [{ product_id: 2106, quantity: 2 }],
      shipping_code: null,
      shipping_price: undefined,
      user: { email: 'ines.moreau@example.net', first_name: 'Ines', last_name: 'Moreau' },
      use_default_billing_address: false,
      use_default_shipping_address: false,
      shipping_address: address,
      billing_same_as_shipping_address: true,
      payment_details: { card_token: 'test_card' },
    });
    expect(made.code, made.stderr).toBe(0);
    // Two coffees at the euro price, and the cheapest method that ships them at its price.
    expect(made.json).toMatchObject({ currency: 'EUR', shipping_price: '5.50', total: '36.50', shipping_address: address, billing_address: address, user: { email: 'ines.moreau@example.net' } });
    expect(s.record('subscriptions', made.json.id)).toMatchObject({ is_test: true, shipping_code: 'standard' });
    expect(s.events().map((e) => e.event_type)).toEqual(['customer.created', 'subscription.created']);
  });

  it('refuses what it cannot make, saying what to send instead, and makes nothing', async () => {
    const refusals: [Rec, string][] = [
      [{ lines: [] }, 'A subscription needs at least one line.'],
      [{ currency: 'GBP' }, 'The store sells in USD and EUR, not "GBP".'],
      [{ lines: [{ product_id: 1001, quantity: 1 }] }, '1001 is a product; a line sells one of its variants'],
      [{ shipping_code: 'drone' }, 'No shipping method has the code "drone"'],
      [{ payment_details: {} }, 'card_token: This field is required.'],
      [{ payment_details: { card_token: 'tok_x', payment_gateway: 3 } }, 'Gateway 3 (Klarna) is not active.'],
      [{ user: { email: 'new.person@example.com' } }, 'Customer new.person@example.com has no default shipping address.'],
      [{ use_default_billing_address: false }, 'A subscription needs a billing address (or billing_same_as_shipping_address, or use_default_billing_address).'],
      [{ interval: 'fortnight' }, '"fortnight" is not a valid choice.'],
      [{ next_renewal_date: undefined }, 'next_renewal_date: This field is required.'],
    ];
    const before = Object.keys(s.store.state.records.subscriptions).length;
    for (const [change, message] of refusals) {
      const refused = await s.cli('POST', '/subscriptions/', { ...request, ...change });
      expect([refused.code, refused.stderr], JSON.stringify(change)).toEqual([1, expect.stringContaining(message)]);
    }
    expect(Object.keys(s.store.state.records.subscriptions)).toHaveLength(before);
    expect(s.events()).toEqual([]);
  });

  it('reads whether a variant ships as it is now: one changed to ship nothing needs no shipping address', async () => {
    const shipped = await s.cli('POST', '/subscriptions/', { ...request, use_default_shipping_address: false, billing_same_as_shipping_address: false });
    expect(shipped.stderr).toContain('needs a shipping address');
    expect((await s.cli('PATCH', '/products/variants/2104/', { requires_shipping: false })).code).toBe(0);
    const made = await s.cli('POST', '/subscriptions/', { ...request, shipping_code: null, shipping_price: undefined, use_default_shipping_address: false });
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ shipping_price: '0.00' });
    expect(s.record('subscriptions', made.json.id)).toMatchObject({ shipping_code: 'no_shipping' });
  });
});

describe('subscription lines', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it.each(VERSIONS)('adds a variant at its price in the subscription currency, at %s, and the total follows', async (version) => {
    const added = await s.cli('POST', '/subscriptions/1/lines/', { product_id: 2106, quantity: 2 }, version);
    expect(added.code, added.stderr).toBe(0);
    expect(added.json).toMatchObject({ id: expect.any(Number), price: '16.80', quantity: 2 });
    // Socks 24.00, two coffees 33.60 and the box's shipping 4.80.
    expect(s.record('subscriptions', 1)).toMatchObject({ total: '62.40' });
    expect((s.record('subscriptions', 1).lines as Rec[]).at(-1)).toMatchObject({ product_id: 1006, variant_id: 2106, sku: 'NWO-COF-WB-12', metadata: {} });
    expect(s.events().map((e) => [e.event_type, e.data.total])).toEqual([['subscription.updated', '62.40']]);
  });

  it('adds a line at the price it is given, in a euro subscription at its euro price', async () => {
    expect((await s.cli('POST', '/subscriptions/1/lines/', { product_id: 2105, quantity: 1, price: '9.9', metadata: { gift: true } })).json).toMatchObject({ price: '9.90', metadata: { gift: true } });
    expect(s.record('subscriptions', 1)).toMatchObject({ total: '38.70' });
    expect((await s.cli('POST', '/subscriptions/6/lines/', { product_id: 2104, quantity: 1 })).json).toMatchObject({ price: '22.10' });
  });

  it('refuses a parent product, an unknown one, and a negative quantity', async () => {
    const parent = await s.cli('POST', '/subscriptions/1/lines/', { product_id: 1001, quantity: 1 });
    expect([parent.code, parent.stderr]).toEqual([1, expect.stringContaining('1001 is a product; a line sells one of its variants (2101, 2109, 2110).')]);
    expect((await s.cli('POST', '/subscriptions/1/lines/', { product_id: 999999, quantity: 1 })).stderr).toContain('Invalid pk "999999" - object does not exist.');
    expect((await s.cli('POST', '/subscriptions/1/lines/', { product_id: 2106, quantity: 0 })).stderr).toContain('Ensure this value is greater than or equal to 1.');
    expect((await s.cli('PUT', '/subscriptions/1/lines/701/', { quantity: -1 })).stderr).toContain('Ensure this value is greater than or equal to 0.');
    expect((await s.cli('POST', '/subscriptions/424242/lines/', { product_id: 2106, quantity: 1 })).stderr).toContain('Not found.');
    expect(s.record('subscriptions', 1)).toMatchObject({ total: '28.80' });
    expect(s.events()).toEqual([]);
  });

  it.each(VERSIONS)('replaces a line’s quantity and price at %s, keeping what it does not name', async (version) => {
    const changed = await s.cli('PUT', '/subscriptions/2/lines/702/', { quantity: 3, price: '15.00' }, version);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.json).toMatchObject({ id: 702, quantity: 3, price: '15.00' });
    // Three coffees at 15.00, the espresso 19.20 and shipping 6.00.
    expect(s.record('subscriptions', 2)).toMatchObject({ total: '70.20' });
    expect((s.record('subscriptions', 2).lines as Rec[])[0]).toMatchObject({ metadata: { source: 'subscription_checkout' } });
    expect((await s.cli('PUT', '/subscriptions/2/lines/701/', { quantity: 1 })).stderr).toContain('Not found.');
  });

  it('removes a line, never the last', async () => {
    const removed = await s.cli('DELETE', '/subscriptions/2/lines/703/');
    expect(removed.code, removed.stderr).toBe(0);
    expect(s.record('subscriptions', 2)).toMatchObject({ total: '39.60' });
    expect((s.record('subscriptions', 2).lines as Rec[]).map((line) => line.id)).toEqual([702]);
    const last = await s.cli('DELETE', '/subscriptions/2/lines/702/');
    expect([last.code, last.stderr]).toEqual([1, expect.stringContaining('A subscription must keep at least one line; cancel subscription 2 instead')]);
    expect(s.events().map((e) => e.event_type)).toEqual(['subscription.updated']);
  });
});

describe('retrying a past-due renewal', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it.each(VERSIONS)('charges the renewal again at %s: an order for the missed cycle, the subscription active again, renewing from today', async (version) => {
    const before = s.record('subscriptions', 2);
    const now = clockNow(s.store.state);
    const retried = await s.cli('POST', '/subscriptions/2/retry/', {}, version);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.json).toMatchObject({ id: 2, status: 'active', num_orders: 2 });
    const renews = Date.parse(retried.json.next_renewal_date);
    // Two weeks from the retry (to the second the answer gives).
    expect(Math.abs(renews - now - 14 * 86_400_000)).toBeLessThan(60_000);
    const { order_number, billing_cycle } = retried.json.orders.at(-1);
    // The cycle whose charge failed is the one paid now.
    expect(billing_cycle).toBe(2);
    const order = s.record('orders', order_number);
    expect(order).toMatchObject({ total_incl_tax: before.total, payment_status: 'paid', subscriptions: [{ id: 2, billing_cycle: 2 }] });
    const paid = Object.values(s.store.state.records.transactions).filter((t) => t.order === order_number);
    expect(paid.map((t) => [t.type, t.status, t.amount])).toEqual([['debit', 'succeeded', before.total]]);
    expect(s.events().map((e) => e.event_type)).toEqual(['order.created', 'transaction.created', 'subscription.updated']);
  });

  it('charges it through another gateway when asked, which the subscription keeps', async () => {
    const retried = await s.cli('POST', '/subscriptions/6/retry/', { payment_gateway: 2 });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.json.payment_details.gateway).toEqual({ id: 2, name: 'PayPal', type: 'paypal' });
    const charge = s.events().find((e) => e.event_type === 'transaction.created')!;
    expect(charge.data).toMatchObject({ status: 'succeeded', payment_details: { gateway: { id: 2 } } });
  });

  it('refuses a gateway that is off, unknown or does not take the currency, changing nothing', async () => {
    expect((await s.cli('POST', '/subscriptions/2/retry/', { payment_gateway: 3 })).stderr).toContain('Gateway 3 (Klarna) is not active.');
    expect((await s.cli('POST', '/subscriptions/2/retry/', { payment_gateway: 77 })).stderr).toContain('Invalid pk "77" - object does not exist.');
    // Subscription 6 pays through Klarna, switched off since: its renewal is retried elsewhere or not at all.
    expect((await s.cli('POST', '/subscriptions/6/retry/', {})).stderr).toContain('Subscription 6 pays through gateway 3 (Klarna), which is not active: retry it on another (payment_gateway).');
    expect(s.record('subscriptions', 2)).toMatchObject({ status: 'past_due' });
    expect(s.record('subscriptions', 6)).toMatchObject({ status: 'past_due' });
    expect(s.events()).toEqual([]);
  });

  it('retries only a past-due subscription, saying what to do with the others', async () => {
    const refusals: [number, string][] = [
      [1, 'Subscription 1 is active: its renewals are paid; to renew now, POST /subscriptions/{id}/renew/'],
      [3, 'Subscription 3 is canceled: it has no renewal due'],
      [4, 'Subscription 4 is retrying its payment on the store’s own schedule'],
      [9, 'Subscription 9 is paused: it has no renewal due'],
    ];
    for (const [id, message] of refusals) {
      const refused = await s.cli('POST', `/subscriptions/${id}/retry/`, {});
      expect([refused.code, refused.stderr], String(id)).toEqual([1, expect.stringContaining(message)]);
    }
    expect((await s.cli('POST', '/subscriptions/2/renew/')).stderr).toContain('Subscription 2 is past_due: its payment is retried (POST /subscriptions/{id}/retry/), not renewed.');
  });
});

describe('changing a subscription in part', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it.each(VERSIONS)('changes its schedule at %s, and says so in words', async (version) => {
    const changed = await s.cli('PATCH', '/subscriptions/1/', { interval: 'week', interval_count: 2, next_renewal_date: '2026-08-17T10:09:01-04:00' }, version);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.json).toMatchObject({ interval: 'week', interval_count: 2, frequency: 'Every 2 weeks', next_renewal_date: '2026-08-17T10:09:01-04:00' });
  });

  it('moves its card to another gateway, or takes a new card', async () => {
    expect((await s.cli('PATCH', '/subscriptions/1/', { payment_details: { payment_gateway: 2 } })).json.payment_details).toMatchObject({ card_token: 'tok_nw_lindqvist_4242', gateway: { id: 2, name: 'PayPal' } });
    expect((await s.cli('PATCH', '/subscriptions/1/', { payment_details: { card_token: 'tok_new_card' } })).json.payment_details).toMatchObject({ card_token: 'tok_new_card', bankcard_last_four: null, gateway: { id: 2 } });
    expect((await s.cli('PATCH', '/subscriptions/1/', { payment_details: { payment_gateway: 3 } })).stderr).toContain('Gateway 3 (Klarna) is not active.');
    // The reference takes a null card, and every answer has one: null changes nothing.
    const kept = await s.cli('PATCH', '/subscriptions/1/', { payment_details: null });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.json.payment_details).toMatchObject({ card_token: 'tok_new_card', gateway: { id: 2 } });
  });

  it('ships by a method of the store, at its price when none is given', async () => {
    expect((await s.cli('PATCH', '/subscriptions/1/', { shipping_code: 'express', shipping_price: null })).json).toMatchObject({ shipping_code: 'express', shipping_price: '14.40', total: '38.40' });
    expect((await s.cli('PATCH', '/subscriptions/1/', { shipping_code: null, shipping_price: '.5' })).json).toMatchObject({ shipping_code: 'standard', shipping_price: '0.50' });
    expect((await s.cli('PATCH', '/subscriptions/1/', { shipping_code: 'drone' })).stderr).toContain('No shipping method has the code "drone"; the store\'s are standard, express, no_shipping.');
  });

  it('keeps its addresses, attribution and agent whole', async () => {
    // The guide's new billing address: what it leaves out (the phone) stays.
    const billing = { first_name: 'Maya', last_name: 'Lindqvist', line1: '2100 Pearl Street', line4: 'Boulder', state: 'CO', postcode: '80302', country: 'US' };
    const changed = await s.cli('PATCH', '/subscriptions/1/', { billing_address: billing, attribution: { utm_source: 'podcast', agent: 9002 } });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.json.billing_address).toMatchObject({ ...billing, phone_number: '+1 303 555 0148' });
    expect(changed.json.attribution).toMatchObject({ utm_source: 'podcast', utm_campaign: 'sock-club', agent: { id: 9002, first_name: 'Tomas' } });
    expect((await s.cli('PATCH', '/subscriptions/1/', { attribution: { agent: 5 } })).stderr).toContain('Invalid pk "5" - object does not exist.');
    // The reference takes a null address, and the subscription's events carry it as an object: null changes nothing.
    const kept = await s.cli('PATCH', '/subscriptions/1/', { shipping_address: null, billing_address: null });
    expect(kept.code, kept.stderr).toBe(0);
    expect([kept.json.billing_address, kept.json.shipping_address]).toEqual([changed.json.billing_address, changed.json.shipping_address]);
  });

  it('cancels by status, and makes active again only with a date to renew on', async () => {
    expect((await s.cli('PATCH', '/subscriptions/1/', { status: 'canceled' })).json).toMatchObject({ status: 'canceled', next_renewal_date: null });
    const dateless = await s.cli('PATCH', '/subscriptions/9/', { status: 'active' });
    expect([dateless.code, dateless.stderr]).toEqual([1, expect.stringContaining('Subscription 9 has no renewal date: send next_renewal_date with status active.')]);
    expect((await s.cli('PATCH', '/subscriptions/9/', { status: 'active', next_renewal_date: '2026-03-01T09:00:00Z' })).json).toMatchObject({ status: 'active', next_renewal_date: '2026-03-01T09:00:00Z' });
    // Pausing is not a status the reference lets a request set.
    expect((await s.cli('PATCH', '/subscriptions/10/', { status: 'paused' })).stderr).toContain('"paused" is not a valid choice.');
    expect(s.events().map((e) => [e.data.id, e.data.status])).toEqual([
      [1, 'canceled'],
      [9, 'active'],
    ]);
  });
});

describe('canceling and renewing', () => {
  const s = useOrderSandbox({ events: WEBHOOK_EVENTS });

  it('cancels once, without notifying the customer if asked', async () => {
    const canceled = await s.cli('POST', '/subscriptions/5/cancel/', { cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad', send_cancel_notification: false });
    expect(canceled.json).toMatchObject({ status: 'canceled', cancel_reason: 'other', cancel_reason_other_message: 'Moving abroad', next_renewal_date: null });
    expect((await s.cli('POST', '/subscriptions/5/cancel/', { cancel_reason: 'other' })).stderr).toContain('Subscription 5 is already canceled.');
    expect((await s.cli('POST', '/subscriptions/5/renew/')).stderr).toContain('Subscription 5 is canceled and cannot be renewed.');
  });

  it('lists the payments of a subscription: the paid cycle and the failed renewal', async () => {
    const listed = await s.cli('GET', '/subscriptions/2/transactions/');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json.results.map((t: Rec) => [t.id, t.status, (t.subscription as Rec).billing_cycle])).toEqual([
      [508, 'failed', 2],
      [505, 'succeeded', 1],
    ]);
  });
});
