// Orders placed and changed through the CLI against the seeded sandbox: a customer found or made,
// lines priced, shipping chosen, paid as the payment method says, a fulfillment order for what
// ships, subscriptions from subscription lines; addresses, attribution, tags and status changed as
// the reference allows. Answers and events are held to the reference by the harness.
import { describe, expect, it } from 'vitest';
import type { Rec } from '../../src/sandbox/kinds.js';
import { sumCents } from '../../src/sandbox/money.js';
import { useOrderSandbox } from './order-store.js';

const address = { first_name: 'John', last_name: 'Doe', line1: '9975 Berkshire Dr.', line4: 'Monsey', postcode: '10952', phone_number: '2025550140', state: 'NY', country: 'US' };

describe('placing orders through the API', () => {
  const s = useOrderSandbox();
  const fulfillmentOrdersOf = (number: string) => Object.values(s.store.state.records.fulfillmentOrders).filter((fo) => fo.order_number === number);

  it("places an order for a customer found by e-mail, at the catalogue's prices, charged to a card token", async () => {
    const placed = await s.cli('POST', '/orders/', {
      user: { email: 'Maya.Lindqvist@example.com' },
      lines: [
        { product_id: 2101, quantity: 2 },
        { product_id: 2108, quantity: 1 },
      ],
      use_default_shipping_address: true,
      billing_same_as_shipping_address: true,
      payment_method: 'card_token',
      payment_details: { card_token: 'tok_nw_maya_4242' },
    });
    expect(placed.code, placed.stderr).toBe(0);
    const order = placed.json;
    expect(order).toMatchObject({ number: '10004', user: { id: 1 }, status: 'open', source: 'admin_api', currency: 'USD', shipping_code: 'standard', payment_status: 'paid', fulfillment_status: 'unfulfilled', total_outstanding: '0.00' });
    expect(order.shipping_address).toMatchObject({ id: 12, line1: '1550 Larimer Street', notes: 'Leave with the front desk concierge.' });
    expect(order.billing_address).toMatchObject({ line1: '1550 Larimer Street' });
    expect(order.billing_address).not.toHaveProperty('notes');
    expect(order.total_incl_tax).toBe(((sumCents(order.lines.map((l: Rec) => l.price_incl_tax)) + 600) / 100).toFixed(2));
    expect(order.transactions).toEqual([expect.objectContaining({ type: 'debit', amount: order.total_incl_tax, payment_method: 'bankcard', payment_details: expect.objectContaining({ card_token: 'tok_nw_maya_4242', gateway: { id: 1, name: 'Stripe', type: 'stripe' } }) })]);
    // Only what ships waits to be fulfilled.
    expect(fulfillmentOrdersOf('10004').map((fo) => [fo.status, (fo.line_items as Rec[]).map((i) => i.order_line_id)])).toEqual([['open', [order.lines[0].id]]]);
    expect(s.events().map((e) => e.event_type)).toEqual(['order.created', 'transaction.created']);
  });

  it('makes a new customer, keeps the addresses given, and records a payment made outside the store', async () => {
    const placed = await s.cli('POST', '/orders/', {
      user: { email: 'johndoe@example.org', first_name: 'John', last_name: 'Doe', accepts_marketing: true },
      lines: [{ product_id: 2104, quantity: 1, price: '5.99' }],
      shipping_code: 'express',
      shipping_price: '5.48',
      shipping_address: address,
      billing_same_as_shipping_address: true,
      payment_method: 'external',
      payment_details: { external_payment_method: 'cash' },
      tags: ['phone-order'],
      attribution: { funnel: 'Funnel Offer V2', agent: 9002 },
    });
    expect(placed.code, placed.stderr).toBe(0);
    const order = placed.json;
    expect(order.user).toMatchObject({ email: 'johndoe@example.org', first_name: 'John' });
    expect(order).toMatchObject({ shipping_code: 'express', shipping_incl_tax: '5.48', tags: ['phone-order'], attribution: { funnel: 'Funnel Offer V2', agent: { id: 9002, first_name: 'Tomas' } } });
    expect(order.lines[0]).toMatchObject({ unit_cost: '5.99', price_incl_tax: '5.99' });
    expect(order.shipping_address).toMatchObject(address);
    expect(order.billing_address.id).not.toBe(order.shipping_address.id);
    expect(order.transactions).toEqual([expect.objectContaining({ is_external: true, payment_method: 'cash', amount: '11.47' })]);
    expect(s.events().map((e) => e.event_type)).toEqual(['customer.created', 'order.created', 'transaction.created']);
  });

  it('leaves an order unpaid without a payment method, or until the customer completes a redirect payment', async () => {
    const unpaid = await s.cli('POST', '/orders/', { user: { id: 2 }, lines: [{ product_id: 2108, quantity: 1 }], use_default_billing_address: true });
    expect(unpaid.code, unpaid.stderr).toBe(0);
    expect(unpaid.json).toMatchObject({ shipping_code: 'no_shipping', payment_status: 'pending', fulfillment_status: 'not_required', transactions: [] });
    // Nothing ships: the billing address stands for the shipping address.
    expect(unpaid.json.billing_address).toMatchObject({ id: 21, line1: '2207 Riverside Drive' });
    expect(unpaid.json.shipping_address).toEqual({ ...unpaid.json.billing_address, id: unpaid.json.shipping_address.id });
    expect(unpaid.json.total_outstanding).toBe(unpaid.json.total_incl_tax);
    expect(fulfillmentOrdersOf(unpaid.json.number).map((fo) => fo.status)).toEqual(['not_required']);
    const redirect = await s.cli('POST', '/orders/', { user: { id: 2 }, lines: [{ product_id: 2108, quantity: 1 }], use_default_billing_address: true, payment_method: 'paypal', payment_details: { payment_return_url: 'https://checkout.example/return' } });
    expect(redirect.json).toMatchObject({ payment_status: 'pending', transactions: [] });
    expect((await s.cli('POST', '/orders/', { user: { id: 2 }, lines: [{ product_id: 2108, quantity: 1 }], use_default_billing_address: true, payment_method: 'paypal', payment_details: {} })).stderr).toContain(
      'payment_details: payment_return_url: Required with paypal: the customer completes the payment there and is sent back to this URL.',
    );
  });

  it("charges a customer's saved card, marks a test card's order as a test, and starts a subscription from a subscription line", async () => {
    const digital = { user: { id: 1 }, lines: [{ product_id: 2108, quantity: 1 }], use_default_billing_address: true };
    const saved = await s.cli('POST', '/orders/', { ...digital, payment_method: 'saved_card' });
    expect(saved.json.transactions[0].payment_details).toMatchObject({ card_token: 'tok_nw_lindqvist_4242', bankcard_last_four: '4242' });
    const test = await s.cli('POST', '/orders/', { ...digital, payment_method: 'card_token', payment_details: { card_token: 'test_card' } });
    expect(test.json).toMatchObject({ is_test: true, transactions: [{ is_test: true }] });
    const subscribed = await s.cli('POST', '/orders/', {
      user: { id: 1 },
      lines: [{ product_id: 2104, quantity: 1, price: '5.99', subscription: { interval: 'day', interval_count: 30, price: '24.99' } }],
      use_default_shipping_address: true,
      billing_same_as_shipping_address: true,
      payment_method: 'card_token',
      payment_details: { card_token: 'tok_visa' },
    });
    expect(subscribed.code, subscribed.stderr).toBe(0);
    const [link] = subscribed.json.subscriptions;
    expect(link).toMatchObject({ billing_cycle: 1 });
    expect(s.record('subscriptions', link.id)).toMatchObject({ status: 'active', interval: 'day', interval_count: 30, user_id: 1, lines: [{ variant_id: 2104, price: '24.99', quantity: 1 }] });
    expect(s.events().filter((e) => e.event_type === 'subscription.created').map((e) => e.data.id)).toEqual([link.id]);
    expect((await s.cli('POST', '/orders/', { user: { id: 1 }, lines: [{ product_id: 2104, quantity: 1, subscription: { interval: 'month', interval_count: 1 } }], use_default_shipping_address: true, use_default_billing_address: true })).stderr).toContain(
      'An order with subscription lines is paid when placed (by card or wallet), so the card is kept for the renewals.',
    );
  });

  it('places an order in the currency its lines name at 2023-02-10', async () => {
    const placed = await s.cli('POST', '/orders/', { user: { id: 2 }, lines: [{ product_id: 2104, quantity: 1, currency: 'EUR' }], use_default_shipping_address: true, billing_same_as_shipping_address: true }, '2023-02-10');
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.json).toMatchObject({ currency: 'EUR', shipping_code: 'standard', shipping_incl_tax: '5.50' });
  });

  it('refuses what it cannot place, making nothing', async () => {
    const before = JSON.stringify(s.store.state.records);
    const refusal = async (body: Rec) => (await s.cli('POST', '/orders/', { user: { id: 1 }, lines: [{ product_id: 2104, quantity: 1 }], use_default_shipping_address: true, billing_same_as_shipping_address: true, ...body })).stderr;
    expect(await refusal({ currency: 'GBP' })).toContain('The store sells in USD and EUR, not "GBP".');
    expect(await refusal({ shipping_code: 'drone' })).toContain('No shipping method has the code "drone"; the store\'s are standard, express, no_shipping.');
    expect(await refusal({ use_default_shipping_address: false })).toContain('An order with items to ship needs a shipping address (or use_default_shipping_address).');
    expect(await refusal({ user: { email: 'someone.new@example.com' } })).toContain('Customer someone.new@example.com has no default shipping address.');
    expect(await refusal({ user: { id: 404 } })).toContain('user: id: Invalid pk "404" - object does not exist.');
    expect(await refusal({ user: undefined })).toContain('user: This field is required.');
    expect(await refusal({ user: { first_name: 'Nameless' } })).toContain("Give the customer's id, or an e-mail to find them by (or to make them with).");
    expect(await refusal({ lines: [] })).toContain('An order needs at least one line.');
    expect(await refusal({ billing_same_as_shipping_address: false })).toContain('An order needs a billing address (or billing_same_as_shipping_address, or use_default_billing_address).');
    expect(await refusal({ payment_method: 'card_token' })).toContain('payment_details: card_token: This field is required.');
    expect(await refusal({ payment_method: 'saved_card', user: { email: 'someone.new@example.com' }, use_default_shipping_address: false, shipping_address: address })).toContain('Customer someone.new@example.com has no saved card to pay with.');
    expect(await refusal({ payment_method: 'card_token', payment_details: { card_token: 't', payment_gateway: 3 } })).toContain('Gateway 3 (Klarna) is not active.');
    expect(JSON.stringify(s.store.state.records)).toBe(before);
  });
});

