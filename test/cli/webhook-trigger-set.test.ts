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
    const hook = await cli(['webhooks', 'create', '--target', app.url, '--event', 'subscription.updated,order.created,dispute.created']);
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
      [['customer.created', '--set', 'email=a@b.example'], 'no request of the API causes customer.created'],
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
