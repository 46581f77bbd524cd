// `webhooks trigger EVENT --set path=value`: the object is changed first, through the request a
// user would send, so the delivered payload shows it; a path the object does not have, or a value
// its schema refuses, exits 2 with nothing sent and nothing changed.
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../webhooks/receiver.js';
import { runCli, useConfigDir } from './run.js';

describe('webhooks trigger --set', () => {
  const dir = useConfigDir();
  const cli = (args: string[]) => runCli(['--sandbox', ...args], { env: { STORE_ADMIN_CONFIG_DIR: dir } });

  it('changes the object before the event fires, so the payload shows it', async () => {
    const app = await startReceiver(() => 200);
    const hook = await cli(['webhooks', 'create', '--target', app.url, '--event', 'subscription.updated,order.created,dispute.created,store.updated']);
    expect(hook.code).toBe(0);

    const updated = await cli(['webhooks', 'trigger', 'subscription.updated', '--set', 'shipping_price=9.50', '--set', 'billing_address.line4=Oslo', '--set', 'interval_count=2', '--json']);
    expect(updated.code).toBe(0);
    const [first] = await app.received(1);
    expect(first!.json).toMatchObject({ event_type: 'subscription.updated', data: { id: 1, shipping_price: '9.50', interval_count: 2, billing_address: { line4: 'Oslo' } } });

    // order.created comes from a renewal: --set changes the subscription renewed, and the order is made from it.
    expect((await cli(['webhooks', 'trigger', 'order.created', '--set', 'shipping_price=7.25'])).code).toBe(0);
    const arrived = await app.received(3);
    const order = arrived.find((r) => r.json.event_type === 'order.created')!;
    expect(order.json.data.shipping_incl_tax).toBe('7.25');

    expect((await cli(['webhooks', 'trigger', 'dispute.created', '--set', 'amount=12.00', '--set', 'metadata={"case":"A-7"}'])).code).toBe(0);
    const dispute = (await app.received(5)).find((r) => r.json.event_type === 'dispute.created')!;
    expect(dispute.json.data).toMatchObject({ amount: '12.00', metadata: { case: 'A-7' } });

    // A change the dashboard makes takes --set the same way.
    expect((await cli(['webhooks', 'trigger', 'store.updated', '--set', 'tagline=Warm feet, all year', '--set', 'contact_address.city=Bend'])).code).toBe(0);
    const store = (await app.received(6)).find((r) => r.json.event_type === 'store.updated')!;
    expect(store.json.data).toMatchObject({ name: 'Northwind Outfitters', tagline: 'Warm feet, all year', contact_address: { city: 'Bend', line1: '2200 NW Front Avenue' } });
    await app.close();
  });

  it('an unknown path or a refused value exits 2, sends nothing and changes nothing', async () => {
    const app = await startReceiver(() => 200);
    expect((await cli(['webhooks', 'create', '--target', app.url, '--event', 'subscription.updated'])).code).toBe(0);
    const before = (await cli(['webhooks', 'deliveries', '--limit', '1000', '--json'])).json().length;
    const cases: [string[], string][] = [
      [['subscription.updated', '--set', 'shipping_pric=9'], "--set shipping_pric: subscription.updated's change (subscriptions update) has no field shipping_pric; nothing was sent"],
      [['subscription.updated', '--set', 'billing_address.city=Oslo'], 'has no field billing_address.city'],
      [['subscription.updated', '--set', 'interval_count=abc'], '--set interval_count: must be a number (got "abc"); nothing was sent'],
      [['subscription.updated', '--set', 'status=paused'], '--set status: must be one of: active, past_due, canceled, retrying'],
      [['subscription.updated', '--set', 'shipping_price=9.50', '--set', '=3'], '--set takes path=value'],
      // A note's message is text: a field inside it is refused as text.
      [['order.updated', '--set', 'message.text=hi'], '--set message.text: must be text (got "hi"); nothing was sent'],
      [['app.uninstalled', '--set', 'name=Loyalty'], '--set edits the body of the request that makes the change, and the change behind app.uninstalled takes none'],
      // The dashboard's changes take the fields the dashboard has, limited as the reference limits them.
      [['store.updated', '--set', 'primary_domain=shop.example'], `--set primary_domain: store.updated's change (the dashboard's "change the store's details") has no field primary_domain`],
      [['gateway.updated', '--set', 'delayed_capture_days=9'], '--set delayed_capture_days: '],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['webhooks', 'trigger', ...args]);
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, expect.stringContaining(message)]);
    }
    expect((await cli(['webhooks', 'deliveries', '--limit', '1000', '--json'])).json()).toHaveLength(before);
    expect(app.requests).toHaveLength(0);
    await app.close();
  });
});