describe('changing an order', () => {
  const s = useOrderSandbox();

  it('merges a new shipping address into the old one, and the fulfillment order still open ships there', async () => {
    const changed = await s.cli('PATCH', '/orders/9945/', { shipping_address: { line1: '4765 Test Lane West', line4: 'Mountain Pass', state: 'CA', postcode: '92366', country: 'US' } });
    expect(changed.code, changed.stderr).toBe(0);
    const before = s.record('users', changed.json.user.id);
    expect(changed.json.shipping_address).toMatchObject({ line1: '4765 Test Lane West', line4: 'Mountain Pass', first_name: before.first_name });
    expect(s.record('fulfillmentOrders', 406).shipping_address).toEqual(changed.json.shipping_address);
    expect(s.events().map((e) => e.event_type)).toEqual(['order.updated']);
    // With its location, a fulfillment order keeps the address it was sent with.
    const kept = structuredClone(s.record('fulfillmentOrders', 412).shipping_address);
    await s.cli('PATCH', '/orders/9951/', { shipping_address: { line1: '1 New Street' } });
    expect(s.record('fulfillmentOrders', 412).shipping_address).toEqual(kept);
  });

  it('replaces what PUT names, sets tags, metadata, attribution and an archived status', async () => {
    const replaced = await s.cli('PUT', '/orders/9945/', { billing_address: address, tags: ['vip'], metadata: { note: 'called' }, status: 'archived', attribution: { utm_source: 'phone' } });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.json).toMatchObject({ tags: ['vip'], metadata: { note: 'called' }, status: 'archived', attribution: { utm_source: 'phone', agent: { id: 1 } } });
    expect(replaced.json.billing_address).toEqual({ ...address, id: replaced.json.billing_address.id });
  });

  it('refuses a status that cancels or is not a status, and a staff member who does not exist', async () => {
    expect((await s.cli('PATCH', '/orders/9945/', { status: 'canceled' })).stderr).toContain('Cancel an order with POST /orders/9945/cancel/, which voids or refunds its payments.');
    expect((await s.cli('PATCH', '/orders/9945/', { status: 'lost' })).stderr).toContain('"lost" is not a valid choice.');
    expect((await s.cli('PATCH', '/orders/9957/', { status: 'open' })).stderr).toContain('Order 9957 is canceled; its status cannot change.');
    expect((await s.cli('PATCH', '/orders/9945/', { attribution: { agent: 5 } })).stderr).toContain('attribution: agent: Invalid pk "5" - object does not exist.');
    expect((await s.cli('PUT', '/orders/9945/', { shipping_address: { line1: 'Half an address' } })).stderr).toContain('first_name: This field is required.');
    const tags = structuredClone(s.record('orders', '9945').tags);
    expect((await s.cli('PATCH', '/orders/9945/', { tags: ['x'], billing_address: null })).stderr).toContain('An order keeps its address; give the new one instead.');
    expect(s.record('orders', '9945').tags).toEqual(tags);
  });
});
